#include "engine/storage/kv_store.h"

#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/helpers/memenv.h>
#include <leveldb/write_batch.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "engine/storage/iterator_pool.h"
#include "engine/storage/leveldb_store.h"
#include "engine/storage/pread_env.h"
#include "indexes/key_codec.h"

namespace levelql {
namespace {

leveldb::Slice ToSlice(std::string_view s) {
  return leveldb::Slice(s.data(), s.size());
}

// A Status of the kind of LevelDB's non-OK `s` with message `text`.
Status OfKind(const leveldb::Status& s, std::string text) {
  if (s.IsNotFound()) return Status::NotFound(std::move(text));
  if (s.IsCorruption()) return Status::Corruption(std::move(text));
  if (s.IsInvalidArgument()) return Status::InvalidArgument(std::move(text));
  if (s.IsNotSupportedError()) return Status::NotSupported(std::move(text));
  return Status::IOError(std::move(text));
}

Status FromLevelDb(const leveldb::Status& s) {
  if (s.ok()) return Status::OK();
  return OfKind(s, s.ToString());
}

// A failure to open the database at `path`: LevelDB's message without its
// own kind ("NotFound: "; the Status carries one) after the path. An
// invalid argument (no database, create_if_missing off) is the path's
// problem: an IOError.
Status OpenError(const std::string& path, const leveldb::Status& s) {
  std::string message = s.ToString();
  if (size_t colon = message.find(": "); colon != std::string::npos) {
    message.erase(0, colon + 2);
  }
  std::string text = "cannot open database '" + path + "': " + message;
  if (s.IsInvalidArgument()) return Status::IOError(std::move(text));
  return OfKind(s, std::move(text));
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
  LevelDbSnapshot(leveldb::DB* db, IteratorPool* pool) : db_(db) {
    epoch_ = pool->Tagged([&] { snap_ = db->GetSnapshot(); });
  }
  ~LevelDbSnapshot() override { db_->ReleaseSnapshot(snap_); }
  const leveldb::Snapshot* get() const { return snap_; }
  // The write epoch it holds (iterator_pool.h), or IteratorPool::kNoEpoch.
  uint64_t epoch() const { return epoch_; }

 private:
  leveldb::DB* db_;
  const leveldb::Snapshot* snap_ = nullptr;
  uint64_t epoch_ = IteratorPool::kNoEpoch;
};

// A LevelDB iterator that goes back to its store's pool when it ends. One
// taken from the pool stands wherever its last reader left it, so it
// reports no entry until it is positioned.
class LevelDbIterator : public KvIterator {
 public:
  // `uses`: the reads `it` served before this one.
  LevelDbIterator(leveldb::Iterator* it, IteratorPool* pool, uint64_t epoch,
                  int uses)
      : it_(it), pool_(pool), epoch_(epoch), uses_(uses + 1) {}
  ~LevelDbIterator() override { pool_->Give(it_, epoch_, uses_); }
  LevelDbIterator(const LevelDbIterator&) = delete;
  LevelDbIterator& operator=(const LevelDbIterator&) = delete;

  bool Valid() const override { return positioned_ && it_->Valid(); }
  void Seek(std::string_view target) override {
    positioned_ = true;
    it_->Seek(ToSlice(target));
  }
  void SeekToFirst() override {
    positioned_ = true;
    it_->SeekToFirst();
  }
  void SeekToLast() override {
    positioned_ = true;
    it_->SeekToLast();
  }
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
  leveldb::Iterator* it_;  // owned; given to pool_ at the end
  IteratorPool* pool_;
  uint64_t epoch_;
  int uses_;
  bool positioned_ = false;
};

class LevelDbStore : public KvStore {
 public:
  ~LevelDbStore() override {
    pool_.Clear();  // idle iterators hold the database's versions
    db_.reset();    // before the env, cache and filter it uses
  }

