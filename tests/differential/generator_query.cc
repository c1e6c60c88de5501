// The query half of Generator: predicates, aggregates and SELECT shapes
// (scalar expressions: generator_scalar.cc).
#include <algorithm>
#include <cmath>

#include "tests/differential/generator.h"

namespace levelql::difftest {
namespace {

constexpr int kMaxSumRows = 2000;  // SUM over more rows is not generated
constexpr int64_t kMaxJoinPairs = 250000;  // see JoinQuery

// The first `n` bytes of `s`, shortened to a UTF-8 character boundary.
std::string Utf8Prefix(const std::string& s, size_t n) {
  n = std::min(n, s.size());
  while (n > 0 && n < s.size() &&
         (static_cast<unsigned char>(s[n]) & 0xc0) == 0x80) {
    --n;
  }
  return s.substr(0, n);
}

// `s` from byte `n` on, moved forward to a UTF-8 character boundary.
std::string Utf8Suffix(const std::string& s, size_t n) {
  while (n < s.size() && (static_cast<unsigned char>(s[n]) & 0xc0) == 0x80) ++n;
  return n < s.size() ? s.substr(n) : std::string();
}

bool IsNocaseColumn(const Expr& e, const TableDef& t) {
  return e.kind == Expr::Kind::kColumn && t.cols[e.column].nocase;
}

bool IsLeaf(const Expr& e) {
  return e.kind == Expr::Kind::kColumn || e.kind == Expr::Kind::kLiteral;
}

bool ContainsNocase(const Expr& e, const TableDef& t) {
  if (IsNocaseColumn(e, t)) return true;
  for (const Expr& k : e.kids) {
    if (ContainsNocase(k, t)) return true;
  }
  return false;
}

bool HasColumn(const Expr& e) {
  if (e.kind == Expr::Kind::kColumn) return true;
  for (const Expr& k : e.kids) {
    if (HasColumn(k)) return true;
  }
  return false;
}

}  // namespace

Expr Generator::Comparison(int table) {
  const TableDef& t = tables_[table];
  int col = PickColumn(table, true);
  ColType type = t.cols[col].type;
  if (t.cols[col].list) {
    // `list op element`: true when it holds for some element; `list op
    // list` compares the lists as wholes.
    return Expr::Binary(
        kCompareOps[rng_.Uniform(8)], Expr::Col(col),
        Expr::Lit(rng_.OneIn(8) ? ListLiteralFor(table, col)
                                : RandomLiteralFor(table, col)));
  }
  double b;
  Expr lhs = Expr::Col(col);
  if (rng_.Percent(15))
    lhs = Scalar(table, type, 1, &b, config_.nocase_through_expressions);
  // Unary + keeps a column's collation in SQLite, not in levelql
  // (FINDINGS.md).
  if (rng_.Percent(4) &&
      (!t.cols[col].nocase || config_.nocase_through_expressions)) {
    lhs = Expr::Unary("+", Expr::Col(col));
  }
  Expr rhs;
  int r = static_cast<int>(rng_.Uniform(100));
  if (r < 75) {
    // With lists in the dialect, now and then a list literal: a scalar
    // against a list holds when it holds for some element.
    rhs = Expr::Lit(config_.list_columns && rng_.OneIn(16)
                        ? ListLiteralFor(table, col)
                        : RandomLiteralFor(table, col));
  } else if (r < 87) {
    std::vector<int> same = ColumnsOf(table, type, true);
    rhs = Expr::Col(rng_.OneIn(4) ? PickColumn(table, false) : rng_.Pick(same));
  } else {
    rhs = Scalar(table, type, 1, &b, config_.nocase_through_expressions);
  }
  // levelql gives every expression a collation and prefers the left one;
  // SQLite gives only columns one (FINDINGS.md). Compare a nocase column
  // only with literals and columns.
  if (!config_.nocase_through_expressions &&
      ((IsNocaseColumn(lhs, t) && !IsLeaf(rhs)) ||
       (IsNocaseColumn(rhs, t) && !IsLeaf(lhs)))) {
    lhs = Expr::Col(col);
    rhs = Expr::Lit(RandomLiteralFor(table, col));
  }
  std::string op = kCompareOps[rng_.Uniform(8)];
  if (rng_.Percent(20)) std::swap(lhs, rhs);
  return Expr::Binary(op, std::move(lhs), std::move(rhs));
}

Expr Generator::LikePredicate(int table, int col) {
  Expr e;
  e.kind = Expr::Kind::kLike;
  e.negated = rng_.Percent(20);
  Value v = RandomLiteralFor(table, col);
  std::string s = v.type() == Type::kText ? v.text() : RandomText(false).text();
  std::string pattern;
  switch (rng_.Uniform(10)) {
    case 0:
    case 1:
    case 2:
    case 3:
      pattern = Utf8Prefix(s, rng_.Uniform(s.size() + 1)) + "%";
      break;
    case 4:
      pattern = s;
      break;
    case 5:
      pattern = "%" + Utf8Suffix(s, rng_.Uniform(s.size() + 1)) + "%";
      break;
    case 6:
      pattern = "_" + Utf8Suffix(s, 1) + (rng_.OneIn(2) ? "%" : "");
      break;
    case 7:
    case 8: {
      e.escape = true;
      for (char c : Utf8Prefix(s, rng_.Uniform(s.size() + 1))) {
        if (c == '%' || c == '_' || c == '!') pattern += '!';
        pattern += c;
      }
      pattern += "%";
      break;
    }
    default:
      pattern = "%";
      break;
  }
  double b;
  e.kids.push_back(rng_.Percent(85) || tables_[table].cols[col].list
                       ? Expr::Col(col)
                       : Scalar(table, ColType::kText, 1, &b, false));
  e.kids.push_back(rng_.OneIn(40) ? Expr::Lit(Value::Null())
                                  : Expr::Lit(Value::Text(pattern)));
  return e;
}

Expr Generator::InList(int table, int col) {
  Expr e;
  e.kind = Expr::Kind::kIn;
  e.negated = rng_.Percent(30);
  double b;
  e.kids.push_back(rng_.Percent(90) || tables_[table].cols[col].list
                       ? Expr::Col(col)
                       : Scalar(table, tables_[table].cols[col].type, 1, &b,
                                config_.nocase_through_expressions));
  int n = static_cast<int>(rng_.Range(1, 6));
  const Column& c = tables_[table].cols[col];
  for (int i = 0; i < n; ++i) {
    // An item has no affinity of its own (x IN (y) is x = +y), even a
    // column of another type.
    if (config_.cross_types && !c.list && rng_.Percent(15)) {
      e.kids.push_back(OtherTypeOperand(table, c.type));
    } else {
      e.kids.push_back(Expr::Lit(RandomLiteralFor(table, col)));
    }
  }
  return e;
}

Expr Generator::Atom(int table) {
  const TableDef& t = tables_[table];
  int col = PickColumn(table, true);
  ColType type = t.cols[col].type;
  double b;
  int r = static_cast<int>(rng_.Uniform(100));
  if (r < 40) return Comparison(table);
  if (t.cols[col].list) {
    // On a list column only the column itself, against element literals.
    if (r < 55) return InList(table, col);
    if (r < 70 && type == ColType::kText) return LikePredicate(table, col);
    if (r < 85) {
      Expr e;
      e.kind = Expr::Kind::kIsNull;
      e.negated = rng_.OneIn(2);
      e.kids.push_back(Expr::Col(col));
      return e;
    }
    Expr e;
    e.kind = Expr::Kind::kBetween;
    e.negated = rng_.Percent(25);
    e.kids = {Expr::Col(col), Expr::Lit(RandomLiteralFor(table, col)),
              Expr::Lit(RandomLiteralFor(table, col))};
    return e;
  }
  if (r < 50) {
    Expr e;
    e.kind = Expr::Kind::kBetween;
    e.negated = rng_.Percent(25);
    Value lo = RandomLiteralFor(table, col), hi = RandomLiteralFor(table, col);
    if (rng_.Percent(75) && lo.type() == hi.type() &&
        lo.type() == Type::kInteger && lo.int_value() > hi.int_value()) {
      std::swap(lo, hi);
    }
    e.kids.push_back(
        rng_.Percent(85)
            ? Expr::Col(col)
            : Scalar(table, type, 1, &b, config_.nocase_through_expressions));
    e.kids.push_back(Expr::Lit(lo));
    e.kids.push_back(Expr::Lit(hi));
    return e;
  }
  if (r < 62) return InList(table, col);
  if (r < 72) {
    Expr e;
    e.kind = Expr::Kind::kIsNull;
    e.negated = rng_.OneIn(2);
    int k = static_cast<int>(rng_.Uniform(10));
    e.kids.push_back(
        k < 7   ? Expr::Col(col)
        : k < 9 ? Scalar(table, type, 1, &b, config_.nocase_through_expressions)
                : Comparison(table));
    return e;
  }
  if (r < 84) {
    std::vector<int> texts = ColumnsOf(table, ColType::kText, true);
    if (texts.empty()) return Comparison(table);
    return LikePredicate(table, rng_.Pick(texts));
  }
  if (r < 88) {
    if (rng_.OneIn(3))
      return Scalar(table, type, 1, &b, config_.nocase_through_expressions);
    return Expr::Col(col);
  }
  if (r < 91) {
    static const std::vector<Value> consts = {Value::Bool(true),
                                              Value::Bool(false), Value::Null(),
                                              Value::Int(1), Value::Int(0)};
    return Expr::Lit(rng_.Pick(consts));
  }
  // A function or arithmetic on the left, a literal on the right.
  ColType st = rng_.OneIn(3) ? ColType::kText
                             : (rng_.OneIn(2) ? ColType::kInt : ColType::kReal);
  Expr lhs = Scalar(table, st, 1 + static_cast<int>(rng_.Uniform(2)), &b,
                    config_.nocase_through_expressions);
  Value lit =
      st == ColType::kText
          ? RandomText(false)
          : (st == ColType::kInt
                 ? Value::Int(rng_.Range(-10, 10))
                 : Value::Real(static_cast<double>(rng_.Range(-40, 40)) / 4));
  return Expr::Binary(kCompareOps[rng_.Uniform(8)], std::move(lhs),
                      Expr::Lit(lit));
}

Expr Generator::RandomPredicate(int table, int depth) {
  if (depth <= 0 || rng_.Percent(40)) return Atom(table);
  int r = static_cast<int>(rng_.Uniform(10));
  if (r >= 8) return Expr::Unary("NOT", RandomPredicate(table, depth - 1));
  std::string op = r < 5 ? "AND" : "OR";
  Expr e = Expr::Binary(op, RandomPredicate(table, depth - 1),
                        RandomPredicate(table, depth - 1));
  if (rng_.OneIn(3))
    e = Expr::Binary(op, std::move(e), RandomPredicate(table, depth - 1));
  return e;
}

Expr Generator::Aggregate(int table) {
  const TableDef& t = tables_[table];
  Expr e;
  e.kind = Expr::Kind::kAgg;
  int col = PickColumn(table, true);
  const Column& c = t.cols[col];
  int r = static_cast<int>(rng_.Uniform(100));
  double b;
  if (r < 20) {
    e.op = "count";
    return e;
  }
  if (r < 45) {
    e.op = "count";
    e.distinct = r >= 35;
    e.kids.push_back(Expr::Col(col));
    return e;
  }
  if (r < 70) {
    e.op = r < 58 ? "sum" : "avg";
    ColType type = rng_.OneIn(3) ? ColType::kReal : ColType::kInt;
    Expr arg = rng_.OneIn(3) ? Scalar(table, type, 1, &b, false)
                             : NumericColumnOr(table, type, &b);
    if (b * kMaxSumRows > kIntLimit || HugeReals(table, arg)) {
      arg = Expr::Lit(Value::Int(1));
    }
    std::vector<int> texts = ColumnsOf(table, ColType::kText, true);
    if (config_.cross_types && !texts.empty() && rng_.Percent(15)) {
      // Text that is wholly an integer adds up as one; any other text
      // (and '1.5', '1e3') makes the sum a REAL.
      arg = Expr::Col(rng_.Pick(texts));
    }
    e.kids.push_back(std::move(arg));
    return e;
  }
  e.op = r < 85 ? "min" : "max";
  // min/max of a nocase column would return whichever of 'a' and 'A' an
  // engine meets first; lower() makes the answer unique.
  Expr arg = Expr::Col(col);
  if (rng_.OneIn(4) && !c.list) {
    arg = Scalar(table, c.type, 1, &b, config_.nocase_through_expressions);
  }
  if (arg.kind == Expr::Kind::kColumn && t.cols[arg.column].nocase) {
    arg = Expr::Func("lower", {arg});
  }
  e.kids.push_back(std::move(arg));
  return e;
}

// A wide REAL column also draws 1e15, 2^53 + 1 and 1e100 (FreshValue): a
// sum of those depends on the order rows are added in (KNOWN_DIFFERENCES.md,
// 17). Whether `e` reads such a column.
bool Generator::HugeReals(int table, const Expr& e) const {
  if (e.kind == Expr::Kind::kColumn) {
    return tables_[table].cols[e.column].type == ColType::kReal &&
           state_[table].domains[e.column].kind == Domain::Kind::kWide;
  }
  for (const Expr& kid : e.kids) {
    if (HugeReals(table, kid)) return true;
  }
  return false;
}

bool Generator::SafeToOrder(const Expr& e, const TableDef& t) const {
  if (config_.nocase_through_expressions || e.kind == Expr::Kind::kColumn) {
    return true;
  }
  // lower(c) sorts the same under nocase and binary.
  if (e.kind == Expr::Kind::kFunc && e.op == "lower" &&
      e.kids[0].kind == Expr::Kind::kColumn) {
    return true;
  }
  return !ContainsNocase(e, t);
}

std::vector<IndexDef> Generator::AccessPaths(int table) const {
  const TableDef& t = tables_[table];
  std::vector<IndexDef> out = indexes_[table];
  if (!t.pk.empty()) {
    IndexDef pk;
    pk.cols = t.pk;
    pk.desc = t.pk_desc;
    pk.unique = true;
    out.push_back(pk);
  }
  return out;
}

Expr Generator::IndexPredicate(int table, const IndexDef& ix, int* eq_columns) {
  const TableDef& t = tables_[table];
  int n = static_cast<int>(ix.cols.size());
  int eq = static_cast<int>(rng_.Range(0, n));
  if (eq == n && rng_.OneIn(2)) --eq;
  std::vector<Expr> conj;
  for (int i = 0; i < eq; ++i) {
    int c = ix.cols[i];
    if (rng_.Percent(20)) {
      conj.push_back(InList(table, c));
      conj.back().negated = false;
      conj.back().kids[0] = Expr::Col(c);
    } else {
      conj.push_back(Expr::Binary("=", Expr::Col(c),
                                  Expr::Lit(RandomLiteralFor(table, c))));
    }
  }
  if (eq < n && rng_.Percent(70)) {
    int c = ix.cols[eq];
    int r = static_cast<int>(rng_.Uniform(10));
    if (t.cols[c].type == ColType::kText && r < 3) {
      Expr like = LikePredicate(table, c);
      like.kids[0] = Expr::Col(c);
      like.negated = false;
      conj.push_back(std::move(like));
    } else if (r < 5) {
      Expr e;
      e.kind = Expr::Kind::kBetween;
      e.kids = {Expr::Col(c), Expr::Lit(RandomLiteralFor(table, c)),
                Expr::Lit(RandomLiteralFor(table, c))};
      conj.push_back(std::move(e));
    } else {
      static const char* kRange[] = {"<", "<=", ">", ">="};
      conj.push_back(Expr::Binary(kRange[rng_.Uniform(4)], Expr::Col(c),
                                  Expr::Lit(RandomLiteralFor(table, c))));
      if (rng_.OneIn(3)) {
        conj.push_back(Expr::Binary(kRange[rng_.Uniform(4)], Expr::Col(c),
                                    Expr::Lit(RandomLiteralFor(table, c))));
      }
    }
  }
  if (rng_.Percent(25)) conj.push_back(Atom(table));  // a residual filter
  *eq_columns = eq;
  if (conj.empty()) return Expr::Lit(Value::Bool(true));
  Expr out = conj[0];
  for (size_t i = 1; i < conj.size(); ++i)
    out = Expr::Binary("AND", out, conj[i]);
  return out;
}

Query Generator::IndexedQuery(int table) {
  const TableDef& t = tables_[table];
  std::vector<IndexDef> paths = AccessPaths(table);
  if (paths.empty()) return RandomQuery(table);
  const IndexDef ix = rng_.Pick(paths);
  Query q;
  q.table = table;
  int eq = 0;
  q.where = IndexPredicate(table, ix, &eq);
  if (paths.size() > 1 && rng_.Percent(20)) {
    // Equality on every column of two indexes: pk-sorted streams to
    // intersect (AND) or merge (OR).
    std::string op = rng_.OneIn(2) ? "AND" : "OR";
    std::optional<Expr> where;
    size_t first = rng_.Uniform(paths.size());
    size_t second = (first + 1 + rng_.Uniform(paths.size() - 1)) % paths.size();
    for (size_t k : {first, second}) {
      const IndexDef& one = paths[k];
      for (int c : one.cols) {
        Expr e = Expr::Binary("=", Expr::Col(c),
                              Expr::Lit(RandomLiteralFor(table, c)));
        where = where ? Expr::Binary(k == first ? "AND" : op, *where, e) : e;
      }
    }
    q.where = where;
    eq = 0;
  } else if (paths.size() > 1 && rng_.Percent(30)) {
    int ignored;
    Expr other = IndexPredicate(table, rng_.Pick(paths), &ignored);
    q.where = Expr::Binary(rng_.OneIn(2) ? "AND" : "OR", *q.where, other);
  }
  if (q.where->kind == Expr::Kind::kLiteral && rng_.OneIn(2)) q.where.reset();
  if (rng_.Percent(10)) {
    q.aggregate = true;
    Expr count;
    count.kind = Expr::Kind::kAgg;
    count.op = "count";
    q.items.push_back(count);
    for (int c : ix.cols) {
      if (rng_.OneIn(2) && !t.cols[c].nocase) {
        Expr e;
        e.kind = Expr::Kind::kAgg;
        e.op = rng_.OneIn(2) ? "min" : "max";
        e.kids.push_back(Expr::Col(c));
        q.items.push_back(std::move(e));
      }
    }
    return q;
  }
  int shape = static_cast<int>(rng_.Uniform(10));
  if (shape < 4) {
    q.star = true;
  } else {
    // The index's own columns (and key): a covering index needs no fetch.
    std::vector<int> cols = ix.cols;
    for (int c : ix.include) cols.push_back(c);
    if (shape < 7) {
      for (int c : t.pk) cols.push_back(c);
    } else {
      cols.push_back(static_cast<int>(rng_.Uniform(t.cols.size())));
    }
    for (int c : cols) q.items.push_back(Expr::Col(c));
  }
  bool limit = rng_.Percent(50);
  if (limit || rng_.Percent(40)) {
    // The rest of the index in index order (or all reversed), then the key.
    bool reverse = rng_.OneIn(2);
    for (size_t i = static_cast<size_t>(eq); i < ix.cols.size(); ++i) {
      OrderTerm o;
      o.expr = Expr::Col(ix.cols[i]);
      o.desc = ix.desc[i] != reverse;
      q.order.push_back(std::move(o));
    }
    std::vector<int> keys = t.pk;
    std::vector<bool> dirs = t.pk_desc;
    if (keys.empty()) {
      for (size_t i = 0; i < t.cols.size(); ++i) {
        keys.push_back(static_cast<int>(i));
        dirs.push_back(false);
      }
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      OrderTerm o;
      o.expr = Expr::Col(keys[i]);
      o.desc = dirs[i] != reverse;
      q.order.push_back(std::move(o));
    }
    q.ordered = true;
  }
  if (limit && q.ordered) {
    q.limit = rng_.Range(0, 12);
    if (rng_.OneIn(2)) q.offset = rng_.Range(0, 15);
  }
  return q;
}

Expr Generator::ConstantOrderTerm(const Query& q, int* ordinal) {
  int constant_item = 0;
  for (size_t k = 0; k < q.items.size(); ++k) {
    if (q.items[k].kind == Expr::Kind::kLiteral) {
      constant_item = static_cast<int>(k) + 1;
    }
  }
  if (constant_item && rng_.OneIn(2)) {
    *ordinal = constant_item;  // ORDER BY 1 over SELECT 7.5
    return Expr::Lit(Value::Null());
  }
  static const std::vector<Expr> kConstants = {
      Expr::Lit(Value::Text("k")),
      Expr::Binary("+", Expr::Lit(Value::Int(1)), Expr::Lit(Value::Int(1))),
      Expr::Func("lower", {Expr::Lit(Value::Text("A"))})};
  return rng_.Pick(kConstants);
}

Query Generator::GroupedQuery(int table) {
  const TableDef& t = tables_[table];
  Query q;
  q.table = table;
  q.aggregate = true;
  // Keys whose value every row of a group shares in both engines: not a
  // nocase column (a group of 'a' and 'A' shows either) nor a list.
  std::vector<int> keys;
  for (size_t i = 0; i < t.cols.size(); ++i) {
    if (!t.cols[i].nocase && !t.cols[i].list) {
      keys.push_back(static_cast<int>(i));
    }
  }
  if (keys.empty()) return RandomQuery(table);
  const int n =
      static_cast<int>(rng_.Range(1, std::min<int64_t>(3, keys.size())));
  for (int i = 0; i < n; ++i) {
    int col = rng_.Pick(keys);
    Expr key = Expr::Col(col);
    if (rng_.Percent(15) && t.cols[col].type == ColType::kInt) {
      key = Expr::Binary("%", key, Expr::Lit(Value::Int(rng_.Range(2, 5))));
    }
    q.items.push_back(key);
    // By ordinal or by the expression.
    q.group_by.push_back(rng_.OneIn(4) ? Expr::Lit(Value::Int(i + 1)) : key);
  }
  const int aggs = static_cast<int>(rng_.Range(0, 3));
  for (int i = 0; i < aggs; ++i) q.items.push_back(Aggregate(table));
  if (rng_.Percent(70))
    q.where = RandomPredicate(table, static_cast<int>(rng_.Range(0, 2)));
  if (rng_.Percent(30)) {
    Expr count;
    count.kind = Expr::Kind::kAgg;
    count.op = "count";
    q.having = Expr::Binary(rng_.OneIn(2) ? ">" : "<=", count,
                            Expr::Lit(Value::Int(rng_.Range(1, 4))));
  }
  if (rng_.Percent(60)) {
    // A total order: maybe an aggregate first, then every key.
    if (aggs > 0 && rng_.OneIn(3)) {
      OrderTerm o;
      o.ordinal = n + 1 + static_cast<int>(rng_.Uniform(aggs));
      o.desc = rng_.OneIn(2);
      q.order.push_back(o);
    }
    for (int i = 0; i < n; ++i) {
      OrderTerm o;
      o.ordinal = i + 1;
      o.desc = rng_.OneIn(2);
      q.order.push_back(o);
    }
    q.ordered = true;
    if (rng_.Percent(40)) {
      q.limit = rng_.Range(0, 10);
      if (rng_.OneIn(2)) q.offset = rng_.Range(0, 8);
    }
  }
  return q;
}

Query Generator::JoinQuery(int a, int b) {
  const TableDef& ta = tables_[a];
  const TableDef& tb = tables_[b];
  const int na = static_cast<int>(ta.cols.size());
  // b's join column: key-like most of the time (each row of a meets few
  // rows of b, as a foreign key would), then a column of a of its type.
  // Past kMaxJoinPairs pairs of rows, only a unique column (at most one
  // row of b per row of a), so that answers stay small.
  std::vector<int> keyish, any;
  const bool large =
      state_[a].rows_bound * state_[b].rows_bound > kMaxJoinPairs;
  for (int c = 0; c < static_cast<int>(tb.cols.size()); ++c) {
    if (tb.cols[c].list) continue;
    if (IsUniqueColumn(b, c)) {
      keyish.push_back(c);
    } else if (!large && (InUniqueKey(b, c) || IsUniqueish(b, c))) {
      keyish.push_back(c);
    }
    if (!large) any.push_back(c);
  }
  if (large) any = keyish;
  if (any.empty()) return RandomQuery(a);
  const int cb = rng_.Pick(!keyish.empty() && rng_.Percent(75) ? keyish : any);
  std::vector<int> same;
  for (int c = 0; c < na; ++c) {
    if (!ta.cols[c].list && ta.cols[c].type == tb.cols[cb].type) {
      same.push_back(c);
    }
  }
  if (same.empty()) return RandomQuery(a);
  const int ca = rng_.Pick(same);

  // The joined table as one more table of the generator, while the query
  // is drawn: its domains are both tables', its indexes both tables'
  // (columns of b shifted past a's).
  const bool on = rng_.OneIn(2);
  tables_.push_back(JoinedTable(ta, tb, on));
  TableState joined;
  joined.domains = state_[a].domains;
  joined.domains.insert(joined.domains.end(), state_[b].domains.begin(),
                        state_[b].domains.end());
  state_.push_back(std::move(joined));
  auto shifted = [na](std::vector<IndexDef> v) {
    for (IndexDef& ix : v) {
      for (int& c : ix.cols) c += na;
      for (int& c : ix.include) c += na;
    }
    return v;
  };
  std::vector<IndexDef> ix = indexes_[a], uix = unique_indexes_[a];
  for (IndexDef& i : shifted(indexes_[b])) ix.push_back(std::move(i));
  for (IndexDef& i : shifted(unique_indexes_[b])) uix.push_back(std::move(i));
  indexes_.push_back(std::move(ix));
  unique_indexes_.push_back(std::move(uix));
  const int j = static_cast<int>(tables_.size()) - 1;
  Query q = RandomQuery(j);
  Expr cond = Expr::Binary("=", Expr::Col(ca), Expr::Col(na + cb));
  if (rng_.OneIn(4)) std::swap(cond.kids[0], cond.kids[1]);
  if (rng_.OneIn(5)) cond = Expr::Binary("AND", cond, Atom(j));
  tables_.pop_back();
  state_.pop_back();
  indexes_.pop_back();
  unique_indexes_.pop_back();

  q.table = a;
  q.join_table = b;
  if (on) {
    // A LEFT JOIN now and then: its rows past the ON are NULL-extended.
    q.left_join = rng_.OneIn(4);
    q.right_join = !q.left_join && rng_.OneIn(6);
    q.full_join = !q.left_join && !q.right_join && rng_.OneIn(6);
    q.join_on = std::move(cond);
  } else {
    q.where = q.where ? Expr::Binary("AND", std::move(cond), *q.where)
                      : std::move(cond);
  }
  return q;
}

Query Generator::RandomQuery(int table) {
  if (rng_.Percent(35)) return IndexedQuery(table);
  if (rng_.Percent(8)) return GroupedQuery(table);
  const TableDef& t = tables_[table];
  Query q;
  q.table = table;
  if (rng_.Percent(15)) {
    q.aggregate = true;
    int n = static_cast<int>(rng_.Range(1, 4));
    for (int i = 0; i < n; ++i) q.items.push_back(Aggregate(table));
    if (rng_.Percent(80))
      q.where = RandomPredicate(table, static_cast<int>(rng_.Range(0, 3)));
    return q;
  }
  bool has_nocase = false;
  for (const Column& c : t.cols) has_nocase |= c.nocase;
  q.distinct = rng_.Percent(12);
  q.star = rng_.Percent(20) && !(q.distinct && has_nocase);
  if (!q.star) {
    int n = static_cast<int>(rng_.Range(1, 4));
    for (int i = 0; i < n; ++i) {
      int col = static_cast<int>(rng_.Uniform(t.cols.size()));
      Expr item = Expr::Col(col);
      if (q.distinct && t.cols[col].nocase) item = Expr::Func("lower", {item});
      if (rng_.Percent(30)) {
        double b;
        static const ColType kTypes[] = {ColType::kInt, ColType::kReal,
                                         ColType::kText};
        item = Scalar(table, kTypes[rng_.Uniform(3)],
                      static_cast<int>(rng_.Range(1, 2)), &b, !q.distinct);
      }
      if (config_.constant_order_terms && rng_.OneIn(8)) {
        // A constant item that ORDER BY may name by its ordinal.
        item = Expr::Lit(rng_.OneIn(2) ? Value::Real(7.5) : Value::Text("k"));
      }
      q.items.push_back(std::move(item));
    }
  }
  if (rng_.Percent(85))
    q.where = RandomPredicate(table, static_cast<int>(rng_.Range(0, 3)));
  int outputs = q.star ? static_cast<int>(t.cols.size())
                       : static_cast<int>(q.items.size());
  bool limit = rng_.Percent(35);
  if (limit || rng_.Percent(35)) {
    int n = static_cast<int>(rng_.Range(1, 3));
    for (int i = 0; i < n; ++i) {
      OrderTerm o;
      o.desc = rng_.OneIn(2);
      int r = static_cast<int>(rng_.Uniform(10));
      if (config_.constant_order_terms && !q.distinct && rng_.OneIn(4)) {
        o.expr = ConstantOrderTerm(q, &o.ordinal);
      } else if (q.distinct || r < 3) {
        o.ordinal = static_cast<int>(rng_.Range(1, outputs));
        if (!q.star && !SafeToOrder(q.items[o.ordinal - 1], t)) {
          if (q.distinct) continue;
          o.ordinal = 0;
          o.expr = Expr::Col(static_cast<int>(rng_.Uniform(t.cols.size())));
        }
      } else if (r < 7) {
        o.expr = Expr::Col(static_cast<int>(rng_.Uniform(t.cols.size())));
      } else {
        double b;
        static const ColType kTypes[] = {ColType::kInt, ColType::kReal,
                                         ColType::kText};
        o.expr = Scalar(table, kTypes[rng_.Uniform(3)], 1, &b,
                        config_.nocase_through_expressions);
        // A constant sorts nothing, and SQLite reads an integer constant
        // such as (- 6) as an ordinal; levelql alone gets a constant that
        // is no integer literal (every row ties on it).
        if (!HasColumn(o.expr)) {
          if (config_.constant_order_terms) {
            o.expr = ConstantOrderTerm(q, &o.ordinal);
          } else {
            o.expr = Expr::Col(static_cast<int>(rng_.Uniform(t.cols.size())));
          }
        }
      }
      q.order.push_back(std::move(o));
    }
    q.ordered = limit || rng_.Percent(60);
    if (q.ordered) {
      // Ties are broken by the key (or, without one, by every column: rows
      // equal in every column are indistinguishable anyway).
      if (q.distinct) {
        for (int i = 1; i <= outputs; ++i) {
          OrderTerm o;
          o.ordinal = i;
          o.desc = rng_.OneIn(2);
          q.order.push_back(std::move(o));
        }
      } else {
        std::vector<int> keys = t.pk;
        if (keys.empty()) {
          for (size_t i = 0; i < t.cols.size(); ++i)
            keys.push_back(static_cast<int>(i));
        }
        for (int k : keys) {
          OrderTerm o;
          o.expr = Expr::Col(k);
          o.desc = rng_.OneIn(2);
          q.order.push_back(std::move(o));
        }
      }
    }
  }
  if (limit) {
    q.limit = rng_.OneIn(10) ? rng_.Range(0, 1000) : rng_.Range(0, 15);
    if (rng_.OneIn(2)) q.offset = rng_.Range(0, 20);
  }
  return q;
}

Query Generator::CompoundQuery(int a, int b) {
  // Columns whose values compare by their bytes: which spelling of values
  // a collation makes equal is kept differs between engines.
  auto plain = [&](int table, std::optional<ColType> type) {
    std::vector<int> cols;
    const TableDef& t = tables_[table];
    for (size_t i = 0; i < t.cols.size(); ++i) {
      const Column& c = t.cols[i];
      if (!c.list && !c.nocase && c.collation.empty() &&
          (!type || c.type == *type)) {
        cols.push_back(static_cast<int>(i));
      }
    }
    return cols;
  };
  if (plain(a, std::nullopt).empty() || plain(b, std::nullopt).empty()) {
    return RandomQuery(a);
  }
  const int width = static_cast<int>(rng_.Range(1, 2));
  // Ordered, the columns at each place share a type: of equal values of
  // two types (2 and 2.0) SQLite keeps another when it merges for an ORDER
  // BY than when it does not (levelql keeps the latter's).
  const bool ordered = rng_.Percent(50);
  std::vector<std::optional<ColType>> types(width);
  if (ordered) {
    static const ColType kTypes[] = {ColType::kInt, ColType::kReal,
                                     ColType::kText};
    for (auto& t : types) t = kTypes[rng_.Uniform(3)];
  }
  auto literal = [&](std::optional<ColType> type) {
    const ColType t = type            ? *type
                      : rng_.OneIn(2) ? ColType::kInt
                                      : ColType::kText;
    return Expr::Lit(t == ColType::kInt    ? Value::Int(3)
                     : t == ColType::kReal ? Value::Real(2.5)
                                           : Value::Text("k"));
  };
  auto select = [&](int table) {
    Query q;
    q.table = table;
    for (int i = 0; i < width; ++i) {
      const std::vector<int> cols = plain(table, types[i]);
      if (cols.empty() || rng_.OneIn(8)) {
        q.items.push_back(literal(types[i]));
      } else {
        q.items.push_back(Expr::Col(cols[rng_.Uniform(cols.size())]));
      }
    }
    if (rng_.Percent(75)) {
      q.where = RandomPredicate(table, static_cast<int>(rng_.Range(0, 2)));
    }
    return q;
  };
  static const char* kOps[] = {"UNION", "UNION ALL", "INTERSECT", "EXCEPT"};
  Query q = select(a);
  const int parts = static_cast<int>(rng_.Range(1, 2));
  for (int i = 0; i < parts; ++i) {
    const int table = rng_.OneIn(2) ? b : a;
    CompoundPart part;
    part.op = kOps[rng_.Uniform(4)];
    part.query = std::make_shared<Query>(select(table));
    part.table = std::make_shared<TableDef>(tables_[table]);
    q.compound.push_back(std::move(part));
  }
  if (ordered) {
    // Every column: equal rows are alike, so the order is total.
    for (int i = 1; i <= width; ++i) {
      OrderTerm o;
      o.ordinal = i;
      o.desc = rng_.OneIn(2);
      q.order.push_back(std::move(o));
    }
    q.ordered = true;
    if (rng_.Percent(50)) {
      q.limit = rng_.Range(0, 12);
      if (rng_.OneIn(2)) q.offset = rng_.Range(0, 10);
    }
  }
  return q;
}

}  // namespace levelql::difftest
