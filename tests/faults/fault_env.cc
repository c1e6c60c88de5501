#include "tests/faults/fault_env.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace levelql::reliability {
namespace {

leveldb::Status Injected(const char* what, const std::string& fname) {
  if (std::getenv("LEVELQL_FAULT_VERBOSE")) {
    std::fprintf(stderr, "[FaultEnv] injected %s fault: %s\n", what,
                 fname.c_str());
  }
  return leveldb::Status::IOError(fname,
                                  std::string("injected ") + what + " fault");
}

class FaultSequentialFile : public leveldb::SequentialFile {
 public:
  FaultSequentialFile(FaultEnv* env, std::string fname,
                      leveldb::SequentialFile* base)
      : env_(env), fname_(std::move(fname)), base_(base) {}
  leveldb::Status Read(size_t n, leveldb::Slice* result,
                       char* scratch) override {
    if (env_->ShouldFail(FaultEnv::Kind::kRead)) {
      *result = leveldb::Slice();
      return Injected("read", fname_);
    }
    return base_->Read(n, result, scratch);
  }
  leveldb::Status Skip(uint64_t n) override { return base_->Skip(n); }

 private:
  FaultEnv* env_;
  std::string fname_;
  std::unique_ptr<leveldb::SequentialFile> base_;
};

class FaultRandomAccessFile : public leveldb::RandomAccessFile {
 public:
  FaultRandomAccessFile(FaultEnv* env, std::string fname,
                        leveldb::RandomAccessFile* base)
      : env_(env), fname_(std::move(fname)), base_(base) {}
  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    if (env_->ShouldFail(FaultEnv::Kind::kRead)) {
      *result = leveldb::Slice();
      return Injected("read", fname_);
    }
    return base_->Read(offset, n, result, scratch);
  }

 private:
  FaultEnv* env_;
  std::string fname_;
  std::unique_ptr<leveldb::RandomAccessFile> base_;
};

class FaultWritableFile : public leveldb::WritableFile {
 public:
  FaultWritableFile(FaultEnv* env, std::string fname,
                    leveldb::WritableFile* base)
      : env_(env), fname_(std::move(fname)), base_(base) {}
  leveldb::Status Append(const leveldb::Slice& data) override {
    env_->CountLogAppend(fname_);
    if (!env_->filesystem_active()) return leveldb::Status::OK();  // lost
    if (env_->ShouldFail(FaultEnv::Kind::kWrite)) {
      return Injected("write", fname_);
    }
    leveldb::Status s = base_->Append(data);
    if (s.ok()) env_->RecordAppend(fname_, data.size());
    return s;
  }
  leveldb::Status Close() override { return base_->Close(); }
  leveldb::Status Flush() override { return base_->Flush(); }
  leveldb::Status Sync() override {
    if (!env_->filesystem_active()) return leveldb::Status::OK();
    if (env_->ShouldFail(FaultEnv::Kind::kSync)) {
      return Injected("sync", fname_);
    }
    leveldb::Status s = base_->Sync();
    if (s.ok()) env_->RecordSync(fname_);
    return s;
  }

 private:
  FaultEnv* env_;
  std::string fname_;
  std::unique_ptr<leveldb::WritableFile> base_;
};

}  // namespace

void FaultEnv::FailNth(Kind kind, int64_t n) {
  for (auto& s : seen_) s = 0;
  injected_ = 0;
  fail_kind_ = static_cast<int>(kind);
  fail_at_ = n;
}

bool FaultEnv::ShouldFail(Kind kind) {
  int64_t n = ++seen_[static_cast<int>(kind)];
  if (fail_at_.load() <= 0 || fail_kind_.load() != static_cast<int>(kind) ||
      n != fail_at_.load()) {
    return false;
  }
  ++injected_;
  ++total_injected_;
  return true;
}

void FaultEnv::AtLogAppend(int64_t n, std::function<void()> action) {
  log_appends_left_ = 0;
  log_append_action_ = std::move(action);
  log_appends_left_ = n;
}

void FaultEnv::CountLogAppend(const std::string& fname) {
  if (fname.size() < 4 || fname.compare(fname.size() - 4, 4, ".log") != 0) {
    return;
  }
  if (log_appends_left_.load() > 0 && --log_appends_left_ == 0) {
    log_append_action_();
  }
}

