#include "engine/plan/normalize.h"

#include "engine/plan/binder.h"
#include "parser/parser.h"

namespace levelql {
namespace {

using parser::BinaryOp;
using parser::IsComparison;
using parser::UnaryOp;
using Kind = BoundExpr::Kind;

BinaryOp Negated(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEq:
      return BinaryOp::kNe;
    case BinaryOp::kNe:
      return BinaryOp::kEq;
    case BinaryOp::kLt:
      return BinaryOp::kGe;
    case BinaryOp::kLe:
      return BinaryOp::kGt;
    case BinaryOp::kGt:
      return BinaryOp::kLe;
    case BinaryOp::kGe:
      return BinaryOp::kLt;
    default:
      return op;
  }
}

BinaryOp Swapped(BinaryOp op) {
  switch (op) {
    case BinaryOp::kLt:
      return BinaryOp::kGt;
    case BinaryOp::kLe:
      return BinaryOp::kGe;
    case BinaryOp::kGt:
      return BinaryOp::kLt;
    case BinaryOp::kGe:
      return BinaryOp::kLe;
    default:
      return op;
  }
}

BoundExprPtr Not(BoundExprPtr e) {
  auto n = std::make_unique<BoundExpr>();
  n->kind = Kind::kUnary;
  n->unary_op = UnaryOp::kNot;
  n->pos = e->pos;
  n->args.push_back(std::move(e));
  return n;
}

// Whether `e` may evaluate to a list, as far as planning can tell: a
// multi-valued column (of this row or the one around), a list constant or
// ARRAY[...], a parameter not yet folded, a scalar subquery whose column
// may be one, or an expression that may pass one of those through
// (coalesce, CASE, ...). Comparisons and logic give no list.
bool MayBeList(const BoundExpr& e) {
  switch (e.kind) {
    case Kind::kColumn:
    case Kind::kOuterRef:
      return e.is_list;
    case Kind::kSubqueryRun:
      // A scalar subquery's value is its column's; EXISTS gives 0 or 1 and
      // IN's set is read by kInSet.
      return e.subquery->kind == BoundSubquery::Kind::kScalar &&
             MayBeList(*e.subquery->select->outputs[0]);
    case Kind::kConst:
      return e.value.type() == Type::kList;
    case Kind::kParam:
    case Kind::kArray:
    case Kind::kAggregateRef:
      return true;
    case Kind::kBetween:
    case Kind::kIn:
    case Kind::kInSet:
    case Kind::kIsNull:
    case Kind::kLike:
      return false;
    case Kind::kBinary:
      if (IsComparison(e.binary_op) || e.binary_op == BinaryOp::kAnd ||
          e.binary_op == BinaryOp::kOr) {
        return false;
      }
      break;
    default:
      break;
  }
  if (e.type == Type::kList) return true;
  for (const auto& a : e.args) {
    if (MayBeList(*a)) return true;
  }
  return false;
}

// Pushes a NOT applied to `e` as far down as it goes (predicate context).
BoundExprPtr PushNot(BoundExprPtr e, bool negate) {
  if (e->kind == Kind::kUnary && e->unary_op == UnaryOp::kNot) {
    return PushNot(std::move(e->args[0]), !negate);
  }
  if (e->kind == Kind::kBinary &&
      (e->binary_op == BinaryOp::kAnd || e->binary_op == BinaryOp::kOr)) {
    e->args[0] = PushNot(std::move(e->args[0]), negate);
    e->args[1] = PushNot(std::move(e->args[1]), negate);
    if (negate) {
      e->binary_op =
          e->binary_op == BinaryOp::kAnd ? BinaryOp::kOr : BinaryOp::kAnd;
    }
    return e;
  }
  if (!negate) return e;
  if (e->kind == Kind::kBinary && IsComparison(e->binary_op)) {
    // With a list on either side a comparison means "some element
    // compares so"; its negation is "no element does", not the flipped
    // comparison (NOT (tags = 5) is not tags <> 5, nor NOT (a = ARRAY[1,2])
    // a <> ARRAY[1,2]): keep the NOT.
    if (MayBeList(*e->args[0]) || MayBeList(*e->args[1])) {
      return Not(std::move(e));
    }
    e->binary_op = Negated(e->binary_op);
    return e;
  }
  if (e->kind == Kind::kIn || e->kind == Kind::kInSet ||
      e->kind == Kind::kBetween || e->kind == Kind::kIsNull ||
      e->kind == Kind::kLike) {
    // NOT over a list means "no element matches", which is not the
    // negated per-element test: keep the NOT. (List items or bounds are
    // compared through `=`, `>=`, `<=` inside the test, which the negated
    // form negates as a whole.)
    if (MayBeList(*e->args[0])) return Not(std::move(e));
    e->negated = !e->negated;
    return e;
  }
  return Not(std::move(e));
}

// Puts comparisons as `column op constant`.
void Orient(BoundExpr* e) {
  if (e->kind == Kind::kBinary &&
      (e->binary_op == BinaryOp::kAnd || e->binary_op == BinaryOp::kOr)) {
    Orient(e->args[0].get());
    Orient(e->args[1].get());
    return;
  }
  if (e->kind == Kind::kBinary && IsComparison(e->binary_op) &&
      e->args[0]->kind == Kind::kConst && e->args[1]->kind == Kind::kColumn) {
    std::swap(e->args[0], e->args[1]);
    e->binary_op = Swapped(e->binary_op);
  }
}

// `col = c1 OR col = c2 OR col IN (c3)` on one column (same collation)
// becomes `col IN (c1, c2, c3)`, which one scan answers with several spans.
// Exact under three-valued logic: both forms are NULL exactly when no item
// matches and some comparison is NULL. An IN item has no affinity (x IN
// (y) is x = +y), so only constants without one (not a CAST) move in.
BoundExprPtr OrToIn(BoundExprPtr e) {
  if (e->kind == Kind::kBinary && e->binary_op == BinaryOp::kAnd) {
    e->args[0] = OrToIn(std::move(e->args[0]));
    e->args[1] = OrToIn(std::move(e->args[1]));
    return e;
  }
  if (!(e->kind == Kind::kBinary && e->binary_op == BinaryOp::kOr)) return e;
  std::vector<BoundExpr*> terms;
  std::vector<BoundExpr*> stack = {e.get()};
  while (!stack.empty()) {
    BoundExpr* t = stack.back();
    stack.pop_back();
    if (t->kind == Kind::kBinary && t->binary_op == BinaryOp::kOr) {
      stack.push_back(t->args[1].get());
      stack.push_back(t->args[0].get());
    } else {
      terms.push_back(t);
    }
  }
  const BoundExpr* column = nullptr;
  const Collation* collation = nullptr;
  for (BoundExpr* t : terms) {
    bool eq = t->kind == Kind::kBinary && t->binary_op == BinaryOp::kEq &&
              t->args[1]->kind == Kind::kConst &&
              t->args[1]->affinity == Affinity::kNone;
    bool in = t->kind == Kind::kIn && !t->negated;
    if (in) {
      for (size_t i = 1; i < t->args.size(); ++i) {
        in = in && t->args[i]->kind == Kind::kConst;
      }
    }
    if (!(eq || in) || t->args[0]->kind != Kind::kColumn ||
        t->args[0]->is_list) {
      return e;
    }
    if (column &&
        (t->args[0]->index != column->index || t->collation != collation)) {
      return e;
    }
    column = t->args[0].get();
    collation = t->collation;
  }
  auto out = std::make_unique<BoundExpr>();
  out->kind = Kind::kIn;
  out->pos = e->pos;
  out->collation = collation;
  out->args.push_back(CloneExpr(*column));
  for (BoundExpr* t : terms) {
    for (size_t i = 1; i < t->args.size(); ++i) {
      out->args.push_back(std::move(t->args[i]));
    }
  }
  return out;
}

// `x IN (SELECT ...)` whose subquery has run (its LIST of values folded)
// as `x IN (v1, v2, ...)`, which the access paths read (an index scan per
// value), when the items' comparison is the same: an IN list's items have
// no affinity, so the subquery column's must not change how x compares
// (SQLite's rule: none, or x's own, or x numeric, whose affinity then
// applies to the items either way). Longer than an IN list may be
// written (the parser's limit), it stays a kInSet.
BoundExprPtr InSetToIn(BoundExprPtr e) {
  const BoundExpr& set = *e->args[1];
  const Affinity x = e->args[0]->affinity;
  if (set.kind != Kind::kConst || set.value.type() != Type::kList ||
      set.value.list().size() > parser::ParseOptions().max_in_list ||
      !(set.affinity == Affinity::kNone || set.affinity == x ||
        x == Affinity::kNumeric)) {
    return e;
  }
  // Both TEXT: SQLite converts neither side, where the list would make a
  // number item text. A column of TEXT affinity holds no number, but a
  // compound SELECT's values keep each SELECT's types.
  if (x == Affinity::kText && set.affinity == Affinity::kText) {
    for (const Value& v : set.value.list()) {
      if (v.type() == Type::kInteger || v.type() == Type::kReal) return e;
    }
  }
  auto in = std::make_unique<BoundExpr>();
  in->kind = Kind::kIn;
  in->pos = e->pos;
  in->negated = e->negated;
  in->collation = e->collation;
  in->args.push_back(std::move(e->args[0]));
  for (const Value& v : set.value.list()) {
    BoundExprPtr item = MakeConst(v);
    item->pos = e->pos;
    item->is_list = set.is_list;  // the subquery column's type
    in->args.push_back(std::move(item));
  }
  return in;
}

}  // namespace

