// DeletionTracker: which key ranges committed batches have filled with
// deletions, so the store compacts them (KvStore::CompactRange).
//
// LevelDB keeps a deleted key as a deletion marker until a compaction
// reaches it, and a seek that lands among markers steps over every one:
// after a retention job deleted the oldest 300,000 of 1M rows, "the oldest
// 10" and MIN(stamp) took 250 ms instead of 25 us, and stayed that slow
// until LevelDB's own compactions reached those files. The tracker counts,
// per keyspace (a table's rows or an index: the key's leading id), the keys
// deleted and the range they span, in windows of kDeletesBeforeCompaction
// deletions. A window is judged when it fills: if its keys make up at least
// kDenseShare of the bytes the store's files give its range, the range is
// returned to be compacted; either way the keyspace starts a new window.
// Deletions spread thinly over a large range (single rows here and there,
// old index entries of rows updated at random) fill windows that span a
// large range and are left to LevelDB: they cost reads little and would
// cost a rewrite of the range. A dense window's range is at most 1/kDenseShare
// times its keys' bytes, so a compaction stays small.
#ifndef LEVELQL_ENGINE_STORAGE_DELETION_TRACKER_H_
#define LEVELQL_ENGINE_STORAGE_DELETION_TRACKER_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/storage/kv_store.h"

namespace levelql {

class DeletionTracker {
 public:
  static constexpr int64_t kDeletesBeforeCompaction = 10000;
  // Keys alone: a row's value is not in the batch, so a run of deleted rows
  // of ~100 bytes is ~10% by its keys.
  static constexpr double kDenseShare = 0.02;

  // Notes the deletions of `batch`, which `store` has committed. Returns
  // the key ranges [lo, hi) to compact now.
  std::vector<std::pair<std::string, std::string>> Note(const WriteBatch& batch,
                                                        KvStore* store);
  // Drops the window of the keyspace `prefix` (compacted whole).
  void Forget(const std::string& prefix);

 private:
  struct Span {
    int64_t count = 0;      // keys deleted
    int64_t key_bytes = 0;  // their bytes
    std::string lo, hi;     // the least and the greatest
  };
  std::mutex mu_;
  std::map<std::string, Span> spans_;  // by keyspace prefix
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_DELETION_TRACKER_H_
