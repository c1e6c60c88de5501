// DeletionTracker: which key ranges committed batches have filled with
// deletions, so the store compacts them (KvStore::CompactRange).
//
// LevelDB keeps a deleted key as a deletion marker until a compaction
// reaches it, and a seek that lands among markers steps over every one:
// after a retention job deleted the oldest 300,000 of 1M rows, "the oldest
// 10" and MIN(stamp) took 250 ms instead of 25 us, and stayed that slow
// until LevelDB's own compactions reached those files. The tracker sums,
// per keyspace (a table's rows or an index: the key's leading id), the
// keys deleted and the range they span; once a keyspace has
// kDeletesBeforeCompaction of them and their keys make up at least
// kDenseShare of the bytes the store's files give that range, the range is
// returned to be compacted and the keyspace starts over. Deletions spread
// thinly over a large range (single rows here and there) never get there:
// they cost reads little and would cost a rewrite of the whole range.
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
  static constexpr double kDenseShare = 0.1;

  // Notes the deletions of `batch`, which `store` has committed. Returns
  // the key ranges [lo, hi) to compact now.
  std::vector<std::pair<std::string, std::string>> Note(const WriteBatch& batch,
                                                        KvStore* store);

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
