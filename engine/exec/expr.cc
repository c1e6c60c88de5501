#include "engine/exec/expr.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "base/stack_floor.h"
#include "engine/exec/functions.h"
#include "engine/exec/subquery.h"
#include "parser/parse_error.h"

namespace levelql {
namespace {

using parser::BinaryOp;
using parser::UnaryOp;

// An error raised by node `e` itself (not by its arguments) names its
// place in the statement, as the binder's errors do.
Result<Value> Placed(const BoundExpr& e, Result<Value> r) {
  if (r.ok()) return r;
  return r.status().WithPrefix(PlaceOf(e));
}

Value BoolValue(std::optional<bool> b) {
  if (!b) return Value();
  return Value::Int(*b ? 1 : 0);
}

Result<Value> CallFunction(const BoundExpr& e, const EvalContext& ctx) {
  if (e.function == Function::kCoalesce || e.function == Function::kIfnull) {
    // Stops at the first value that is not NULL: later arguments are not
    // evaluated (nor their errors raised), as in SQLite.
    for (const auto& a : e.args) {
      LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*a, ctx));
      if (!v.is_null()) return v;
    }
    return Value();
  }
  std::vector<Value> args;
  args.reserve(e.args.size());
  for (const auto& a : e.args) {
    LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*a, ctx));
    args.push_back(std::move(v));
  }
  return Placed(e, ApplyFunction(e, std::move(args)));
}

// A predicate on a multi-valued value is true when it is true for some
// element; NULL when no element makes it true but some give NULL.
template <typename Test>
Result<Value> AnyElement(const Value& list, Test test) {
  bool saw_null = false;
  for (const Value& element : list.list()) {
    LQ_ASSIGN_OR_RETURN(Value r, test(element));
    std::optional<bool> t = Truth(r);
    if (!t) {
      saw_null = true;
    } else if (*t) {
      return Value::Int(1);
    }
  }
  return saw_null ? Value() : Value::Int(0);
}

// Whether `e` is a list by its type: a multi-valued column (of this row or
// the one around), ARRAY[...], a CAST to a list, a list constant, or a
// subquery of such a column. Its NULL is then a NULL list.
bool ListTyped(const BoundExpr& e) {
  return e.is_list || e.type == Type::kList;
}

// `l op r` for a comparison operator. When one side is a list and the
// other is not, it holds when it holds for some element; two lists compare
// as wholes. `l_list`/`r_list`: the side is a list by its type
// (ListTyped), so its NULL compares as a whole: NULL. A NULL scalar
// against a list compares with each element (none: false).
Result<Value> Compare(BinaryOp op, const Value& l, const Value& r,
                      Affinity l_affinity, Affinity r_affinity,
                      const Collation* collation, bool l_list, bool r_list) {
  if ((l.is_null() && (l_list || r.type() != Type::kList)) ||
      (r.is_null() && (r_list || l.type() != Type::kList))) {
    return Value();
  }
  if (l.type() == Type::kList && r.type() != Type::kList) {
    return AnyElement(l, [&](const Value& el) -> Result<Value> {
      return CompareOp(op, el, r, l_affinity, r_affinity, collation);
    });
  }
  if (r.type() == Type::kList && l.type() != Type::kList) {
    return AnyElement(r, [&](const Value& el) -> Result<Value> {
      return CompareOp(op, l, el, l_affinity, r_affinity, collation);
    });
  }
  return CompareOp(op, l, r, l_affinity, r_affinity, collation);
}

