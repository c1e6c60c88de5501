// DatabaseImpl on a store several processes write (KvStore::shared: etcd):
// the catalog checked at each statement, schema changes under the schema
// lock, write conflicts retried (engine/catalog/schema_lock.h).
#include <chrono>

#include "engine/catalog/schema_lock.h"
#include "engine/database_impl.h"

namespace levelql {
namespace {

// A schema change of one batch on this thread (RunSchemaChange): Commit
// makes its batch conditional on `expect` and replaces the epoch by `next`.
struct EpochBump {
  std::optional<std::string> expect;
  std::string next;
  bool committed = false;
};
thread_local EpochBump* t_bump = nullptr;

// The snapshot SyncCatalog read the epoch at, for the statement this
// thread is starting (Run() forgets it when the statement is under way).
thread_local std::shared_ptr<const KvSnapshot> t_synced;

}  // namespace

std::shared_ptr<const KvSnapshot> DatabaseImpl::SyncedSnapshot() {
  return t_synced;
}

void DatabaseImpl::ForgetSyncedSnapshot() { t_synced.reset(); }

Status DatabaseImpl::StartStatement(Session* session,
                                    const StatementScope& /*scope*/) {
  ForgetSyncedSnapshot();
  return session->in_txn.load() ? Status::OK() : SyncCatalog();
}

Status DatabaseImpl::SyncCatalog() {
  if (!store_->shared()) return Status::OK();
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(busy_timeout_ms());
  for (int attempt = 0;; ++attempt) {
    // One round trip: the latest revision and the schema state in it; the
    // statement then reads at that revision.
    SchemaState state;
    Status st;
    t_synced = ReadSchemaState(store_.get(), &state, &st);
    LQ_RETURN_IF_ERROR(st);
    auto snapshot = t_synced;
    bool ours = false;
    {
      std::lock_guard<std::mutex> lock(catalog_mu_);
      ours = state.lock && state.lock == schema_lock_;
      if (!state.lock || ours) {
        if (state.epoch == catalog_->epoch) return Status::OK();
      }
    }
    if (state.lock && !ours) {
      t_synced.reset();
      if (std::chrono::steady_clock::now() >= deadline) {
        return SchemaLocked(*state.lock);
      }
      ConflictBackoff(attempt);
      continue;
    }
    LQ_ASSIGN_OR_RETURN(CatalogState loaded,
                        LoadCatalogAt(store_.get(), snapshot));
    SetCatalog(std::make_shared<CatalogState>(std::move(loaded)));
    return Status::OK();
  }
}

void DatabaseImpl::AddSchemaConditions(WriteBatch* batch) {
  if (t_bump) {
    batch->ExpectValue(std::string(kEpochKey), t_bump->expect);
    batch->Put(std::string(kEpochKey), t_bump->next);
    return;
  }
  std::lock_guard<std::mutex> lock(catalog_mu_);
  if (schema_lock_) {
    batch->ExpectValue(std::string(kSchemaLockKey), schema_lock_);
  }
}

void DatabaseImpl::Committed() {
  if (!t_bump) return;
  // A further batch of the same change bumps the epoch again.
  t_bump->committed = true;
  t_bump->expect = t_bump->next;
  t_bump->next = NewEpoch();
}

Status DatabaseImpl::RunSchemaChange(const std::function<Status()>& change,
                                     bool in_batches) {
  if (!store_->shared()) return change();
  if (options_.read_only) {
    return Status::NotSupported("the database is open read-only");
  }
  if (!in_batches) return RunOneBatchSchemaChange(change);
  SchemaLock held;
  Status st;
  {
    // Slot first: no statement of this process is between its reads and
    // its commit while the lock changes hands. The change takes the slot
    // itself.
    WriterLock slot(&writer_);
    LQ_RETURN_IF_ERROR(slot.Acquire(busy_timeout_ms()));
    LQ_ASSIGN_OR_RETURN(held, LockSchema(store_.get(), busy_timeout_ms()));
    auto current = catalog();
    if (held.previous != current->epoch) {
      // Changed by another process since this one last looked.
      auto loaded = LoadCatalogAt(store_.get(), store_->GetSnapshot());
      if (loaded.ok()) {
        current = std::make_shared<CatalogState>(std::move(loaded).value());
      } else {
        st = loaded.status();
      }
    }
    auto locked = std::make_shared<CatalogState>(*current);
    locked->epoch = held.epoch;
    SetCatalog(locked);
    std::lock_guard<std::mutex> guard(catalog_mu_);
    schema_lock_ = held.lock;
  }
  ForgetSyncedSnapshot();  // the change reads what is there under the lock
  if (st.ok()) st = change();
  // Whatever happened, give the lock back: a new epoch tells every process
  // to read the catalog again.
  WriterLock slot(&writer_);
  Status unlocked = slot.Acquire(busy_timeout_ms());
  Result<std::string> epoch = unlocked.ok()
                                  ? UnlockSchema(store_.get(), held.lock)
                                  : Result<std::string>(unlocked);
  {
    std::lock_guard<std::mutex> guard(catalog_mu_);
    schema_lock_.reset();
  }
  if (epoch.ok()) {
    auto next = std::make_shared<CatalogState>(*catalog());
    next->epoch = epoch.value();
    SetCatalog(next);
  }
  LQ_RETURN_IF_ERROR(st);
  return epoch.status();
}

Status DatabaseImpl::RunOneBatchSchemaChange(
    const std::function<Status()>& change) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(busy_timeout_ms());
  ForgetSyncedSnapshot();
  for (int attempt = 0;; ++attempt) {
    EpochBump bump{catalog()->epoch, NewEpoch()};
    t_bump = &bump;
    Status st = change();
    t_bump = nullptr;
    if (bump.committed) {
      // The change's catalog has the epoch its batch replaced.
      auto next = std::make_shared<CatalogState>(*catalog());
      next->epoch = bump.expect;
      SetCatalog(next);
    }
    // Busy: another process changed the schema first; nothing was written.
    if (st.code() != Status::Code::kBusy || bump.committed ||
        std::chrono::steady_clock::now() >= deadline) {
      return st;
    }
    ConflictBackoff(attempt);
    LQ_RETURN_IF_ERROR(SyncCatalog());
    ForgetSyncedSnapshot();
  }
}

Result<int64_t> DatabaseImpl::RetryConflicts(
    const std::function<Result<int64_t>()>& write) {
  if (!store_->shared()) return write();
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(busy_timeout_ms());
  for (int attempt = 0;; ++attempt) {
    // Another process may have taken the rowids this one would count on.
    next_rowid_.clear();
    Result<int64_t> result = write();
    if (result.ok() || result.status().code() != Status::Code::kBusy ||
        std::chrono::steady_clock::now() >= deadline) {
      return result;
    }
    ConflictBackoff(attempt);
    LQ_RETURN_IF_ERROR(SyncCatalog());
  }
}

}  // namespace levelql
