// Aggregation: COUNT, SUM, AVG, MIN, MAX and group_concat over groups of
// rows.
//
// The input arrives grouped: rows of one GROUP BY group are adjacent (an
// index gives them in group order, or a sort put them there), so each group
// is aggregated in one streaming pass with no hash table, and a group is
// done when the next row's key differs. Without GROUP BY every row is one
// group, and there is one result row even when there is no input row.
#ifndef LEVELQL_ENGINE_EXEC_AGGREGATE_H_
#define LEVELQL_ENGINE_EXEC_AGGREGATE_H_

#include <memory>
#include <vector>

#include "engine/exec/operators.h"

namespace levelql {

struct GroupSpec {
  const std::vector<AggregateSpec>* aggregates = nullptr;
  // The result row of a group, over its aggregates and its last input row
  // (bare columns; NULLs when there was no row).
  std::vector<const BoundExpr*> exprs;
  // GROUP BY over the input row, compared with these collations; empty:
  // one group of all rows.
  std::vector<const BoundExpr*> keys;
  std::vector<const Collation*> key_collations;
  const BoundExpr* having = nullptr;  // groups for which it is TRUE
  size_t row_width = 0;               // of an input row
  // > 0: every aggregate is COUNT(*) and the result reads no column but
  // the keys, and rows that share this many leading index key components
  // are in one group: the input may hand them over as counted runs
  // (RowSource::NextRun) instead of one by one.
  size_t run_components = 0;
};

// One row per group of `input`, in input order. The spec's expressions must
// outlive the operator.
std::unique_ptr<RowSource> NewAggregate(ExecContext* ctx,
                                        std::unique_ptr<RowSource> input,
                                        GroupSpec spec);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_AGGREGATE_H_
