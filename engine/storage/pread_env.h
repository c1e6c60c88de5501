// The leveldb::Env levelql opens a database directory with: LevelDB's
// default Env, except that table files are read by PreadFile (below).
//
// Table files read with pread, as LevelDB does past its mmap limit, rather
// than mapped. LevelDB maps up to 1000 table files on 64-bit systems, and
// every page a scan touches then counts in the process's RSS until the
// table is closed: a full scan of a 100 MB table adds 100 MB to RSS, which
// no memory budget (the sort's, issue 12) can account for. Read with pread,
// the pages stay in the kernel's page cache, outside the process; decoded
// blocks are cached in the block cache as before.
//
// Every read but the footer's is a block and its 5-byte trailer (a type
// byte, then the masked CRC-32C of the block and the type byte), and this
// file checks that CRC itself, with the CPU's crc32 instruction (crc32c.h),
// so reads through it ask LevelDB for no check of their own
// (ReadOptions::verify_checksums false). A
// block that fails it is a Corruption error, never handed to LevelDB's
// decoding (a damaged key there can abort the process). The footer (48
// bytes ending in a magic number) has no CRC; LevelDB checks its magic.
//
// Used by the LevelDB store (kv_store.cc) and by the benchmark's raw
// LevelDB store, which must read tables exactly as levelql does.
#ifndef LEVELQL_ENGINE_STORAGE_PREAD_ENV_H_
#define LEVELQL_ENGINE_STORAGE_PREAD_ENV_H_

#include <leveldb/env.h>

#include <string>

namespace levelql {

class PreadEnv : public leveldb::EnvWrapper {
 public:
  PreadEnv() : EnvWrapper(leveldb::Env::Default()) {}

  leveldb::Status NewRandomAccessFile(
      const std::string& name, leveldb::RandomAccessFile** result) override;

  // Never destroyed, like leveldb::Env::Default().
  static PreadEnv* Get();
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_PREAD_ENV_H_
