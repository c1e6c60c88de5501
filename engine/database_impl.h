// DatabaseImpl: the engine behind the public Database API.
//
// Owns the KvStore, the current CatalogState, the connection settings and
// the implicit session (session.h). Thread-safe as database.h promises: DDL
// and DML take the writer slot (writer_slot.h: one writer at a time, the
// others wait up to the busy timeout); readers take a snapshot of the store
// and of the catalog and never block writers. Each statement runs in a
// session: outside a transaction it is bound against the catalog it sees at
// its start and executed on one store snapshot, and its writes commit in one
// batch; inside one it reads the transaction's view (StatementView) and its
// writes join the transaction's (transaction.cc).
#ifndef LEVELQL_ENGINE_DATABASE_IMPL_H_
#define LEVELQL_ENGINE_DATABASE_IMPL_H_

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

#include "engine/catalog/catalog.h"
#include "engine/exec/executor.h"
#include "engine/plan/rules.h"
#include "engine/select_cursor.h"
#include "engine/session.h"
#include "engine/statement_cache.h"
#include "engine/storage/deletion_tracker.h"
#include "engine/storage/writer_slot.h"
#include "levelql/database.h"
#include "parser/parser.h"

namespace levelql {

// Connection settings changed by PRAGMA.
struct Settings {
  RuleSet rules;  // PRAGMA disable_rules
  int64_t sort_memory_bytes = 64 << 20;
  int64_t statement_timeout_ms = 0;  // 0: none
  int64_t busy_timeout_ms = 5000;
};

// What one statement reads. Outside a transaction: the current catalog, and
// a fresh snapshot of the database's store (snapshot and store null). Inside
// one: the transaction's catalog and snapshot, seen through its pending
// writes (`store`, an OverlayStore).
struct StatementView {
  std::shared_ptr<const CatalogState> catalog;
  std::shared_ptr<const KvSnapshot> snapshot;
  std::shared_ptr<KvStore> store;
  uint64_t txn_id = 0;  // 0: outside a transaction
};

using RowIdCounters = std::map<int64_t, std::optional<int64_t>>;

// A column-level UNIQUE is kept by an index made with its table, named
// <table>_<column>_unique (with '_' added while the name is taken), which
// goes only with its table, as in SQLite (ddl.cc). The name, free in
// `catalog`, for such an index of `table`'s `column`:
std::string ConstraintIndexName(const CatalogState& catalog,
                                const std::string& table,
                                const std::string& column);
// Whether `index` is the one keeping a UNIQUE of `table`.
bool IsConstraintIndex(const TableSchema& table, const IndexSchema& index);

// Whether `view` reads under `catalog`: `SELECT * FROM view` binds
// (ddl.cc).
Status CheckView(std::shared_ptr<const CatalogState> catalog,
                 const ViewSchema& view);

class DatabaseImpl : public Database {
 public:
  DatabaseImpl(std::unique_ptr<KvStore> store, CatalogState catalog,
               const Options& options);

  Status Execute(std::string_view sql) override;
  Result<ExecResult> Execute(std::string_view sql,
                             const Params& params) override;
  Result<std::unique_ptr<levelql::Statement>> Prepare(
      std::string_view sql) override;
  Result<std::unique_ptr<Cursor>> Query(std::string_view sql,
                                        const Params& params) override;
  Result<std::string> Explain(std::string_view sql,
                              const Params& params) override;
  void Interrupt() override {
    interrupt_epoch_.fetch_add(1);
    writer_.Interrupt();  // writers waiting for the slot stop too
  }
  std::vector<std::string> TableNames() override;
  std::vector<SchemaEntry> Schema() override;
  Result<std::unique_ptr<Transaction>> Begin(TransactionMode mode) override;
  bool InTransaction() override { return implicit_->in_txn.load(); }
  // Rolls back the implicit session's transaction, if any.
  ~DatabaseImpl() override;

