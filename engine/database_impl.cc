// DatabaseImpl's core: opening, statement dispatch, writes and commit.
// SELECT runs, EXPLAIN, PRAGMA, ANALYZE, CHECK, DDL and REINDEX have their
// own files (select.cc, explain.cc, pragma.cc, analyze.cc,
// check_statement.cc, ddl.cc, reindex.cc).
#include "engine/database_impl.h"

#include <limits>

#include "engine/catalog/schema_lock.h"
#include "engine/exec/subquery.h"
#include "engine/plan/planner.h"
#include "engine/storage/open_store.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

class PreparedStatement : public levelql::Statement {
 public:
  PreparedStatement(DatabaseImpl* db, std::shared_ptr<Session> session,
                    std::shared_ptr<const parser::Statement> stmt)
      : db_(db), session_(std::move(session)), stmt_(std::move(stmt)) {}

  Result<std::unique_ptr<Cursor>> Query(const Params& params) override {
    int64_t affected = 0;
    std::shared_ptr<const BoundQuery> bound = Bound();
    auto cursor = db_->Run(session_, stmt_, params, &affected, &bound);
    KeepBound(std::move(bound));
    return cursor;
  }
  Result<ExecResult> Execute(const Params& params) override {
    int64_t affected = 0;
    LQ_ASSIGN_OR_RETURN(auto cursor,
                        db_->Run(session_, stmt_, params, &affected));
    while (cursor->Next()) {
    }
    LQ_RETURN_IF_ERROR(cursor->status());
    return ExecResult{affected};
  }
  Result<std::unique_ptr<Cursor>> Resume(const std::string& token,
                                         const Params& params) override {
    std::shared_ptr<const BoundQuery> bound = Bound();
    auto cursor = db_->Resume(session_, stmt_, token, params, &bound);
    KeepBound(std::move(bound));
    return cursor;
  }
  int parameter_count() const override {
    Result<ParamSlots> slots = db_->Slots(*stmt_);
    return slots.ok() ? slots->count : 0;
  }
  std::vector<std::string> parameter_names() const override {
    Result<ParamSlots> slots = db_->Slots(*stmt_);
    return slots.ok() ? slots->names : std::vector<std::string>{};
  }

 private:
  // Threads may share a statement: each run reads and replaces the kept
  // binding under the mutex, never while another thread does.
  std::shared_ptr<const BoundQuery> Bound() const {
    std::lock_guard<std::mutex> lock(mu_);
    return bound_;
  }
  void KeepBound(std::shared_ptr<const BoundQuery> bound) {
    if (!bound) return;
    std::lock_guard<std::mutex> lock(mu_);
    bound_ = std::move(bound);
  }

  DatabaseImpl* db_;
  std::shared_ptr<Session> session_;  // the statement runs in it
  std::shared_ptr<const parser::Statement> stmt_;
  mutable std::mutex mu_;
  std::shared_ptr<const BoundQuery> bound_;  // of a SELECT, once run
};

}  // namespace

std::shared_ptr<const parser::Statement> SharedStatement(
    parser::Statement stmt) {
  return std::make_shared<const parser::Statement>(std::move(stmt));
}

Result<std::vector<Value>> BindParams(const ParamSlots& slots,
                                      const Params& params) {
  std::vector<Value> out(slots.count);
  size_t positional = 0;
  for (int i = 0; i < slots.count; ++i) {
    if (!slots.names[i].empty()) {
      auto it = params.named.find(slots.names[i]);
      if (it != params.named.end()) {
        out[i] = it->second;
      } else if (static_cast<size_t>(i) < params.positional.size()) {
        out[i] = params.positional[i];
      }
    } else if (static_cast<size_t>(i) < params.positional.size()) {
      out[i] = params.positional[i];
      ++positional;
    }
  }
  if (params.positional.size() > static_cast<size_t>(slots.count)) {
    return Status::InvalidArgument(std::to_string(params.positional.size()) +
                                   " values bound, but the statement has " +
                                   std::to_string(slots.count) + " parameters");
  }
  for (const auto& [name, value] : params.named) {
    bool found = false;
    for (const std::string& n : slots.names) found |= n == name;
    if (!found) {
      if (!name.empty() && name[0] == ':') {
        return Status::InvalidArgument(
            "named parameters are bound without their colon: \"" +
            name.substr(1) + "\", not \"" + name + "\"");
      }
      return Status::InvalidArgument("the statement has no parameter :" + name);
    }
  }
  return out;
}

