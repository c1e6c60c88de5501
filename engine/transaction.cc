// Transactions of DatabaseImpl: BEGIN, COMMIT, ROLLBACK, the view a
// statement reads inside a transaction, writes into a transaction, and the
// public Transaction object (a session of its own). See session.h for the
// state and its locking, database.h for the semantics.
//
// A transaction's writes never reach the store before COMMIT: each write
// statement runs into a WriteTxn over the transaction's view, and when it
// succeeds its writes join the transaction's pending map (when it fails
// they are dropped: statement atomicity). COMMIT writes the map as one
// batch, so after a crash either all of it is there or none.
#include <random>

#include "engine/database_impl.h"
#include "engine/storage/overlay.h"

namespace levelql {
namespace {

constexpr const char* kEnded =
    "this transaction has ended (committed or rolled back): no statement "
    "runs in it any more; Database::Begin() starts another";

uint64_t NewTxnId() {
  thread_local std::mt19937_64 rng(std::random_device{}());
  uint64_t id = 0;
  while (id == 0) id = rng();
  return id;
}

WriteBatch ToBatch(const PendingWrites& writes) {
  WriteBatch batch;
  for (const auto& [key, value] : writes) {
    if (value) {
      batch.Put(key, *value);
    } else {
      batch.Delete(key);
    }
  }
  return batch;
}

class TransactionImpl : public Transaction {
 public:
  TransactionImpl(DatabaseImpl* db, std::shared_ptr<Session> session)
      : db_(db), session_(std::move(session)) {}
  ~TransactionImpl() override {
    if (active()) db_->RollbackTxn(session_.get()).ok();
    session_->ended = true;
  }

  Status Execute(std::string_view sql) override {
    return db_->ExecuteIn(session_, sql);
  }
  Result<ExecResult> Execute(std::string_view sql,
                             const Params& params) override {
    return db_->ExecuteIn(session_, sql, params);
  }
  Result<std::unique_ptr<Statement>> Prepare(std::string_view sql) override {
    return db_->PrepareIn(session_, sql);
  }
  Result<std::unique_ptr<Cursor>> Query(std::string_view sql,
                                        const Params& params) override {
    return db_->QueryIn(session_, sql, params);
  }
  Status Commit() override {
    if (session_->ended.load()) return Status::InvalidArgument(kEnded);
    LQ_RETURN_IF_ERROR(db_->CommitTxn(session_.get()));
    session_->ended = true;
    return Status::OK();
  }
  Status Rollback() override {
    if (session_->ended.load()) return Status::InvalidArgument(kEnded);
    LQ_RETURN_IF_ERROR(db_->RollbackTxn(session_.get()));
    session_->ended = true;
    return Status::OK();
  }
  bool active() const override {
    return !session_->ended.load() && session_->in_txn.load();
  }