  // Runs one parsed statement in `session`. Statements that return rows
  // give a cursor; others give a cursor with no columns and set *affected.
  // `cache` (a prepared statement's) keeps the binding of a SELECT.
  Result<std::unique_ptr<Cursor>> Run(
      const std::shared_ptr<Session>& session,
      std::shared_ptr<const parser::Statement> stmt, const Params& params,
      int64_t* affected, std::shared_ptr<const BoundQuery>* cache = nullptr);
  // Resumes a SELECT after the row a continuation token was taken at.
  Result<std::unique_ptr<Cursor>> Resume(
      const std::shared_ptr<Session>& session,
      std::shared_ptr<const parser::Statement> stmt, const std::string& token,
      const Params& params, std::shared_ptr<const BoundQuery>* cache = nullptr);
  // Binds, plans and starts one run of a SELECT (`stmt` holds it, maybe in
  // an EXPLAIN), after `resume` when given (its query, schema, plan order
  // and transaction are checked), or reading `backward_rows` rows backwards
  // from it. `query` is a binding of `stmt` to reuse when its catalog is
  // the session's; with `reuse_plan` (a prepared statement's run from its
  // start) its plan is reused too (plan_cache.h). With `count_rows` its
  // operators count their rows (EXPLAIN ANALYZE).
  Result<std::unique_ptr<SelectRun>> StartSelectRun(
      const std::shared_ptr<Session>& session,
      std::shared_ptr<const parser::Statement> stmt, const Params& params,
      const ResumePoint* resume, int64_t backward_rows = 0,
      std::shared_ptr<const BoundQuery> query = nullptr,
      bool reuse_plan = false, bool count_rows = false);
  // The binding of a SELECT (maybe in an EXPLAIN) against `catalog`:
  // `cached` when it was bound against it, else a new one.
  Result<std::shared_ptr<const BoundQuery>> BindQuery(
      const parser::Statement& stmt, std::shared_ptr<const BoundQuery> cached,
      std::shared_ptr<const CatalogState> catalog);

  // Transactions (transaction.cc). BEGIN in `session`: Busy when IMMEDIATE
  // and the writer slot stays taken.
  Status BeginTxn(Session* session, parser::Begin::Mode mode);
  Status CommitTxn(Session* session);
  Status RollbackTxn(Session* session);
  // What the next statement of `session` reads; inside a transaction, takes
  // its snapshot when this is its first read.
  StatementView ViewFor(Session* session);
  const std::shared_ptr<Session>& implicit_session() const { return implicit_; }
  // Database's Execute, Prepare and Query, in `session`.
  Status ExecuteIn(const std::shared_ptr<Session>& session,
                   std::string_view sql);
  Result<ExecResult> ExecuteIn(const std::shared_ptr<Session>& session,
                               std::string_view sql, const Params& params);
  Result<std::unique_ptr<levelql::Statement>> PrepareIn(
      const std::shared_ptr<Session>& session, std::string_view sql);
  Result<std::unique_ptr<Cursor>> QueryIn(
      const std::shared_ptr<Session>& session, std::string_view sql,
      const Params& params);

  std::shared_ptr<const CatalogState> catalog() const;
  // The parameter slots of a statement (binds it against the catalog).
  Result<ParamSlots> Slots(const parser::Statement& stmt);