DatabaseImpl::DatabaseImpl(std::unique_ptr<KvStore> store, CatalogState catalog,
                           const Options& options)
    : store_(std::move(store)),
      options_(options),
      catalog_(std::make_shared<const CatalogState>(std::move(catalog))),
      statements_(options.statement_cache_entries) {
  settings_.statement_timeout_ms = options.statement_timeout_ms;
  settings_.busy_timeout_ms = options.busy_timeout_ms;
}

DatabaseImpl::~DatabaseImpl() {
  if (implicit_->in_txn.load()) RollbackTxn(implicit_.get()).ok();
}

int64_t DatabaseImpl::busy_timeout_ms() {
  std::lock_guard<std::mutex> lock(settings_mu_);
  return settings_.busy_timeout_ms;
}

Result<ParamSlots> DatabaseImpl::Slots(const parser::Statement& stmt) {
  Binder binder(catalog());
  const parser::Statement* s = &stmt;
  if (auto* e = std::get_if<parser::Explain>(&stmt.node)) {
    s = e->statement.get();
  }
  Status status;
  if (auto* x = std::get_if<parser::Select>(&s->node)) {
    status = binder.BindSelect(*x).status();
  } else if (auto* x = std::get_if<parser::Insert>(&s->node)) {
    status = binder.BindInsert(*x).status();
  } else if (auto* x = std::get_if<parser::Update>(&s->node)) {
    status = binder.BindUpdate(*x).status();
  } else if (auto* x = std::get_if<parser::Delete>(&s->node)) {
    status = binder.BindDelete(*x).status();
  }
  LQ_RETURN_IF_ERROR(status);
  return binder.params();
}

std::shared_ptr<const CatalogState> DatabaseImpl::catalog() const {
  std::lock_guard<std::mutex> lock(catalog_mu_);
  return catalog_;
}

void DatabaseImpl::SetCatalog(std::shared_ptr<CatalogState> next) {
  next->version = SchemaVersion(*next);
  next->salt_layout = SaltLayoutOf(*next);
  std::lock_guard<std::mutex> lock(catalog_mu_);
  catalog_ = std::move(next);
}

std::vector<std::string> DatabaseImpl::TableNames() {
  std::vector<std::string> names;
  for (const auto& [name, table] : catalog()->tables) names.push_back(name);
  return names;
}

std::vector<SchemaEntry> DatabaseImpl::Schema() {
  std::vector<SchemaEntry> out;
  for (const auto& [name, table] : catalog()->tables) {
    out.push_back({"table", name, name, table->sql});
    for (const auto& index : table->indexes) {
      out.push_back({"index", index->name, name, index->sql});
    }
  }
  for (const auto& [name, view] : catalog()->views) {
    out.push_back({"view", name, name, view->sql});
  }
  return out;
}

ExecContext DatabaseImpl::NewContext(const std::vector<Value>* params,
                                     const StatementView* view) {
  ExecContext ctx;
  std::shared_ptr<const CatalogState> cat =
      view && view->catalog ? view->catalog : catalog();
  ctx.store = store_.get();
  if (view && view->store) {
    ctx.view_store = view->store;
    ctx.store = view->store.get();
  }
  ctx.physical_store = ctx.store;
  if (!cat->salt_layout->empty()) {
    ctx.salted_store =
        std::make_shared<SaltedStore>(ctx.store, cat->salt_layout);
    ctx.store = ctx.salted_store.get();
  }
  if (view && view->snapshot) {
    ctx.snapshot = view->snapshot;
  } else if (auto synced = SyncedSnapshot()) {
    ctx.snapshot = std::move(synced);  // this statement's SyncCatalog's
  } else {
    ctx.snapshot = store_->GetSnapshot();
  }
  ctx.params = params;
  ctx.correlated = std::make_shared<CorrelatedValues>();
  ctx.interrupt_epoch = &interrupt_epoch_;
  {
    std::lock_guard<std::mutex> lock(settings_mu_);
    ctx.rules = settings_.rules;
    ctx.sort_memory_bytes = settings_.sort_memory_bytes;
    if (settings_.statement_timeout_ms > 0) {
      ctx.deadline_ns =
          ExecContext::NowNanos() + settings_.statement_timeout_ms * 1000000;
    }
  }
  ctx.stats = [cat](const TableSchema& t) -> const TableStats* {
    if (t.derived) return nullptr;  // (its name may be a table's)
    auto it = cat->stats.find(t.name);
    return it == cat->stats.end() ? nullptr : it->second.get();
  };
  ctx.start_epoch = interrupt_epoch_.load();
  return ctx;
}

