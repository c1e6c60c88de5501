// KvStore: the ordered key-value store under levelql, as a small interface.
//
// The engine reads through snapshots and writes atomic batches; nothing above
// this header includes LevelDB, so another ordered store (etcd: etcd/) can be
// plugged in without touching the planner. Implementations are
// thread-safe: any number of threads may read and write concurrently (the
// engine serializes its writers itself). A KvIterator is used by one thread.
#ifndef LEVELQL_ENGINE_STORAGE_KV_STORE_H_
#define LEVELQL_ENGINE_STORAGE_KV_STORE_H_

#include <memory>
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
  // etcd_store.cc) bounds them there; LevelDB's ignores it.
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

// Puts and deletes applied together, all or nothing.
class WriteBatch {
 public:
  struct Op {
    bool is_delete = false;
    std::string key;
    std::string value;
  };
  void Put(std::string key, std::string value) {
    ops_.push_back({false, std::move(key), std::move(value)});
  }
  void Delete(std::string key) { ops_.push_back({true, std::move(key), {}}); }
  void Append(const WriteBatch& other) {
    ops_.insert(ops_.end(), other.ops_.begin(), other.ops_.end());
  }
  void Clear() { ops_.clear(); }
  bool empty() const { return ops_.empty(); }
  const std::vector<Op>& ops() const { return ops_; }

 private:
  std::vector<Op> ops_;
};

class KvStore {
 public:
  virtual ~KvStore() = default;
  virtual std::shared_ptr<const KvSnapshot> GetSnapshot() = 0;
  // NotFound when absent. `snapshot` may be null for the latest state.
  virtual Status Get(const KvSnapshot* snapshot, std::string_view key,
                     std::string* value) = 0;
  virtual Status Write(const WriteBatch& batch, bool sync) = 0;
  // The iterator must not outlive the snapshot it reads.
  virtual std::unique_ptr<KvIterator> NewIterator(
      const KvSnapshot* snapshot) = 0;
};

// Opens LevelDB at `path`; ":memory:" uses LevelDB's in-memory Env.
Result<std::unique_ptr<KvStore>> OpenLevelDbStore(const std::string& path,
                                                  const Options& options);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_KV_STORE_H_
