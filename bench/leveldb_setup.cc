#include "bench/leveldb_setup.h"

#include "engine/storage/pread_env.h"
#include "levelql/database.h"

namespace levelql::bench {

LevelDbSetup::LevelDbSetup(size_t cache_bytes) {
  Options defaults;
  cache.reset(leveldb::NewLRUCache(cache_bytes));
  if (defaults.bloom_bits_per_key > 0) {
    filter.reset(leveldb::NewBloomFilterPolicy(defaults.bloom_bits_per_key));
    options.filter_policy = filter.get();
  }
  options.env = PreadEnv::Get();  // levelql's reader of table files
  options.create_if_missing = true;
  options.paranoid_checks = true;
  options.block_cache = cache.get();
  options.compression = defaults.compression ? leveldb::kSnappyCompression
                                             : leveldb::kNoCompression;
}

leveldb::ReadOptions Reading() {
  leveldb::ReadOptions ro;
  ro.verify_checksums = false;  // PreadEnv checks every block it reads
  return ro;
}

}  // namespace levelql::bench