Status DatabaseImpl::Commit(const WriteBatch& batch, int64_t* written) {
  if (options_.read_only) {
    return Status::NotSupported("the database is open read-only");
  }
  if (written) *written += batch.bytes();
  if (batch.empty()) return Status::OK();
  if (store_->shared()) {
    WriteBatch conditioned = batch;
    AddSchemaConditions(&conditioned);
    LQ_RETURN_IF_ERROR(store_->Write(conditioned, options_.sync_writes));
    Committed();
  } else {
    LQ_RETURN_IF_ERROR(store_->Write(batch, options_.sync_writes));
  }
  commit_seq_.fetch_add(1);
  // Ranges this batch filled with deletions (deletion_tracker.h) are
  // compacted once the statement has let go of its snapshot: while it
  // lives, the store must keep every key it sees.
  auto dense = deletions_.Note(batch, store_.get());
  if (!dense.empty()) {
    std::lock_guard<std::mutex> lock(compact_mu_);
    for (auto& range : dense) to_compact_.push_back(std::move(range));
  }
  return Status::OK();
}

void DatabaseImpl::CompactDeleted() {
  std::vector<std::pair<std::string, std::string>> ranges;
  {
    std::lock_guard<std::mutex> lock(compact_mu_);
    ranges.swap(to_compact_);
  }
  for (const auto& [lo, hi] : ranges) store_->CompactRange(lo, hi);
}

Status DatabaseImpl::Execute(std::string_view sql) {
  return ExecuteIn(implicit_, sql);
}

Result<ExecResult> DatabaseImpl::Execute(std::string_view sql,
                                         const Params& params) {
  return ExecuteIn(implicit_, sql, params);
}

Result<std::unique_ptr<levelql::Statement>> DatabaseImpl::Prepare(
    std::string_view sql) {
  return PrepareIn(implicit_, sql);
}

Result<std::unique_ptr<Cursor>> DatabaseImpl::Query(std::string_view sql,
                                                    const Params& params) {
  return QueryIn(implicit_, sql, params);
}

Status DatabaseImpl::ExecuteIn(const std::shared_ptr<Session>& session,
                               std::string_view sql) {
  LQ_ASSIGN_OR_RETURN(std::vector<parser::Statement> stmts,
                      parser::ParseScript(sql));
  for (parser::Statement& stmt : stmts) {
    int64_t affected = 0;
    LQ_ASSIGN_OR_RETURN(
        auto cursor,
        Run(session, SharedStatement(std::move(stmt)), Params(), &affected));
    while (cursor->Next()) {
    }
    LQ_RETURN_IF_ERROR(cursor->status());
  }
  return Status::OK();
}

Result<ExecResult> DatabaseImpl::ExecuteIn(
    const std::shared_ptr<Session>& session, std::string_view sql,
    const Params& params) {
  LQ_ASSIGN_OR_RETURN(parser::Statement stmt, parser::ParseStatement(sql));
  int64_t affected = 0;
  LQ_ASSIGN_OR_RETURN(
      auto cursor,
      Run(session, SharedStatement(std::move(stmt)), params, &affected));
  while (cursor->Next()) {
  }
  LQ_RETURN_IF_ERROR(cursor->status());
  return ExecResult{affected};
}

Result<std::unique_ptr<levelql::Statement>> DatabaseImpl::PrepareIn(
    const std::shared_ptr<Session>& session, std::string_view sql) {
  LQ_ASSIGN_OR_RETURN(parser::Statement stmt, parser::ParseStatement(sql));
  return std::unique_ptr<levelql::Statement>(
      std::make_unique<PreparedStatement>(this, session,
                                          SharedStatement(std::move(stmt))));
}