namespace {

bool Known(const BoundExpr& e, bool outer) {
  // (A correlated subquery and its outer references take their values
  // from rows.)
  if (e.kind == Kind::kOuterRef) return outer && !e.is_list;
  if (e.kind == Kind::kColumn || e.kind == Kind::kAggregateRef ||
      e.kind == Kind::kSubqueryRun) {
    return false;
  }
  for (const auto& a : e.args) {
    if (!Known(*a, outer)) return false;
  }
  return true;
}

}  // namespace

bool IsConstant(const BoundExpr& e) { return Known(e, false); }

bool IsKnownPerRun(const BoundExpr& e) { return Known(e, true); }

namespace {

// Replaces each column of the row around a correlated subquery in `e` by
// its value in `outer`, keeping the affinity and collation it compares
// with; except a list (whose element-wise comparisons read the column's
// kind) and a column whose collation an operator reads from its operand
// when it runs (`collation_read`: CASE's operand and WHEN values, BETWEEN's
// operands), which a constant would not carry.
BoundExprPtr SubstituteOuter(BoundExprPtr e, const std::vector<Value>& outer,
                             bool collation_read) {
  if (e->kind == Kind::kOuterRef) {
    if (e->is_list || (collation_read && e->collation != nullptr) ||
        e->index < 0 || static_cast<size_t>(e->index) >= outer.size()) {
      return e;
    }
    BoundExprPtr c = MakeConst(outer[e->index]);
    c->pos = e->pos;
    c->affinity = e->affinity;
    c->collation = e->collation;
    return c;
  }
  if (e->kind == Kind::kSubqueryRun) return e;  // its args are its own row's
  // A CAST or unary + carries its operand's collation (CarriedCollation).
  const bool passes =
      e->kind == Kind::kCast ||
      (e->kind == Kind::kUnary && e->unary_op == parser::UnaryOp::kPlus);
  const bool reads = e->kind == Kind::kCase || e->kind == Kind::kBetween ||
                     (passes && collation_read);
  for (auto& a : e->args) a = SubstituteOuter(std::move(a), outer, reads);
  return e;
}

}  // namespace

