#include "engine/storage/write_txn.h"

#include <algorithm>

#include "engine/storage/rank_index.h"
#include "indexes/row_format.h"
#include "indexes/salt.h"

namespace levelql {
namespace {

std::string KeyValuesText(const std::vector<KeyColumn>& columns,
                          const Row& row) {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i) out += ", ";
    out += row[columns[i].column].ToSqlLiteral();
  }
  return columns.size() == 1 ? out : "(" + out + ")";
}

// Writes into a WriteTxn (for the rank structure).
class TxnSink : public ranks::Sink {
 public:
  explicit TxnSink(WriteTxn* txn) : txn_(txn) {}
  void Put(std::string key, std::string value) override {
    txn_->Put(std::move(key), std::move(value));
  }
  void Delete(std::string key) override { txn_->Delete(std::move(key)); }

 private:
  WriteTxn* txn_;
};

ranks::Space SpaceOf(const IndexSchema& index) {
  return {rows::IdPrefix(index.id), rows::IdPrefix(index.rank_id)};
}

// The bucket of the row whose logical row key is `row_key`; -1 when its
// table is not salted.
int BucketOf(const TableSchema& table, std::string_view row_key) {
  if (table.salt_buckets == 0) return -1;
  return rows::SaltBucket(row_key.substr(rows::IdSize(row_key)),
                          table.salt_buckets);
}

// The physical key of the logical `key` of a row of bucket `bucket`.
std::string Place(std::string key, int bucket) {
  if (bucket < 0) return key;
  return rows::SaltedKey(key, rows::IdSize(key), static_cast<uint8_t>(bucket));
}

}  // namespace

std::unique_ptr<KvIterator> WriteTxn::NewIterator(
    std::shared_ptr<const SaltLayout> layout) {
  return NewSaltedIterator(std::move(layout), [this] {
    return NewOverlayIterator(store_->NewIterator(snapshot_.get()), &writes_);
  });
}

Status WriteTxn::CheckBytes() const {
  if (bytes_ <= max_bytes_) return Status::OK();
  if (!in_transaction_) {
    return Status::LimitExceeded(
        "the statement's writes would pass " +
        std::to_string(limit_total_ >> 20) +
        " MiB (Options::max_transaction_bytes); it changed nothing: write in "
        "smaller statements");
  }
  return Status::LimitExceeded(
      "the transaction's pending writes would pass " +
      std::to_string(limit_total_ >> 20) +
      " MiB (Options::max_transaction_bytes); the statement changed nothing: "
      "COMMIT what the transaction holds, or ROLLBACK");
}

Status WriteTxn::PutEntry(const IndexSchema& index, std::string key,
                          std::string value, int bucket) {
  if (index.ranked && maintain_ranks_) Count(index, key, +1);
  Put(Place(std::move(key), bucket), std::move(value));
  return Status::OK();
}

Status WriteTxn::DeleteEntry(const IndexSchema& index, std::string key,
                             int bucket) {
  if (index.ranked && maintain_ranks_) Count(index, key, -1);
  Delete(Place(std::move(key), bucket));
  return Status::OK();
}

void WriteTxn::Count(const IndexSchema& index, const std::string& key,
                     int delta) {
  auto& changes = rank_changes_[&index];
  auto [it, added] = changes.emplace(key, delta);
  if (!added && (it->second += delta) == 0) changes.erase(it);
}

Status WriteTxn::FlushRanks() {
  TxnSink sink(this);
  for (auto& [index, changes] : rank_changes_) {
    std::vector<std::pair<std::string, int>> sorted(changes.begin(),
                                                    changes.end());
    // The counts are of logical entry keys: read the index merged.
    std::shared_ptr<SaltLayout> layout;
    if (index->salt_buckets > 0) {
      layout = std::make_shared<SaltLayout>();
      layout->Add(index->id, {index->salt_buckets, false});
    }
    LQ_RETURN_IF_ERROR(ranks::Apply(
        SpaceOf(*index), sorted, [this, layout] { return NewIterator(layout); },
        &sink));
  }
  rank_changes_.clear();
  return Status::OK();
}

std::string UniqueKeyText(const TableSchema& table, const IndexSchema& index,
                          std::string_view entry_key, const Row& row) {
  std::string_view rest = entry_key;
  Value v;
  bool decodes = keys::DecodeValue(&rest, keys::Direction::kAsc, &v).ok();
  std::string out;
  for (size_t i = 0; i < index.columns.size(); ++i) {
    const KeyColumn& k = index.columns[i];
    const ColumnSchema& column = table.columns[k.column];
    const Value& value = row[k.column];
    std::string_view component;
    if (decodes) {
      std::string_view before = rest;
      decodes = keys::DecodeValue(&rest, k.direction, &v).ok();
      component = before.substr(0, before.size() - rest.size());
    }
    std::string text = value.ToSqlLiteral();
    if (decodes && column.is_list && value.type() == Type::kList) {
      // The element this entry is for, rather than the whole list.
      for (const Value& element : value.list()) {
        std::string bytes;
        rows::EncodeKeyColumn(table, k, element, &bytes);
        if (bytes == component) {
          text = element.ToSqlLiteral();
          break;
        }
      }
    }
    if (i) out += ", ";
    out += text;
  }
  return index.columns.size() == 1 ? out : "(" + out + ")";
}