Result<std::unique_ptr<Cursor>> DatabaseImpl::QueryIn(
    const std::shared_ptr<Session>& session, std::string_view sql,
    const Params& params) {
  StatementCache::Entry kept;
  if (!statements_.Find(sql, &kept)) {
    LQ_ASSIGN_OR_RETURN(parser::Statement stmt, parser::ParseStatement(sql));
    kept.stmt = SharedStatement(std::move(stmt));
  }
  int64_t affected = 0;
  if (!std::holds_alternative<parser::Select>(kept.stmt->node)) {
    return Run(session, std::move(kept.stmt), params, &affected);
  }
  // A text's first run plans as an unprepared statement does (a text seen
  // once makes no template); from its second it is bound once and its
  // plan reused (statement_cache.h).
  std::shared_ptr<const BoundQuery>* bound =
      kept.runs > 0 ? &kept.bound : nullptr;
  Result<std::unique_ptr<Cursor>> cursor =
      Run(session, kept.stmt, params, &affected, bound);
  ++kept.runs;
  statements_.Store(sql, std::move(kept));
  return cursor;
}

RuleSet DatabaseImpl::rules() {
  std::lock_guard<std::mutex> lock(settings_mu_);
  return settings_.rules;
}

Result<std::unique_ptr<Cursor>> DatabaseImpl::Run(
    const std::shared_ptr<Session>& session,
    std::shared_ptr<const parser::Statement> shared, const Params& params,
    int64_t* affected, std::shared_ptr<const BoundQuery>* cache) {
  *affected = 0;
  const parser::Statement& stmt = *shared;
  const auto& node = stmt.node;
  Session* s = session.get();
  if (s->ended.load()) {
    return Status::InvalidArgument(
        "this transaction has ended (committed or rolled back): no statement "
        "runs in it any more; Database::Begin() starts another");
  }
  // Another process may have changed the schema (a shared store only; a
  // transaction keeps the catalog it started with).
  StatementScope scope;
  LQ_RETURN_IF_ERROR(StartStatement(s, scope));
  if (std::holds_alternative<parser::Select>(node)) {
    return RunSelect(session, std::move(shared), params, Mode::kRun, cache);
  }
  if (auto* e = std::get_if<parser::Explain>(&node)) {
    if (std::holds_alternative<parser::Select>(e->statement->node)) {
      return RunSelect(session, std::move(shared), params,
                       e->analyze ? Mode::kExplainAnalyze : Mode::kExplain);
    }
    LQ_ASSIGN_OR_RETURN(std::string text,
                        ExplainWrite(s, *e->statement, params));
    return PlanCursor(text);
  }
  if (std::holds_alternative<parser::Insert>(node) ||
      std::holds_alternative<parser::Update>(node) ||
      std::holds_alternative<parser::Delete>(node)) {
    LQ_ASSIGN_OR_RETURN(*affected, RunWrite(s, stmt, params));
    // The statement's snapshot has ended; a transaction's lives on until
    // COMMIT, which compacts.
    if (!s->in_txn.load()) CompactDeleted();
    return EmptyCursor();
  }
  if (auto* c = std::get_if<parser::CreateTable>(&node)) {
    LQ_RETURN_IF_ERROR(RefuseInTxn(s, "CREATE TABLE"));
    LQ_RETURN_IF_ERROR(
        RunSchemaChange([&] { return RunCreateTable(stmt, *c); }));
  } else if (auto* c = std::get_if<parser::CreateIndex>(&node)) {
    LQ_RETURN_IF_ERROR(RefuseInTxn(s, "CREATE INDEX"));
    LQ_RETURN_IF_ERROR(
        RunSchemaChange([&] { return RunCreateIndex(stmt, *c); }, true));
  } else if (auto* d = std::get_if<parser::DropTable>(&node)) {
    LQ_RETURN_IF_ERROR(RefuseInTxn(s, "DROP TABLE"));
    LQ_RETURN_IF_ERROR(RunSchemaChange([&] { return RunDropTable(*d); }));
  } else if (auto* d = std::get_if<parser::DropIndex>(&node)) {
    LQ_RETURN_IF_ERROR(RefuseInTxn(s, "DROP INDEX"));
    LQ_RETURN_IF_ERROR(RunSchemaChange([&] { return RunDropIndex(*d); }));
  } else if (auto* c = std::get_if<parser::CreateView>(&node)) {
    LQ_RETURN_IF_ERROR(RefuseInTxn(s, "CREATE VIEW"));
    LQ_RETURN_IF_ERROR(
        RunSchemaChange([&] { return RunCreateView(stmt, *c); }));
  } else if (auto* d = std::get_if<parser::DropView>(&node)) {
    LQ_RETURN_IF_ERROR(RefuseInTxn(s, "DROP VIEW"));
    LQ_RETURN_IF_ERROR(RunSchemaChange([&] { return RunDropView(*d); }));
  } else if (auto* a = std::get_if<parser::AlterTable>(&node)) {
    LQ_RETURN_IF_ERROR(RefuseInTxn(s, "ALTER TABLE"));
    // (DROP COLUMN rewrites the table in batches, under the schema lock.)
    LQ_RETURN_IF_ERROR(
        RunSchemaChange([&] { return RunAlterTable(*a); },
                        a->action == parser::AlterTable::Action::kDropColumn));
  } else if (auto* p = std::get_if<parser::Pragma>(&node)) {
    return RunPragma(*p);
  } else if (auto* c = std::get_if<parser::Check>(&node)) {
    LQ_RETURN_IF_ERROR(RunCheck(s, *c));
  } else if (auto* a = std::get_if<parser::Analyze>(&node)) {
    LQ_RETURN_IF_ERROR(RefuseInTxn(s, "ANALYZE"));
    LQ_RETURN_IF_ERROR(RunSchemaChange([&] { return RunAnalyze(*a); }));
  } else if (auto* r = std::get_if<parser::Reindex>(&node)) {
    LQ_RETURN_IF_ERROR(RefuseInTxn(s, "REINDEX"));
    LQ_RETURN_IF_ERROR(
        RunSchemaChange([&] { return RunReindex(r->name); }, true));
  } else if (auto* b = std::get_if<parser::Begin>(&node)) {
    if (s != implicit_.get()) {
      return Status::InvalidArgument(
          "BEGIN inside a Transaction: it is a transaction already (they do "
          "not nest)");
    }
    LQ_RETURN_IF_ERROR(BeginTxn(s, b->mode));
  } else if (std::holds_alternative<parser::Commit>(node)) {
    LQ_RETURN_IF_ERROR(CommitTxn(s));
    if (s != implicit_.get()) s->ended = true;
  } else if (std::holds_alternative<parser::Rollback>(node)) {
    LQ_RETURN_IF_ERROR(RollbackTxn(s));
    if (s != implicit_.get()) s->ended = true;
  }
  return EmptyCursor();
}

