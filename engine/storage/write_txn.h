// WriteTxn: the writes of one statement, buffered until they all succeed.
//
// Reads see the statement's snapshot overlaid with its own pending writes, so
// a multi-row INSERT finds the duplicates it creates itself. Commit turns the
// pending writes into one WriteBatch: the statement applies fully or not at
// all. Row-level helpers maintain every index entry and check primary-key and
// UNIQUE constraints. Used by one thread, under the database's write mutex.
#ifndef LEVELQL_ENGINE_STORAGE_WRITE_TXN_H_
#define LEVELQL_ENGINE_STORAGE_WRITE_TXN_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/storage/kv_store.h"
#include "indexes/schema.h"

namespace levelql {

// The indexed values of the entry `entry_key` of `row`, as SQL literals for
// a "duplicate key" message: the element for a list column, "(a, b)" for
// several columns.
std::string UniqueKeyText(const TableSchema& table, const IndexSchema& index,
                          std::string_view entry_key, const Row& row);

class WriteTxn {
 public:
  WriteTxn(KvStore* store, std::shared_ptr<const KvSnapshot> snapshot)
      : store_(store), snapshot_(std::move(snapshot)) {}

  // A forward cursor over the statement's view: its snapshot overlaid with
  // its pending writes (deleted keys skipped). It must not outlive the
  // WriteTxn; writes made while it is open are seen after its next Seek.
  std::unique_ptr<KvIterator> NewIterator();
  // Off: ranked indexes' counts are not maintained row by row (a bulk
  // build writes them afterwards: CREATE INDEX, REINDEX).
  void set_maintain_ranks(bool on) { maintain_ranks_ = on; }

  // NotFound when absent (or deleted by this statement).
  Status Get(const std::string& key, std::string* value);
  void Put(std::string key, std::string value);
  void Delete(std::string key);

  Status InsertRow(const TableSchema& table, const Row& row);
  Status DeleteRow(const TableSchema& table, const Row& row);
  Status UpdateRow(const TableSchema& table, const Row& old_row,
                   const Row& new_row);

  size_t pending() const { return writes_.size(); }
  WriteBatch ToBatch() const;

 private:
  Status CheckUnique(const TableSchema& table, const IndexSchema& index,
                     const std::string& key, const Row& row);
  // Puts (or deletes) an index entry, and counts it in (out of) a ranked
  // index.
  Status PutEntry(const IndexSchema& index, std::string key, std::string value);
  Status DeleteEntry(const IndexSchema& index, std::string key);

  KvStore* store_;
  std::shared_ptr<const KvSnapshot> snapshot_;
  std::map<std::string, std::optional<std::string>> writes_;
  bool maintain_ranks_ = true;
  std::unique_ptr<KvIterator> rank_view_;  // over writes_: declared after it
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_WRITE_TXN_H_
