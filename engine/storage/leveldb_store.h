// LevelDB-specific ways to open a store: for tests and tools that need to
// control the file system (fault injection, simulated power loss), and for
// a statement's scratch database. The rest of the engine sees only
// kv_store.h.
#ifndef LEVELQL_ENGINE_STORAGE_LEVELDB_STORE_H_
#define LEVELQL_ENGINE_STORAGE_LEVELDB_STORE_H_

#include <leveldb/env.h>

#include "engine/storage/kv_store.h"

namespace levelql {

// Opens LevelDB at `path` through `env` (borrowed; must outlive the store).
Result<std::unique_ptr<KvStore>> OpenLevelDbStoreWithEnv(
    const std::string& path, const Options& options, leveldb::Env* env);

// A new LevelDB database at `path` (an empty directory) that a statement
// writes and reads once (derived_spill.h): about `memory_bytes` of memory,
// half its memtable, half its block cache; no bloom filter.
Result<std::unique_ptr<KvStore>> OpenScratchLevelDbStore(
    const std::string& path, size_t memory_bytes);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_LEVELDB_STORE_H_