 private:
  enum class Mode { kRun, kExplain, kExplainAnalyze };
  Result<std::unique_ptr<Cursor>> RunSelect(
      const std::shared_ptr<Session>& session,
      std::shared_ptr<const parser::Statement> stmt, const Params& params,
      Mode mode, std::shared_ptr<const BoundQuery>* cache = nullptr);
  Result<std::string> ExplainWrite(Session* session,
                                   const parser::Statement& stmt,
                                   const Params& params);
  RuleSet rules();
  Status RunCreateTable(const parser::Statement& stmt,
                        const parser::CreateTable& create);
  Status RunCreateIndex(const parser::Statement& stmt,
                        const parser::CreateIndex& create);
  // RunCreateIndex under the writer slot; a build undone names its key
  // ranges in `undone`, compacted once the slot is free, and a build done
  // its own in `built` (CompactBuilt).
  Status CreateIndexLocked(const parser::Statement& stmt,
                           const parser::CreateIndex& create,
                           std::vector<std::string>* undone,
                           std::vector<std::string>* built);
  // Compacts each key range of `prefixes`, made anew by a build that
  // wrote kCompactBuiltBytes or more (ddl.cc).
  void CompactBuilt(const std::vector<std::string>& prefixes);
  static constexpr int64_t kCompactBuiltBytes = int64_t{4} << 20;
  // Writes the entries of a new index in batches of kBackfillBatch, adding
  // the bytes written to *written.
  Status Backfill(const TableSchema& table, const IndexSchema& index,
                  std::shared_ptr<const TableSchema> table_ptr,
                  int64_t* written);
  static constexpr size_t kBackfillBatch = 10000;
  // Writes the counts of a ranked index from its entries (ddl.cc).
  Status BuildRanks(const IndexSchema& index);
  Status RunDropTable(const parser::DropTable& drop);
  Status RunDropIndex(const parser::DropIndex& drop);
  Status RunCreateView(const parser::Statement& stmt,
                       const parser::CreateView& create);
  Status RunDropView(const parser::DropView& drop);
  // ALTER TABLE: catalog records rewritten in one batch, no row or index
  // entry (alter_table.cc). Each action fills `next` and `batch`.
  Status RunAlterTable(const parser::AlterTable& alter);
  Status AddColumn(const TableSchema& table, const parser::ColumnDef& def,
                   CatalogState* next, WriteBatch* batch);
  Status RenameTable(const TableSchema& table, const std::string& to,
                     CatalogState* next, WriteBatch* batch);
  Status RenameColumn(const TableSchema& table, const std::string& from,
                      const std::string& to, CatalogState* next,
                      WriteBatch* batch);
  // The indexes of `table` for its rename to `table_to` and of its column
  // `from` to `to` (both may be unchanged): into `renamed`, `next` and
  // `batch`, with their statistics.
  Status RenameIndexes(const TableSchema& table, const std::string& table_to,
                       const std::string& from, const std::string& to,
                       TableSchema* renamed, CatalogState* next,
                       WriteBatch* batch);
  // DROP COLUMN: the table rebuilt without it (Rebuild), all or nothing.
  Status DropColumn(const std::string& table, const std::string& column);
  // An INSERT, UPDATE or DELETE: committed alone, or into the session's
  // transaction.
  Result<int64_t> RunWrite(Session* session, const parser::Statement& stmt,
                           const Params& params);
  // Binds and executes a write over `view` (null: the current state) into
  // a new *txn, whose writes may reach `max_bytes` (SIZE_MAX: no limit).
  // *ctx and *values hold what the statement read with.
  Result<int64_t> ExecuteWrite(const parser::Statement& stmt,
                               const Params& params, const StatementView* view,
                               size_t max_bytes, ExecContext* ctx,
                               std::vector<Value>* values,
                               std::unique_ptr<WriteTxn>* txn);
  Result<int64_t> RunWriteInTxn(Session* session, const parser::Statement& stmt,
                                const Params& params);
  // The writer slot for a transaction's write (transaction.cc): taken at
  // its first write, and refused (Busy) when a commit happened after its
  // snapshot.
  Status TakeSlotForTxn(Session* session);
  // NotSupported for a statement that cannot run inside a transaction.
  Status RefuseInTxn(Session* session, std::string_view what);
  int64_t busy_timeout_ms();
  Result<std::unique_ptr<Cursor>> RunPragma(const parser::Pragma& pragma);
  // REINDEX [name]: every quarantined table and index, or the one named
  // (reindex.cc).
  Status RunReindex(const std::string& name);
  // A table rebuilt with another definition (ALTER TABLE ... DROP COLUMN):
  // its CREATE TABLE statement, and the column of the old rows each new
  // row leaves out.
  struct TableChange {
    std::string sql;
    int dropped_column = -1;
  };
  // What the table becomes, checked under the writer slot against
  // `catalog` (an error refuses the change).
  using ChangeTable = std::function<Result<TableChange>(
      const std::shared_ptr<const CatalogState>& catalog)>;
  // REINDEX of `name`, or with `change`, of table `name` rebuilt as it says
  // (`what` names the statement in errors).
  Status Rebuild(const std::string& name, const ChangeTable& change = nullptr,
                 const std::string& what = "REINDEX");
  // Rebuild under the writer slot; names the key ranges it deleted whole
  // in `deleted`, compacted once the slot is free, and those it made in
  // `built` (CompactBuilt).
  Status RebuildLocked(const std::string& name, const ChangeTable& change,
                       const std::string& what,
                       std::vector<std::string>* deleted,
                       std::vector<std::string>* built);
  Status RunCheck(Session* session, const parser::Check& check);
  Status RunAnalyze(const parser::Analyze& analyze);

