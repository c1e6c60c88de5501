#include "engine/catalog/schema_lock.h"

#include <unistd.h>

#include <chrono>
#include <random>
#include <thread>

namespace levelql {
namespace {

// "process PID on host HOST".
std::string ThisProcess() {
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  return "process " + std::to_string(getpid()) + " on host " + host;
}

// Every read of the catalog at one snapshot.
class PinnedStore : public KvStore {
 public:
  PinnedStore(KvStore* base, std::shared_ptr<const KvSnapshot> snapshot)
      : base_(base), snapshot_(std::move(snapshot)) {}
  std::shared_ptr<const KvSnapshot> GetSnapshot() override { return snapshot_; }
  Status Get(const KvSnapshot* snapshot, std::string_view key,
             std::string* value) override {
    return base_->Get(snapshot ? snapshot : snapshot_.get(), key, value);
  }
  Status Write(const WriteBatch&, bool) override {
    return Status::NotSupported("a pinned view of the store is read-only");
  }
  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot* snapshot) override {
    return base_->NewIterator(snapshot ? snapshot : snapshot_.get());
  }

 private:
  KvStore* base_;
  std::shared_ptr<const KvSnapshot> snapshot_;
};

}  // namespace

std::string NewEpoch() {
  std::random_device random;
  char buf[17];
  snprintf(buf, sizeof(buf), "%08x%08x", random(), random());
  return buf;
}

std::shared_ptr<const KvSnapshot> ReadSchemaState(KvStore* store,
                                                  SchemaState* state,
                                                  Status* status) {
  std::vector<std::pair<std::string, std::string>> entries;
  auto snapshot = store->GetSnapshotWithPrefix(kEpochKey, &entries, status);
  *state = SchemaState();
  for (auto& [key, value] : entries) {
    if (key == kEpochKey) state->epoch = std::move(value);
    if (key == kSchemaLockKey) state->lock = std::move(value);
  }
  return snapshot;
}

Status SchemaLocked(const std::string& lock) {
  return Status::Busy("the schema of this database is being changed by " +
                      lock.substr(0, lock.rfind('|')) +  // "<holder>|<nonce>"
                      "; try again when it is done");
}

void ConflictBackoff(int attempt) {
  thread_local std::mt19937 rng(std::random_device{}());
  const int cap = 1 << std::min(attempt + 1, 6);
  std::this_thread::sleep_for(std::chrono::microseconds(
      1000 + std::uniform_int_distribution<int>(0, cap * 1000)(rng)));
}

Result<SchemaLock> LockSchema(KvStore* store, int64_t timeout_ms) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  SchemaLock held;
  held.lock = ThisProcess() + "|" + NewEpoch();
  held.epoch = NewEpoch();
  for (int attempt = 0;; ++attempt) {
    SchemaState state;
    Status st;
    ReadSchemaState(store, &state, &st);
    LQ_RETURN_IF_ERROR(st);
    if (state.lock) {
      st = SchemaLocked(*state.lock);
    } else {
      WriteBatch batch;
      batch.PutEphemeral(std::string(kSchemaLockKey), held.lock);
      batch.Put(std::string(kEpochKey), held.epoch);
      batch.ExpectValue(std::string(kSchemaLockKey), std::nullopt);
      batch.ExpectValue(std::string(kEpochKey), state.epoch);
      st = store->Write(batch, true);
      if (st.ok()) {
        held.previous = std::move(state.epoch);
        return held;
      }
    }
    if (st.code() != Status::Code::kBusy ||
        std::chrono::steady_clock::now() >= deadline) {
      return st;
    }
    ConflictBackoff(attempt);
  }
}

Result<std::string> UnlockSchema(KvStore* store, const std::string& lock) {
  std::string epoch = NewEpoch();
  WriteBatch batch;
  batch.Delete(std::string(kSchemaLockKey));
  batch.Put(std::string(kEpochKey), epoch);
  batch.ExpectValue(std::string(kSchemaLockKey), lock);
  LQ_RETURN_IF_ERROR(store->Write(batch, true));
  return epoch;
}

Result<CatalogState> LoadCatalogAt(KvStore* store,
                                   std::shared_ptr<const KvSnapshot> snapshot) {
  PinnedStore pinned(store, std::move(snapshot));
  return LoadCatalog(&pinned, /*read_only=*/true);
}

}  // namespace levelql