// CASE: the THEN of the first WHEN that holds (that equals the operand, as
// `operand = when` compares, in the simple form), else the ELSE, else
// NULL. Only what is needed is evaluated, as in SQLite.
Result<Value> EvalCase(const BoundExpr& e, const EvalContext& ctx) {
  size_t i = 0;
  Value operand;
  if (e.case_operand) {
    LQ_ASSIGN_OR_RETURN(operand, Evaluate(*e.args[i++], ctx));
  }
  const size_t whens_end = e.args.size() - (e.case_else ? 1 : 0);
  for (; i < whens_end; i += 2) {
    LQ_ASSIGN_OR_RETURN(Value when, Evaluate(*e.args[i], ctx));
    std::optional<bool> holds;
    if (e.case_operand) {
      const BoundExpr& x = *e.args[0];
      const BoundExpr& w = *e.args[i];
      const Collation* c = CarriedCollation(x);
      if (!c) c = CarriedCollation(w);
      if (!c) c = Collation::Binary();
      // As `x = v`: a list and a scalar compare element by element.
      LQ_ASSIGN_OR_RETURN(Value eq,
                          Compare(BinaryOp::kEq, operand, when, x.affinity,
                                  w.affinity, c, ListTyped(x), ListTyped(w)));
      holds = Truth(eq);
    } else {
      holds = Truth(when);
    }
    if (holds.value_or(false)) return Evaluate(*e.args[i + 1], ctx);
  }
  if (e.case_else) return Evaluate(*e.args.back(), ctx);
  return Value();
}

// A value as LIKE reads it: TEXT and BLOB bytes as they are, without a
// copy; anything else rendered into *scratch (ValueToText).
std::string_view LikeText(const Value& v, std::string* scratch) {
  if (v.type() == Type::kText || v.type() == Type::kBlob) return v.text();
  *scratch = ValueToText(v);
  return *scratch;
}

}  // namespace

// An IN's constant items as CompareOp converts them for comparing with x
// (x's affinity applied to them, or the items' to x), without NULLs,
// sorted by the IN's collation: x equals an item exactly when the
// converted x equals one of these.
struct InLookup {
  std::vector<Value> items;
  bool has_null = false;
  Affinity convert_x = Affinity::kNone;  // what x becomes before the search
};