BoundExprPtr FoldConstants(BoundExprPtr e, const std::vector<Value>& params,
                           const std::vector<Value>* outer) {
  if (outer) e = SubstituteOuter(std::move(e), *outer, false);
  if (e->kind == Kind::kConst) return e;
  if (IsConstant(*e)) {
    EvalContext ctx{nullptr, &params, nullptr};
    Result<Value> v = Evaluate(*e, ctx);
    if (v.ok()) {
      // Keep what comparisons read from the node.
      BoundExprPtr c = MakeConst(std::move(v).value());
      c->pos = e->pos;
      c->affinity = e->affinity;
      c->collation = e->collation;
      c->carried = e->carried;
      c->is_list = e->is_list;  // a NULL of a list type is a NULL list
      return c;
    }
    return e;  // errors surface when (and if) the row-time evaluation runs
  }
  for (auto& a : e->args) a = FoldConstants(std::move(a), params);
  if (e->kind == Kind::kInSet) e = InSetToIn(std::move(e));
  PrepareInLookup(e.get());
  return e;
}

BoundExprPtr NormalizePredicate(BoundExprPtr where, const RuleSet& rules,
                                const std::vector<Value>& params,
                                const std::vector<Value>* outer) {
  if (!where) return where;
  if (rules.on(Rule::kFoldConstants)) {
    where = FoldConstants(std::move(where), params, outer);
  }
  if (rules.on(Rule::kPushNot)) where = PushNot(std::move(where), false);
  Orient(where.get());
  if (rules.on(Rule::kOrToIn)) where = OrToIn(std::move(where));
  return where;
}

void Conjuncts(const BoundExpr* e, std::vector<const BoundExpr*>* out) {
  if (e == nullptr) return;  // no WHERE clause: no conjunct
  if (e->kind == Kind::kBinary && e->binary_op == BinaryOp::kAnd) {
    Conjuncts(e->args[0].get(), out);
    Conjuncts(e->args[1].get(), out);
  } else {
    out->push_back(e);
  }
}

void Disjuncts(const BoundExpr* e, std::vector<const BoundExpr*>* out) {
  if (e->kind == Kind::kBinary && e->binary_op == BinaryOp::kOr) {
    Disjuncts(e->args[0].get(), out);
    Disjuncts(e->args[1].get(), out);
  } else {
    out->push_back(e);
  }
}

}  // namespace levelql