namespace {

// The largest key of `table`'s rows in `view`'s logical key order (nullopt:
// no row). `table` is one AssignsRowId holds.
Result<std::optional<int64_t>> LargestKeyIn(const TableSchema& table,
                                            KvIterator* view) {
  std::string prefix = rows::IdPrefix(table.id);
  view->SetBounds(prefix, keys::PrefixSuccessor(prefix));
  view->SeekBefore(keys::PrefixSuccessor(prefix));
  std::optional<int64_t> largest;
  if (view->Valid() && view->key().substr(0, prefix.size()) == prefix) {
    Row row;
    LQ_RETURN_IF_ERROR(
        rows::DecodeRow(table, view->key(), view->value(), &row));
    largest = row[table.primary_key[0].column].int_value();
  }
  LQ_RETURN_IF_ERROR(view->status());
  return largest;
}

}  // namespace

Result<std::optional<int64_t>*> DatabaseImpl::LargestRowId(
    const TableSchema& table, WriteTxn* txn,
    const std::shared_ptr<const SaltLayout>& layout) {
  auto it = next_rowid_.find(table.id);
  if (it == next_rowid_.end()) {
    // The writer holds the slot: the statement's view has every commit
    // (inside a transaction, the transaction's rows too) and its own
    // writes so far (the rows INSERT OR REPLACE deleted gone).
    auto iter = txn->NewIterator(layout);
    LQ_ASSIGN_OR_RETURN(std::optional<int64_t> largest,
                        LargestKeyIn(table, iter.get()));
    it = next_rowid_.emplace(table.id, largest).first;
  }
  return &it->second;
}

