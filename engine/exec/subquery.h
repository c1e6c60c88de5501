// Runs a statement's subqueries (binder.h, BoundSubquery): uncorrelated
// ones before the statement, each once, on the statement's snapshot, its
// value put where its hidden parameter slot reads it; correlated ones for
// each row of the query around them that needs their value.
#ifndef LEVELQL_ENGINE_EXEC_SUBQUERY_H_
#define LEVELQL_ENGINE_EXEC_SUBQUERY_H_

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/exec/operators.h"
#include "engine/plan/binder.h"
#include "engine/plan/plan_cache.h"
#include "engine/plan/rules.h"

namespace levelql {

// Appends the values of `slots.subqueries` to `values` (the statement's
// parameters, which ctx->params points to), in the order the binder listed
// them, so that an inner subquery's value is there before the one around
// it runs, each planned with ctx->rules. IN's values are held in memory:
// past ctx->sort_memory_bytes the statement fails with LimitExceeded.
Status RunSubqueries(const ParamSlots& slots, std::vector<Value>* values,
                     ExecContext* ctx);

// What one correlated subquery of a statement did, for EXPLAIN ANALYZE.
struct CorrelatedRuns {
  const BoundSubquery* subquery = nullptr;
  int64_t runs = 0;    // planned and run
  int64_t cached = 0;  // answered from CorrelatedValues
  uint64_t keys = 0;   // read by its runs
  uint64_t seeks = 0;
  std::string last_plan;  // its last run's plan (RenderPlan with counts)
};

// A statement's correlated subquery values, by subquery and the outer
// values it read: one statement reads one snapshot with one set of
// parameters, so the same subquery with the same values has the same value.
struct CorrelatedValues {
  std::unordered_map<std::string, Value> values;
  int64_t bytes = 0;  // held (RunCorrelated stops adding past a bound)
  // EXPLAIN ANALYZE: each subquery's runs, in the order they first ran.
  bool account = false;
  std::vector<CorrelatedRuns> runs;
  // Each subquery's plan, made for its first run's outer values and
  // reused for others (plan_cache.h), as a prepared statement's is for
  // other parameter values; null when that plan cannot be reused.
  std::map<const BoundSubquery*, std::shared_ptr<const PlanTemplate>> plans;
};

// EXPLAIN ANALYZE's lines for the correlated subqueries `values` accounted
// for: where each is, its runs, the keys they read and its last run's plan.
std::string RenderCorrelatedRuns(const CorrelatedValues& values);

// Runs a correlated subquery (BoundExpr::Kind::kSubqueryRun) for one row
// of the query around it, whose values it reads are `outer`: planned and
// run on the statement's snapshot, with its parameters and rules, unless
// this statement already ran it with the same values.
Result<Value> RunCorrelated(const ExecContext& around, const BoundSubquery& sub,
                            std::vector<Value> outer);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_SUBQUERY_H_
