// The planner: chooses how a statement reads its table.
//
// Access paths, cheapest first by estimated cost: a contradiction (no scan),
// a single index or primary-key scan, a leapfrog intersection of pk-sorted
// index scans (AND), a merge union of index scans (OR), or the full table
// scan that is always correct. ORDER BY is answered by an index scan (forward
// or reversed) when the index's equality-fixed prefix is followed by the
// ORDER BY columns, so LIMIT stops the scan early; otherwise a top-k heap or
// a sort runs on top. Every choice is guarded by a rule (rules.h); with all
// rules off the plan is TableScan + Filter + Sort + Limit. The WHERE clause is
// re-checked on every fetched row unless the chosen scan proves it.
#ifndef LEVELQL_ENGINE_PLANNER_H_
#define LEVELQL_ENGINE_PLANNER_H_

#include <memory>
#include <vector>

#include "engine/binder.h"
#include "engine/continuation.h"
#include "engine/plan.h"
#include "engine/rules.h"

namespace levelql {

struct PlannerInput {
  const RuleSet* rules = nullptr;
  const std::vector<Value>* params = nullptr;
  const TableStats* stats = nullptr;    // from ANALYZE, or null
  const ResumePoint* resume = nullptr;  // resuming from a token
  // > 0: plan a backward read of this many rows from `resume` (the rows
  // before it, last first), for a previous-page token. The plan is the one a
  // forward read would use, with every scan and sort reversed.
  int64_t backward_rows = 0;
};

// A planned SELECT: the tree, and what its continuation tokens record.
struct PlannedSelect {
  std::unique_ptr<PlanNode> plan;
  TokenMode token_mode = TokenMode::kStream;
  uint64_t order_signature = 0;  // of the forward read (continuation.h)
};

// Plans a SELECT. Normalizes select->where in place; the plan points into
// *select, which must outlive it. `limit`/`offset` are the statement's;
// with input.resume they are adjusted to what is left.
Result<PlannedSelect> PlanSelect(BoundSelect* select, int64_t limit,
                                 int64_t offset, const PlannerInput& input);

// Plans the row source of an UPDATE or DELETE: the rows of `table` for which
// `*where` holds (every row when null). Normalizes *where in place.
std::unique_ptr<PlanNode> PlanRows(std::shared_ptr<const TableSchema> table,
                                   const std::vector<std::string>& columns,
                                   BoundExprPtr* where,
                                   const PlannerInput& input);

// Builds the running operators of a plan. The plan must outlive them.
std::unique_ptr<RowSource> BuildOperators(
    PlanNode* node, ExecContext* ctx, std::shared_ptr<const TableSchema> table);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLANNER_H_