  // Writes a batch (fsync'd with Options::sync_writes) and counts the
  // commit; while this process holds the schema lock, conditional on it.
  // `written`, when given, gains the batch's bytes (WriteBatch::bytes).
  // REQUIRES: the writer slot.
  Status Commit(const WriteBatch& batch, int64_t* written = nullptr);
  // On a store other processes write too (KvStore::shared; no-ops
  // otherwise, see engine/catalog/schema_lock.h):
  // The catalog as of now: reloaded when another process changed the
  // schema; waits (up to the busy timeout) while another changes it.
  // Also keeps the snapshot it read at for the statement this thread is
  // starting (SyncedSnapshot: NewContext takes it instead of a new one).
  Status SyncCatalog();
  static std::shared_ptr<const KvSnapshot> SyncedSnapshot();
  static void ForgetSyncedSnapshot();
  // The start of a statement of `session` from the API: SyncCatalog outside
  // a transaction; the snapshot it kept is forgotten when `scope` ends.
  struct StatementScope {
    ~StatementScope() { ForgetSyncedSnapshot(); }
  };
  Status StartStatement(Session* session, const StatementScope& scope);
  // Runs a schema change (DDL, ANALYZE, REINDEX): one that writes
  // `in_batches` (CREATE INDEX, REINDEX) under the schema lock; one that
  // writes one batch, with that batch conditional on the epoch it read and
  // replacing it, run again when another process changed the schema first.
  Status RunSchemaChange(const std::function<Status()>& change,
                         bool in_batches = false);
  Status RunOneBatchSchemaChange(const std::function<Status()>& change);
  // Commit's conditions of a schema change on this thread (or of this
  // process's schema lock), and its note that the batch committed.
  void AddSchemaConditions(WriteBatch* batch);
  void Committed();
  // Runs `write` (an auto-commit statement's execution and commit) again
  // on a fresh snapshot while it fails with Busy (a write conflict), with
  // a growing random pause, until the busy timeout has passed.
  Result<int64_t> RetryConflicts(const std::function<Result<int64_t>()>& write);
  void SetCatalog(std::shared_ptr<CatalogState> next);
  // The largest key of `table` that INSERT counts from (nullopt: none),
  // counted the first time through the statement's view `txn` (whose
  // tables are salted by `layout`). REQUIRES: the writer slot.
  Result<std::optional<int64_t>*> LargestRowId(
      const TableSchema& table, WriteTxn* txn,
      const std::shared_ptr<const SaltLayout>& layout);
  // The keys of the statement writing through `*txn`, counted in
  // next_rowid_. REQUIRES: the writer slot.
  RowIdAllocator RowIds(const std::unique_ptr<WriteTxn>* txn,
                        std::shared_ptr<const SaltLayout> layout);
  // A statement's context over `view` (null: the current catalog and a
  // fresh snapshot).
  ExecContext NewContext(const std::vector<Value>* params,
                         const StatementView* view = nullptr);
  Status DeleteRange(const std::string& prefix, WriteBatch* batch);
  // Compacts key ranges that were deleted whole (KvStore::CompactRange).
  void Discard(const std::vector<std::string>& prefixes);
  // Compacts the ranges Commit queued in to_compact_.
  void CompactDeleted();

  std::unique_ptr<KvStore> store_;
  Options options_;
  mutable std::mutex catalog_mu_;
  std::shared_ptr<const CatalogState> catalog_;  // guarded by catalog_mu_
  WriterSlot writer_;                            // one writer at a time
  // By table: the largest key it holds or a statement gave it (nullopt:
  // none), for the keys INSERT assigns (RowIds).
  RowIdCounters next_rowid_;  // guarded by writer_
  // The schema lock's value while this process holds it (schema_lock.h);
  // guarded by catalog_mu_.
  std::optional<std::string> schema_lock_;
  // Commits so far: a transaction whose snapshot is older than a commit
  // cannot write (its reads would be stale).
  std::atomic<uint64_t> commit_seq_{0};
  DeletionTracker deletions_;  // what Commit has deleted, per keyspace
  // Ranges Commit found dense with deletions, compacted by CompactDeleted
  // once the statement (or transaction) that deleted them has ended.
  std::mutex compact_mu_;
  std::vector<std::pair<std::string, std::string>> to_compact_;
  std::shared_ptr<Session> implicit_ = std::make_shared<Session>();
  std::atomic<uint64_t> interrupt_epoch_{0};
  std::mutex settings_mu_;
  Settings settings_;          // guarded by settings_mu_
  StatementCache statements_;  // SELECT texts Query ran lately
};

// Finishes what an interrupted REINDEX left: removes half-built key ranges
// and deletes replaced ones (reindex.cc).
Status FinishInterruptedRebuilds(KvStore* store);
// Whether FinishInterruptedRebuilds has anything to do.
Result<bool> HasInterruptedRebuilds(KvStore* store);

// Opens a database over an already open store (tests: fault injection).
Result<std::unique_ptr<Database>> OpenDatabaseOnStore(
    std::unique_ptr<KvStore> store, const Options& options);

// A parsed statement shared by the cursors and runs that use it.
std::shared_ptr<const parser::Statement> SharedStatement(
    parser::Statement stmt);

// Binds parameter values to the slots of a statement.
Result<std::vector<Value>> BindParams(const ParamSlots& slots,
                                      const Params& params);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_DATABASE_IMPL_H_