RowIdAllocator DatabaseImpl::RowIds(const std::unique_ptr<WriteTxn>* txn,
                                    std::shared_ptr<const SaltLayout> layout) {
  if (layout->empty()) layout = nullptr;
  RowIdAllocator rowids;
  // One past the largest, even a negative one (SQLite); 1 for a table
  // without any.
  rowids.next = [this, txn, layout](const TableSchema& t) -> Result<int64_t> {
    LQ_ASSIGN_OR_RETURN(std::optional<int64_t> * largest,
                        LargestRowId(t, txn->get(), layout));
    if (*largest == std::numeric_limits<int64_t>::max()) {
      const ColumnSchema& c = t.columns[t.primary_key[0].column];
      return Status::ConstraintError(
          "INTEGER PRIMARY KEY " + t.name + "." + c.name +
          ": the largest key (9223372036854775807) is taken, so none is "
          "assigned after it; give the row its key");
    }
    return *largest ? **largest + 1 : 1;
  };
  // A placed row's key: later ones come after it.
  rowids.placed = [this, txn, layout](const TableSchema& t,
                                      int64_t key) -> Status {
    LQ_ASSIGN_OR_RETURN(std::optional<int64_t> * largest,
                        LargestRowId(t, txn->get(), layout));
    if (!*largest || key > **largest) *largest = key;
    return Status::OK();
  };
  // A deleted row that held the largest key: the largest left is counted
  // when next needed.
  rowids.deleted = [this](const TableSchema& t, int64_t key) -> Status {
    auto it = next_rowid_.find(t.id);
    if (it != next_rowid_.end() && it->second == key) next_rowid_.erase(it);
    return Status::OK();
  };
  return rowids;
}

Result<int64_t> DatabaseImpl::ExecuteWrite(const parser::Statement& stmt,
                                           const Params& params,
                                           const StatementView* view,
                                           size_t max_bytes, ExecContext* ctx,
                                           std::vector<Value>* values,
                                           std::unique_ptr<WriteTxn>* txn) {
  const std::shared_ptr<const CatalogState> cat =
      view && view->catalog ? view->catalog : catalog();
  Binder binder(cat);
  const RowIdAllocator rowids = RowIds(txn, cat->salt_layout);
  auto start = [&](const ParamSlots& slots) -> Status {
    LQ_ASSIGN_OR_RETURN(*values, BindParams(slots, params));
    *ctx = NewContext(values, view);
    LQ_RETURN_IF_ERROR(RunSubqueries(slots, values, ctx));
    *txn = std::make_unique<WriteTxn>(ctx->physical_store, ctx->snapshot);
    (*txn)->set_byte_limit(max_bytes, options_.max_transaction_bytes,
                           view != nullptr);
    return Status::OK();
  };
  if (auto* ins = std::get_if<parser::Insert>(&stmt.node)) {
    LQ_ASSIGN_OR_RETURN(BoundInsert bound, binder.BindInsert(*ins));
    LQ_RETURN_IF_ERROR(start(binder.params()));
    LQ_ASSIGN_OR_RETURN(
        int64_t n, ExecuteInsert(&bound, ctx, rules(), txn->get(), rowids));
    LQ_RETURN_IF_ERROR((*txn)->FlushRanks());
    return n;
  }
  if (auto* up = std::get_if<parser::Update>(&stmt.node)) {
    LQ_ASSIGN_OR_RETURN(BoundUpdate bound, binder.BindUpdate(*up));
    LQ_RETURN_IF_ERROR(start(binder.params()));
    LQ_ASSIGN_OR_RETURN(int64_t n,
                        ExecuteUpdate(&bound, ctx, rules(), txn->get()));
    LQ_RETURN_IF_ERROR((*txn)->FlushRanks());
    // A changed key may have been the largest: count again.
    if (n > 0 && UpdateNeedsKeyOrder(bound)) {
      next_rowid_.erase(bound.table->id);
    }
    return n;
  }
  auto& del = std::get<parser::Delete>(stmt.node);
  LQ_ASSIGN_OR_RETURN(BoundDelete bound, binder.BindDelete(del));
  LQ_RETURN_IF_ERROR(start(binder.params()));
  LQ_ASSIGN_OR_RETURN(int64_t n,
                      ExecuteDelete(&bound, ctx, rules(), txn->get()));
  LQ_RETURN_IF_ERROR((*txn)->FlushRanks());
  // The next hidden rowid is one past the largest left, as in SQLite (and
  // as after a reopen), also when the largest was just deleted.
  if (n > 0 && AssignsRowId(*bound.table)) next_rowid_.erase(bound.table->id);
  return n;
}

