// GROUP BY planning: the order groups are read in, and how the rows get
// into that order.
//
// Groups are aggregated in one streaming pass over rows that arrive grouped
// (aggregate.h). When every GROUP BY term is a column, the planner asks the
// access path for the group columns' order: first the columns the ORDER BY
// leads with (in its directions, so the ORDER BY costs nothing), then the
// others ascending. When an index or the primary key gives that order (its
// leading columns may be pinned by equalities) the groups stream straight
// from the scan, with no hash table and no sort; otherwise the rows are
// sorted into groups first (the spilling sort, sort.cc). Pure functions.
#ifndef LEVELQL_ENGINE_PLAN_GROUPING_H_
#define LEVELQL_ENGINE_PLAN_GROUPING_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "engine/catalog/stats.h"
#include "engine/plan/access_planner.h"
#include "engine/plan/binder.h"
#include "engine/plan/plan.h"

namespace levelql {

struct GroupKey {
  const BoundExpr* expr;  // over the table row
  bool desc;
  const Collation* collation;
};

struct GroupPlan {
  // The GROUP BY terms in the order groups come in (duplicates dropped).
  std::vector<GroupKey> keys;
  // The same as columns, when every term is a column: the order to ask
  // the access path for.
  std::optional<std::vector<OrderColumn>> order;
  // Groups in that order satisfy the whole ORDER BY.
  bool covers_order_by = false;
  std::vector<BoundExprPtr> owned;  // the keys' expressions made here
};

// `order_by`: the ORDER BY as table columns (nullopt when a term is not a
// column).
GroupPlan PlanGroups(const BoundSelect& select,
                     const std::optional<std::vector<OrderColumn>>& order_by);

// How many groups `input_rows` rows make: the distinct count of an index
// whose leading columns are the group columns, when ANALYZE kept one.
double EstimateGroups(const TableSchema& table, const GroupPlan& groups,
                      const TableStats* stats, double input_rows);

// GroupSpec::run_components for groups read from `rows` (the access path's
// rows) whose result reads `exprs`: when `rows` is an index-only scan, every
// aggregate is COUNT(*), and nothing reads a column but binary-compared
// keys, the number of the index's leading key components that hold every
// key; else 0.
size_t RunComponents(const BoundSelect& select, const GroupPlan& groups,
                     const PlanNode& rows,
                     const std::vector<const BoundExpr*>& exprs);

// Rows of `input` (table rows) sorted into the groups' order: a Project that
// appends the keys' values to the row, and a Sort on them. The expressions
// it makes are added to `owned`.
std::unique_ptr<PlanNode> SortIntoGroups(const TableSchema& table,
                                         const GroupPlan& groups,
                                         std::unique_ptr<PlanNode> input,
                                         std::vector<BoundExprPtr>* owned);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_GROUPING_H_
