// The scalar expressions of Generator's queries: columns and literals of a
// column type, arithmetic, CAST, text and numeric functions, CASE.
#include <algorithm>
#include <cmath>

#include "tests/differential/generator.h"

namespace levelql::difftest {

std::vector<int> Generator::ColumnsOf(int table, ColType type,
                                      bool allow_nocase) const {
  std::vector<int> out;
  const TableDef& t = tables_[table];
  for (size_t i = 0; i < t.cols.size(); ++i) {
    if (t.cols[i].type == type && !t.cols[i].list &&
        (allow_nocase || !t.cols[i].nocase)) {
      out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

Value Generator::ListLiteralFor(int table, int col) {
  std::vector<Value> elements;
  for (int i = static_cast<int>(rng_.Range(0, 3)); i > 0; --i) {
    Value v = RandomLiteralFor(table, col);
    // A list holds no list (a list column's literal is an element).
    if (v.type() != Type::kList) elements.push_back(std::move(v));
  }
  return Value::List(std::move(elements));
}

Value Generator::RandomLiteralFor(int table, int col) {
  const Column& c = tables_[table].cols[col];
  Domain& d = state_[table].domains[col];
  int r = static_cast<int>(rng_.Uniform(100));
  if (r < 4) return Value::Null();
  if (c.list) {
    Domain copy = d;
    return FreshElement(c, copy);  // lists are compared element-wise
  }
  Value v;
  if (d.kind == Domain::Kind::kSequence) {
    int64_t n = rng_.Range(d.next - 60, d.next + 2);
    v = c.type == ColType::kInt    ? Value::Int(n)
        : c.type == ColType::kReal ? Value::Real(static_cast<double>(n) / 2)
                                   : Value::Text("k" + std::to_string(n));
  } else {
    Domain copy = d;  // literals must not advance the domain
    v = FreshValue(c, copy);
    if (!d.hot.empty() && rng_.Percent(30)) v = rng_.Pick(d.hot);
  }
  if (r < 80) return v;
  // Neighbours and values of another type (affinity and coercion rules).
  switch (c.type) {
    case ColType::kInt: {
      int64_t n = v.int_value();
      if (std::fabs(static_cast<double>(n)) > 1e15) return v;
      switch (rng_.Uniform(4)) {
        case 0:
          return Value::Int(n + (rng_.OneIn(2) ? 1 : -1));
        case 1:
          return Value::Real(static_cast<double>(n) + 0.5);
        case 2:
          return Value::Real(static_cast<double>(n));
        default:
          return Value::Text(std::to_string(n));
      }
    }
    case ColType::kReal: {
      double x = v.real_value();
      switch (rng_.Uniform(3)) {
        case 0:
          return Value::Real(x + 0.25);
        case 1:
          if (std::fabs(x) < 1e15) return Value::Int(static_cast<int64_t>(x));
          return v;
        default:
          return Value::Text(RenderLiteral(v));
      }
    }
    case ColType::kText:
      if (rng_.OneIn(2)) return Value::Int(rng_.Range(-5, 20));
      return Value::Text(v.text() + (rng_.OneIn(2) ? "a" : ""));
  }
  return v;
}

Expr Generator::NumericColumnOr(int table, ColType type, double* bound) {
  std::vector<int> cols = ColumnsOf(table, type, false);
  if (!cols.empty() && rng_.Percent(75)) {
    int c = rng_.Pick(cols);
    *bound = state_[table].domains[c].bound;
    return Expr::Col(c);
  }
  if (type == ColType::kInt) {
    int64_t v = rng_.Range(-10, 10);
    *bound = 10;
    return Expr::Lit(Value::Int(v));
  }
  *bound = 20;
  return Expr::Lit(Value::Real(static_cast<double>(rng_.Range(-80, 80)) / 4));
}

Expr Generator::OtherTypeOperand(int table, ColType type) {
  std::vector<int> others;
  const TableDef& t = tables_[table];
  for (size_t i = 0; i < t.cols.size(); ++i) {
    if (t.cols[i].type != type && !t.cols[i].list && !t.cols[i].nocase) {
      others.push_back(static_cast<int>(i));
    }
  }
  if (!others.empty() && rng_.OneIn(2)) return Expr::Col(rng_.Pick(others));
  if (type == ColType::kText) {
    if (rng_.OneIn(2)) return Expr::Lit(Value::Int(rng_.Range(-5, 20)));
    return Expr::Lit(Value::Real(static_cast<double>(rng_.Range(-8, 40)) / 4));
  }
  if (rng_.OneIn(2)) return Expr::Lit(RandomText(false));
  return Expr::Lit(Value::Text(std::to_string(rng_.Range(-5, 20))));
}

Expr Generator::Scalar(int table, ColType type, int depth, double* bound,
                       bool allow_nocase) {
  *bound = 0;
  if (type == ColType::kText) {
    std::vector<int> cols = ColumnsOf(table, ColType::kText, allow_nocase);
    if (depth <= 0 || rng_.Percent(40)) {
      if (!cols.empty() && rng_.Percent(75)) return Expr::Col(rng_.Pick(cols));
      return Expr::Lit(RandomText(false));
    }
    double b;
    switch (rng_.Uniform(8)) {
      case 6: {
        // trim / ltrim / rtrim / replace over text (issue 18).
        Expr x = Scalar(table, ColType::kText, depth - 1, &b, allow_nocase);
        switch (rng_.Uniform(4)) {
          case 0:
            return Expr::Func("trim", {std::move(x)});
          case 1:
            return Expr::Func(rng_.OneIn(2) ? "ltrim" : "rtrim",
                              {std::move(x), Expr::Lit(RandomText(false))});
          case 2:
            return Expr::Func("typeof", {std::move(x)});
          default:
            return Expr::Func("replace",
                              {std::move(x), Expr::Lit(RandomText(false)),
                               Expr::Lit(RandomText(false))});
        }
      }
      case 7: {
        // CASE, searched or on a binary-collated operand (issue 18).
        Expr e;
        e.kind = Expr::Kind::kCase;
        const bool simple = rng_.OneIn(2);
        if (simple) {
          e.case_operand = true;
          e.kids.push_back(Scalar(table, ColType::kText, depth - 1, &b, false));
        }
        const int whens = 1 + static_cast<int>(rng_.Uniform(2));
        for (int i = 0; i < whens; ++i) {
          e.kids.push_back(simple ? Expr::Lit(RandomText(false))
                                  : CaseCondition(table));
          e.kids.push_back(
              Scalar(table, ColType::kText, depth - 1, &b, allow_nocase));
        }
        if (rng_.OneIn(2)) {
          e.case_else = true;
          e.kids.push_back(
              Scalar(table, ColType::kText, depth - 1, &b, allow_nocase));
        }
        return e;
      }
      case 0:
        return Expr::Binary(
            "||", Scalar(table, ColType::kText, depth - 1, &b, allow_nocase),
            rng_.OneIn(4)
                ? Scalar(table, ColType::kInt, depth - 1, &b, false)
                : Scalar(table, ColType::kText, depth - 1, &b, allow_nocase));
      case 1: {
        std::vector<Expr> args = {
            Scalar(table, ColType::kText, depth - 1, &b, allow_nocase),
            Expr::Lit(Value::Int(rng_.Range(-3, 4)))};
        if (rng_.OneIn(2))
          args.push_back(Expr::Lit(Value::Int(rng_.Range(0, 3))));
        return Expr::Func("substr", std::move(args));
      }
      case 2:
        return Expr::Func(
            rng_.OneIn(2) ? "lower" : "upper",
            {Scalar(table, ColType::kText, depth - 1, &b, allow_nocase)});
      case 3: {
        static const char* kFns[] = {"coalesce", "ifnull", "nullif"};
        const char* fn = kFns[rng_.Uniform(3)];
        Expr x = Scalar(table, ColType::kText, depth - 1, &b, allow_nocase);
        if (fn == kFns[2] && config_.cross_types && rng_.Percent(30)) {
          return Expr::Func(
              fn, {std::move(x), OtherTypeOperand(table, ColType::kText)});
        }
        return Expr::Func(fn, {std::move(x), Expr::Lit(RandomText(false))});
      }
      case 4: {
        Expr e;
        e.kind = Expr::Kind::kCast;
        e.op = "TEXT";
        e.kids.push_back(Scalar(table, ColType::kInt, depth - 1, &b, false));
        return e;
      }
      default:
        if (cols.empty()) return Expr::Lit(RandomText(false));
        return Expr::Col(rng_.Pick(cols));
    }
  }
  if (depth <= 0 || rng_.Percent(35))
    return NumericColumnOr(table, type, bound);
  double ba = 0, bb = 0;
  int r = static_cast<int>(rng_.Uniform(10));
  if (r == 8) {
    // instr (INTEGER) or round (REAL), issue 18.
    if (type == ColType::kInt) {
      *bound = 100;
      return Expr::Func("instr",
                        {Scalar(table, ColType::kText, depth - 1, &ba, false),
                         Expr::Lit(RandomText(false))});
    }
    Expr x = Scalar(table, type, depth - 1, bound, false);
    if (rng_.OneIn(2)) return Expr::Func("round", {std::move(x)});
    return Expr::Func("round",
                      {std::move(x), Expr::Lit(Value::Int(rng_.Range(0, 4)))});
  }
  if (r == 9) {
    // CASE WHEN <comparison> THEN a [ELSE b] END.
    Expr e;
    e.kind = Expr::Kind::kCase;
    e.kids.push_back(CaseCondition(table));
    e.kids.push_back(Scalar(table, type, depth - 1, &ba, false));
    *bound = ba;
    if (rng_.OneIn(2)) {
      e.case_else = true;
      e.kids.push_back(Scalar(table, type, depth - 1, &bb, false));
      *bound = std::max(ba, bb);
    }
    return e;
  }
  if (r <= 1 && type == ColType::kInt && rng_.OneIn(4)) {
    // Bitwise (SQLite's ~ & | << >>): no wider than twice the operands, a
    // left shift by at most 3 places.
    static const char* kOps[] = {"&", "|", "<<", ">>", "~"};
    std::string op = kOps[rng_.Uniform(5)];
    Expr a = Scalar(table, type, depth - 1, &ba, false);
    if (op == "~") {
      *bound = ba + 1;
      return Expr::Unary("~", std::move(a));
    }
    if (op == "<<" || op == ">>") {
      *bound = op == "<<" ? ba * 8 : ba;
      if (*bound > kIntLimit) {
        *bound = ba;
        return a;
      }
      return Expr::Binary(op, std::move(a),
                          Expr::Lit(Value::Int(rng_.Range(0, 3))));
    }
    Expr b = NumericColumnOr(table, type, &bb);
    *bound = 2 * std::max(ba, bb) + 1;
    return Expr::Binary(op, std::move(a), std::move(b));
  }
  if (r <= 1) {
    static const char* kOps[] = {"+", "-", "*", "/", "%"};
    std::string op = kOps[rng_.Uniform(5)];
    Expr a = Scalar(table, type, depth - 1, &ba, false);
    ColType tb = rng_.OneIn(3) ? ColType::kInt : type;
    Expr b = rng_.OneIn(2) ? NumericColumnOr(table, tb, &bb)
                           : Scalar(table, tb, depth - 1, &bb, false);
    if (op == "*" && ba * bb > kMaxProduct) op = "+";
    double result = op == "+" || op == "-" ? ba + bb
                    : op == "*"            ? ba * bb
                    : op == "/"            ? ba
                                           : std::min(ba, bb);
    if (result > kIntLimit) {
      *bound = ba;
      return a;
    }
    *bound = result;
    return Expr::Binary(op, std::move(a), std::move(b));
  }
  switch (r) {
    case 2:
      return Expr::Unary("-", Scalar(table, type, depth - 1, bound, false));
    case 3:
      if (type == ColType::kReal && config_.cross_types && rng_.Percent(15)) {
        // abs() of text is a REAL, whatever the text's prefix (SQLite).
        *bound = 1000;  // the text pool's largest number ('1e3')
        return Expr::Func(
            "abs", {Scalar(table, ColType::kText, depth - 1, &ba, false)});
      }
      return Expr::Func("abs", {Scalar(table, type, depth - 1, bound, false)});
    case 4:
      if (type == ColType::kInt) {
        *bound = 100;
        return Expr::Func(
            "length", {Scalar(table, ColType::kText, depth - 1, &ba, true)});
      } else {
        Expr e;
        e.kind = Expr::Kind::kCast;
        e.op = "REAL";
        e.kids.push_back(Scalar(table, ColType::kInt, depth - 1, bound, false));
        return e;
      }
    case 5: {
      Expr e;
      e.kind = Expr::Kind::kCast;
      e.op = type == ColType::kInt ? "INTEGER" : "REAL";
      ColType from = type == ColType::kInt ? ColType::kReal : ColType::kInt;
      if (rng_.OneIn(4) &&
          (type == ColType::kReal || config_.cast_text_to_integer)) {
        from = ColType::kText;
      }
      e.kids.push_back(Scalar(table, from, depth - 1, &ba, false));
      *bound = from == ColType::kText ? 1e4 : std::min(ba, kIntLimit);
      if (from == ColType::kReal) *bound = kIntLimit;
      return e;
    }
    case 6: {
      static const char* kFns[] = {"coalesce", "ifnull", "nullif"};
      const char* fn = kFns[rng_.Uniform(3)];
      Expr a = Scalar(table, type, depth - 1, &ba, false);
      if (fn == kFns[2] && config_.cross_types && rng_.Percent(30)) {
        *bound = ba;  // nullif returns its first argument or NULL
        return Expr::Func(fn, {std::move(a), OtherTypeOperand(table, type)});
      }
      Expr b = NumericColumnOr(table, type, &bb);
      *bound = std::max(ba, bb);
      return Expr::Func(fn, {std::move(a), std::move(b)});
    }
    default:
      if (type == ColType::kReal) {
        Expr a = NumericColumnOr(table, ColType::kInt, &ba);
        *bound = ba * 0.5;
        return Expr::Binary("*", std::move(a), Expr::Lit(Value::Real(0.5)));
      }
      return NumericColumnOr(table, type, bound);
  }
}

Expr Generator::CaseCondition(int table) {
  double b;
  return Expr::Binary(kCompareOps[rng_.Uniform(8)],
                      NumericColumnOr(table, ColType::kInt, &b),
                      Expr::Lit(Value::Int(rng_.Range(-10, 10))));
}

}  // namespace levelql::difftest