namespace {

// Operand `e` of an operator: a column, constant or parameter is read where
// it is, without copying its text; anything else is computed into
// *scratch. The pointer is good while the row and *scratch are.
Result<const Value*> Operand(const BoundExpr& e, const EvalContext& ctx,
                             Value* scratch) {
  switch (e.kind) {
    case BoundExpr::Kind::kConst:
      return &e.value;
    case BoundExpr::Kind::kColumn:
      return &(*ctx.row)[e.index];
    case BoundExpr::Kind::kParam:
      return e.index >= 0 ? &(*ctx.params)[e.index]
                          : &(*ctx.params)[ctx.params->size() + e.index];
    default: {
      LQ_ASSIGN_OR_RETURN(*scratch, Evaluate(e, ctx));
      return scratch;
    }
  }
}

// `x IN` through the lookup, or nullopt when x needs the item-by-item
// comparison (a list, or a TIMESTAMP, which reads text items as times).
std::optional<Value> LookUp(const BoundExpr& e, const Value& x, bool negated) {
  const InLookup& in = *e.lookup;
  if (x.type() == Type::kList || x.type() == Type::kTimestamp) {
    return std::nullopt;
  }
  if (x.is_null()) return Value();
  // (Copied only when the conversion changes it.)
  std::optional<Value> converted;
  if ((in.convert_x == Affinity::kNumeric && x.type() == Type::kText) ||
      (in.convert_x == Affinity::kText && x.is_numeric())) {
    converted = ApplyAffinity(x, in.convert_x);
  }
  const Value& v = converted ? *converted : x;
  auto less = [&](const Value& a, const Value& b) {
    return CompareValues(a, b, e.collation) < 0;
  };
  auto it = std::lower_bound(in.items.begin(), in.items.end(), v, less);
  if (it != in.items.end() && !less(v, *it)) {
    return Value::Int(negated ? 0 : 1);
  }
  if (in.has_null) return Value();
  return Value::Int(negated ? 1 : 0);
}

// x = item for each item `item(i)` gives, i < n (`=` compares a list with
// an item as Compare does; `x_list`, `list_at(i)`: list-typed sides): 1
// when one holds, NULL when none does and one was NULL, else 0 (NOT IN:
// negated).
template <class ItemAt, class ListAt>
Result<Value> MatchItems(const BoundExpr& e, const Value& x, bool x_list,
                         bool negated, size_t n, Affinity item_affinity,
                         ItemAt item, ListAt list_at) {
  bool saw_null = false;
  for (size_t i = 0; i < n; ++i) {
    LQ_ASSIGN_OR_RETURN(Value v, item(i));
    LQ_ASSIGN_OR_RETURN(
        Value eq, Compare(BinaryOp::kEq, x, v, e.args[0]->affinity,
                          item_affinity, e.collation, x_list, list_at(i)));
    if (eq.is_null()) {
      saw_null = true;
    } else if (eq.int_value() == 1) {
      return Value::Int(negated ? 0 : 1);
    }
  }
  if (saw_null) return Value();
  return Value::Int(negated ? 1 : 0);
}

// x [NOT] IN the n items `item(i)` gives (compared with `item_affinity`
// for them), through e.lookup when it can. A list x NOT IN items none of
// which is a list holds for some element, as <> and NOT LIKE do; a list
// item is compared with the list as a whole (=), so then NOT IN is the
// negated IN. `list_at(i)`: item i is a list by its type (a NULL of a
// list column counts).
template <class ItemAt, class ListAt>
Result<Value> InOf(const BoundExpr& e, const Value& x, size_t n,
                   Affinity item_affinity, ItemAt item, ListAt list_at) {
  // `one`: x, or an element of it (a scalar).
  auto match = [&](const Value& one, bool negated) -> Result<Value> {
    if (e.lookup) {
      if (std::optional<Value> r = LookUp(e, one, negated)) return *r;
    }
    return MatchItems(e, one, &one == &x && ListTyped(*e.args[0]), negated, n,
                      item_affinity, item, list_at);
  };
  if (e.negated && x.type() == Type::kList) {
    bool whole = false;
    for (size_t i = 0; i < n && !whole; ++i) {
      LQ_ASSIGN_OR_RETURN(Value v, item(i));
      whole = v.type() == Type::kList || (v.is_null() && list_at(i));
    }
    if (!whole) {
      return AnyElement(x, [&](const Value& el) { return match(el, true); });
    }
  }
  return match(x, e.negated);
}

// x IN (SELECT ...): the subquery's values are the items, with the
// affinity of its column (SQLite). No row: false, even for a NULL x.
Result<Value> EvalInSet(const BoundExpr& e, const EvalContext& ctx) {
  LQ_ASSIGN_OR_RETURN(Value set, Evaluate(*e.args[1], ctx));
  if (set.type() != Type::kList) {
    return Status::InvalidArgument(PlaceOf(e) +
                                   "IN (SELECT ...) read before its "
                                   "subquery ran");
  }
  const std::vector<Value>& items = set.list();
  if (items.empty()) return Value::Int(e.negated ? 1 : 0);
  LQ_ASSIGN_OR_RETURN(Value x, Evaluate(*e.args[0], ctx));
  return InOf(
      e, x, items.size(), e.args[1]->affinity,
      [&](size_t i) -> Result<Value> { return items[i]; },
      [&](size_t) { return e.args[1]->is_list; });
}

// x IN (y, ...): SQLite's x = +y OR ...: the items have no affinity of
// their own, even columns and CASTs.
Result<Value> EvalIn(const BoundExpr& e, const EvalContext& ctx) {
  if (e.args.size() == 1) return Value::Int(e.negated ? 1 : 0);
  LQ_ASSIGN_OR_RETURN(Value x, Evaluate(*e.args[0], ctx));
  return InOf(
      e, x, e.args.size() - 1, Affinity::kNone,
      [&](size_t i) { return Evaluate(*e.args[i + 1], ctx); },
      [&](size_t i) { return ListTyped(*e.args[i + 1]); });
}

}  // namespace

