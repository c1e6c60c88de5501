// WriteTxn: the writes of one statement, buffered until they all succeed.
//
// Reads see the statement's snapshot overlaid with its own pending writes, so
// a multi-row INSERT finds the duplicates it creates itself. Commit turns the
// pending writes into one WriteBatch: the statement applies fully or not at
// all. Row-level helpers maintain every index entry and check primary-key and
// UNIQUE constraints. Used by one thread, holding the database's writer slot.
//
// Keys are physical: in a salted table (indexes/salt.h) the row helpers put
// every key of a row, its entries' too, in the row's bucket; reads through
// NewIterator see logical keys (salted_store.h).
//
// Inside a transaction the WriteTxn's store is the transaction's view
// (overlay.h): reads and constraint checks see the transaction's earlier
// writes, and when the statement succeeds its writes (TakeWrites) join the
// transaction's instead of going to a batch.
#ifndef LEVELQL_ENGINE_STORAGE_WRITE_TXN_H_
#define LEVELQL_ENGINE_STORAGE_WRITE_TXN_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/storage/kv_store.h"
#include "engine/storage/overlay.h"
#include "engine/storage/salted_store.h"
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
      : store_(store),
        snapshot_(std::move(snapshot)),
        shared_(store->shared()) {}

  // A cursor over the statement's view: its snapshot overlaid with its
  // pending writes (deleted keys skipped), the salted ranges of `layout`
  // (may be null) merged into logical order. It must not outlive the
  // WriteTxn; writes made while it is open are seen after its next Seek.
  std::unique_ptr<KvIterator> NewIterator(
      std::shared_ptr<const SaltLayout> layout = nullptr);
  // Off: ranked indexes' counts are not maintained (a bulk build writes
  // them afterwards: CREATE INDEX, REINDEX).
  void set_maintain_ranks(bool on) { maintain_ranks_ = on; }
  // Applies the entries the row helpers added to and removed from ranked
  // indexes to their counts, all at once in key order (one forward walk per
  // level instead of a seek per entry and level). REQUIRES: called once the
  // statement's rows are written, before its writes are taken.
  Status FlushRanks();

  // Of a physical key. NotFound when absent (or deleted by this statement).
  Status Get(const std::string& key, std::string* value);
  // Of a physical key outside a salted range (metadata, counts).
  void Put(std::string key, std::string value);
  void Delete(std::string key);

  Status InsertRow(const TableSchema& table, const Row& row);
  // The entries `row` owns in `index` alone (CREATE INDEX, REINDEX), with
  // UNIQUE checked: ConstraintError naming the duplicate key.
  Status InsertEntries(const TableSchema& table, const IndexSchema& index,
                       const Row& row);
  Status DeleteRow(const TableSchema& table, const Row& row);
  // The rows `row` would collide with were it inserted (the row at its
  // primary key, the owner of each of its UNIQUE entries' keys), each once,
  // in the statement's view: what INSERT OR IGNORE skips a row for and
  // INSERT OR REPLACE deletes.
  Status Collisions(const TableSchema& table, const Row& row,
                    std::vector<Row>* rows);
  Status UpdateRow(const TableSchema& table, const Row& old_row,
                   const Row& new_row);

  size_t pending() const { return writes_.size(); }
  // The pending writes, with what they were computed from (the snapshot,
  // the rows changed: WriteBatch's conditions).
  WriteBatch ToBatch() const;
  // The rows ExpectPresent noted (a transaction keeps them for its commit).
  const std::vector<std::string>& expected_present() const { return present_; }
  // The pending writes, leaving none.
  PendingWrites TakeWrites() { return std::move(writes_); }
  // The bytes of the keys and values pending.
  size_t bytes() const { return bytes_; }
  // Row helpers fail with LimitExceeded once bytes() passes `max_bytes`
  // (SIZE_MAX: no limit); `total` is the limit the message names.
  // The statement may add up to `max_bytes` of writes, of `total`
  // (Options::max_transaction_bytes) in all; `in_transaction` picks the
  // error's advice.
  void set_byte_limit(size_t max_bytes, size_t total, bool in_transaction) {
    max_bytes_ = max_bytes;
    limit_total_ = total;
    in_transaction_ = in_transaction;
  }

 private:
  // `key` is a logical entry key; in a salted table every bucket is looked
  // at (a UNIQUE key may be owned by a row of any bucket).
  Status CheckUnique(const TableSchema& table, const IndexSchema& index,
                     const std::string& key, const Row& row);
  // Puts (or deletes) the index entry whose logical key is `key` in the
  // bucket `bucket` (-1: unsalted), and counts it in (out of) a ranked
  // index.
  Status PutEntry(const IndexSchema& index, std::string key, std::string value,
                  int bucket);
  Status DeleteEntry(const IndexSchema& index, std::string key, int bucket);
  // The entries `row` (of bucket `bucket`) owns in `index`, UNIQUE checked.
  Status AddEntries(const TableSchema& table, const IndexSchema& index,
                    const Row& row, int bucket);
  void Count(const IndexSchema& index, const std::string& key, int delta);
  void Set(std::string key, std::optional<std::string> value);
  // The row at physical `key` was read from the snapshot and is changed:
  // on a shared store it must still exist when the batch commits.
  void ExpectPresent(const std::string& key);
  Status CheckBytes() const;

  KvStore* store_;
  std::shared_ptr<const KvSnapshot> snapshot_;
  bool shared_;  // store_->shared(): rows changed get ExpectPresent
  PendingWrites writes_;
  std::vector<std::string> present_;  // ExpectPresent's keys
  size_t bytes_ = 0;
  size_t max_bytes_ = SIZE_MAX;
  size_t limit_total_ = 0;
  bool in_transaction_ = false;
  bool maintain_ranks_ = true;
  // Per ranked index: its entries added (+1) and removed (-1), by key.
  std::map<const IndexSchema*, std::map<std::string, int>> rank_changes_;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_WRITE_TXN_H_
