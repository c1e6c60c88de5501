#include "engine/exec/derived_spill.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "engine/storage/merged_store.h"

namespace levelql {

Result<std::shared_ptr<DerivedSpill>> DerivedSpill::Create(KvStore* base) {
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
  Options options;
  options.block_cache_bytes = 1 << 20;
  options.bloom_bits_per_key = 0;  // read by scans, and by rowid in order
  LQ_ASSIGN_OR_RETURN(spill->disk_, OpenLevelDbStore(dir, options));
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