Status WriteTxn::Get(const std::string& key, std::string* value) {
  auto it = writes_.find(key);
  if (it != writes_.end()) {
    if (!it->second) return Status::NotFound("deleted");
    *value = *it->second;
    return Status::OK();
  }
  return store_->Get(snapshot_.get(), key, value);
}

void WriteTxn::Put(std::string key, std::string value) {
  Set(std::move(key), std::move(value));
}

void WriteTxn::Delete(std::string key) { Set(std::move(key), std::nullopt); }

void WriteTxn::Set(std::string key, std::optional<std::string> value) {
  auto [it, added] = writes_.try_emplace(std::move(key));
  if (added) {
    bytes_ += it->first.size();
  } else if (it->second) {
    bytes_ -= it->second->size();
  }
  if (value) bytes_ += value->size();
  it->second = std::move(value);
}

void WriteTxn::ExpectPresent(const std::string& key) {
  // Only another process could have deleted it; a row this statement
  // wrote itself need not be in the snapshot.
  if (shared_ && !writes_.count(key)) present_.push_back(key);
}

WriteBatch WriteTxn::ToBatch() const {
  WriteBatch batch;
  batch.set_read_snapshot(snapshot_);
  for (const std::string& key : present_) batch.ExpectPresent(key);
  for (const auto& [key, value] : writes_) {
    if (value) {
      batch.Put(key, *value);
    } else {
      batch.Delete(key);
    }
  }
  return batch;
}

Status WriteTxn::CheckUnique(const TableSchema& table, const IndexSchema& index,
                             const std::string& key, const Row& row) {
  // In a salted table the key may be held by a row of any bucket.
  const int first = index.salt_buckets > 0 ? 0 : -1;
  const int last = index.salt_buckets - 1;  // -1 when unsalted
  for (int b = first; b <= last; ++b) {
    std::string existing;
    Status s = Get(Place(key, b), &existing);
    if (s.code() == Status::Code::kNotFound) continue;
    LQ_RETURN_IF_ERROR(s);
    return Status::ConstraintError("UNIQUE index " + index.name +
                                   ": duplicate key " +
                                   UniqueKeyText(table, index, key, row));
  }
  return Status::OK();
}

Status WriteTxn::InsertRow(const TableSchema& table, const Row& row) {
  std::string key = rows::RowKey(table, row);
  const int bucket = BucketOf(table, key);
  key = Place(std::move(key), bucket);
  std::string existing;
  Status s = Get(key, &existing);
  if (s.ok()) {
    return Status::ConstraintError("PRIMARY KEY of " + table.name +
                                   ": duplicate key " +
                                   KeyValuesText(table.primary_key, row));
  }
  if (s.code() != Status::Code::kNotFound) return s;
  for (const auto& index : table.indexes) {
    LQ_RETURN_IF_ERROR(AddEntries(table, *index, row, bucket));
  }
  Put(std::move(key), rows::RowValue(table, row));
  return CheckBytes();
}

Status WriteTxn::Collisions(const TableSchema& table, const Row& row,
                            std::vector<Row>* rows) {
  rows->clear();
  std::vector<std::string> seen;  // physical keys of the rows found
  // The row at logical key `key` in bucket `bucket`, unless found already.
  auto add = [&](const std::string& key, int bucket) -> Status {
    std::string placed = Place(key, bucket);
    if (std::find(seen.begin(), seen.end(), placed) != seen.end()) {
      return Status::OK();
    }
    std::string value;
    Status s = Get(placed, &value);
    if (s.code() == Status::Code::kNotFound) return Status::OK();
    LQ_RETURN_IF_ERROR(s);
    Row found;
    LQ_RETURN_IF_ERROR(rows::DecodeRow(table, key, value, &found));
    seen.push_back(std::move(placed));
    rows->push_back(std::move(found));
    return Status::OK();
  };
  const std::string key = rows::RowKey(table, row);
  LQ_RETURN_IF_ERROR(add(key, BucketOf(table, key)));
  std::vector<rows::IndexEntry> entries;
  for (const auto& index : table.indexes) {
    if (!index->unique) continue;
    entries.clear();
    rows::IndexEntriesForRow(table, *index, row, &entries);
    for (const rows::IndexEntry& e : entries) {
      if (!e.unique_key) continue;
      // The owner's entry is in the owner's bucket, which may be any.
      const int first = index->salt_buckets > 0 ? 0 : -1;
      for (int b = first; b <= index->salt_buckets - 1; ++b) {
        std::string value;
        Status s = Get(Place(e.key, b), &value);
        if (s.code() == Status::Code::kNotFound) continue;
        LQ_RETURN_IF_ERROR(s);
        rows::EntryParts parts;
        LQ_RETURN_IF_ERROR(rows::ParseIndexEntry(*index, e.key, value, &parts));
        LQ_RETURN_IF_ERROR(add(rows::IdPrefix(table.id).append(parts.pk), b));
      }
    }
  }
  return Status::OK();
}

