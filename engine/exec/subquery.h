// Runs a statement's subqueries (binder.h, BoundSubquery): uncorrelated
// ones before the statement, each once, on the statement's snapshot, its
// value put where its hidden parameter slot reads it; correlated ones for
// each row of the query around them that needs their value.
#ifndef LEVELQL_ENGINE_EXEC_SUBQUERY_H_
#define LEVELQL_ENGINE_EXEC_SUBQUERY_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "engine/exec/operators.h"
#include "engine/plan/binder.h"
#include "engine/plan/rules.h"

namespace levelql {

// Appends the values of `slots.subqueries` to `values` (the statement's
// parameters, which ctx->params points to), in the order the binder listed
// them, so that an inner subquery's value is there before the one around
// it runs, each planned with ctx->rules. IN's values are held in memory:
// past ctx->sort_memory_bytes the statement fails with LimitExceeded.
Status RunSubqueries(const ParamSlots& slots, std::vector<Value>* values,
                     ExecContext* ctx);

// A statement's correlated subquery values, by subquery and the outer
// values it read: one statement reads one snapshot with one set of
// parameters, so the same subquery with the same values has the same value.
struct CorrelatedValues {
  std::unordered_map<std::string, Value> values;
  int64_t bytes = 0;  // held (RunCorrelated stops adding past a bound)
};

// Runs a correlated subquery (BoundExpr::Kind::kSubqueryRun) for one row
// of the query around it, whose values it reads are `outer`: planned and
// run on the statement's snapshot, with its parameters and rules, unless
// this statement already ran it with the same values.
Result<Value> RunCorrelated(const ExecContext& around, const BoundSubquery& sub,
                            std::vector<Value> outer);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_SUBQUERY_H_
