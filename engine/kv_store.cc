#include "engine/kv_store.h"

#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/helpers/memenv.h>
#include <leveldb/write_batch.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "engine/leveldb_store.h"

namespace levelql {
namespace {

leveldb::Slice ToSlice(std::string_view s) {
  return leveldb::Slice(s.data(), s.size());
}

Status FromLevelDb(const leveldb::Status& s) {
  if (s.ok()) return Status::OK();
  if (s.IsNotFound()) return Status::NotFound(s.ToString());
  if (s.IsCorruption()) return Status::Corruption(s.ToString());
  if (s.IsInvalidArgument()) return Status::InvalidArgument(s.ToString());
  if (s.IsNotSupportedError()) return Status::NotSupported(s.ToString());
  return Status::IOError(s.ToString());
}

// LevelDB holds PATH/LOCK (an fcntl lock) while a database is open and
// says so in terms of the lock file: "lock PATH/LOCK: Resource temporarily
// unavailable" when another process holds it, "... already held by process"
// when this process does (LevelDB also keeps a set of the locks it holds,
// because fcntl locks do not exclude a second open in the same process).
// Returns the message levelql gives instead, or "" for other errors.
std::string InUseMessage(const leveldb::Status& s, const std::string& path) {
  if (!s.IsIOError()) return "";
  const std::string lock_file = path + "/LOCK";
  const std::string text = s.ToString();
  const std::string prefix = "lock " + lock_file + ": ";
  size_t at = text.find(prefix);
  if (at == std::string::npos) return "";
  std::string_view reason = std::string_view(text).substr(at + prefix.size());
  const std::string design =
      ". levelql is single-process by design: one process opens a database, "
      "and its threads share that Database object. ";
  if (reason == "already held by process") {
    return "the database at " + path +
           " is already open in this process (its lock file " + lock_file +
           " is held)" + design +
           "Open it once and give that Database to every thread.";
  }
  if (reason == std::strerror(EAGAIN) || reason == std::strerror(EACCES)) {
    return "the database at " + path +
           " is in use by another process, which holds its lock file " +
           lock_file + design +
           "Close the other process, or open another database.";
  }
  return "";
}

class LevelDbSnapshot : public KvSnapshot {
 public:
  LevelDbSnapshot(leveldb::DB* db) : db_(db), snap_(db->GetSnapshot()) {}
  ~LevelDbSnapshot() override { db_->ReleaseSnapshot(snap_); }
  const leveldb::Snapshot* get() const { return snap_; }

 private:
  leveldb::DB* db_;
  const leveldb::Snapshot* snap_;
};

class LevelDbIterator : public KvIterator {
 public:
  explicit LevelDbIterator(leveldb::Iterator* it) : it_(it) {}
  bool Valid() const override { return it_->Valid(); }
  void Seek(std::string_view target) override { it_->Seek(ToSlice(target)); }
  void SeekToFirst() override { it_->SeekToFirst(); }
  void SeekToLast() override { it_->SeekToLast(); }
  void Next() override { it_->Next(); }
  void Prev() override { it_->Prev(); }
  std::string_view key() const override {
    leveldb::Slice k = it_->key();
    return {k.data(), k.size()};
  }
  std::string_view value() const override {
    leveldb::Slice v = it_->value();
    return {v.data(), v.size()};
  }
  Status status() const override { return FromLevelDb(it_->status()); }

 private:
  std::unique_ptr<leveldb::Iterator> it_;
};

class LevelDbStore : public KvStore {
 public:
  ~LevelDbStore() override {
    db_.reset();  // before the env, cache and filter it uses
  }

