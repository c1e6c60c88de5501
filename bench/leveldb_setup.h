// Raw LevelDB opened as levelql's storage adapter opens it (engine/storage/
// kv_store.cc), with levelql's default Options (include/levelql/database.h):
// the raw store, DrainCompactions and W2s's floor must read and write tables
// exactly as levelql would (a compaction run without the filter policy
// would write tables without bloom filters).
#ifndef LEVELQL_BENCH_LEVELDB_SETUP_H_
#define LEVELQL_BENCH_LEVELDB_SETUP_H_

#include <leveldb/cache.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>

#include <cstddef>
#include <memory>

namespace levelql::bench {

struct LevelDbSetup {
  std::unique_ptr<leveldb::Cache> cache;
  std::unique_ptr<const leveldb::FilterPolicy> filter;
  leveldb::Options options;  // points into cache and filter

  explicit LevelDbSetup(size_t cache_bytes);
};

// levelql reads through PreadEnv, which verifies every block's checksum, and
// asks LevelDB for no check of its own (engine/storage/kv_store.cc); so do
// the bench's raw reads.
leveldb::ReadOptions Reading();

}  // namespace levelql::bench

#endif  // LEVELQL_BENCH_LEVELDB_SETUP_H_
