// The select planner: turns a bound SELECT into a plan, in named steps:
//
//   1. access      - which rows, in which order (access_planner.h)
//   2. projection  - the output expressions (or the aggregates)
//   3. distinct    - rows identified by their values
//   4. resume      - rows after a continuation token's sort position
//   5. order       - a top-k heap or a sort, unless the access gives the
//                    order; a sort breaks ties by primary key (for DISTINCT:
//                    by every output), so the order is total and a token can
//                    name a position in it
//   6. limit       - LIMIT/OFFSET (OFFSET on keys when the access could)
//
// With every rule off the plan is TableScan + Filter + Sort + Limit. The
// planner does not modify the bound statement: what it derives (the
// normalized WHERE clause, hidden sort keys) is owned by the result, which
// must outlive the plan's operators. Pure functions; thread-compatible.
#ifndef LEVELQL_ENGINE_PLAN_PLANNER_H_
#define LEVELQL_ENGINE_PLAN_PLANNER_H_

#include <functional>
#include <memory>
#include <vector>

#include "engine/catalog/stats.h"
#include "engine/plan/binder.h"
#include "engine/plan/continuation.h"
#include "engine/plan/plan.h"
#include "engine/plan/rules.h"

namespace levelql {

struct PlannerInput {
  const RuleSet* rules = nullptr;
  const std::vector<Value>* params = nullptr;
  // Planning a correlated subquery for one row around it: that row's values
  // its WHERE clause reads (kOuterRef), known constants here; else null.
  const std::vector<Value>* outer = nullptr;
  const TableStats* stats = nullptr;  // from ANALYZE, or null
  // The statistics of any table (a join's tables), or null.
  std::function<const TableStats*(const TableSchema&)> stats_of;
  const ResumePoint* resume = nullptr;  // resuming from a token
  // > 0: plan a backward read of this many rows from `resume` (the rows
  // before it, last first), for a previous-page token. The plan is the one a
  // forward read would use, with every scan and sort reversed.
  int64_t backward_rows = 0;
};

// Plans kept for a template's next runs (plan_cache.h).
class PlanSpares {
 public:
  virtual ~PlanSpares() = default;
  // Takes back the plan of a run that ended (or drops it).
  virtual void GiveBack(std::unique_ptr<PlanNode> plan) const noexcept = 0;
};

// A planned SELECT: the tree, what its continuation tokens record, and the
// expressions the planner made that the tree points into.
struct PlannedSelect {
  std::unique_ptr<PlanNode> plan;
  TokenMode token_mode = TokenMode::kStream;
  uint64_t order_signature = 0;      // of the forward read (continuation.h)
  BoundExprPtr where;                // the normalized WHERE clause
  std::vector<BoundExprPtr> hidden;  // primary-key sort keys
  // A join: the first `join_terms` of `hidden` are its tables' terms
  // (JoinTerms(), join_planner.h).
  size_t join_terms = 0;
  // For each of those, where its conjuncts come from (JoinPlan::origins).
  std::vector<std::vector<int>> join_origins;
  // A plan for other parameter values may be made from this one
  // (plan_cache.h): read from its start, and no choice that an empty range
  // decided.
  bool reusable = false;
  // What else the plan points into (a reused plan: its template).
  std::shared_ptr<const void> keep;
  // A reused plan: where it goes when its run ends, for the next run of
  // the template (plan_cache.h); kept alive by `keep`.
  const PlanSpares* spares = nullptr;
  // A reused plan whose only per-run part is its scans' point keys
  // (plan_cache.h, PointScan): its operators may be kept for the next run.
  bool point_keys = false;
};

// The WHERE clause a SELECT's plan reads: normalized for `params`
// (normalize.h), and for MIN/MAX over an index, the column IS NOT NULL.
BoundExprPtr PlannedWhere(const BoundSelect& select, const RuleSet& rules,
                          const std::vector<Value>& params,
                          const std::vector<Value>* outer = nullptr);

// Plans a SELECT. `limit`/`offset` are the statement's (evaluated); with
// input.resume they are adjusted to what is left. `select` must outlive the
// plan.
Result<PlannedSelect> PlanSelect(const BoundSelect& select, int64_t limit,
                                 int64_t offset, const PlannerInput& input);

// The rows an UPDATE or DELETE changes: those of `table` for which `where`
// holds (every row when null), each once; with `pk_order`, in primary-key
// order (sorted when the access path reads them in another).
struct PlannedRows {
  std::unique_ptr<PlanNode> plan;
  BoundExprPtr where;  // normalized; the plan points into it
};
PlannedRows PlanRows(std::shared_ptr<const TableSchema> table,
                     const std::vector<std::string>& columns,
                     const BoundExpr* where, const PlannerInput& input,
                     bool pk_order = false);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_PLANNER_H_