void FaultEnv::RecordAppend(const std::string& fname, size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  files_[fname].size += bytes;
}

void FaultEnv::RecordSync(const std::string& fname) {
  std::lock_guard<std::mutex> lock(mu_);
  FileState& f = files_[fname];
  f.synced = f.size;
}

leveldb::Status FaultEnv::NewSequentialFile(const std::string& f,
                                            leveldb::SequentialFile** r) {
  leveldb::SequentialFile* base = nullptr;
  leveldb::Status s = target()->NewSequentialFile(f, &base);
  *r = s.ok() ? new FaultSequentialFile(this, f, base) : nullptr;
  return s;
}

leveldb::Status FaultEnv::NewRandomAccessFile(const std::string& f,
                                              leveldb::RandomAccessFile** r) {
  leveldb::RandomAccessFile* base = nullptr;
  leveldb::Status s = target()->NewRandomAccessFile(f, &base);
  *r = s.ok() ? new FaultRandomAccessFile(this, f, base) : nullptr;
  return s;
}

leveldb::Status FaultEnv::NewWritableFile(const std::string& f,
                                          leveldb::WritableFile** r) {
  *r = nullptr;
  if (active_ && ShouldFail(Kind::kWrite)) return Injected("create", f);
  leveldb::WritableFile* base = nullptr;
  leveldb::Status s = target()->NewWritableFile(f, &base);
  if (!s.ok()) return s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    files_[f] = FileState{};
  }
  *r = new FaultWritableFile(this, f, base);
  return s;
}

leveldb::Status FaultEnv::NewAppendableFile(const std::string& f,
                                            leveldb::WritableFile** r) {
  *r = nullptr;
  if (active_ && ShouldFail(Kind::kWrite)) return Injected("create", f);
  uint64_t size = 0;
  if (!target()->GetFileSize(f, &size).ok()) size = 0;
  leveldb::WritableFile* base = nullptr;
  leveldb::Status s = target()->NewAppendableFile(f, &base);
  if (!s.ok()) return s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(f);
    if (it == files_.end()) files_[f] = FileState{size, size};
  }
  *r = new FaultWritableFile(this, f, base);
  return s;
}

leveldb::Status FaultEnv::RemoveFile(const std::string& f) {
  if (!active_) return leveldb::Status::OK();  // never reached the disk
  leveldb::Status s = target()->RemoveFile(f);
  if (s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    files_.erase(f);
  }
  return s;
}

leveldb::Status FaultEnv::RenameFile(const std::string& src,
                                     const std::string& target_name) {
  if (!active_) return leveldb::Status::OK();
  if (ShouldFail(Kind::kWrite)) return Injected("rename", src);
  leveldb::Status s = target()->RenameFile(src, target_name);
  if (s.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(src);
    if (it != files_.end()) {
      files_[target_name] = it->second;
      files_.erase(src);
    }
  }
  return s;
}

leveldb::Status FaultEnv::DropUnsyncedData() {
  std::map<std::string, FileState> files;
  {
    std::lock_guard<std::mutex> lock(mu_);
    files = files_;
  }
  for (const auto& [name, state] : files) {
    if (!target()->FileExists(name)) continue;
    uint64_t size = 0;
    leveldb::Status s = target()->GetFileSize(name, &size);
    if (!s.ok()) return s;
    if (size <= state.synced) continue;
    // Read the synced prefix, then rewrite the file with it alone.
    std::string keep;
    if (state.synced > 0) {
      leveldb::SequentialFile* in = nullptr;
      s = target()->NewSequentialFile(name, &in);
      if (!s.ok()) return s;
      std::unique_ptr<leveldb::SequentialFile> owned(in);
      std::vector<char> scratch(state.synced);
      leveldb::Slice got;
      s = in->Read(state.synced, &got, scratch.data());
      if (!s.ok()) return s;
      keep.assign(got.data(), got.size());
    }
    leveldb::WritableFile* out = nullptr;
    s = target()->NewWritableFile(name, &out);
    if (!s.ok()) return s;
    std::unique_ptr<leveldb::WritableFile> owned_out(out);
    s = out->Append(keep);
    if (s.ok()) s = out->Close();
    if (!s.ok()) return s;
    std::lock_guard<std::mutex> lock(mu_);
    files_[name] = FileState{keep.size(), keep.size()};
  }
  return leveldb::Status::OK();
}

}  // namespace levelql::reliability
