// BoundExpr: an expression whose names are resolved against one table.
//
// The binder (binder.h) builds these from parser::Expr; Evaluate computes them
// over a row. Column references are row positions; parameters are slots in
// the bound parameter vector; aggregate calls are replaced by references to
// aggregate results computed by the Aggregate operator. Immutable after
// binding and safe to evaluate from several threads at once.
#ifndef LEVELQL_ENGINE_EXEC_EXPR_H_
#define LEVELQL_ENGINE_EXEC_EXPR_H_

#include <memory>
#include <string>
#include <vector>

#include "engine/exec/value_ops.h"
#include "indexes/collation.h"
#include "indexes/schema.h"
#include "levelql/status.h"
#include "parser/ast.h"

namespace levelql {

// Longest LIKE pattern, in bytes (SQLite's default). Longer is an error.
inline constexpr size_t kMaxLikePatternBytes = 50000;

// Scalar functions (functions.h has their names and semantics).
enum class Function {
  kLower,
  kUpper,
  kLength,
  kAbs,
  kCoalesce,
  kIfnull,
  kNullif,
  kSubstr,
  kTrim,
  kLtrim,
  kRtrim,
  kReplace,
  kInstr,
  kRound,
  kTypeof,
};

enum class AggregateKind {
  kCountStar,
  kCount,
  kSum,
  kMin,
  kMax,
  kAvg,
  kGroupConcat,
  kTotal,  // SQLite's total(): sum() as a REAL, 0.0 over no values
};

struct BoundExpr;
using BoundExprPtr = std::unique_ptr<BoundExpr>;
struct BoundSubquery;  // binder.h
struct ExecContext;    // operators.h
struct InLookup;       // expr.cc

struct BoundExpr {
  enum class Kind {
    kConst,
    kColumn,
    kParam,
    kUnary,
    kBinary,
    kBetween,
    kIn,
    kIsNull,
    kLike,
    kFunction,
    kCast,
    kAggregateRef,
    kArray,
    kCase,  // args as parser::Expr's kCase: [operand] (when, then)* [else]
    // args[0] [NOT] IN the elements of args[1]'s LIST value (a subquery's
    // rows): as kIn with those elements as items, compared with args[1]'s
    // affinity for them.
    kInSet,
    // A correlated subquery (`subquery`), run for each row: args are the
    // values of the row around it that it reads, in the order of its
    // kOuterRef indexes. Its value as BoundSubquery::Kind says (an IN's is
    // the LIST a kInSet reads).
    kSubqueryRun,
    kOuterRef,  // value `index` of the row around a correlated subquery
  };
  Kind kind = Kind::kConst;
  bool case_operand = false;  // kCase
  bool case_else = false;     // kCase
  parser::Position pos;
  Value value;  // kConst
  // kColumn: row position; kParam: slot (< 0: a subquery's hidden slot,
  // counted from the end of the values, binder.h); kAggregateRef: slot
  int index = -1;
  parser::UnaryOp unary_op = parser::UnaryOp::kPlus;
  parser::BinaryOp binary_op = parser::BinaryOp::kAdd;
  bool negated = false;
  Function function = Function::kLower;
  Type cast_type = Type::kNull;
  // Static type when known (a column's declared type, a CAST), else kNull.
  Type type = Type::kNull;
  bool is_list = false;                  // a multi-valued column
  Affinity affinity = Affinity::kNone;   // for comparisons (SQLite's rule)
  const Collation* collation = nullptr;  // for comparisons and LIKE
  // kBetween: x <= hi's (`collation` is x >= lo's): SQLite decides each
  // half by its own pair. Null: `collation`.
  const Collation* upper_collation = nullptr;
  // The collation the value carries into a comparison (CarriedCollation),
  // pinned: a view's computed column carries its own (binary unless it is
  // a column's), as SQLite's flattened views do. Null: as the kind says.
  const Collation* carried = nullptr;
  // `carried` was written (x COLLATE c): it wins over any column's in a
  // comparison, from either side (ExplicitCollation).
  bool explicit_collation = false;
  std::vector<BoundExprPtr> args;
  std::shared_ptr<const BoundSubquery> subquery;  // kSubqueryRun
  // kIn, kInSet with constant items: them sorted, for a binary search per
  // row instead of a comparison per item (PrepareInLookup).
  std::shared_ptr<const InLookup> lookup;
};

struct AggregateSpec {
  AggregateKind kind = AggregateKind::kCountStar;
  bool distinct = false;
  BoundExprPtr arg;        // null for COUNT(*)
  BoundExprPtr separator;  // group_concat's second argument, or null (",")
  const Collation* collation = nullptr;
};

// What an expression reads besides its own tree.
struct EvalContext {
  const std::vector<Value>* row = nullptr;
  const std::vector<Value>* params = nullptr;
  const std::vector<Value>* aggregates = nullptr;
  // The statement's execution, which runs correlated subqueries (null:
  // none may be evaluated here), and the values of the row around this
  // one that kOuterRef reads (inside a correlated subquery).
  const ExecContext* exec = nullptr;
};

Result<Value> Evaluate(const BoundExpr& expr, const EvalContext& ctx);
// "at line:column: ", where `e` is in the statement, to begin an error
// message with ("" for an expression the planner made).
std::string PlaceOf(const BoundExpr& e);

// Evaluates a predicate: true only when the value is TRUE (not NULL).
Result<bool> EvaluatePredicate(const BoundExpr& expr, const EvalContext& ctx);

// Renders an expression for EXPLAIN with column names from `columns`.
std::string ExprToString(const BoundExpr& expr,
                         const std::vector<std::string>& columns);

// The collation an expression's value carries into a comparison, ORDER BY
// or DISTINCT (SQLite's rule): a column's (also one of the row around a
// correlated subquery), kept through CAST and unary +;
// every other expression carries none. (BoundExpr::collation is the one a
// node itself compares with.)
const Collation* CarriedCollation(const BoundExpr& e);

// The collation written with COLLATE in `e`, through CAST and the operands
// of its operators, functions and CASE (the first one's first), as SQLite
// finds it; null when none is.
const Collation* ExplicitCollation(const BoundExpr& e);

// Gives `e`, an IN whose items are constants (kIn: args[1..]; kInSet:
// args[1]'s LIST) and many enough to pay, its lookup; otherwise nothing.
void PrepareInLookup(BoundExpr* e);

BoundExprPtr MakeConst(Value v);
// Column `index` of a row, whose schema is `c` (its type, affinity and, for
// text, collation).
BoundExprPtr MakeColumn(const ColumnSchema& c, int index);
// `a AND b`.
BoundExprPtr MakeAnd(BoundExprPtr a, BoundExprPtr b);
BoundExprPtr CloneExpr(const BoundExpr& expr);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_EXPR_H_
