// The rows of a compound SELECT (UNION, UNION ALL, INTERSECT, EXCEPT),
// before the planner's sort puts them in order.
//
// Each input is one SELECT's rows (their first `width` values are the
// result's). Every row the operator returns is those values, then the
// number of the SELECT it came from and its place among that SELECT's rows
// (two INTEGERs): the numbers order equal rows totally, so a continuation
// token can name one of several equal rows of a UNION ALL. The SELECTs
// combine left to right, all operators with one precedence (SQLite's): a
// UNION ALL appends the next SELECT's rows; UNION, INTERSECT and EXCEPT
// sort both sides by their values (spilling past the sort memory, as any
// sort) and merge them, keeping one row per value (of equal ones the
// last, as SQLite does without ORDER BY: the right side's for UNION, the
// left side's for INTERSECT and EXCEPT), values compared under
// `collations` (the first SELECT's columns').
#ifndef LEVELQL_ENGINE_EXEC_COMPOUND_H_
#define LEVELQL_ENGINE_EXEC_COMPOUND_H_

#include <memory>
#include <vector>

#include "engine/exec/operators.h"
#include "parser/ast.h"

namespace levelql {

// `inputs` read through `inputs_ctx`, which the operator keeps alive.
std::unique_ptr<RowSource> NewCompound(
    ExecContext* ctx, std::shared_ptr<ExecContext> inputs_ctx,
    std::vector<std::unique_ptr<RowSource>> inputs,
    const std::vector<parser::CompoundOp>& ops, size_t width,
    std::vector<const Collation*> collations);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_COMPOUND_H_
