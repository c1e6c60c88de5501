// Runs bound statements: plans a SELECT (planner.h) and starts its
// operators (build_operators.h), and applies INSERT, UPDATE and DELETE
// through a WriteTxn, each row with every index entry it owns. Stateless
// functions; the ExecContext carries the statement's snapshot and
// parameters.
#ifndef LEVELQL_ENGINE_EXEC_EXECUTOR_H_
#define LEVELQL_ENGINE_EXEC_EXECUTOR_H_

#include <functional>
#include <memory>
#include <string>

#include "engine/exec/operators.h"
#include "engine/plan/binder.h"
#include "engine/plan/plan.h"
#include "engine/plan/plan_cache.h"
#include "engine/plan/planner.h"
#include "engine/plan/rules.h"
#include "engine/storage/write_txn.h"

namespace levelql {

// The plan of a SELECT and its running operators. `root` is declared last
// so that it is destroyed before what its operators point into.
struct SelectExecution {
  SelectExecution() = default;
  SelectExecution(SelectExecution&& other) noexcept {
    *this = std::move(other);
  }
  SelectExecution& operator=(SelectExecution&& other) noexcept;
  // Ends the operators, then gives a reused plan back to its template.
  ~SelectExecution();

  std::unique_ptr<PlanNode> plan;
  const PlanSpares* spares = nullptr;  // a reused plan's template (`keep`)
  TokenMode token_mode = TokenMode::kStream;
  uint64_t order_signature = 0;      // what its tokens' positions refer to
  BoundExprPtr where;                // the normalized WHERE clause
  std::vector<BoundExprPtr> hidden;  // sort keys the planner added
  std::shared_ptr<const void> keep;  // what else the plan points into
  size_t width = 0;                  // visible output columns
  bool point_keys = false;           // PlannedSelect::point_keys
  std::unique_ptr<RowSource> root;   // rows are [outputs..., sort keys...]

 private:
  void End();
};

// A SELECT's LIMIT (-1: none) and OFFSET, evaluated.
struct Limits {
  int64_t limit = -1;
  int64_t offset = 0;
};
Result<Limits> EvaluateLimits(const BoundSelect& select,
                              const ExecContext& ctx);

// Plans a SELECT: evaluates LIMIT and OFFSET, reads the table's statistics
// and ctx->resume. `select` must outlive the plan. `backward_rows` > 0
// plans a backward read (planner.h).
Result<PlannedSelect> PlanSelectRun(const BoundSelect& select,
                                    const ExecContext& ctx,
                                    const RuleSet& rules,
                                    int64_t backward_rows = 0);
// Whether `kept` was made under `rules` and these LIMIT/OFFSET values.
bool TemplateFits(const PlanTemplate* kept, const RuleSet& rules,
                  const Limits& limits);
// The plan of a SELECT run from its start through a kept plan
// (plan_cache.h): `*kept` reused when it fits and takes ctx's values (the
// parameters, and in a correlated subquery the row around it, ctx.outer);
// else planned afresh, and `*kept` set to that plan when it can be reused
// and the kept one did not fit. Prepared statements and correlated
// subqueries plan through it.
Result<PlannedSelect> PlanThroughTemplate(
    const BoundSelect& select, const ExecContext& ctx, const RuleSet& rules,
    std::shared_ptr<const PlanTemplate>* kept);
// Builds the operators of a planned SELECT.
SelectExecution StartSelect(PlannedSelect planned, const BoundSelect& select,
                            ExecContext* ctx);
// Both, for statements that read a SELECT (INSERT ... SELECT).
Result<SelectExecution> BuildSelect(const BoundSelect& select, ExecContext* ctx,
                                    const RuleSet& rules);

// Whether INSERT assigns `table`'s key when a row leaves it out or gives
// NULL: a hidden rowid, or a declared INTEGER PRIMARY KEY (one ascending
// INTEGER column), as SQLite assigns its rowid.
bool AssignsRowId(const TableSchema& table);

// Hands out the keys AssignsRowId tables get (the caller serializes
// writers): `next` is the key a row that leaves it out gets, one past the
// largest the table holds or the statement has placed; `placed` notes the
// key of a row written, so later ones come after it. (A row INSERT OR
// IGNORE skips takes no key.)
struct RowIdAllocator {
  std::function<Result<int64_t>(const TableSchema&)> next;
  std::function<Status(const TableSchema&, int64_t key)> placed;
  // The statement deleted the row with `key` (INSERT OR REPLACE): when it
  // was the largest, the largest left is counted from what it sees.
  std::function<Status(const TableSchema&, int64_t key)> deleted;
};

// The rows written (not those INSERT OR IGNORE skipped, nor those INSERT
// OR REPLACE deleted).
Result<int64_t> ExecuteInsert(BoundInsert* insert, ExecContext* ctx,
                              const RuleSet& rules, WriteTxn* txn,
                              const RowIdAllocator& rowids);
Result<int64_t> ExecuteUpdate(BoundUpdate* update, ExecContext* ctx,
                              const RuleSet& rules, WriteTxn* txn);
Result<int64_t> ExecuteDelete(BoundDelete* del, ExecContext* ctx,
                              const RuleSet& rules, WriteTxn* txn);
// The plan an UPDATE or DELETE uses to find its rows (`pk_order`: in
// primary-key order, PlanRows).
PlannedRows PlanWriteRows(std::shared_ptr<const TableSchema> t,
                          const std::vector<std::string>& cols,
                          const BoundExpr* where, const ExecContext& ctx,
                          const RuleSet& rules, bool pk_order = false);
// Whether `update` can meet a uniqueness check whose outcome depends on the
// order it visits rows in: it assigns a primary-key column or a column of
// a UNIQUE index. It visits them in primary-key order then (DIALECT.md).
bool UpdateNeedsKeyOrder(const BoundUpdate& update);

// Evaluates a LIMIT or OFFSET expression: a non-negative INTEGER.
Result<int64_t> EvaluateCount(const BoundExpr& expr, const ExecContext& ctx,
                              const char* what);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_EXECUTOR_H_
