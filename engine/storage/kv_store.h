// KvStore: the ordered key-value store under levelql, as a small interface.
//
// The engine reads through snapshots and writes atomic batches; nothing above
// this header includes LevelDB, so another ordered store (etcd: etcd/) can be
// plugged in without touching the planner. Implementations are
// thread-safe: any number of threads may read and write concurrently (the
// engine serializes its writers itself). A KvIterator is used by one thread.
#ifndef LEVELQL_ENGINE_STORAGE_KV_STORE_H_
#define LEVELQL_ENGINE_STORAGE_KV_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/database.h"
#include "levelql/status.h"

namespace levelql {

// A consistent point-in-time view. Released when the last reference goes.
class KvSnapshot {
 public:
  virtual ~KvSnapshot() = default;
};

// A cursor over keys in byte order, like leveldb::Iterator.
class KvIterator {
 public:
  virtual ~KvIterator() = default;
  virtual bool Valid() const = 0;
  virtual void Seek(std::string_view target) = 0;  // first key >= target
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // The last key before `target` (invalid when there is none): how a
  // backward scan starts. Iterators that can do better override it.
  virtual void SeekBefore(std::string_view target) {
    Seek(target);
    if (Valid()) {
      Prev();
    } else if (status().ok()) {
      SeekToLast();
    }
  }
  // A promise from the caller: from now on it needs no key below `lower`
  // and none at or above `upper` (empty: no such bound) - the range a scan
  // stays in. The iterator may then behave as if the store held no key
  // outside it (a caller must treat a key outside as it treats the end).
  // An iterator whose reads cost the whole range they name (etcd's: see
  // etcd_store.cc) bounds them there; LevelDB's ignores it. A later call
  // replaces the bounds (before the next Seek).
  virtual void SetBounds(std::string_view lower, std::string_view upper) {
    (void)lower;
    (void)upper;
  }
  virtual void Next() = 0;  // REQUIRES: Valid()
  virtual void Prev() = 0;  // REQUIRES: Valid()
  // REQUIRES: Valid(). The views live until the iterator next moves.
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
  virtual Status status() const = 0;
};

// Bounds `it` to the keys that start with `prefix` (SetBounds) and seeks to
// the first: how a scan of one key range starts, so that a store whose
// reads cost the range they name (etcd) reads that range only.
void SeekPrefix(KvIterator* it, std::string_view prefix);

// Puts and deletes applied together, all or nothing.
//
// On a store that other processes write at the same time (KvStore::shared:
// etcd), a batch also carries the conditions it was computed under, checked
// atomically with the write: when one fails, nothing is written and Write
// returns Busy (a write conflict; the statement may run again on a fresh
// snapshot). A store with one writer ignores them: they hold by
// construction.
class WriteBatch {
 public:
  struct Op {
    bool is_delete = false;
    // Removed by the store when this process ends or loses the cluster
    // (a lock held while it runs); a plain put on a store with one writer.
    bool ephemeral = false;
    std::string key;
    std::string value;
  };
  // `key` must hold `value` (nullopt: be absent) when the batch applies.
  struct Expectation {
    std::string key;
    std::optional<std::string> value;
  };
  void Put(std::string key, std::string value) {
    ops_.push_back({false, false, std::move(key), std::move(value)});
  }
  void PutEphemeral(std::string key, std::string value) {
    ops_.push_back({false, true, std::move(key), std::move(value)});
  }
  void Delete(std::string key) {
    ops_.push_back({true, false, std::move(key), {}});
  }
  // The snapshot the batch's reads were made at: every key it writes must
  // be unchanged since then (first writer wins).
  void set_read_snapshot(std::shared_ptr<const KvSnapshot> snapshot) {
    read_snapshot_ = std::move(snapshot);
  }
  // `key` existed at the read snapshot (a row this batch updates or
  // deletes) and must still exist, unchanged.
  void ExpectPresent(std::string key) { present_.push_back(std::move(key)); }
  void ExpectValue(std::string key, std::optional<std::string> value) {
    values_.push_back({std::move(key), std::move(value)});
  }
  void Append(const WriteBatch& other) {
    ops_.insert(ops_.end(), other.ops_.begin(), other.ops_.end());
    present_.insert(present_.end(), other.present_.begin(),
                    other.present_.end());
    values_.insert(values_.end(), other.values_.begin(), other.values_.end());
    if (!read_snapshot_) read_snapshot_ = other.read_snapshot_;
  }
  void Clear() {
    ops_.clear();
    present_.clear();
    values_.clear();
    read_snapshot_.reset();
  }
  bool empty() const { return ops_.empty(); }
  // The bytes of the keys and values it puts (and keys it deletes).
  int64_t bytes() const {
    int64_t n = 0;
    for (const Op& op : ops_) {
      n += static_cast<int64_t>(op.key.size() + op.value.size());
    }
    return n;
  }
  const std::vector<Op>& ops() const { return ops_; }
  const KvSnapshot* read_snapshot() const { return read_snapshot_.get(); }
  const std::vector<std::string>& expected_present() const { return present_; }
  const std::vector<Expectation>& expected_values() const { return values_; }