  static Result<std::unique_ptr<KvStore>> Open(const std::string& path,
                                               const Options& options,
                                               leveldb::Env* env) {
    auto store = std::unique_ptr<LevelDbStore>(new LevelDbStore());
    leveldb::Options lo;
    std::string db_path = path;
    if (env != nullptr) {
      lo.env = env;
      lo.create_if_missing = options.create_if_missing;
    } else if (path == ":memory:") {
      store->env_.reset(leveldb::NewMemEnv(leveldb::Env::Default()));
      lo.env = store->env_.get();
      db_path = "/levelql-memory";
      lo.create_if_missing = true;
    } else {
      lo.create_if_missing = options.create_if_missing;
    }
    if (options.bloom_bits_per_key > 0) {
      store->filter_.reset(
          leveldb::NewBloomFilterPolicy(options.bloom_bits_per_key));
      lo.filter_policy = store->filter_.get();
    }
    store->cache_.reset(leveldb::NewLRUCache(options.block_cache_bytes));
    // A read error while recovering the log must fail the open, not be
    // taken as the end of the log (which would drop later writes).
    lo.paranoid_checks = true;
    lo.block_cache = store->cache_.get();
    lo.compression = options.compression ? leveldb::kSnappyCompression
                                         : leveldb::kNoCompression;
    leveldb::DB* db = nullptr;
    leveldb::Status s = leveldb::DB::Open(lo, db_path, &db);
    if (!s.ok()) {
      if (std::string in_use = InUseMessage(s, db_path); !in_use.empty()) {
        return Status::IOError(in_use);
      }
      Status st = FromLevelDb(s);
      return Status(st.code() == Status::Code::kInvalidArgument
                        ? Status::IOError("cannot open database '" + path +
                                          "': " + s.ToString())
                        : st);
    }
    store->db_.reset(db);
    return std::unique_ptr<KvStore>(std::move(store));
  }

  std::shared_ptr<const KvSnapshot> GetSnapshot() override {
    return std::make_shared<LevelDbSnapshot>(db_.get());
  }

  Status Get(const KvSnapshot* snapshot, std::string_view key,
             std::string* value) override {
    leveldb::ReadOptions ro;
    ro.verify_checksums = true;  // a damaged block is an error, not a crash
    if (snapshot) {
      ro.snapshot = static_cast<const LevelDbSnapshot*>(snapshot)->get();
    }
    return FromLevelDb(db_->Get(ro, ToSlice(key), value));
  }

  Status Write(const WriteBatch& batch, bool sync) override {
    leveldb::WriteBatch wb;
    for (const WriteBatch::Op& op : batch.ops()) {
      if (op.is_delete) {
        wb.Delete(op.key);
      } else {
        wb.Put(op.key, op.value);
      }
    }
    // After a failed log write LevelDB's log may hold a torn record that
    // makes recovery skip later records: refuse further writes instead of
    // acknowledging ones a reopen could lose.
    if (write_failed_.load()) {
      return Status::IOError(
          "an earlier write failed; close and reopen the database");
    }
    leveldb::WriteOptions wo;
    wo.sync = sync;
    Status st = FromLevelDb(db_->Write(wo, &wb));
    if (!st.ok()) write_failed_.store(true);
    return st;
  }

  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot* snapshot) override {
    leveldb::ReadOptions ro;
    ro.verify_checksums = true;  // a damaged block is an error, not a crash
    if (snapshot) {
      ro.snapshot = static_cast<const LevelDbSnapshot*>(snapshot)->get();
    }
    return std::make_unique<LevelDbIterator>(db_->NewIterator(ro));
  }

 private:
  LevelDbStore() = default;

  std::unique_ptr<leveldb::Env> env_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<leveldb::DB> db_;
  std::atomic<bool> write_failed_{false};
};

}  // namespace

Result<std::unique_ptr<KvStore>> OpenLevelDbStore(const std::string& path,
                                                  const Options& options) {
  return LevelDbStore::Open(path, options, nullptr);
}

Result<std::unique_ptr<KvStore>> OpenLevelDbStoreWithEnv(
    const std::string& path, const Options& options, leveldb::Env* env) {
  return LevelDbStore::Open(path, options, env);
}

}  // namespace levelql
