// CHECK reads entries the way KEY_FORMAT.md describes them, not the way the
// writer makes them: it uses the codec and DecodeRow, never
// IndexEntriesForRow, EntryLayoutOf or ParseIndexEntry, so a writer bug (or
// a reader/writer disagreement) shows up as entries that do not match their
// rows.
//
// Per index, in key order, every entry is parsed from its bytes (index
// components, layout, primary key, INCLUDE values), its row is read by
// primary key from the same snapshot, and the row must own the entry.
// Entries are verified in batches of at most kVerifyBatchBytes sorted by
// primary key, so their rows are read in forward sweeps rather than one
// random read each. Entries that pass are counted; the rows are walked once
// to count the entries they should own (the product, over the index
// columns, of the number of distinct key forms: one for a scalar, one per
// distinct element of a list, one NULL for an empty or NULL list). Only
// when the counts differ are the rows walked again, looking up each
// expected entry, to name the missing ones and the rows that share a UNIQUE
// key. Memory does not grow with the table.
#include "engine/storage/check.h"

#include <algorithm>

#include "indexes/row_format.h"
#include "indexes/salt.h"

namespace levelql {
namespace {

constexpr size_t kMaxProblems = 10;
// Entries verified together, sorted by primary key (see VerifyEntries).
constexpr size_t kVerifyBatchBytes = 32 << 20;
// Rows stepped over with Next before a batch's sweep Seeks instead.
constexpr int kStepsBeforeSeek = 16;

using Components = std::vector<Value>;

bool HasPrefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// LevelDB's varint32 (KEY_FORMAT.md, "UNIQUE index entries").
bool ReadVarint32(std::string_view* in, uint32_t* v) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && !in->empty(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    result |= static_cast<uint32_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

// KEY_FORMAT.md, "Key form of TEXT": the value an index or primary-key
// column holds for `v`.
Value KeyForm(const TableSchema& table, const KeyColumn& k, const Value& v) {
  const Collation* c =
      k.collation ? k.collation : table.columns[k.column].collation;
  if (v.type() != Type::kText || c == nullptr || c->is_binary()) return v;
  std::string sort_key;
  c->SortKey(v.text(), &sort_key);
  return Value::Blob(std::move(sort_key));
}

// The key forms an index column of `row` can take in its entries: the value,
// or the distinct elements of a list (a NULL for an empty or NULL list).
Components KeyForms(const TableSchema& table, const KeyColumn& k,
                    const Row& row) {
  const Value& v = row[k.column];
  if (!table.columns[k.column].is_list) return {KeyForm(table, k, v)};
  std::vector<std::pair<std::string, Value>> forms;
  if (v.type() == Type::kList) {
    for (const Value& element : v.list()) {
      Value form = KeyForm(table, k, element);
      std::string bytes;
      keys::EncodeValue(form, keys::Direction::kAsc, &bytes);
      forms.emplace_back(std::move(bytes), std::move(form));
    }
  }
  std::sort(forms.begin(), forms.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  forms.erase(std::unique(forms.begin(), forms.end(),
                          [](const auto& a, const auto& b) {
                            return a.first == b.first;
                          }),
              forms.end());
  Components out;
  for (auto& f : forms) out.push_back(std::move(f.second));
  if (out.empty()) out.push_back(Value());
  return out;
}

// The layout rule (KEY_FORMAT.md, "UNIQUE index entries", v2): the primary
// key is in the value iff the index is UNIQUE and none of the entry's own
// components is NULL.
bool PkInValueByRule(const IndexSchema& index, const Components& components) {
  if (!index.unique) return false;
  return std::none_of(components.begin(), components.end(),
                      [](const Value& v) { return v.is_null(); });
}

// An index entry as its bytes say, before looking at any row.
struct ParsedEntry {
  Components components;
  bool pk_in_value = false;  // the layout the bytes have
  std::string_view pk;  // primary-key components (no table id), in the input
  Components include;
};

// Parses an entry by the spec. The layout is read from the bytes (a key
// that ends after its components keeps the pk in the value); whether it is
// the right one is the caller's question. False with *why when undecodable.
bool ParseEntry(const TableSchema& table, const IndexSchema& index,
                std::string_view key, std::string_view value, ParsedEntry* e,
                std::string* why) {
  int64_t id = 0;
  if (!keys::DecodeInt64(&key, keys::Direction::kAsc, &id).ok() ||
      id != index.id) {
    *why = "not an entry of this index";
    return false;
  }
  e->components.clear();
  for (const KeyColumn& k : index.columns) {
    Value v;
    Status s = keys::DecodeValue(&key, k.direction, &v);
    if (!s.ok()) {
      *why = "undecodable key: " + s.message();
      return false;
    }
    e->components.push_back(std::move(v));
  }
  e->pk_in_value = key.empty();
  std::string_view pk = key;
  if (e->pk_in_value) {
    uint32_t len = 0;
    if (!ReadVarint32(&value, &len) || value.size() < len) {
      *why = "no primary key in the key or the value";
      return false;
    }
    pk = value.substr(0, len);
    value.remove_prefix(len);
  }
  e->pk = pk;
  for (const KeyColumn& k : table.primary_key) {
    Value v;
    if (!keys::DecodeValue(&pk, k.direction, &v).ok()) {
      *why = "undecodable primary key";
      return false;
    }
  }
  if (!pk.empty()) {
    *why = "bytes after the primary key";
    return false;
  }
  // The value's tail: INCLUDE columns, then the original text of each
  // scalar TEXT key column keyed by a non-binary collation.
  e->include.clear();
  size_t tail = index.include.size();
  for (const KeyColumn& k : index.columns) {
    const ColumnSchema& c = table.columns[k.column];
    const Collation* coll = k.collation ? k.collation : c.collation;
    if (c.type == Type::kText && !c.is_list && coll && !coll->is_binary()) {
      ++tail;
    }
  }
  for (size_t i = 0; i < tail; ++i) {
    Value v;
    if (!keys::DecodeValue(&value, keys::Direction::kAsc, &v).ok()) {
      *why = "undecodable INCLUDE values or original texts";
      return false;
    }
    e->include.push_back(std::move(v));
  }
  if (!value.empty()) {
    *why = "bytes after the INCLUDE values and original texts";
    return false;
  }
  return true;
}

// Empty when `row` owns the entry `e`; else why it does not.
std::string WhyNotOwned(const TableSchema& table, const IndexSchema& index,
                        const ParsedEntry& e, const Row& row) {
  for (size_t i = 0; i < index.columns.size(); ++i) {
    const KeyColumn& k = index.columns[i];
    const Components forms = KeyForms(table, k, row);
    if (std::find(forms.begin(), forms.end(), e.components[i]) != forms.end()) {
      continue;
    }
    const ColumnSchema& column = table.columns[k.column];
    const Value& value = row[k.column];
    std::string row_has = value.ToSqlLiteral();
    if (!column.is_list && !(forms[0] == value)) {
      row_has = forms[0].ToSqlLiteral() + " (the key form of " + row_has + ")";
    }
    return "the entry's " + column.name + (column.is_list ? " element" : "") +
           " is " + e.components[i].ToSqlLiteral() + ", the row's " +
           column.name + " is " + row_has;
  }
  if (e.pk_in_value != PkInValueByRule(index, e.components)) {
    return e.pk_in_value ? "wrong layout: primary key in the value, but a "
                           "component is NULL or the index is not UNIQUE"
                         : "wrong layout: primary key in the key, but no "
                           "component is NULL in a UNIQUE index";
  }
  for (size_t i = 0; i < index.include.size(); ++i) {
    const int c = index.include[i];
    if (!(e.include[i] == row[c])) {
      return "wrong INCLUDE value: " + table.columns[c].name + " is " +
             e.include[i].ToSqlLiteral() + ", the row's is " +
             row[c].ToSqlLiteral();
    }
  }
  size_t i = index.include.size();
  for (const KeyColumn& k : index.columns) {
    const ColumnSchema& c = table.columns[k.column];
    const Collation* coll = k.collation ? k.collation : c.collation;
    if (c.type != Type::kText || c.is_list || !coll || coll->is_binary()) {
      continue;
    }
    const Value& text = e.include[i++];
    if (!(text.type() == row[k.column].type() &&
          text.ToSqlLiteral() == row[k.column].ToSqlLiteral())) {
      return "wrong original text: " + c.name + " is " + text.ToSqlLiteral() +
             ", the row's is " + row[k.column].ToSqlLiteral();
    }
  }
  return "";
}

class TableCheck {
 public:
  TableCheck(KvStore* store, const KvSnapshot* snapshot,
             const TableSchema& table, std::vector<const IndexSchema*> indexes,
             CheckReport* report, const std::function<Status()>& stop)
      : store_(store),
        snapshot_(snapshot),
        table_(table),
        indexes_(std::move(indexes)),
        report_(report),
        stop_(stop),
        table_prefix_(rows::IdPrefix(table.id)) {}

  Status Run() {
    std::vector<int64_t> expected(indexes_.size(), 0);
    LQ_RETURN_IF_ERROR(CountRowsAndExpectedEntries(&expected));
    std::vector<const IndexSchema*> short_of_entries;
    for (size_t i = 0; i < indexes_.size(); ++i) {
      int64_t verified = 0;
      LQ_RETURN_IF_ERROR(VerifyEntries(*indexes_[i], &verified));
      if (verified != expected[i]) short_of_entries.push_back(indexes_[i]);
    }
    if (short_of_entries.empty()) return Status::OK();
    return FindMissing(short_of_entries);
  }

 private:
  std::string PkText(std::string_view pk) const {
    Components values;
    for (const KeyColumn& k : table_.primary_key) {
      Value v;
      if (!keys::DecodeValue(&pk, k.direction, &v).ok()) return "<undecodable>";
      values.push_back(std::move(v));
    }
    return keys::KeyToString(values);
  }

  // Counts a key read; every 1,024th asks whether to stop.
  Status Step() {
    if (stop_ && (++steps_ & 1023) == 0) return stop_();
    return Status::OK();
  }

  void Problem(int64_t* counter, const IndexSchema& index,
               const std::string& what) {
    ++*counter;
    report_->Add("index " + index.name + ": " + what);
  }

  // The row with primary-key components `pk`: OK (*decodes tells whether
  // it decodes into *row), NotFound, or a read error.
  Status FetchRow(std::string_view pk, Row* row, bool* decodes) {
    std::string key = table_prefix_;
    key.append(pk);
    std::string value;
    LQ_RETURN_IF_ERROR(store_->Get(snapshot_, key, &value));
    *decodes = rows::DecodeRow(table_, key, value, row).ok();
    return Status::OK();
  }

  // Number of entries `row` owns in `index`.
  int64_t ExpectedEntries(const IndexSchema& index, const Row& row) const {
    int64_t n = 1;
    for (const KeyColumn& k : index.columns) {
      n *= static_cast<int64_t>(KeyForms(table_, k, row).size());
    }
    return n;
  }

  Status CountRowsAndExpectedEntries(std::vector<int64_t>* expected) {
    auto it = store_->NewIterator(snapshot_);
    Row row;
    for (SeekPrefix(it.get(), table_prefix_);
         it->Valid() && HasPrefix(it->key(), table_prefix_); it->Next()) {
      LQ_RETURN_IF_ERROR(Step());
      Status s = rows::DecodeRow(table_, it->key(), it->value(), &row);
      if (!s.ok()) {
        report_->stale++;
        report_->Add("table " + table_.name +
                     ": undecodable row: " + s.message());
        continue;
      }
      report_->rows++;
      for (size_t i = 0; i < indexes_.size(); ++i) {
        (*expected)[i] += ExpectedEntries(*indexes_[i], row);
      }
    }
    return it->status();
  }

  // Entries read in key order and verified together, sorted by primary
  // key: their bytes back to back in one buffer.
  struct Batch {
    struct Ref {
      uint32_t at;  // the key, then the value, in `bytes`
      uint32_t key_size;
      uint32_t value_size;
      uint32_t pk_at;  // the pk components, in `bytes`
      uint32_t pk_size;
    };
    std::string bytes;
    std::vector<Ref> refs;

    size_t memory() const { return bytes.size() + refs.size() * sizeof(Ref); }
    std::string_view key(const Ref& r) const {
      return std::string_view(bytes).substr(r.at, r.key_size);
    }
    std::string_view value(const Ref& r) const {
      return std::string_view(bytes).substr(r.at + r.key_size, r.value_size);
    }
    std::string_view pk(const Ref& r) const {
      return std::string_view(bytes).substr(r.pk_at, r.pk_size);
    }
  };

  // Parses the entries of `index` in key order and verifies them a batch
  // at a time: index order is random in pk order, and a point read per
  // entry reads a block per entry, while a batch sorted by pk reads its
  // rows in one forward sweep. A batch holds at most kVerifyBatchBytes,
  // whatever the size of the table.
  Status VerifyEntries(const IndexSchema& index, int64_t* verified) {
    const std::string prefix = rows::IdPrefix(index.id);
    auto it = store_->NewIterator(snapshot_);
    Batch batch;
    ParsedEntry e;
    std::string why;
    for (SeekPrefix(it.get(), prefix);
         it->Valid() && HasPrefix(it->key(), prefix); it->Next()) {
      LQ_RETURN_IF_ERROR(Step());
      report_->entries++;
      const std::string_view key = it->key(), value = it->value();
      if (!ParseEntry(table_, index, key, value, &e, &why)) {
        Problem(&report_->dangling, index,
                "dangling entry " + EntryText(index, key) + ": " + why);
        continue;
      }
      Batch::Ref r;
      r.at = static_cast<uint32_t>(batch.bytes.size());
      r.key_size = static_cast<uint32_t>(key.size());
      r.value_size = static_cast<uint32_t>(value.size());
      r.pk_at =
          r.at + static_cast<uint32_t>(
                     e.pk_in_value ? key.size() + (e.pk.data() - value.data())
                                   : e.pk.data() - key.data());
      r.pk_size = static_cast<uint32_t>(e.pk.size());
      batch.bytes.append(key).append(value);
      batch.refs.push_back(r);
      if (batch.memory() >= kVerifyBatchBytes) {
        LQ_RETURN_IF_ERROR(VerifyBatch(index, &batch, verified));
      }
    }
    LQ_RETURN_IF_ERROR(it->status());
    return VerifyBatch(index, &batch, verified);
  }

  Status VerifyBatch(const IndexSchema& index, Batch* batch,
                     int64_t* verified) {
    std::sort(batch->refs.begin(), batch->refs.end(),
              [batch](const Batch::Ref& a, const Batch::Ref& b) {
                return batch->pk(a) < batch->pk(b);
              });
    auto rows = store_->NewIterator(snapshot_);
    std::string key;
    Row row;
    ParsedEntry e;
    std::string why;
    bool found = false, decodes = false;
    for (size_t i = 0; i < batch->refs.size(); ++i) {
      const Batch::Ref& r = batch->refs[i];
      ParseEntry(table_, index, batch->key(r), batch->value(r), &e, &why);
      if (i == 0 || e.pk != batch->pk(batch->refs[i - 1])) {  // a new row
        key.assign(table_prefix_).append(e.pk);
        // The next row is often a few rows ahead: step before seeking.
        int steps = i == 0 ? kStepsBeforeSeek : 0;
        while (steps < kStepsBeforeSeek && rows->Valid() && rows->key() < key) {
          rows->Next();
          ++steps;
        }
        if (!rows->Valid() || rows->key() < key) rows->Seek(key);
        LQ_RETURN_IF_ERROR(rows->status());
        found = rows->Valid() && rows->key() == key;
        decodes =
            found && rows::DecodeRow(table_, key, rows->value(), &row).ok();
      }
      if (!found) {
        Problem(&report_->dangling, index,
                "dangling entry " + keys::KeyToString(e.components) +
                    ": no row " + PkText(e.pk));
        continue;
      }
      if (!decodes) continue;  // the row is reported, and expects nothing
      why = WhyNotOwned(table_, index, e, row);
      if (!why.empty()) {
        Problem(&report_->stale, index,
                "stale entry " + keys::KeyToString(e.components) + " of row " +
                    PkText(e.pk) + ": " + why);
        continue;
      }
      ++*verified;
    }
    batch->bytes.clear();
    batch->refs.clear();
    return Status::OK();
  }

  // Looks up every entry each row should own in `indexes`.
  Status FindMissing(const std::vector<const IndexSchema*>& indexes) {
    auto it = store_->NewIterator(snapshot_);
    Row row;
    for (SeekPrefix(it.get(), table_prefix_);
         it->Valid() && HasPrefix(it->key(), table_prefix_); it->Next()) {
      LQ_RETURN_IF_ERROR(Step());
      if (!rows::DecodeRow(table_, it->key(), it->value(), &row).ok()) {
        continue;  // reported by CountRowsAndExpectedEntries
      }
      const std::string_view pk = it->key().substr(table_prefix_.size());
      for (const IndexSchema* index : indexes) {
        LQ_RETURN_IF_ERROR(LookUpEntriesOf(*index, row, pk));
      }
    }
    return it->status();
  }

  // The entries `row` owns in `index`, one combination of key forms at a
  // time (odometer order), each looked up.
  Status LookUpEntriesOf(const IndexSchema& index, const Row& row,
                         std::string_view pk) {
    std::vector<Components> forms;
    for (const KeyColumn& k : index.columns) {
      forms.push_back(KeyForms(table_, k, row));
    }
    std::vector<size_t> pos(forms.size(), 0);
    Components components(forms.size());
    while (true) {
      std::string key = rows::IdPrefix(index.id);
      for (size_t i = 0; i < forms.size(); ++i) {
        components[i] = forms[i][pos[i]];
        keys::EncodeValue(components[i], index.columns[i].direction, &key);
      }
      LQ_RETURN_IF_ERROR(LookUpEntry(index, pk, components, key));
      size_t i = forms.size();
      while (i > 0 && ++pos[i - 1] == forms[i - 1].size()) pos[--i] = 0;
      if (i == 0) return Status::OK();
    }
  }

  Status LookUpEntry(const IndexSchema& index, std::string_view pk,
                     const Components& components, std::string key) {
    const bool pk_in_value = PkInValueByRule(index, components);
    if (!pk_in_value) key.append(pk);
    std::string value;
    Status s = store_->Get(snapshot_, key, &value);
    const std::string entry = keys::KeyToString(components);
    if (s.code() == Status::Code::kNotFound) {
      Problem(&report_->missing, index,
              "missing entry " + entry + " of row " + PkText(pk));
      return Status::OK();
    }
    LQ_RETURN_IF_ERROR(s);
    if (!pk_in_value) return Status::OK();  // verified by VerifyEntries
    // A UNIQUE key: the entry names one row; if another row owns it too,
    // both rows hold the key.
    ParsedEntry e;
    std::string why;
    if (!ParseEntry(table_, index, key, value, &e, &why) || e.pk == pk) {
      return Status::OK();  // reported by VerifyEntries, or ours
    }
    Row other;
    bool decodes = false;
    s = FetchRow(e.pk, &other, &decodes);
    if (s.code() != Status::Code::kNotFound) LQ_RETURN_IF_ERROR(s);
    if (s.ok() && decodes && WhyNotOwned(table_, index, e, other).empty()) {
      Problem(&report_->duplicates, index,
              "UNIQUE key " + entry + " held by rows " + PkText(e.pk) +
                  " and " + PkText(pk));
      return Status::OK();
    }
    // The entry points at a row that does not own it (reported as dangling
    // or stale); this row's entry is missing.
    Problem(&report_->missing, index,
            "missing entry " + entry + " of row " + PkText(pk));
    return Status::OK();
  }

  static std::string EntryText(const IndexSchema& index, std::string_view key) {
    std::vector<Value> values;
    if (!rows::DecodeIndexKey(index, key, &values).ok()) return "<undecodable>";
    return keys::KeyToString(values);
  }

  KvStore* store_;
  const KvSnapshot* snapshot_;
  const TableSchema& table_;
  std::vector<const IndexSchema*> indexes_;
  CheckReport* report_;
  const std::function<Status()>& stop_;
  uint64_t steps_ = 0;
  const std::string table_prefix_;
};

}  // namespace

void CheckReport::Add(std::string problem) {
  if (problems.size() < kMaxProblems) problems.push_back(std::move(problem));
}

Status CheckReport::ToStatus() const {
  if (ok()) return Status::OK();
  std::string msg = "CHECK found " + std::to_string(missing) + " missing, " +
                    std::to_string(dangling) + " dangling, " +
                    std::to_string(stale) + " stale index entries and " +
                    std::to_string(duplicates) + " UNIQUE violations";
  if (misplaced > 0) {
    msg += ", and " + std::to_string(misplaced) + " keys in a wrong bucket";
  }
  for (const std::string& p : problems) msg += "\n  " + p;
  return Status::Corruption(msg);
}

Status CheckTable(KvStore* store, const KvSnapshot* snapshot,
                  const TableSchema& table, const std::string& only_index,
                  CheckReport* report, const std::function<Status()>& stop) {
  std::vector<const IndexSchema*> indexes;
  for (const auto& index : table.indexes) {
    if (only_index.empty() || index->name == only_index) {
      indexes.push_back(index.get());
    }
  }
  return TableCheck(store, snapshot, table, std::move(indexes), report, stop)
      .Run();
}

}  // namespace levelql

namespace levelql {

Status CheckBuckets(KvStore* physical, const KvSnapshot* snapshot,
                    const TableSchema& table, const std::string& only_index,
                    CheckReport* report) {
  if (table.salt_buckets == 0) return Status::OK();
  // (range id, index or null for the rows)
  std::vector<std::pair<int64_t, const IndexSchema*>> ranges;
  if (only_index.empty()) ranges.push_back({table.id, nullptr});
  for (const auto& index : table.indexes) {
    if (only_index.empty() || index->name == only_index) {
      ranges.push_back({index->id, index.get()});
    }
  }
  auto it = physical->NewIterator(snapshot);
  for (const auto& [id, index] : ranges) {
    const std::string prefix = rows::IdPrefix(id);
    const std::string what =
        index ? "index " + index->name : "table " + table.name;
    for (SeekPrefix(it.get(), prefix);
         it->Valid() && it->key().starts_with(prefix); it->Next()) {
      std::string_view key = it->key();
      if (key.size() == prefix.size()) {
        ++report->misplaced;
        report->Add(what + ": a key without a bucket byte");
        continue;
      }
      const uint8_t bucket = static_cast<uint8_t>(key[prefix.size()]);
      const std::string logical =
          prefix + std::string(key.substr(prefix.size() + 1));
      std::string_view pk = std::string_view(logical).substr(prefix.size());
      rows::EntryParts parts;
      if (index) {
        if (!rows::ParseIndexEntry(*index, logical, it->value(), &parts).ok()) {
          continue;  // CheckTable reports the entry
        }
        pk = parts.pk;
      }
      const uint8_t expected = rows::SaltBucket(pk, table.salt_buckets);
      if (bucket != expected) {
        ++report->misplaced;
        report->Add(what + ": a key in bucket " + std::to_string(bucket) +
                    " whose row's bucket is " + std::to_string(expected));
      }
    }
    LQ_RETURN_IF_ERROR(it->status());
  }
  return Status::OK();
}

}  // namespace levelql
