// Join planning: how the rows of two or more FROM tables (inner joins) are
// paired.
//
// Tables join in FROM order when each after the first has an equality to
// join on with one before it; else (rule join_order) in an order that joins
// first the tables such equalities connect, leaving every-pair joins to the
// end. Of the first two, the one estimated at a quarter of the other's rows
// or fewer reads first when the other comes in key order and the key is not
// fixed to one value (the merge seeks it past each key). Whatever the order,
// the joined row has the FROM clause's layout. Each table is read on its
// own, through its own access path for the WHERE and ON terms that name
// only it (an index range, an intersection, ...). A table is joined to
// those before it on a term that equates one of its columns with one of
// theirs (both numbers, or both text): by a merge join when both columns
// have the collation the term compares with and an index or the primary key
// gives one input or both in key order (the other is sorted), then the
// primary keys, each input read once; by a hash join when neither comes in
// key order, or when the columns are text of other collations than the
// term's (neither sorted: the right rows held under a hash of the key, by
// the term's collation). Without such a term every pair is formed (a nested
// loop over the second input, held in memory while it fits the sort budget,
// else read again per row of the first). Every other term that names
// several tables is checked on the joined rows right after the join that
// brings in the last of its tables (a merge or hash join compares its key
// exactly as `=` does).
//
// The joined rows come in a total order (the join keys, then the tables'
// primary keys), which continuation tokens name. Pure functions.
#ifndef LEVELQL_ENGINE_PLAN_JOIN_PLANNER_H_
#define LEVELQL_ENGINE_PLAN_JOIN_PLANNER_H_

#include <memory>
#include <set>
#include <vector>

#include "engine/plan/access_planner.h"
#include "engine/plan/binder.h"
#include "engine/plan/planner.h"

namespace levelql {

struct JoinPlan {
  std::unique_ptr<PlanNode> rows;   // joined rows, filtered by `where`
  std::vector<SortKey> order;       // the order they come in (a total one)
  std::vector<BoundExprPtr> owned;  // expressions the plan points into
  // For each of `owned`, for each of its conjuncts in order, the conjunct
  // of the WHERE clause it was made from (copied, or copied across a merge
  // key); empty for the terms naming several tables. A reused plan builds
  // its keys from the values of the statement's terms (plan_cache.h).
  std::vector<std::vector<int>> origins;
  std::set<int> pinned;  // columns an equality with a constant fixes
  std::vector<std::pair<int, int>> equal;  // columns merged on (equal values)
  // No table's access was decided by an empty range (AccessPlan::reusable).
  bool reusable = true;
};

// Whether rows in the join's order (or, with *reverse set, in exactly the
// opposite order) come in the order of `order_by`, skipping the columns
// that `pinned` fixes and those equal to a column already in order.
bool JoinGivesOrder(const JoinPlan& join,
                    const std::vector<OrderColumn>& order_by, bool* reverse);

// `where`: the statement's normalized WHERE and ON terms over the joined
// row; `needed`: the joined row's columns the rest of the query reads.
JoinPlan PlanJoins(const BoundSelect& select, const BoundExpr* where,
                   const std::set<int>& needed, const PlannerInput& input);

// The expressions PlanJoins makes of `where` (its JoinPlan::owned, in the
// same order): each table's terms, normalized, then the terms naming
// several tables. A reused plan matches them with the ones it was made with
// (plan_cache.h).
std::vector<BoundExprPtr> JoinTerms(const BoundSelect& select,
                                    const BoundExpr* where,
                                    const PlannerInput& input);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_JOIN_PLANNER_H_