Result<int64_t> DatabaseImpl::RunWrite(Session* session,
                                       const parser::Statement& stmt,
                                       const Params& params) {
  if (session->in_txn.load()) return RunWriteInTxn(session, stmt, params);
  WriterLock lock(&writer_);
  LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
  return RetryConflicts([&]() -> Result<int64_t> {
    // The catalog the statement binds against (the slot keeps this
    // process's DDL out; another process's is a condition of the batch).
    const std::optional<std::string> epoch = catalog()->epoch;
    ExecContext ctx;
    std::vector<Value> values;
    std::unique_ptr<WriteTxn> txn;
    // A statement that fails writes nothing: the keys it took are free.
    const RowIdCounters rowids = next_rowid_;
    Result<int64_t> count =
        ExecuteWrite(stmt, params, nullptr, options_.max_transaction_bytes,
                     &ctx, &values, &txn);
    Status done = count.status();
    if (done.ok()) {
      WriteBatch batch = txn->ToBatch();
      if (store_->shared()) batch.ExpectValue(std::string(kEpochKey), epoch);
      done = Commit(batch);
    }
    if (!done.ok()) {
      next_rowid_ = rowids;
      return done;
    }
    return count;
  });
}

Result<std::unique_ptr<Database>> Database::Open(const std::string& path,
                                                 const Options& options) {
  LQ_ASSIGN_OR_RETURN(std::unique_ptr<KvStore> store, OpenStore(path, options));
  return OpenDatabaseOnStore(std::move(store), options);
}

Result<std::unique_ptr<Database>> OpenDatabaseOnStore(
    std::unique_ptr<KvStore> store, const Options& options) {
  LQ_ASSIGN_OR_RETURN(CatalogState catalog,
                      LoadCatalog(store.get(), options.read_only));
  // Remove indexes whose CREATE INDEX was cut short (all or nothing). On a
  // store other processes write, only under the schema lock, taken without
  // waiting: while another process holds it, its half-built ranges are its
  // own work in progress (schema_lock.h).
  std::optional<std::string> lock;
  bool cleanup = !catalog.unfinished_indexes.empty();
  if (!cleanup && !options.read_only && store->shared()) {
    LQ_ASSIGN_OR_RETURN(cleanup, HasInterruptedRebuilds(store.get()));
  }
  if (cleanup && !options.read_only && store->shared()) {
    auto locked = LockSchema(store.get(), 0);
    if (locked.ok()) {
      lock = std::move(locked).value().lock;
      // The catalog as it is under the lock.
      LQ_ASSIGN_OR_RETURN(catalog,
                          LoadCatalogAt(store.get(), store->GetSnapshot()));
    } else if (locked.status().code() != Status::Code::kBusy) {
      return locked.status();
    }
  }
  if (!options.read_only && (lock || !store->shared())) {
    for (const auto& [name, ids] : catalog.unfinished_indexes) {
      WriteBatch batch;
      for (int64_t id : ids) {
        const std::string prefix = rows::IdPrefix(id);
        auto it = store->NewIterator(nullptr);
        for (SeekPrefix(it.get(), prefix);
             it->Valid() && it->key().substr(0, prefix.size()) == prefix;
             it->Next()) {
          batch.Delete(std::string(it->key()));
        }
        LQ_RETURN_IF_ERROR(it->status());
      }
      batch.Delete(IndexRecordKey(name));
      batch.Delete(BuildingKey(name));
      LQ_RETURN_IF_ERROR(store->Write(batch, true));
    }
    catalog.unfinished_indexes.clear();
    LQ_RETURN_IF_ERROR(FinishInterruptedRebuilds(store.get()));
    if (lock) {
      LQ_ASSIGN_OR_RETURN(std::string epoch, UnlockSchema(store.get(), *lock));
      catalog.epoch = std::move(epoch);
    }
  }
  return std::unique_ptr<Database>(std::make_unique<DatabaseImpl>(
      std::move(store), std::move(catalog), options));
}

}  // namespace levelql