  // `write_buffer_bytes`: LevelDB's memtable size (0: its default, 4 MiB).
  static Result<std::unique_ptr<KvStore>> Open(const std::string& path,
                                               const Options& options,
                                               leveldb::Env* env,
                                               size_t write_buffer_bytes = 0) {
    auto store = std::unique_ptr<LevelDbStore>(new LevelDbStore());
    leveldb::Options lo;
    std::string db_path = path;
    // A read-only open never makes a database (LevelDB would create the
    // directory and its files before levelql could refuse the empty one).
    const bool create = options.create_if_missing && !options.read_only;
    if (env != nullptr) {
      lo.env = env;
      lo.create_if_missing = create;
    } else if (path == ":memory:") {
      if (options.read_only) {
        return Status::InvalidArgument(
            "a read-only in-memory database would be empty: open a database "
            "directory read-only");
      }
      store->env_.reset(leveldb::NewMemEnv(leveldb::Env::Default()));
      lo.env = store->env_.get();
      db_path = "/levelql-memory";
      lo.create_if_missing = true;
    } else {
      lo.env = PreadEnv::Get();
      store->blocks_verified_ = true;
      lo.create_if_missing = create;
      const bool exists = lo.env->FileExists(path + "/CURRENT");
      if (options.read_only && !exists) {
        return Status::NotFound("cannot open database '" + path +
                                "' read-only: there is no database there (a "
                                "read-only open creates none)");
      }
      // LevelDB makes the directory before it finds no database there.
      if (!create && !exists) {
        return Status::IOError("cannot open database '" + path +
                               "': there is no database there, and "
                               "create_if_missing is off");
      }
      // A new database goes in a new or empty directory, never among
      // other files (a typo in a path must not scatter LevelDB's files
      // through someone's folder).
      std::vector<std::string> children;
      if (!exists && lo.env->GetChildren(path, &children).ok()) {
        for (const std::string& child : children) {
          if (child == "." || child == ".." || child == "LOCK" ||
              child == "LOG" || child == "LOG.old") {
            continue;
          }
          return Status::IOError(
              "cannot create a database in '" + path +
              "': it is a directory that holds other files (" + child +
              ") and no levelql database; use a new or empty directory");
        }
      }
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
    if (write_buffer_bytes > 0) lo.write_buffer_size = write_buffer_bytes;
    lo.block_cache = store->cache_.get();
    lo.compression = options.compression ? leveldb::kSnappyCompression
                                         : leveldb::kNoCompression;
    leveldb::DB* db = nullptr;
    leveldb::Status s = leveldb::DB::Open(lo, db_path, &db);
    if (!s.ok()) {
      if (std::string in_use = InUseMessage(s, db_path); !in_use.empty()) {
        return Status::IOError(in_use);
      }
      return OpenError(path, s);
    }
    store->db_.reset(db);
    return std::unique_ptr<KvStore>(std::move(store));
  }

  std::shared_ptr<const KvSnapshot> GetSnapshot() override {
    return std::make_shared<LevelDbSnapshot>(db_.get(), &pool_);
  }

  Status Get(const KvSnapshot* snapshot, std::string_view key,
             std::string* value) override {
    leveldb::ReadOptions ro;
    // A damaged block is an error, not a crash: PreadFile checks blocks
    // read from files; LevelDB checks them in other environments.
    ro.verify_checksums = !blocks_verified_;
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
    Status st;
    {
      IteratorPool::Writing writing(&pool_);
      st = FromLevelDb(db_->Write(wo, &wb));
    }
    if (!st.ok()) write_failed_.store(true);
    return st;
  }

  int64_t ApproximateBytes(std::string_view lo, std::string_view hi) override {
    leveldb::Range range(ToSlice(lo), ToSlice(hi));
    uint64_t size = 0;
    db_->GetApproximateSizes(&range, 1, &size);
    return static_cast<int64_t>(size);
  }

  void CompactRange(std::string_view lo, std::string_view hi) override {
    const leveldb::Slice begin = ToSlice(lo), end = ToSlice(hi);
    db_->CompactRange(&begin, hi.empty() ? nullptr : &end);
    // Idle iterators still read the files the compaction replaced.
    pool_.Clear();
  }

  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot* snapshot) override {
    leveldb::ReadOptions ro;
    // A damaged block is an error, not a crash: PreadFile checks blocks
    // read from files; LevelDB checks them in other environments.
    ro.verify_checksums = !blocks_verified_;
    // An idle iterator reading the same state, else a new one (tagged
    // with the state it reads, for the pool).
    const auto* snap = static_cast<const LevelDbSnapshot*>(snapshot);
    uint64_t epoch = snap ? snap->epoch() : pool_.Current();
    int uses = 0;
    if (leveldb::Iterator* idle = pool_.Take(epoch, &uses)) {
      return std::make_unique<LevelDbIterator>(idle, &pool_, epoch, uses);
    }
    leveldb::Iterator* it = nullptr;
    if (snap) {
      ro.snapshot = snap->get();
      it = db_->NewIterator(ro);
    } else {
      epoch = pool_.Tagged([&] { it = db_->NewIterator(ro); });
    }
    return std::make_unique<LevelDbIterator>(it, &pool_, epoch, 0);
  }

 private:
  LevelDbStore() = default;

  std::unique_ptr<leveldb::Env> env_;
  bool blocks_verified_ = false;  // table files read through PreadFile
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<leveldb::DB> db_;
  IteratorPool pool_;  // ended iterators, reused while no write intervenes
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

Result<std::unique_ptr<KvStore>> OpenScratchLevelDbStore(
    const std::string& path, size_t memory_bytes) {
  Options options;
  options.block_cache_bytes = memory_bytes / 2;
  options.bloom_bits_per_key = 0;
  // LevelDB takes at least 64 KiB for its memtable.
  return LevelDbStore::Open(path, options, nullptr,
                            std::max<size_t>(memory_bytes / 2, 64 << 10));
}

}  // namespace levelql

namespace levelql {

void SeekPrefix(KvIterator* it, std::string_view prefix) {
  it->SetBounds(prefix, keys::PrefixSuccessor(prefix));
  it->Seek(prefix);
}

void CompactPrefix(KvStore* store, std::string_view prefix) {
  store->CompactRange(prefix, keys::PrefixSuccessor(prefix));
}

void KvStore::MultiGet(const KvSnapshot* snapshot,
                       const std::vector<std::string>& keys,
                       std::vector<std::string>* values,
                       std::vector<Status>* statuses) {
  values->resize(keys.size());
  statuses->resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    (*statuses)[i] = Get(snapshot, keys[i], &(*values)[i]);
  }
}

std::shared_ptr<const KvSnapshot> KvStore::GetSnapshotWithPrefix(
    std::string_view prefix,
    std::vector<std::pair<std::string, std::string>>* entries, Status* status) {
  auto snapshot = GetSnapshot();
  entries->clear();
  auto it = NewIterator(snapshot.get());
  for (SeekPrefix(it.get(), prefix);
       it->Valid() && it->key().starts_with(prefix); it->Next()) {
    entries->emplace_back(it->key(), it->value());
  }
  *status = it->status();
  return snapshot;
}

}  // namespace levelql
