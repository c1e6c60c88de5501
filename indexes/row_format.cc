#include "indexes/row_format.h"

#include <algorithm>
#include <cassert>

namespace levelql::rows {
namespace {

void PutVarint32(uint32_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint32(std::string_view* in, uint32_t* v) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && !in->empty(); shift += 7) {
    uint8_t byte = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    result |= static_cast<uint32_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

// Whether a column's value lives in the row value (rather than only the key).
bool StoredInValue(const TableSchema& table, int column) {
  if (!table.IsPrimaryKeyColumn(column)) return true;
  const ColumnSchema& c = table.columns[column];
  return c.type == Type::kText && c.collation && !c.collation->is_binary();
}

}  // namespace

std::string IdPrefix(int64_t id) {
  std::string out;
  keys::EncodeValue(Value::Int(id), keys::Direction::kAsc, &out);
  return out;
}

void EncodeKeyComponent(const ColumnSchema& column, const Value& value,
                        keys::Direction direction, std::string* out) {
  EncodeKeyComponent(column.type, column.collation, value, direction, out);
}

void EncodeKeyComponent(Type type, const Collation* collation,
                        const Value& value, keys::Direction direction,
                        std::string* out) {
  if (value.type() == Type::kText && type == Type::kText && collation &&
      !collation->is_binary()) {
    std::string sort_key;
    collation->SortKey(value.text(), &sort_key);
    keys::EncodeValue(Value::Blob(std::move(sort_key)), direction, out);
    return;
  }
  keys::EncodeValue(value, direction, out);
}

void EncodeKeyColumn(const TableSchema& table, const KeyColumn& key,
                     const Value& value, std::string* out) {
  const Collation* collation =
      key.collation ? key.collation : table.columns[key.column].collation;
  if (value.type() == Type::kText && collation && !collation->is_binary()) {
    std::string sort_key;
    collation->SortKey(value.text(), &sort_key);
    keys::EncodeValue(Value::Blob(std::move(sort_key)), key.direction, out);
    return;
  }
  keys::EncodeValue(value, key.direction, out);
}

bool KeepsOriginalText(const TableSchema& table, const KeyColumn& key) {
  const ColumnSchema& column = table.columns[key.column];
  const Collation* collation = key.collation ? key.collation : column.collation;
  return column.type == Type::kText && !column.is_list && collation &&
         !collation->is_binary();
}

std::string PrimaryKeyBytes(const TableSchema& table, const Row& row) {
  std::string out;
  for (const KeyColumn& k : table.primary_key) {
    EncodeKeyColumn(table, k, row[k.column], &out);
  }
  return out;
}

std::string RowKey(const TableSchema& table, const Row& row) {
  std::string out = IdPrefix(table.id);
  out += PrimaryKeyBytes(table, row);
  return out;
}

std::string RowValue(const TableSchema& table, const Row& row) {
  std::string out(1, kRowFormatV1);
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (StoredInValue(table, static_cast<int>(i))) {
      keys::EncodeValue(row[i], keys::Direction::kAsc, &out);
    }
  }
  return out;
}

namespace {

// DecodeRow's walk: decodes column c when wanted(c), else skips it. A
// primary-key column stored in the value (a collated text key) is read
// from there; its key form is only the collation key.
template <typename Wanted>
Status DecodeRowWith(const TableSchema& table, std::string_view key,
                     std::string_view value, Wanted wanted, Row* row) {
  if (row->size() != table.columns.size()) {
    row->assign(table.columns.size(), Value());
  }
  LQ_RETURN_IF_ERROR(keys::SkipComponent(&key, keys::Direction::kAsc));
  for (const KeyColumn& k : table.primary_key) {
    if (wanted(k.column) && !StoredInValue(table, k.column)) {
      LQ_RETURN_IF_ERROR(
          keys::DecodeValue(&key, k.direction, &(*row)[k.column]));
    } else {
      LQ_RETURN_IF_ERROR(keys::SkipComponent(&key, k.direction));
    }
  }
  if (!key.empty()) return Status::Corruption("trailing bytes in row key");
  if (value.empty() || value[0] != kRowFormatV1) {
    return Status::Corruption("unknown row format in table " + table.name);
  }
  value.remove_prefix(1);
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const int c = static_cast<int>(i);
    if (!StoredInValue(table, c)) continue;
    if (value.empty()) {
      // A row written before ALTER TABLE ADD COLUMN added this column (and
      // any after it): it reads as the column's DEFAULT.
      if (wanted(c)) (*row)[i] = table.columns[i].default_value;
      continue;
    }
    if (wanted(c)) {
      LQ_RETURN_IF_ERROR(
          keys::DecodeValue(&value, keys::Direction::kAsc, &(*row)[i]));
    } else {
      LQ_RETURN_IF_ERROR(keys::SkipComponent(&value, keys::Direction::kAsc));
    }
  }
  if (!value.empty()) return Status::Corruption("trailing bytes in row value");
  return Status::OK();
}

}  // namespace