 private:
  DatabaseImpl* db_;
  std::shared_ptr<Session> session_;
};

}  // namespace

Result<std::unique_ptr<Transaction>> DatabaseImpl::Begin(TransactionMode mode) {
  auto session = std::make_shared<Session>();
  LQ_RETURN_IF_ERROR(
      BeginTxn(session.get(), mode == TransactionMode::kImmediate
                                  ? parser::Begin::Mode::kImmediate
                                  : parser::Begin::Mode::kDeferred));
  return std::unique_ptr<Transaction>(
      std::make_unique<TransactionImpl>(this, std::move(session)));
}

Status DatabaseImpl::RefuseInTxn(Session* session, std::string_view what) {
  if (!session->in_txn.load()) return Status::OK();
  return Status::NotSupported(
      std::string(what) +
      " inside a transaction: DDL, ANALYZE and REINDEX commit on their own, "
      "so they run only outside BEGIN ... COMMIT; COMMIT or ROLLBACK first");
}

Status DatabaseImpl::BeginTxn(Session* session, parser::Begin::Mode mode) {
  std::lock_guard<std::mutex> statement(session->statement_mu);
  if (session->ended.load()) return Status::InvalidArgument(kEnded);
  if (session->in_txn.load()) {
    return Status::InvalidArgument(
        "cannot BEGIN: a transaction is already open (transactions do not "
        "nest; COMMIT or ROLLBACK it first)");
  }
  auto txn = std::make_unique<TxnState>();
  txn->id = NewTxnId();
  txn->immediate = mode != parser::Begin::Mode::kDeferred;
  if (txn->immediate) {
    if (options_.read_only) {
      return Status::NotSupported(
          "BEGIN IMMEDIATE: the database is open read-only");
    }
    // The writer slot, then the snapshot: nothing can commit in between.
    LQ_RETURN_IF_ERROR(writer_.Acquire(busy_timeout_ms()));
    txn->holds_slot = true;
    txn->catalog = catalog();
    txn->snapshot_seq = commit_seq_.load();
    txn->snapshot = store_->GetSnapshot();
  }
  std::lock_guard<std::mutex> lock(session->mu);
  session->txn = std::move(txn);
  session->in_txn = true;
  return Status::OK();
}

Status DatabaseImpl::CommitTxn(Session* session) {
  std::lock_guard<std::mutex> statement(session->statement_mu);
  if (session->ended.load()) return Status::InvalidArgument(kEnded);
  TxnState* txn;
  {
    std::lock_guard<std::mutex> lock(session->mu);
    txn = session->txn.get();
  }
  if (!txn) {
    return Status::InvalidArgument("cannot COMMIT: no transaction is open");
  }
  // Only statements holding statement_mu change `txn`: it stays ours.
  if (txn->holds_slot) {
    // One batch: all of the transaction or none of it survives a crash. On
    // failure the transaction stays open (commit again, or roll back).
    WriteBatch batch = ToBatch(*txn->pending);
    if (store_->shared()) {
      // Conflicts with another process's writes since its snapshot fail
      // it with Busy (nothing written): roll back and run it again.
      batch.set_read_snapshot(txn->snapshot);
      for (const std::string& key : txn->present) batch.ExpectPresent(key);
      batch.ExpectValue(std::string(kEpochKey),
                        (txn->catalog ? txn->catalog : catalog())->epoch);
    }
    LQ_RETURN_IF_ERROR(Commit(batch));
    writer_.Release();
  }
  {
    std::unique_ptr<TxnState> done;  // (its snapshot ends here)
    std::lock_guard<std::mutex> lock(session->mu);
    done = std::move(session->txn);
    session->in_txn = false;
  }
  CompactDeleted();
  return Status::OK();
}

Status DatabaseImpl::RollbackTxn(Session* session) {
  std::lock_guard<std::mutex> statement(session->statement_mu);
  if (session->ended.load()) return Status::InvalidArgument(kEnded);
  std::unique_ptr<TxnState> txn;
  {
    std::lock_guard<std::mutex> lock(session->mu);
    txn = std::move(session->txn);
    session->in_txn = false;
  }
  if (!txn) {
    return Status::InvalidArgument("cannot ROLLBACK: no transaction is open");
  }
  if (txn->holds_slot) {
    // Rowids handed out to the transaction's rows are free again.
    next_rowid_.clear();
    writer_.Release();
  }
  return Status::OK();
}

StatementView DatabaseImpl::ViewFor(Session* session) {
  StatementView view;
  if (session->in_txn.load()) {
    std::lock_guard<std::mutex> lock(session->mu);
    if (TxnState* txn = session->txn.get()) {
      if (!txn->snapshot) {
        // The first read. The sequence number is read before the snapshot
        // is taken: a commit in between makes the transaction look staler
        // than it is (a spurious Busy at its first write), never fresher.
        txn->catalog = catalog();
        txn->snapshot_seq = commit_seq_.load();
        txn->snapshot = store_->GetSnapshot();
      }
      view.catalog = txn->catalog;
      view.snapshot = txn->snapshot;
      view.store = std::make_shared<OverlayStore>(store_.get(), txn->pending);
      view.txn_id = txn->id;
      return view;
    }
  }
  view.catalog = catalog();
  return view;
}

Status DatabaseImpl::TakeSlotForTxn(Session* session) {
  TxnState* txn;
  {
    std::lock_guard<std::mutex> lock(session->mu);
    txn = session->txn.get();
    if (txn->holds_slot) return Status::OK();
  }
  LQ_RETURN_IF_ERROR(writer_.Acquire(busy_timeout_ms()));
  std::lock_guard<std::mutex> lock(session->mu);
  // As SQLite's BUSY_SNAPSHOT: a transaction that read before another
  // writer committed would write from stale reads (a lost update, or a
  // UNIQUE check that misses the other's rows), so it may not write.
  if (txn->snapshot &&
      (txn->snapshot_seq != commit_seq_.load() || txn->catalog != catalog())) {
    writer_.Release();
    return Status::Busy(
        "this transaction read the database before another writer "
        "committed, so it cannot write (its reads may be stale): ROLLBACK "
        "and run it again; BEGIN IMMEDIATE takes the write lock up front");
  }
  txn->holds_slot = true;
  return Status::OK();
}

Result<int64_t> DatabaseImpl::RunWriteInTxn(Session* session,
                                            const parser::Statement& stmt,
                                            const Params& params) {
  std::unique_lock<std::mutex> statement(session->statement_mu);
  if (!session->in_txn.load()) {
    // Another thread of this session committed meanwhile: run alone.
    statement.unlock();
    return RunWrite(session, stmt, params);
  }
  if (options_.read_only) {
    return Status::NotSupported("the database is open read-only");
  }
  LQ_RETURN_IF_ERROR(TakeSlotForTxn(session));
  TxnState* txn;
  size_t room = 0;
  {
    std::lock_guard<std::mutex> lock(session->mu);
    txn = session->txn.get();
    if (txn->pending_bytes < options_.max_transaction_bytes) {
      room = options_.max_transaction_bytes - txn->pending_bytes;
    }
  }
  PendingWrites writes;
  std::vector<std::string> present;
  int64_t count = 0;
  {
    StatementView view = ViewFor(session);
    ExecContext ctx;
    std::vector<Value> values;
    std::unique_ptr<WriteTxn> w;
    // On a shared store another process may have taken the next rowids:
    // count them again from this transaction's view.
    if (store_->shared()) next_rowid_.clear();
    const RowIdCounters rowids = next_rowid_;
    Result<int64_t> r =
        ExecuteWrite(stmt, params, &view, room, &ctx, &values, &w);
    if (!r.ok()) {
      next_rowid_ = rowids;  // the rows were not written
      return r.status();
    }
    count = *r;
    writes = w->TakeWrites();
    present = w->expected_present();
    // The view and the WriteTxn go here, so the statement no longer holds
    // the pending map it read.
  }
  std::lock_guard<std::mutex> lock(session->mu);
  if (txn->pending.use_count() > 1) {
    // A cursor still reads the map: it keeps its copy, we change ours.
    txn->pending = std::make_shared<PendingWrites>(*txn->pending);
  }
  PendingWrites& pending = *txn->pending;
  // A row an earlier statement wrote was inserted by it, or noted by it.
  for (std::string& key : present) {
    if (!pending.count(key)) txn->present.insert(std::move(key));
  }
  while (!writes.empty()) {
    auto node = writes.extract(writes.begin());
    const size_t value_bytes = node.mapped() ? node.mapped()->size() : 0;
    auto it = pending.find(node.key());
    if (it == pending.end()) {
      txn->pending_bytes += node.key().size() + value_bytes;
      pending.insert(std::move(node));
    } else {
      if (it->second) txn->pending_bytes -= it->second->size();
      txn->pending_bytes += value_bytes;
      it->second = std::move(node.mapped());
    }
  }
  return count;
}

}  // namespace levelql
