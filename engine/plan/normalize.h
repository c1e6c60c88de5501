// Predicate normalization: rewrites a bound WHERE clause into an equivalent
// one that the access-path rules can read.
//
//  - fold_constants: subtrees without columns (parameters are known by now)
//    become constants, keeping the affinity and collation they had; inside
//    a correlated subquery planned for one row around it, that row's
//    columns are known too (`outer`);
//  - push_not: NOT moves into AND/OR (De Morgan), comparisons (flipped),
//    IN, BETWEEN, LIKE and IS NULL - all exact under three-valued logic in a
//    predicate context;
//  - comparisons are put as `column op constant`.
// Each rewrite is an optimization only: the result is evaluated on every
// fetched row whenever the plan does not prove it.
#ifndef LEVELQL_ENGINE_PLAN_NORMALIZE_H_
#define LEVELQL_ENGINE_PLAN_NORMALIZE_H_

#include <vector>

#include "engine/exec/expr.h"
#include "engine/plan/rules.h"

namespace levelql {

// `outer`: the values of the row around a correlated subquery
// (BoundExpr::Kind::kOuterRef), or null.
BoundExprPtr NormalizePredicate(BoundExprPtr where, const RuleSet& rules,
                                const std::vector<Value>& params,
                                const std::vector<Value>* outer = nullptr);

// Folds constant subtrees of any expression (select list, ORDER BY).
BoundExprPtr FoldConstants(BoundExprPtr expr, const std::vector<Value>& params,
                           const std::vector<Value>* outer = nullptr);

// Splits a predicate into its top-level AND terms (borrowed pointers).
void Conjuncts(const BoundExpr* expr, std::vector<const BoundExpr*>* out);
// Splits a predicate into its top-level OR terms.
void Disjuncts(const BoundExpr* expr, std::vector<const BoundExpr*>* out);

bool IsConstant(const BoundExpr& e);
// IsConstant, or reading besides the row around a correlated subquery
// (kOuterRef, not a list): known before its rows are read, once it runs.
bool IsKnownPerRun(const BoundExpr& e);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_NORMALIZE_H_
