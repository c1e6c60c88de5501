// Builds the running operators of a plan: key streams (row_id_stream.h)
// for the access path, row operators (operators.h) above them, each counting
// its rows for EXPLAIN ANALYZE, and the access path moved past the position
// of a continuation token when the ExecContext resumes one.
#ifndef LEVELQL_ENGINE_EXEC_BUILD_OPERATORS_H_
#define LEVELQL_ENGINE_EXEC_BUILD_OPERATORS_H_

#include <memory>

#include "engine/exec/operators.h"
#include "engine/plan/plan.h"

namespace levelql {

// The plan (and what it points into) must outlive the operators.
std::unique_ptr<RowSource> BuildOperators(
    PlanNode* node, ExecContext* ctx, std::shared_ptr<const TableSchema> table);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_BUILD_OPERATORS_H_