Result<Value> Evaluate(const BoundExpr& e, const EvalContext& ctx) {
  // One frame per level of the expression: a deep one on a thread with a
  // small stack fails instead of overflowing it.
  if (!e.args.empty() && StackExhausted()) {
    return Status::LimitExceeded(
        PlaceOf(e) + "expression nesting exceeds this thread's stack");
  }
  switch (e.kind) {
    case BoundExpr::Kind::kConst:
      return e.value;
    case BoundExpr::Kind::kColumn:
      return (*ctx.row)[e.index];
    case BoundExpr::Kind::kParam:
      return e.index >= 0 ? (*ctx.params)[e.index]
                          : (*ctx.params)[ctx.params->size() + e.index];
    case BoundExpr::Kind::kAggregateRef:
      return (*ctx.aggregates)[e.index];
    case BoundExpr::Kind::kUnary: {
      LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*e.args[0], ctx));
      switch (e.unary_op) {
        case UnaryOp::kPlus:
          return v;
        case UnaryOp::kMinus:
          return Placed(e, Negate(v));
        case UnaryOp::kBitNot:
          return Placed(e, BitNot(v));
        case UnaryOp::kNot: {
          std::optional<bool> t = Truth(v);
          if (!t) return Value();
          return Value::Int(*t ? 0 : 1);
        }
      }
      return Value();
    }
    case BoundExpr::Kind::kBinary: {
      if (e.binary_op == BinaryOp::kAnd || e.binary_op == BinaryOp::kOr) {
        const bool is_and = e.binary_op == BinaryOp::kAnd;
        LQ_ASSIGN_OR_RETURN(Value l, Evaluate(*e.args[0], ctx));
        std::optional<bool> a = Truth(l);
        if (a && *a != is_and) return Value::Int(is_and ? 0 : 1);
        LQ_ASSIGN_OR_RETURN(Value r, Evaluate(*e.args[1], ctx));
        std::optional<bool> b = Truth(r);
        if (b && *b != is_and) return Value::Int(is_and ? 0 : 1);
        if (!a || !b) return Value();
        return Value::Int(is_and ? 1 : 0);
      }
      Value l_scratch, r_scratch;
      LQ_ASSIGN_OR_RETURN(const Value* l, Operand(*e.args[0], ctx, &l_scratch));
      LQ_ASSIGN_OR_RETURN(const Value* r, Operand(*e.args[1], ctx, &r_scratch));
      switch (e.binary_op) {
        case BinaryOp::kEq:
        case BinaryOp::kNe:
        case BinaryOp::kLt:
        case BinaryOp::kLe:
        case BinaryOp::kGt:
        case BinaryOp::kGe:
          return Compare(e.binary_op, *l, *r, e.args[0]->affinity,
                         e.args[1]->affinity, e.collation,
                         ListTyped(*e.args[0]), ListTyped(*e.args[1]));
        default:
          return Placed(e, Arithmetic(e.binary_op, *l, *r));
      }
    }
    case BoundExpr::Kind::kBetween: {
      Value x_value, lo_value, hi_value;
      LQ_ASSIGN_OR_RETURN(const Value* x_at,
                          Operand(*e.args[0], ctx, &x_value));
      LQ_ASSIGN_OR_RETURN(const Value* lo_at,
                          Operand(*e.args[1], ctx, &lo_value));
      LQ_ASSIGN_OR_RETURN(const Value* hi_at,
                          Operand(*e.args[2], ctx, &hi_value));
      const Value& x0 = *x_at;
      const Value& lo = *lo_at;
      const Value& hi = *hi_at;
      // x >= lo AND x <= hi, each compared as Compare does, under its own
      // collation (binder.cc); but a list between scalar bounds holds when
      // one element lies between them.
      const Collation* lo_collation = e.collation;
      const Collation* hi_collation =
          e.upper_collation ? e.upper_collation : e.collation;
      // (x: x0, or an element of it, a scalar.)
      auto between = [&](const Value& x) -> Result<Value> {
        Affinity ax = e.args[0]->affinity;
        const bool x_list = &x == &x0 && ListTyped(*e.args[0]);
        LQ_ASSIGN_OR_RETURN(
            Value ge, Compare(BinaryOp::kGe, x, lo, ax, e.args[1]->affinity,
                              lo_collation, x_list, ListTyped(*e.args[1])));
        LQ_ASSIGN_OR_RETURN(
            Value le, Compare(BinaryOp::kLe, x, hi, ax, e.args[2]->affinity,
                              hi_collation, x_list, ListTyped(*e.args[2])));
        std::optional<bool> a = Truth(ge);
        std::optional<bool> b = Truth(le);
        std::optional<bool> r;
        if ((a && !*a) || (b && !*b)) {
          r = false;
        } else if (a && b) {
          r = true;
        }
        if (r && e.negated) r = !*r;
        return BoolValue(r);
      };
      if (x0.type() == Type::kList && lo.type() != Type::kList &&
          hi.type() != Type::kList) {
        return AnyElement(x0, between);
      }
      return between(x0);
    }
    case BoundExpr::Kind::kIn:
      return EvalIn(e, ctx);
    case BoundExpr::Kind::kInSet:
      return EvalInSet(e, ctx);
    case BoundExpr::Kind::kOuterRef:
      if (!ctx.exec || !ctx.exec->outer) {
        return Status::InvalidArgument(
            PlaceOf(e) + "a correlated subquery's column read outside it");
      }
      return (*ctx.exec->outer)[e.index];
    case BoundExpr::Kind::kSubqueryRun: {
      if (!ctx.exec) {
        return Status::InvalidArgument(
            PlaceOf(e) + "a correlated subquery evaluated outside a statement");
      }
      std::vector<Value> outer;
      outer.reserve(e.args.size());
      for (const auto& a : e.args) {
        LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*a, ctx));
        outer.push_back(std::move(v));
      }
      return RunCorrelated(*ctx.exec, *e.subquery, std::move(outer));
    }
    case BoundExpr::Kind::kIsNull: {
      LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*e.args[0], ctx));
      return Value::Int(v.is_null() != e.negated ? 1 : 0);
    }
    case BoundExpr::Kind::kLike: {
      Value text_value, pattern_value;
      LQ_ASSIGN_OR_RETURN(const Value* text_at,
                          Operand(*e.args[0], ctx, &text_value));
      LQ_ASSIGN_OR_RETURN(const Value* pattern_at,
                          Operand(*e.args[1], ctx, &pattern_value));
      const Value& text = *text_at;
      const Value& pattern = *pattern_at;
      std::optional<char32_t> escape;
      if (e.args.size() > 2) {
        LQ_ASSIGN_OR_RETURN(Value esc, Evaluate(*e.args[2], ctx));
        if (esc.is_null()) return Value();
        std::string s = ValueToText(esc);
        std::vector<size_t> cps = CodePointOffsets(s);
        if (cps.size() != 2) {
          return Placed(e, Status::InvalidArgument(
                               "ESCAPE expression must be a single character"))
              .status();
        }
        // Decode the one code point.
        const unsigned char* p =
            reinterpret_cast<const unsigned char*>(s.data());
        char32_t cp = p[0];
        if (s.size() == 2) cp = ((p[0] & 0x1F) << 6) | (p[1] & 0x3F);
        if (s.size() == 3) {
          cp = ((p[0] & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
        }
        if (s.size() == 4) {
          cp = ((p[0] & 0x07) << 18) | ((p[1] & 0x3F) << 12) |
               ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
        }
        escape = cp;
      }
      if (text.is_null() || pattern.is_null()) return Value();
      if (pattern.type() == Type::kText &&
          pattern.text().size() > kMaxLikePatternBytes) {
        return Status::LimitExceeded(PlaceOf(e) + "LIKE pattern is " +
                                     std::to_string(pattern.text().size()) +
                                     " bytes; the limit is " +
                                     std::to_string(kMaxLikePatternBytes));
      }
      if (text.type() == Type::kList) {
        // Multi-valued: true when some element matches - for NOT LIKE,
        // when some element does not, as for NOT IN and NOT BETWEEN.
        std::string p_scratch, el_scratch;
        const std::string_view p = LikeText(pattern, &p_scratch);
        return AnyElement(text, [&](const Value& el) -> Result<Value> {
          if (el.is_null()) return Value();
          const bool m =
              e.collation->Like(LikeText(el, &el_scratch), p, escape);
          return Value::Int(m != e.negated ? 1 : 0);
        });
      }
      std::string text_scratch, pattern_scratch;
      const bool m =
          e.collation->Like(LikeText(text, &text_scratch),
                            LikeText(pattern, &pattern_scratch), escape);
      return Value::Int(m != e.negated ? 1 : 0);
    }
    case BoundExpr::Kind::kFunction:
      return CallFunction(e, ctx);
    case BoundExpr::Kind::kCast: {
      LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*e.args[0], ctx));
      return Placed(e, CastValue(v, e.cast_type));
    }
    case BoundExpr::Kind::kArray: {
      std::vector<Value> elements;
      for (const auto& a : e.args) {
        LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*a, ctx));
        elements.push_back(std::move(v));
      }
      return Value::List(std::move(elements));
    }
    case BoundExpr::Kind::kCase:
      return EvalCase(e, ctx);
  }
  return Value();
}

