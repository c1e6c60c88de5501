// SelectCursor: the Cursor of a SELECT, and the state one run of a SELECT
// owns (its catalog snapshot, bound statement, parameters, store snapshot,
// plan and operators).
//
// The cursor hands out continuation tokens (continuation.h) for the position
// after its current row, and previous-page tokens, which it makes by running
// the same plan backwards from the position it started at. Used by one
// thread at a time; must not outlive the DatabaseImpl that made it.
#ifndef LEVELQL_ENGINE_SELECT_CURSOR_H_
#define LEVELQL_ENGINE_SELECT_CURSOR_H_

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/exec/executor.h"
#include "engine/plan/continuation.h"
#include "engine/plan/plan_cache.h"
#include "engine/session.h"
#include "levelql/database.h"
#include "parser/ast.h"

namespace levelql {

class DatabaseImpl;
struct SelectRun;

// A SELECT bound against one catalog, reused by later runs of the same
// prepared statement while the catalog is the same (binding is a fifth of a
// short query's work). Immutable once made but for the plan its runs reuse
// (plan_cache.h) and the ended runs it keeps, both set under a lock;
// shared by runs and cursors.
struct BoundQuery {
  BoundQuery() { runs_.reserve(kMaxRuns); }  // KeepRun never allocates
  ~BoundQuery();

  std::shared_ptr<const CatalogState> catalog;
  BoundSelect select;
  ParamSlots slots;
  uint64_t text_fingerprint = 0;  // of the statement's text

  std::shared_ptr<const PlanTemplate> plan() const {
    std::lock_guard<std::mutex> lock(plan_mu_);
    return plan_;
  }
  void set_plan(std::shared_ptr<const PlanTemplate> plan) const {
    std::lock_guard<std::mutex> lock(plan_mu_);
    plan_ = std::move(plan);
  }

  // A run of this query that ended parked (SelectRun::Park), to start the
  // next run in, or null. Building a short query's operators and tearing
  // them down again costs as much as its read.
  std::unique_ptr<SelectRun> TakeRun() const;
  // Keeps an ended run of this query when it parks, its plan is the
  // query's kept template, and fewer than a few are kept (one per run at
  // once); else ends it.
  void KeepRun(std::unique_ptr<SelectRun> run) const;

 private:
  static constexpr size_t kMaxRuns = 2;
  mutable std::mutex plan_mu_;
  mutable std::shared_ptr<const PlanTemplate> plan_;
  // Last: the kept runs point into the members above.
  mutable std::vector<std::unique_ptr<SelectRun>> runs_;
};

// One run of a SELECT. `exec` is declared last so its operators, which
// point into the members above, are destroyed first.
struct SelectRun {
  std::shared_ptr<Session> session;  // the run's, to plan it again
  uint64_t txn_id = 0;  // the transaction it reads in (0: none), for tokens
  std::shared_ptr<const CatalogState> catalog;
  std::shared_ptr<const parser::Statement> stmt;
  Params api_params;  // as the caller bound them, to plan the query again
  std::shared_ptr<const BoundQuery> query;
  const BoundSelect* bound = nullptr;  // &query->select
  std::vector<Value> params;
  ResumePoint start;         // the position the run starts after (kStart: none)
  uint64_t fingerprint = 0;  // of the statement and its parameter values
  uint64_t snapshot_id = 0;  // KvStore::SnapshotId of what the run reads
  ExecContext ctx;
  SelectExecution exec;
  // The row buffers of the cursor that read the run last, parked (their
  // values let go), for the next cursor over this run (SelectCursor).
  Row cursor_rows[3];

  // Lets go of what ties the ended run to the store (snapshot, iterators),
  // to its statement and session, and of its parameter values and rows,
  // keeping its operators, plan (whose scans still hold the last keys) and
  // small buffers for another run of the same query (BoundQuery::KeepRun).
  // Only a plan whose runs differ in point keys alone (SelectExecution::
  // point_keys) whose every operator can start again parks; false
  // otherwise (then end the run: it may have let go of some).
  bool Park();

  // A token for a position of this run's query.
  ResumePoint Point(ResumePoint::Kind kind, int64_t emitted) const;
  // The position of the row `root` last returned (whose values, sort keys
  // included, are `full`), as a token point with `emitted` rows before it.
  // False when the operators cannot tell (a bug: tests count it).
  bool PositionOf(const Row& full, int64_t emitted, ResumePoint* out) const;
};

class SelectCursor : public Cursor {
 public:
  SelectCursor(DatabaseImpl* db, std::unique_ptr<SelectRun> run);
  ~SelectCursor() override;  // hands the run to its query to keep

  bool Next() override;
  const Row& row() const override { return row_; }
  const std::vector<std::string>& column_names() const override {
    return run_->bound->output_names;
  }
  const std::vector<Type>& column_types() const override {
    return run_->bound->output_types;
  }
  Status status() const override { return run_->exec.root->status(); }
  std::string ContinuationToken() const override;
  Result<std::string> PreviousPageToken(int64_t rows) override;
  bool AtFirstPage() const override {
    return run_->start.kind == ResumePoint::Kind::kStart;
  }

 private:
  std::string Encode(const ResumePoint& p) const;

  DatabaseImpl* db_;
  std::unique_ptr<SelectRun> run_;
  Row full_;     // kSortKey: the whole row, its outputs moved to row_
  Row scratch_;  // the next row, until it is known to exist
  Row row_;      // the outputs
  int64_t emitted_ = 0;
  bool ended_ = false;  // Next() returned false: it keeps doing so
  // kStream: the position of the last row, read as it was returned.
  bool has_position_ = false;
  ResumePoint::Kind position_kind_ = ResumePoint::Kind::kStart;
  std::string position_;
};

// Runs started in a kept run's operators (BoundQuery::TakeRun) in this
// process, for tests.
uint64_t KeptRunsRestarted();
void CountKeptRunRestarted();

// A cursor over rows computed up front (EXPLAIN, PRAGMA, DML results).
class ValuesCursor : public Cursor {
 public:
  ValuesCursor(std::vector<std::string> names, std::vector<Row> rows);
  bool Next() override;
  const Row& row() const override { return row_; }
  const std::vector<std::string>& column_names() const override {
    return names_;
  }
  const std::vector<Type>& column_types() const override { return types_; }
  Status status() const override { return Status::OK(); }

 private:
  std::vector<std::string> names_;
  std::vector<Type> types_;
  std::vector<Row> rows_;
  size_t pos_ = 0;
  Row row_;
};

// One text row per line of `text`, in a column named "plan".
std::unique_ptr<Cursor> PlanCursor(const std::string& text);
std::unique_ptr<Cursor> EmptyCursor();

}  // namespace levelql

#endif  // LEVELQL_ENGINE_SELECT_CURSOR_H_
