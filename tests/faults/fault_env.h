// FaultEnv: a leveldb::Env that fails chosen I/O operations and simulates a
// power loss, for the fault-injection and power-loss tests.
//
// Wraps another Env (usually leveldb::NewMemEnv, so every test starts from a
// private, fast file system). Three kinds of operation are counted:
//   kWrite - WritableFile::Append, creating a writable file, RenameFile
//   kSync  - WritableFile::Sync
//   kRead  - SequentialFile::Read, RandomAccessFile::Read
// FailNth(kind, n) makes the n-th operation of that kind from now on fail
// with an IOError (just that one; later ones succeed again), the way
// SQLite's I/O-error tests do. A failing Append writes nothing.
//
// Power loss: the Env remembers, per file, how many bytes were synced.
// SetFilesystemActive(false) makes every later write, sync, rename and
// remove vanish silently (the machine is "off" while the database object is
// torn down); DropUnsyncedData() then cuts every file back to its synced
// length, as the disk would look after the power came back.
//
// Thread-safe: LevelDB calls it from its background thread too.
#ifndef LEVELQL_TESTS_FAULTS_FAULT_ENV_H_
#define LEVELQL_TESTS_FAULTS_FAULT_ENV_H_

#include <leveldb/env.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace levelql::reliability {

class FaultEnv : public leveldb::EnvWrapper {
 public:
  enum class Kind { kWrite = 0, kSync = 1, kRead = 2 };

  // `base` is borrowed and must outlive this Env.
  explicit FaultEnv(leveldb::Env* base) : leveldb::EnvWrapper(base) {}

  // Arms one fault: the n-th (1-based) operation of `kind` counted from now
  // fails. n <= 0 disarms.
  void FailNth(Kind kind, int64_t n);
  void Disarm() { FailNth(Kind::kWrite, 0); }
  // Faults actually injected since the last FailNth.
  int64_t injected() const { return injected_.load(); }
  // Operations of each kind since the last FailNth.
  int64_t seen(Kind kind) const { return seen_[static_cast<int>(kind)]; }
  int64_t total_injected() const { return total_injected_.load(); }

  void SetFilesystemActive(bool active) { active_ = active; }
  // Runs `action` in the n-th append to a LevelDB log file from now on,
  // before its bytes are written: a moment inside a statement's write that
  // is the same on every run (log appends come from the writing thread
  // only). n <= 0 disarms. The power-loss test cuts the power there, the
  // crash test's child kills itself.
  void AtLogAppend(int64_t n, std::function<void()> action);
  void CutPowerAtLogAppend(int64_t n) {
    AtLogAppend(n, [this] { active_ = false; });
  }
  void CountLogAppend(const std::string& fname);
  bool filesystem_active() const { return active_.load(); }
  // Cuts every file written through this Env back to its synced length
  // (files never synced become empty). Call with the database closed.
  leveldb::Status DropUnsyncedData();

  // Called by the file wrappers: true when this operation must fail.
  bool ShouldFail(Kind kind);
  void RecordAppend(const std::string& fname, size_t bytes);
  void RecordSync(const std::string& fname);

  leveldb::Status NewSequentialFile(const std::string& f,
                                    leveldb::SequentialFile** r) override;
  leveldb::Status NewRandomAccessFile(const std::string& f,
                                      leveldb::RandomAccessFile** r) override;
  leveldb::Status NewWritableFile(const std::string& f,
                                  leveldb::WritableFile** r) override;
  leveldb::Status NewAppendableFile(const std::string& f,
                                    leveldb::WritableFile** r) override;
  leveldb::Status RemoveFile(const std::string& f) override;
  leveldb::Status RenameFile(const std::string& src,
                             const std::string& target) override;

 private:
  struct FileState {
    uint64_t size = 0;    // bytes written
    uint64_t synced = 0;  // bytes known to be on disk
  };

  std::mutex mu_;
  std::map<std::string, FileState> files_;  // guarded by mu_
  std::atomic<int64_t> log_appends_left_{0};
  std::function<void()> log_append_action_;
  std::atomic<int> fail_kind_{0};
  std::atomic<int64_t> fail_at_{0};
  std::atomic<int64_t> seen_[3] = {0, 0, 0};
  std::atomic<int64_t> injected_{0};
  std::atomic<int64_t> total_injected_{0};
  std::atomic<bool> active_{true};
};

}  // namespace levelql::reliability

#endif  // LEVELQL_TESTS_FAULTS_FAULT_ENV_H_