std::string PlaceOf(const BoundExpr& e) {
  if (e.pos.line == 0) return {};
  return parser::Place(e.pos) + ": ";
}

Result<bool> EvaluatePredicate(const BoundExpr& expr, const EvalContext& ctx) {
  // As a condition, NULL rejects the row as false does, through AND and
  // OR: `a AND b` stops at an `a` that is not true (SQLite's WHERE does
  // too), so a subquery in `b` does not run for rows `a` already rejects.
  if (expr.kind == BoundExpr::Kind::kBinary &&
      (expr.binary_op == BinaryOp::kAnd || expr.binary_op == BinaryOp::kOr)) {
    if (StackExhausted()) {
      return Status::LimitExceeded(
          PlaceOf(expr) + "expression nesting exceeds this thread's stack");
    }
    const bool is_and = expr.binary_op == BinaryOp::kAnd;
    LQ_ASSIGN_OR_RETURN(bool left, EvaluatePredicate(*expr.args[0], ctx));
    if (left != is_and) return left;
    return EvaluatePredicate(*expr.args[1], ctx);
  }
  LQ_ASSIGN_OR_RETURN(Value v, Evaluate(expr, ctx));
  std::optional<bool> t = Truth(v);
  return t.value_or(false);
}

const Collation* ExplicitCollation(const BoundExpr& e) {
  if (e.explicit_collation) return e.carried;
  switch (e.kind) {
    case BoundExpr::Kind::kCast:
    case BoundExpr::Kind::kUnary:
    case BoundExpr::Kind::kBinary:
    case BoundExpr::Kind::kFunction:
    case BoundExpr::Kind::kCase:
      for (const BoundExprPtr& a : e.args) {
        if (const Collation* c = ExplicitCollation(*a)) return c;
      }
      return nullptr;
    default:
      return nullptr;
  }
}