// Every column is written (from the key or the value), so a row of the
// right width keeps its values' buffers.
Status DecodeRow(const TableSchema& table, std::string_view key,
                 std::string_view value, Row* row) {
  return DecodeRowWith(
      table, key, value, [](int) { return true; }, row);
}

Status DecodeRowColumns(const TableSchema& table, std::string_view key,
                        std::string_view value, const std::vector<char>& wanted,
                        Row* row) {
  if (wanted.empty()) return DecodeRow(table, key, value, row);
  return DecodeRowWith(
      table, key, value, [&](int c) { return wanted[c] != 0; }, row);
}

std::vector<char> DecodeMaskFor(const TableSchema& table,
                                const std::set<int>& columns) {
  if (columns.size() == table.columns.size()) return {};  // all of them
  std::vector<char> wanted(table.columns.size(), 0);
  for (int c : columns) wanted[c] = 1;
  return wanted;
}

void IndexEntriesForRow(const TableSchema& table, const IndexSchema& index,
                        const Row& row, std::vector<IndexEntry>* out) {
  // Key components per index column; a multi-valued column contributes one
  // alternative per distinct element, and the entries are their product.
  std::vector<std::vector<std::string>> alternatives;
  alternatives.reserve(index.columns.size());
  for (const KeyColumn& k : index.columns) {
    const ColumnSchema& column = table.columns[k.column];
    const Value& v = row[k.column];
    std::vector<std::string> parts;
    if (column.is_list) {
      if (v.type() == Type::kList) {
        for (const Value& element : v.list()) {
          std::string part;
          EncodeKeyColumn(table, k, element, &part);
          parts.push_back(std::move(part));
        }
        std::sort(parts.begin(), parts.end());
        parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
      }
      if (parts.empty()) {
        std::string part;
        keys::EncodeValue(Value(), k.direction, &part);
        parts.push_back(std::move(part));
      }
    } else {
      std::string part;
      EncodeKeyColumn(table, k, v, &part);
      parts.push_back(std::move(part));
    }
    alternatives.push_back(std::move(parts));
  }

  const std::string pk = PrimaryKeyBytes(table, row);
  // The value's tail: INCLUDE columns, then the original text of every
  // scalar column keyed by a collation key (so it is read index-only).
  std::string include;
  for (int c : index.include) {
    keys::EncodeValue(row[c], keys::Direction::kAsc, &include);
  }
  for (const KeyColumn& k : index.columns) {
    if (KeepsOriginalText(table, k)) {
      keys::EncodeValue(row[k.column], keys::Direction::kAsc, &include);
    }
  }

  std::vector<size_t> pos(alternatives.size(), 0);
  const std::string prefix = IdPrefix(index.id);
  while (true) {
    IndexEntry entry;
    entry.key = prefix;
    for (size_t i = 0; i < alternatives.size(); ++i) {
      entry.key += alternatives[i][pos[i]];
    }
    // The layout of THIS entry, by the same function every reader uses. The
    // components were just encoded, so they decode.
    EntryLayout layout = EntryLayout::kPkInKey;
    [[maybe_unused]] Status s = EntryLayoutOf(index, entry.key, &layout);
    assert(s.ok());
    if (layout == EntryLayout::kPkInValue) {
      entry.unique_key = true;
      PutVarint32(static_cast<uint32_t>(pk.size()), &entry.value);
      entry.value += pk;
    } else {
      entry.key += pk;
    }
    entry.value += include;
    out->push_back(std::move(entry));
    // Next combination (odometer order).
    size_t i = alternatives.size();
    while (i > 0) {
      --i;
      if (++pos[i] < alternatives[i].size()) break;
      pos[i] = 0;
      if (i == 0) return;
    }
    if (alternatives.empty()) return;
  }
}

