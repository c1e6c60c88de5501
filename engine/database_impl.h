// DatabaseImpl: the engine behind the public Database API.
//
// Owns the KvStore, the current CatalogState and the connection settings.
// Thread-safe as database.h promises: DDL and DML take write_mu_ (one writer
// at a time); readers take a snapshot of the store and of the catalog and
// never block writers. Each statement is parsed, bound against the catalog
// it sees at its start, and executed on one store snapshot.
#ifndef LEVELQL_ENGINE_DATABASE_IMPL_H_
#define LEVELQL_ENGINE_DATABASE_IMPL_H_

#include <atomic>
#include <map>
#include <mutex>

#include "engine/catalog/catalog.h"
#include "engine/exec/executor.h"
#include "engine/plan/rules.h"
#include "engine/select_cursor.h"
#include "levelql/database.h"
#include "parser/parser.h"

namespace levelql {

// Connection settings changed by PRAGMA.
struct Settings {
  RuleSet rules;  // PRAGMA disable_rules
  int64_t sort_memory_bytes = 64 << 20;
  int64_t statement_timeout_ms = 0;  // 0: none
};

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
  void Interrupt() override { interrupt_epoch_.fetch_add(1); }
  std::vector<std::string> TableNames() override;
  std::vector<SchemaEntry> Schema() override;

  // Runs one parsed statement. Statements that return rows give a cursor;
  // others give a cursor with no columns and set *affected.
  // `cache` (a prepared statement's) keeps the binding of a SELECT.
  Result<std::unique_ptr<Cursor>> Run(
      std::shared_ptr<const parser::Statement> stmt, const Params& params,
      int64_t* affected, std::shared_ptr<const BoundQuery>* cache = nullptr);
  // Resumes a SELECT after the row a continuation token was taken at.
  Result<std::unique_ptr<Cursor>> Resume(
      std::shared_ptr<const parser::Statement> stmt, const std::string& token,
      const Params& params, std::shared_ptr<const BoundQuery>* cache = nullptr);
  // Binds, plans and starts one run of a SELECT (`stmt` holds it, maybe in
  // an EXPLAIN), after `resume` when given (its query, schema and plan
  // order are checked), or reading `backward_rows` rows backwards from it.
  // `query` is a binding of `stmt` to reuse when its catalog is current.
  Result<std::unique_ptr<SelectRun>> StartSelectRun(
      std::shared_ptr<const parser::Statement> stmt, const Params& params,
      const ResumePoint* resume, int64_t backward_rows = 0,
      std::shared_ptr<const BoundQuery> query = nullptr);
  // The binding of a SELECT (maybe in an EXPLAIN) against the current
  // catalog: `cached` when it is still current, else a new one.
  Result<std::shared_ptr<const BoundQuery>> BindQuery(
      const parser::Statement& stmt, std::shared_ptr<const BoundQuery> cached);

  std::shared_ptr<const CatalogState> catalog() const;
  // The parameter slots of a statement (binds it against the catalog).
  Result<ParamSlots> Slots(const parser::Statement& stmt);

 private:
  enum class Mode { kRun, kExplain, kExplainAnalyze };
  Result<std::unique_ptr<Cursor>> RunSelect(
      std::shared_ptr<const parser::Statement> stmt, const Params& params,
      Mode mode, std::shared_ptr<const BoundQuery>* cache = nullptr);
  Result<std::string> ExplainWrite(const parser::Statement& stmt,
                                   const Params& params);
  RuleSet rules();
  Status RunCreateTable(const parser::Statement& stmt,
                        const parser::CreateTable& create);
  Status RunCreateIndex(const parser::Statement& stmt,
                        const parser::CreateIndex& create);
  // Writes the entries of a new index in batches of kBackfillBatch.
  Status Backfill(const TableSchema& table, const IndexSchema& index,
                  std::shared_ptr<const TableSchema> table_ptr);
  static constexpr size_t kBackfillBatch = 10000;
  // Writes the counts of a ranked index from its entries (ddl.cc).
  Status BuildRanks(const IndexSchema& index);
  Status RunDropTable(const parser::DropTable& drop);
  Status RunDropIndex(const parser::DropIndex& drop);
  Result<int64_t> RunWrite(const parser::Statement& stmt, const Params& params);
  Result<std::unique_ptr<Cursor>> RunPragma(const parser::Pragma& pragma);
  // REINDEX [name]: every quarantined table and index, or the one named
  // (reindex.cc).
  Status RunReindex(const std::string& name);
  Status Rebuild(const std::string& name);
  Status RunCheck(const parser::Check& check);
  Status RunAnalyze(const parser::Analyze& analyze);

  Status Commit(const WriteBatch& batch);
  void SetCatalog(std::shared_ptr<CatalogState> next);
  Result<int64_t> NextRowId(const TableSchema& table);
  ExecContext NewContext(const std::vector<Value>* params);
  Status DeleteRange(const std::string& prefix, WriteBatch* batch);

  std::unique_ptr<KvStore> store_;
  Options options_;
  mutable std::mutex catalog_mu_;
  std::shared_ptr<const CatalogState> catalog_;  // guarded by catalog_mu_
  std::mutex write_mu_;                          // one writer at a time
  std::map<int64_t, int64_t> next_rowid_;        // guarded by write_mu_
  std::atomic<uint64_t> interrupt_epoch_{0};
  std::mutex settings_mu_;
  Settings settings_;  // guarded by settings_mu_
};

// Finishes what an interrupted REINDEX left: removes half-built key ranges
// and deletes replaced ones (reindex.cc).
Status FinishInterruptedRebuilds(KvStore* store);

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