const Collation* CarriedCollation(const BoundExpr& e) {
  // (A column's is found without walking the tree: this runs per row in
  // CASE x WHEN.)
  if (e.carried) return e.carried;
  switch (e.kind) {
    case BoundExpr::Kind::kColumn:
    case BoundExpr::Kind::kOuterRef:  // a column of the row around
      return e.collation;
    case BoundExpr::Kind::kCast:
      return CarriedCollation(*e.args[0]);
    case BoundExpr::Kind::kUnary:
      return e.unary_op == parser::UnaryOp::kPlus ? CarriedCollation(*e.args[0])
                                                  : ExplicitCollation(e);
    default:
      return ExplicitCollation(e);
  }
}

BoundExprPtr MakeConst(Value v) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundExpr::Kind::kConst;
  e->type = v.type();
  e->value = std::move(v);
  return e;
}

BoundExprPtr MakeColumn(const ColumnSchema& c, int index) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundExpr::Kind::kColumn;
  e->index = index;
  e->type = c.type;
  e->is_list = c.is_list;
  e->affinity = AffinityOf(c.type);
  // (A table's TEXT columns have one; a subquery's column in FROM has one
  // whatever its type, as SQLite gives every column one.)
  e->collation = c.collation;
  return e;
}

BoundExprPtr MakeAnd(BoundExprPtr a, BoundExprPtr b) {
  auto both = std::make_unique<BoundExpr>();
  both->kind = BoundExpr::Kind::kBinary;
  both->binary_op = parser::BinaryOp::kAnd;
  both->pos = b->pos;
  both->args.push_back(std::move(a));
  both->args.push_back(std::move(b));
  return both;
}