namespace {

// Skips each indexed component (WalkIndexedComponents).
auto SkipEach(const IndexSchema& index) {
  return [&index](size_t i, std::string_view* in, bool* is_null) {
    return keys::SkipComponent(in, index.columns[i].direction, is_null);
  };
}

}  // namespace

Status EntryLayoutOf(const IndexSchema& index, std::string_view key,
                     EntryLayout* layout, size_t* indexed_end) {
  size_t id_end = 0, end = 0;
  bool has_null = false;
  LQ_RETURN_IF_ERROR(WalkIndexedComponents(index, key, SkipEach(index), &id_end,
                                           &end, &has_null));
  *layout = LayoutOf(index, has_null);
  if (indexed_end != nullptr) *indexed_end = end;
  return Status::OK();
}

Status ParseIndexEntry(const IndexSchema& index, std::string_view key,
                       std::string_view value, EntryParts* parts) {
  size_t id_end = 0, end = 0;
  bool has_null = false;
  LQ_RETURN_IF_ERROR(WalkIndexedComponents(index, key, SkipEach(index), &id_end,
                                           &end, &has_null));
  return CutIndexEntry(index, key, value, id_end, end, has_null, parts);
}

Status CutIndexEntry(const IndexSchema& index, std::string_view key,
                     std::string_view value, size_t id_end, size_t indexed_end,
                     bool has_null, EntryParts* parts) {
  parts->layout = LayoutOf(index, has_null);
  parts->indexed = key.substr(id_end, indexed_end - id_end);
  std::string_view rest = key.substr(indexed_end);
  if (parts->layout == EntryLayout::kPkInKey) {
    if (rest.empty()) {
      return Status::Corruption("index entry of " + index.name +
                                " has no primary key after a NULL component");
    }
    parts->pk = rest;
    parts->include = value;
    return Status::OK();
  }
  if (!rest.empty()) {
    return Status::Corruption("UNIQUE index entry of " + index.name +
                              " has bytes after its indexed components");
  }
  uint32_t len = 0;
  if (!GetVarint32(&value, &len) || len == 0 || value.size() < len) {
    return Status::Corruption("bad primary key in unique index entry of " +
                              index.name);
  }
  parts->pk = value.substr(0, len);
  parts->include = value.substr(len);
  return Status::OK();
}

Status DecodeIndexKey(const IndexSchema& index, std::string_view key,
                      std::vector<Value>* values) {
  values->clear();
  Value v;
  LQ_RETURN_IF_ERROR(keys::DecodeValue(&key, keys::Direction::kAsc, &v));
  for (const KeyColumn& k : index.columns) {
    LQ_RETURN_IF_ERROR(keys::DecodeValue(&key, k.direction, &v));
    values->push_back(std::move(v));
  }
  return Status::OK();
}

Status PrimaryKeyOfEntry(const TableSchema& table, const IndexSchema& index,
                         std::string_view key, std::string_view value,
                         std::string* pk_bytes) {
  (void)table;
  EntryParts parts;
  LQ_RETURN_IF_ERROR(ParseIndexEntry(index, key, value, &parts));
  pk_bytes->assign(parts.pk.data(), parts.pk.size());
  return Status::OK();
}

}  // namespace levelql::rows
