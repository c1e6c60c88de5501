#include "engine/exec/derived_spill.h"

#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "engine/storage/leveldb_store.h"
#include "engine/storage/merged_store.h"

namespace levelql {

Result<std::shared_ptr<DerivedSpill>> DerivedSpill::Create(
    KvStore* base, int64_t memory_bytes) {
  const std::string why =
      " for the rows of a view or subquery in FROM past sort_memory_bytes "
      "(set TMPDIR to a writable directory, or raise sort_memory_bytes)";
  std::error_code ec;
  const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  if (ec) {
    return Status::IOError("no temporary directory (TMPDIR): " + ec.message() +
                           why);
  }
  std::string dir = (tmp / "levelql-derived-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) {
    return Status::IOError("cannot make a directory under " + tmp.string() +
                           ": " + std::strerror(errno) + why);
  }
  std::shared_ptr<DerivedSpill> spill(new DerivedSpill());
  spill->dir_ = dir;  // removed by the destructor from here on
  // Its memtable and cache take about the budget, between 128 KiB and
  // 8 MiB (LevelDB's default memtable, 4 MiB, and as much cache): the rows
  // are here because they did not fit in memory.
  LQ_ASSIGN_OR_RETURN(
      spill->disk_,
      OpenScratchLevelDbStore(
          dir, static_cast<size_t>(std::clamp<int64_t>(
                   memory_bytes, int64_t{128} << 10, int64_t{8} << 20))));
  spill->merged_ = std::make_unique<MergedStore>(base, spill->disk_.get());
  return spill;
}

DerivedSpill::~DerivedSpill() {
  retired_.clear();
  merged_.reset();
  disk_.reset();  // closes the database before its files go
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

}  // namespace levelql