void PrepareInLookup(BoundExpr* e) {
  // Fewer items are as quick compared one by one.
  constexpr size_t kFewest = 8;
  std::vector<const Value*> items;
  Affinity item_affinity = Affinity::kNone;
  if (e->kind == BoundExpr::Kind::kIn) {
    for (size_t i = 1; i < e->args.size(); ++i) {
      if (e->args[i]->kind != BoundExpr::Kind::kConst) return;
      items.push_back(&e->args[i]->value);
    }
  } else if (e->kind == BoundExpr::Kind::kInSet &&
             e->args[1]->kind == BoundExpr::Kind::kConst &&
             e->args[1]->value.type() == Type::kList) {
    for (const Value& v : e->args[1]->value.list()) items.push_back(&v);
    item_affinity = e->args[1]->affinity;
  } else {
    return;
  }
  if (items.size() < kFewest) return;
  // CompareOp's conversions for these two affinities (value_ops.cc).
  const Affinity x_affinity = e->args[0]->affinity;
  const bool numeric_x = x_affinity == Affinity::kNumeric;
  const bool numeric_item = item_affinity == Affinity::kNumeric;
  Affinity convert_items = Affinity::kNone;
  auto lookup = std::make_shared<InLookup>();
  if (numeric_x || numeric_item) {
    convert_items = lookup->convert_x = Affinity::kNumeric;
  } else if ((x_affinity == Affinity::kText &&
              item_affinity == Affinity::kNone) ||
             (item_affinity == Affinity::kText &&
              x_affinity == Affinity::kNone)) {
    convert_items = lookup->convert_x = Affinity::kText;
  }
  for (const Value* v : items) {
    // A list item holds for any of its elements, a TIMESTAMP reads text
    // as a time: those are compared one by one.
    if (v->type() == Type::kList || v->type() == Type::kTimestamp) return;
    if (v->is_null()) {
      lookup->has_null = true;
      continue;
    }
    lookup->items.push_back(convert_items == Affinity::kNone
                                ? *v
                                : ApplyAffinity(*v, convert_items));
  }
  const Collation* collation = e->collation;
  std::sort(lookup->items.begin(), lookup->items.end(),
            [collation](const Value& a, const Value& b) {
              return CompareValues(a, b, collation) < 0;
            });
  e->lookup = std::move(lookup);
}

BoundExprPtr CloneExpr(const BoundExpr& expr) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = expr.kind;
  e->case_operand = expr.case_operand;
  e->case_else = expr.case_else;
  e->pos = expr.pos;
  e->value = expr.value;
  e->index = expr.index;
  e->unary_op = expr.unary_op;
  e->binary_op = expr.binary_op;
  e->negated = expr.negated;
  e->function = expr.function;
  e->cast_type = expr.cast_type;
  e->type = expr.type;
  e->is_list = expr.is_list;
  e->affinity = expr.affinity;
  e->collation = expr.collation;
  e->carried = expr.carried;
  e->upper_collation = expr.upper_collation;
  e->explicit_collation = expr.explicit_collation;
  e->subquery = expr.subquery;
  e->lookup = expr.lookup;
  for (const auto& a : expr.args) e->args.push_back(CloneExpr(*a));
  return e;
}

