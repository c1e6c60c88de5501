#include "engine/storage/pread_env.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "engine/storage/crc32c.h"

namespace levelql {
namespace {

leveldb::Status PosixError(const std::string& name, int error) {
  if (error == ENOENT) return leveldb::Status::NotFound(name, strerror(error));
  return leveldb::Status::IOError(name, strerror(error));
}

class PreadFile : public leveldb::RandomAccessFile {
 public:
  // `fd` < 0: too many files are open, so each read opens the file.
  PreadFile(std::string name, int fd) : name_(std::move(name)), fd_(fd) {}
  ~PreadFile() override {
    if (fd_ >= 0) {
      ::close(fd_);
      open_fds_.fetch_add(1);
    }
  }

  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    int fd = fd_;
    if (fd < 0) {
      fd = ::open(name_.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return PosixError(name_, errno);
    }
    leveldb::Status s;
    const ssize_t r = ::pread(fd, scratch, n, static_cast<off_t>(offset));
    *result = leveldb::Slice(scratch, r < 0 ? 0 : static_cast<size_t>(r));
    if (r < 0) s = PosixError(name_, errno);
    if (fd_ < 0) ::close(fd);
    // A short read is LevelDB's to report ("truncated block read").
    if (s.ok() && static_cast<size_t>(r) == n && !IsFooter(scratch, n) &&
        !TrailerMatches(scratch, n)) {
      s = leveldb::Status::Corruption("block checksum mismatch", name_);
    }
    return s;
  }

  // Takes one of the descriptors table files may keep open (a fifth of
  // RLIMIT_NOFILE, as LevelDB's own limit); false when none is left.
  static bool AcquireFd() {
    if (open_fds_.fetch_sub(1) > 0) return true;
    open_fds_.fetch_add(1);
    return false;
  }

 private:
  static constexpr size_t kTrailer = 5;  // type byte, fixed32 masked CRC

  static uint64_t Fixed64(const char* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
      v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
  }

  // The footer: 48 bytes ending in LevelDB's table magic number. (Read at
  // the size the MANIFEST records, which is not the file's end when bytes
  // were appended to it.)
  static bool IsFooter(const char* p, size_t n) {
    return n == 48 && Fixed64(p + 40) == 0xdb4775248b80fb57ull;
  }

  static bool TrailerMatches(const char* block, size_t n) {
    if (n < kTrailer) return false;
    const auto* t = reinterpret_cast<const unsigned char*>(block + n - 4);
    const uint32_t stored = uint32_t{t[0]} | (uint32_t{t[1]} << 8) |
                            (uint32_t{t[2]} << 16) | (uint32_t{t[3]} << 24);
    return crc32c::Unmask(stored) == crc32c::Value(block, n - 4);
  }

  static int MaxOpenFds() {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 50;
    if (limit.rlim_cur == RLIM_INFINITY) return 1 << 20;
    return static_cast<int>(limit.rlim_cur / 5);
  }

  static inline std::atomic<int> open_fds_{MaxOpenFds()};
  const std::string name_;
  const int fd_;
};

}  // namespace

leveldb::Status PreadEnv::NewRandomAccessFile(
    const std::string& name, leveldb::RandomAccessFile** result) {
  *result = nullptr;
  int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return PosixError(name, errno);
  if (!PreadFile::AcquireFd()) {
    ::close(fd);
    fd = -1;
  }
  *result = new PreadFile(name, fd);
  return leveldb::Status::OK();
}

PreadEnv* PreadEnv::Get() {
  static PreadEnv* env = new PreadEnv;
  return env;
}

}  // namespace levelql
