// Runs bound statements: builds operator trees for SELECT and applies DML
// through a WriteTxn.
//
// The access path is chosen by the planner (planner.h); everything above it
// (filter, aggregate, distinct, sort, limit) is built here. Stateless
// functions; the ExecContext carries the statement's snapshot and parameters.
#ifndef LEVELQL_ENGINE_EXECUTOR_H_
#define LEVELQL_ENGINE_EXECUTOR_H_

#include <functional>
#include <memory>
#include <string>

#include "engine/binder.h"
#include "engine/operators.h"
#include "engine/write_txn.h"

namespace levelql {

// The operator tree of a SELECT plus its EXPLAIN text.
struct SelectExecution {
  std::unique_ptr<RowSource> root;  // rows are [outputs..., sort keys...]
  size_t width = 0;                 // visible output columns
  std::string explain;              // one node per line
};

Result<SelectExecution> BuildSelect(const BoundSelect& select,
                                    ExecContext* ctx);

// Hands out hidden rowids for a table (the caller serializes writers).
using RowIdAllocator = std::function<Result<int64_t>(const TableSchema&)>;

Result<int64_t> ExecuteInsert(const BoundInsert& insert, ExecContext* ctx,
                              WriteTxn* txn, const RowIdAllocator& rowids);
Result<int64_t> ExecuteUpdate(const BoundUpdate& update, ExecContext* ctx,
                              WriteTxn* txn);
Result<int64_t> ExecuteDelete(const BoundDelete& del, ExecContext* ctx,
                              WriteTxn* txn);

// Evaluates a LIMIT or OFFSET expression: a non-negative INTEGER.
Result<int64_t> EvaluateCount(const BoundExpr& expr, const ExecContext& ctx,
                              const char* what);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXECUTOR_H_