// ExprToString of `e` without the COLLATE written on it.
static std::string RenderExpr(const BoundExpr& e,
                              const std::vector<std::string>& columns) {
  auto arg = [&](size_t i) { return ExprToString(*e.args[i], columns); };
  switch (e.kind) {
    case BoundExpr::Kind::kConst:
      return e.value.ToSqlLiteral();
    case BoundExpr::Kind::kColumn:
      return e.index < static_cast<int>(columns.size()) ? columns[e.index]
                                                        : "?col";
    case BoundExpr::Kind::kParam: {
      if (e.index < 0) return "(subquery " + std::to_string(-e.index) + ")";
      std::string s = "?";
      return s.append(std::to_string(e.index + 1));
    }
    case BoundExpr::Kind::kInSet:
      return arg(0) + (e.negated ? " NOT IN " : " IN ") + arg(1);
    case BoundExpr::Kind::kSubqueryRun: {
      std::string s = "(correlated subquery of";
      for (size_t i = 0; i < e.args.size(); ++i) s += " " + arg(i);
      return s + ")";
    }
    case BoundExpr::Kind::kOuterRef:
      return "outer." + std::to_string(e.index + 1);
    case BoundExpr::Kind::kAggregateRef: {
      std::string s = "agg";
      return s.append(std::to_string(e.index));
    }
    case BoundExpr::Kind::kUnary:
      return std::string(parser::UnaryOpText(e.unary_op)) +
             (e.unary_op == UnaryOp::kNot ? " " : "") + arg(0);
    case BoundExpr::Kind::kBinary: {
      std::string s = "(";
      s.append(arg(0)).append(" ").append(parser::BinaryOpText(e.binary_op));
      return s.append(" ").append(arg(1)).append(")");
    }
    case BoundExpr::Kind::kBetween:
      return arg(0) + (e.negated ? " NOT" : "") + " BETWEEN " + arg(1) +
             " AND " + arg(2);
    case BoundExpr::Kind::kIn: {
      std::string s = arg(0) + (e.negated ? " NOT IN (" : " IN (");
      for (size_t i = 1; i < e.args.size(); ++i) {
        if (i > 1) s += ", ";
        s += arg(i);
      }
      return s + ")";
    }
    case BoundExpr::Kind::kIsNull:
      return arg(0) + (e.negated ? " IS NOT NULL" : " IS NULL");
    case BoundExpr::Kind::kLike:
      return arg(0) + (e.negated ? " NOT LIKE " : " LIKE ") + arg(1);
    case BoundExpr::Kind::kFunction: {
      std::string s = std::string(FunctionName(e.function)) + "(";
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i) s += ", ";
        s += arg(i);
      }
      return s + ")";
    }
    case BoundExpr::Kind::kCast:
      return "CAST(" + arg(0) + " AS " + std::string(TypeName(e.cast_type)) +
             ")";
    case BoundExpr::Kind::kCase: {
      std::string s = "CASE";
      size_t i = 0;
      if (e.case_operand) s += " " + arg(i++);
      const size_t whens_end = e.args.size() - (e.case_else ? 1 : 0);
      for (; i < whens_end; i += 2) {
        s += " WHEN " + arg(i) + " THEN " + arg(i + 1);
      }
      if (e.case_else) s += " ELSE " + arg(e.args.size() - 1);
      return s + " END";
    }
    case BoundExpr::Kind::kArray: {
      std::string s = "ARRAY[";
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i) s += ", ";
        s += arg(i);
      }
      return s + "]";
    }
  }
  return "?";
}

std::string ExprToString(const BoundExpr& e,
                         const std::vector<std::string>& columns) {
  std::string out = RenderExpr(e, columns);
  if (e.explicit_collation) out += " COLLATE " + e.carried->name();
  return out;
}

}  // namespace levelql