Status WriteTxn::AddEntries(const TableSchema& table, const IndexSchema& index,
                            const Row& row, int bucket) {
  std::vector<rows::IndexEntry> entries;
  rows::IndexEntriesForRow(table, index, row, &entries);
  for (rows::IndexEntry& e : entries) {
    if (e.unique_key) LQ_RETURN_IF_ERROR(CheckUnique(table, index, e.key, row));
    LQ_RETURN_IF_ERROR(
        PutEntry(index, std::move(e.key), std::move(e.value), bucket));
  }
  return Status::OK();
}

Status WriteTxn::InsertEntries(const TableSchema& table,
                               const IndexSchema& index, const Row& row) {
  return AddEntries(table, index, row,
                    BucketOf(table, rows::RowKey(table, row)));
}

Status WriteTxn::DeleteRow(const TableSchema& table, const Row& row) {
  std::string key = rows::RowKey(table, row);
  const int bucket = BucketOf(table, key);
  std::vector<rows::IndexEntry> entries;
  for (const auto& index : table.indexes) {
    entries.clear();
    rows::IndexEntriesForRow(table, *index, row, &entries);
    for (rows::IndexEntry& e : entries) {
      LQ_RETURN_IF_ERROR(DeleteEntry(*index, std::move(e.key), bucket));
    }
  }
  key = Place(std::move(key), bucket);
  ExpectPresent(key);
  Delete(std::move(key));
  return CheckBytes();
}

Status WriteTxn::UpdateRow(const TableSchema& table, const Row& old_row,
                           const Row& new_row) {
  std::string old_key = rows::RowKey(table, old_row);
  std::string new_key = rows::RowKey(table, new_row);
  const int old_bucket = BucketOf(table, old_key);
  const int new_bucket = BucketOf(table, new_key);
  // Entries stay where they are only when the row stays in its bucket.
  const bool same_bucket = old_bucket == new_bucket;
  const bool key_changed = old_key != new_key;
  new_key = Place(std::move(new_key), new_bucket);
  if (shared_) ExpectPresent(Place(old_key, old_bucket));
  if (key_changed) {
    std::string existing;
    Status s = Get(new_key, &existing);
    if (s.ok()) {
      return Status::ConstraintError("PRIMARY KEY of " + table.name +
                                     ": duplicate key " +
                                     KeyValuesText(table.primary_key, new_row));
    }
    if (s.code() != Status::Code::kNotFound) return s;
    Delete(Place(std::move(old_key), old_bucket));
  }
  std::vector<rows::IndexEntry> old_entries, new_entries;
  for (const auto& index : table.indexes) {
    old_entries.clear();
    new_entries.clear();
    rows::IndexEntriesForRow(table, *index, old_row, &old_entries);
    rows::IndexEntriesForRow(table, *index, new_row, &new_entries);
    for (rows::IndexEntry& e : old_entries) {
      bool kept =
          same_bucket && std::any_of(new_entries.begin(), new_entries.end(),
                                     [&](const rows::IndexEntry& n) {
                                       return n.key == e.key;
                                     });
      if (!kept) {
        LQ_RETURN_IF_ERROR(DeleteEntry(*index, std::move(e.key), old_bucket));
      }
    }
    for (rows::IndexEntry& e : new_entries) {
      bool existed = std::any_of(
          old_entries.begin(), old_entries.end(),
          [&](const rows::IndexEntry& o) { return o.key == e.key; });
      if (e.unique_key && !existed) {
        LQ_RETURN_IF_ERROR(CheckUnique(table, *index, e.key, new_row));
      }
      if (existed && same_bucket) {
        // Same key: same count.
        Put(Place(std::move(e.key), new_bucket), std::move(e.value));
      } else {
        LQ_RETURN_IF_ERROR(
            PutEntry(*index, std::move(e.key), std::move(e.value), new_bucket));
      }
    }
  }
  Put(std::move(new_key), rows::RowValue(table, new_row));
  return CheckBytes();
}

}  // namespace levelql