 private:
  std::vector<Op> ops_;
  std::shared_ptr<const KvSnapshot> read_snapshot_;
  std::vector<std::string> present_;
  std::vector<Expectation> values_;
};

class KvStore {
 public:
  virtual ~KvStore() = default;
  virtual std::shared_ptr<const KvSnapshot> GetSnapshot() = 0;
  // A snapshot and the keys starting with `prefix` in it, with their
  // values, in key order: GetSnapshot then a scan; a store whose every call
  // is a round trip (etcd) makes it one.
  virtual std::shared_ptr<const KvSnapshot> GetSnapshotWithPrefix(
      std::string_view prefix,
      std::vector<std::pair<std::string, std::string>>* entries,
      Status* status);
  // NotFound when absent. `snapshot` may be null for the latest state.
  virtual Status Get(const KvSnapshot* snapshot, std::string_view key,
                     std::string* value) = 0;
  // Get of each of `keys` at `snapshot`: (*values)[i] and (*statuses)[i]
  // (NotFound when absent). A store whose every read is a round trip makes
  // it one (etcd: one read-only transaction per 128 keys).
  virtual void MultiGet(const KvSnapshot* snapshot,
                        const std::vector<std::string>& keys,
                        std::vector<std::string>* values,
                        std::vector<Status>* statuses);
  virtual Status Write(const WriteBatch& batch, bool sync) = 0;
  // The iterator must not outlive the snapshot it reads.
  virtual std::unique_ptr<KvIterator> NewIterator(
      const KvSnapshot* snapshot) = 0;
  // A number naming `snapshot` that SnapshotAt turns back into it, for a
  // store that can re-create a snapshot later (etcd: its revision); 0 for
  // one that cannot (LevelDB: a snapshot lives in the process).
  virtual uint64_t SnapshotId(const KvSnapshot* snapshot) {
    (void)snapshot;
    return 0;
  }
  // The snapshot SnapshotId named; null when the store cannot re-create
  // it. Reads of it fail (with Busy, naming the cause) when the store no
  // longer holds that state (etcd: compacted).
  virtual std::shared_ptr<const KvSnapshot> SnapshotAt(uint64_t id) {
    (void)id;
    return nullptr;
  }
  // True when other processes may write the same database at once (etcd):
  // the engine then checks the catalog at each statement, serializes schema
  // changes through the store (engine/catalog/schema_lock.h), and gives each
  // batch its conditions.
  virtual bool shared() const { return false; }
  // True when every read is a network round trip (etcd): independent reads
  // are worth issuing concurrently (the buckets of a salted table).
  virtual bool remote() const { return false; }
  // Roughly how many bytes the keys in [lo, hi) take in the store's files
  // (LevelDB: from its tables' indexes, without reading them; what is
  // still in memory counts nothing), or -1 when the store cannot tell.
  virtual int64_t ApproximateBytes(std::string_view lo, std::string_view hi) {
    (void)lo;
    (void)hi;
    return -1;
  }
  // Asks the store to drop what it still keeps of deleted keys in [lo, hi)
  // (LevelDB: compacts the range, rewriting the files that hold it; until
  // then every seek that lands among the deletions steps over each one). A
  // hint: stores without such work ignore it.
  virtual void CompactRange(std::string_view lo, std::string_view hi) {
    (void)lo;
    (void)hi;
  }
};

// KvStore::CompactRange over the keys that start with `prefix`: after a
// whole key range (a dropped table or index) was deleted.
void CompactPrefix(KvStore* store, std::string_view prefix);

// Opens LevelDB at `path`; ":memory:" uses LevelDB's in-memory Env.
Result<std::unique_ptr<KvStore>> OpenLevelDbStore(const std::string& path,
                                                  const Options& options);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_KV_STORE_H_
