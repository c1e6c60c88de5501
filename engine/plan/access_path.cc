#include "engine/plan/access_path.h"

#include <algorithm>
#include <cmath>

#include "engine/exec/value_ops.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

using parser::BinaryOp;
using Kind = BoundExpr::Kind;

constexpr size_t kMaxSpans = 1024;

// One end of an interval over encoded key-component bytes.
struct Bound {
  bool unbounded = true;
  bool inclusive = false;
  std::string bytes;
  std::string label;  // "col>=5"
};

struct Interval {
  Bound lo, hi;
  bool IsPoint() const {
    return !lo.unbounded && !hi.unbounded && lo.inclusive && hi.inclusive &&
           lo.bytes == hi.bytes;
  }
  bool IsEmpty() const {
    if (lo.unbounded || hi.unbounded) return false;
    int c = lo.bytes.compare(hi.bytes);
    return c > 0 || (c == 0 && !(lo.inclusive && hi.inclusive));
  }
  std::string Label() const {
    if (IsPoint()) return lo.label;
    // The NULL-excluding bound of a comparison has no label.
    std::string s = lo.unbounded ? "" : lo.label;
    if (!hi.unbounded && !hi.label.empty() && hi.label != lo.label) {
      s += (s.empty() ? "" : " AND ") + hi.label;
    }
    return s;
  }
};

using IntervalSet = std::vector<Interval>;

// Tighter of two lower (or upper) bounds.
Bound TighterLo(const Bound& a, const Bound& b) {
  if (a.unbounded) return b;
  if (b.unbounded) return a;
  int c = a.bytes.compare(b.bytes);
  if (c != 0) return c > 0 ? a : b;
  return a.inclusive ? b : a;
}
Bound TighterHi(const Bound& a, const Bound& b) {
  if (a.unbounded) return b;
  if (b.unbounded) return a;
  int c = a.bytes.compare(b.bytes);
  if (c != 0) return c < 0 ? a : b;
  return a.inclusive ? b : a;
}

IntervalSet Intersect(const IntervalSet& a, const IntervalSet& b) {
  IntervalSet out;
  for (const Interval& x : a) {
    for (const Interval& y : b) {
      Interval z{TighterLo(x.lo, y.lo), TighterHi(x.hi, y.hi)};
      if (!z.IsEmpty()) out.push_back(std::move(z));
    }
  }
  std::sort(out.begin(), out.end(), [](const Interval& p, const Interval& q) {
    if (p.lo.unbounded != q.lo.unbounded) return p.lo.unbounded;
    return p.lo.bytes < q.lo.bytes;
  });
  return out;
}

// What a constant becomes when compared with a key column.
enum class Coerced { kValue, kAlwaysFalse, kUnusable };

// Converts `v` for comparison `op` against `column` so that the comparison
// of key bytes gives the SQL answer; may tighten op (int_col > 2.5 is
// int_col >= 3).
Coerced CoerceForKey(const ColumnSchema& column, BinaryOp* op, Value* v,
                     Affinity affinity) {
  if (v->is_null()) return Coerced::kAlwaysFalse;
  switch (column.type) {
    case Type::kInteger: {
      Value n =
          v->type() == Type::kText ? ApplyAffinity(*v, Affinity::kNumeric) : *v;
      if (n.is_int_like()) {
        *v = Value::Int(n.int_value());
        return Coerced::kValue;
      }
      if (n.type() != Type::kReal) return Coerced::kUnusable;
      double d = n.real_value();
      if (std::isinf(d) || std::fabs(d) >= 9.2e18) return Coerced::kUnusable;
      if (d == std::floor(d)) {
        *v = Value::Int(static_cast<int64_t>(d));
        return Coerced::kValue;
      }
      switch (*op) {
        case BinaryOp::kEq:
          return Coerced::kAlwaysFalse;
        case BinaryOp::kGt:
        case BinaryOp::kGe:
          *op = BinaryOp::kGe;
          *v = Value::Int(static_cast<int64_t>(std::ceil(d)));
          return Coerced::kValue;
        case BinaryOp::kLt:
        case BinaryOp::kLe:
          *op = BinaryOp::kLe;
          *v = Value::Int(static_cast<int64_t>(std::floor(d)));
          return Coerced::kValue;
        default:
          return Coerced::kUnusable;
      }
    }
    case Type::kReal: {
      Value n =
          v->type() == Type::kText ? ApplyAffinity(*v, Affinity::kNumeric) : *v;
      if (n.type() == Type::kReal) {
        *v = n;
        return Coerced::kValue;
      }
      if (!n.is_int_like()) return Coerced::kUnusable;
      int64_t i = n.int_value();
      if (i > (int64_t{1} << 53) || i < -(int64_t{1} << 53)) {
        return Coerced::kUnusable;
      }
      *v = Value::Real(static_cast<double>(i));
      return Coerced::kValue;
    }
    case Type::kText:
      if (v->type() == Type::kText) return Coerced::kValue;
      // A number turns into text only when it has no affinity of its own
      // (a literal); against a CAST(... AS REAL) SQLite compares the column
      // numerically instead, which key bytes cannot answer.
      if (v->is_numeric() && affinity == Affinity::kNone) {
        *v = Value::Text(ValueToText(*v));
        return Coerced::kValue;
      }
      return Coerced::kUnusable;
    case Type::kBlob:
      return v->type() == Type::kBlob ? Coerced::kValue : Coerced::kUnusable;
    case Type::kBoolean:
      if (*op != BinaryOp::kEq || !v->is_int_like()) return Coerced::kUnusable;
      if (v->int_value() != 0 && v->int_value() != 1) {
        return Coerced::kAlwaysFalse;
      }
      *v = Value::Bool(v->int_value() == 1);
      return Coerced::kValue;
    case Type::kTimestamp:
      if (v->is_int_like()) {
        *v = Value::Timestamp(v->int_value());
        return Coerced::kValue;
      }
      if (v->type() == Type::kText) {
        if (auto t = ParseTimestamp(v->text())) {
          *v = Value::Timestamp(*t);
          return Coerced::kValue;
        }
      }
      return Coerced::kUnusable;
    default:
      return Coerced::kUnusable;
  }
}

struct Constraint {
  IntervalSet intervals;
  bool exact = true;
  double selectivity = 1.0;
};

class PathBuilder {
 public:
  // `labels`: write the EXPLAIN text of each bound (else left empty).
  PathBuilder(const TableSchema& table, const KeyColumn& key, bool labels)
      : column_(table.columns[key.column]), key_(key), labels_(labels) {
    keys::EncodeValue(Value(), key.direction, &null_bytes_);
  }

  // In the key column's collation (an index's COLLATE may differ from the
  // column's).
  std::string Encode(const Value& v) const {
    std::string out;
    rows::EncodeKeyComponent(column_.type, key_.collation, v, key_.direction,
                             &out);
    return out;
  }
  bool desc() const { return key_.direction == keys::Direction::kDesc; }

  // Interval of the non-NULL values (comparisons never match NULL).
  Interval NotNull() const {
    Interval i;
    if (desc()) {
      i.hi = {false, false, null_bytes_, ""};
    } else {
      i.lo = {false, false, null_bytes_, ""};
    }
    return i;
  }

  Interval Point(const Value& v, std::string label) const {
    Bound lo{false, true, v.is_null() ? null_bytes_ : Encode(v),
             std::move(label)};
    Bound hi = lo;
    return Interval{std::move(lo), std::move(hi)};
  }

  // `column op v`, v already coerced; in value order, mapped to byte order.
  Interval Compare(BinaryOp op, const Value& v,
                   const std::string& label) const {
    if (op == BinaryOp::kEq) return Point(v, label);
    const bool lower = op == BinaryOp::kGt || op == BinaryOp::kGe;
    const bool inclusive = op == BinaryOp::kGe || op == BinaryOp::kLe;
    Bound b{false, inclusive, Encode(v), label};
    Interval i = NotNull();
    if (lower != desc()) {
      i.lo = b;
    } else {
      i.hi = b;
    }
    return i;
  }

  // Keys whose component starts with `prefix` bytes.
  Interval Prefix(std::string prefix, const std::string& label) const {
    Interval i;
    i.lo = {false, true, prefix, label};
    i.hi = {false, false, keys::PrefixSuccessor(prefix), label};
    if (i.hi.bytes.empty()) i.hi.unbounded = true;
    return i;
  }

  // The constraint `term` puts on this column, if it can be read by keys.
  std::optional<Constraint> Of(const BoundExpr& t) const {
    auto on_column = [&](const BoundExpr& e) {
      return e.kind == Kind::kColumn && e.index == key_.column;
    };
    auto collation_ok = [&](const BoundExpr& e) {
      return column_.type != Type::kText ||
             (e.collation == key_.collation &&
              (!e.upper_collation || e.upper_collation == key_.collation));
    };
    const std::string& name = column_.name;
    if (t.kind == Kind::kBinary && on_column(*t.args[0]) &&
        t.args[1]->kind == Kind::kConst && collation_ok(t)) {
      BinaryOp op = t.binary_op;
      if (op == BinaryOp::kNe || op == BinaryOp::kAnd || op == BinaryOp::kOr) {
        return std::nullopt;
      }
      if (op != BinaryOp::kEq && op != BinaryOp::kLt && op != BinaryOp::kLe &&
          op != BinaryOp::kGt && op != BinaryOp::kGe) {
        return std::nullopt;
      }
      Value v = t.args[1]->value;
      Coerced c = CoerceForKey(column_, &op, &v, t.args[1]->affinity);
      if (c == Coerced::kUnusable) return std::nullopt;
      Constraint out;
      if (c == Coerced::kAlwaysFalse) return out;  // no intervals
      std::string label = Label(
          [&] { return name + parser::BinaryOpText(op) + v.ToSqlLiteral(); });
      out.intervals.push_back(Compare(op, v, label));
      out.selectivity = op == BinaryOp::kEq ? 0.05 : 0.3;
      return out;
    }
    if (t.kind == Kind::kBetween && !t.negated && on_column(*t.args[0]) &&
        t.args[1]->kind == Kind::kConst && t.args[2]->kind == Kind::kConst &&
        collation_ok(t)) {
      BinaryOp lo_op = BinaryOp::kGe, hi_op = BinaryOp::kLe;
      Value lo = t.args[1]->value, hi = t.args[2]->value;
      Coerced a = CoerceForKey(column_, &lo_op, &lo, t.args[1]->affinity);
      Coerced b = CoerceForKey(column_, &hi_op, &hi, t.args[2]->affinity);
      if (a == Coerced::kUnusable || b == Coerced::kUnusable) {
        return std::nullopt;
      }
      Constraint out;
      out.selectivity = 0.2;
      if (a == Coerced::kAlwaysFalse || b == Coerced::kAlwaysFalse) return out;
      out.intervals = Intersect(
          {Compare(lo_op, lo, Label([&] {
                     return name + (lo_op == BinaryOp::kGe ? ">=" : ">") +
                            lo.ToSqlLiteral();
                   }))},
          {Compare(hi_op, hi, Label([&] {
                     return name + (hi_op == BinaryOp::kLe ? "<=" : "<") +
                            hi.ToSqlLiteral();
                   }))});
      return out;
    }
    if (t.kind == Kind::kIn && !t.negated && on_column(*t.args[0]) &&
        collation_ok(t)) {
      Constraint out;
      std::vector<std::pair<std::string, Value>> points;
      for (size_t i = 1; i < t.args.size(); ++i) {
        if (t.args[i]->kind != Kind::kConst) return std::nullopt;
        BinaryOp op = BinaryOp::kEq;
        Value v = t.args[i]->value;
        // An IN item has no affinity of its own (EvalIn).
        Coerced c = CoerceForKey(column_, &op, &v, Affinity::kNone);
        if (c == Coerced::kUnusable) return std::nullopt;
        if (c == Coerced::kAlwaysFalse) continue;
        points.emplace_back(Encode(v), v);
      }
      std::sort(points.begin(), points.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      points.erase(std::unique(points.begin(), points.end(),
                               [](const auto& a, const auto& b) {
                                 return a.first == b.first;
                               }),
                   points.end());
      for (const auto& point : points) {
        const Value& v = point.second;
        out.intervals.push_back(
            Point(v, Label([&] { return name + "=" + v.ToSqlLiteral(); })));
      }
      out.selectivity =
          std::min(1.0, 0.05 * static_cast<double>(points.size()));
      return out;
    }
    if (t.kind == Kind::kIsNull && !t.negated && on_column(*t.args[0]) &&
        !column_.is_list) {
      Constraint out;
      out.intervals.push_back(
          Point(Value(), Label([&] { return name + " IS NULL"; })));
      out.selectivity = 0.05;
      return out;
    }
    if (t.kind == Kind::kIsNull && t.negated && on_column(*t.args[0]) &&
        !column_.is_list) {
      // Every key past the NULLs (before them, descending).
      Constraint out;
      Interval i = NotNull();
      (desc() ? i.hi : i.lo).label =
          Label([&] { return name + " IS NOT NULL"; });
      out.intervals.push_back(std::move(i));
      out.selectivity = 0.95;
      return out;
    }
    if (t.kind == Kind::kLike && !t.negated && on_column(*t.args[0]) &&
        column_.type == Type::kText && t.collation == key_.collation &&
        t.args[1]->kind == Kind::kConst &&
        t.args[1]->value.type() == Type::kText &&
        (t.args.size() < 3 || t.args[2]->kind == Kind::kConst)) {
      std::optional<char32_t> escape;
      if (t.args.size() > 2) {
        const Value& e = t.args[2]->value;
        if (e.type() != Type::kText || e.text().empty()) return std::nullopt;
        std::u32string u;
        // The escape must be one code point; decode it simply.
        const std::string& s = e.text();
        unsigned char c0 = static_cast<unsigned char>(s[0]);
        if (c0 < 0x80 && s.size() == 1) {
          escape = c0;
        } else {
          return std::nullopt;  // multi-byte escapes: filter only
        }
      }
      // Over-long patterns are left to the filter, which reports them.
      if (t.args[1]->value.text().size() > kMaxLikePatternBytes) {
        return std::nullopt;
      }
      std::string prefix;
      bool only_prefix = LikePrefix(t.args[1]->value.text(), escape, &prefix);
      if (prefix.empty()) return std::nullopt;
      std::string bytes;
      const Collation* coll = key_.collation;
      if (!coll || coll->is_binary()) {
        keys::EncodeTextPrefix(prefix, Type::kText, &bytes);
      } else {
        std::string lo, hi;
        coll->PrefixBounds(prefix, &lo, &hi);
        if (lo.empty()) return std::nullopt;
        keys::EncodeTextPrefix(lo, Type::kBlob, &bytes);
      }
      if (desc()) {
        for (char& ch : bytes) ch = static_cast<char>(~ch);
      }
      Constraint out;
      out.intervals.push_back(Prefix(
          bytes, Label([&] {
            return name + " LIKE " + Value::Text(prefix + "%").ToSqlLiteral();
          })));
      out.exact = only_prefix && coll && coll->prefix_bounds_exact();
      out.selectivity = 0.1;
      return out;
    }
    return std::nullopt;
  }

 private:
  template <typename Make>
  std::string Label(Make make) const {
    return labels_ ? make() : std::string();
  }

  const ColumnSchema& column_;
  KeyColumn key_;
  bool labels_;
  std::string null_bytes_;
};

}  // namespace

const std::vector<KeyColumn>& KeyColumnsOf(const TableSchema& table,
                                           const IndexSchema* index) {
  return index ? index->columns : table.primary_key;
}

int64_t KeyspaceId(const TableSchema& table, const IndexSchema* index) {
  return index ? index->id : table.id;
}

bool IndexProvidesColumn(const TableSchema& table, const IndexSchema* index,
                         int column) {
  if (index == nullptr) return true;
  const ColumnSchema& c = table.columns[column];
  for (int inc : index->include) {
    if (inc == column) return true;
  }
  auto decodable = [&](const Collation* coll) {
    return !c.is_list &&
           (c.type != Type::kText || coll == nullptr || coll->is_binary());
  };
  for (const KeyColumn& k : index->columns) {
    // A collated key holds a sort key; the entry keeps the text beside it.
    if (k.column == column &&
        (decodable(k.collation) || rows::KeepsOriginalText(table, k))) {
      return true;
    }
  }
  return PrimaryKeyProvidesColumn(table, column);
}

bool PrimaryKeyProvidesColumn(const TableSchema& table, int column) {
  // The key form decodes to the value unless it is a collation key: the
  // rule the encoder (and IndexOnly, reading the key) follows.
  for (const KeyColumn& k : table.primary_key) {
    if (k.column == column && !table.columns[column].is_list &&
        !rows::KeepsOriginalText(table, k)) {
      return true;
    }
  }
  return false;
}

AccessPath FullIndexPath(const TableSchema& table, const IndexSchema* index) {
  AccessPath path;
  path.index = index;
  std::string prefix = rows::IdPrefix(KeyspaceId(table, index));
  path.spans.push_back({prefix, keys::PrefixSuccessor(prefix), "full"});
  path.pk_sorted = index == nullptr;
  path.may_repeat_rows = index && index->multi_valued;
  return path;
}

// Whether some term compares `column` itself (the only terms a key column
// can use): a cheap test that spares deriving a path no term can shape.
bool SomeTermOn(int column, const std::vector<const BoundExpr*>& terms) {
  for (const BoundExpr* t : terms) {
    if (!t->args.empty() && t->args[0]->kind == Kind::kColumn &&
        t->args[0]->index == column) {
      return true;
    }
  }
  return false;
}

bool AppendPointKey(const TableSchema& table, const KeyColumn& key, Value v,
                    Affinity affinity, std::string* out) {
  const ColumnSchema& column = table.columns[key.column];
  if (column.is_list) return false;
  BinaryOp op = BinaryOp::kEq;
  if (CoerceForKey(column, &op, &v, affinity) != Coerced::kValue) return false;
  rows::EncodeKeyComponent(column.type, key.collation, v, key.direction, out);
  return true;
}

AccessPath DeriveAccessPath(const TableSchema& table, const IndexSchema* index,
                            std::vector<const BoundExpr*> inputs, bool labels) {
  AccessPath path;
  path.index = index;
  path.inputs = std::move(inputs);
  const std::vector<const BoundExpr*>& terms = path.inputs;
  const std::vector<KeyColumn>& columns = KeyColumnsOf(table, index);
  if (columns.empty() || !SomeTermOn(columns[0].column, terms)) return path;
  // Span prefixes built so far (equality columns), with their labels.
  std::vector<std::pair<std::string, std::string>> prefixes = {
      {rows::IdPrefix(KeyspaceId(table, index)), ""}};
  IntervalSet range;  // of the column after the equality prefix
  bool have_range = false;
  std::vector<int> pinned_lists;  // list columns fixed to a single element
  for (size_t k = 0; k < columns.size(); ++k) {
    PathBuilder builder(table, columns[k], labels);
    const bool is_list = table.columns[columns[k].column].is_list;
    std::optional<IntervalSet> set;
    std::vector<const BoundExpr*> used;
    bool exact = true;
    double selectivity = 1.0;
    for (const BoundExpr* t : terms) {
      std::optional<Constraint> c = builder.Of(*t);
      if (!c) continue;
      // Terms on a list column may be met by different elements: only one
      // of them can shape the scan.
      if (is_list && set) continue;
      set = set ? Intersect(*set, c->intervals) : std::move(c->intervals);
      used.push_back(t);
      exact = exact && c->exact;
      selectivity *= c->selectivity;
    }
    if (!set) break;
    path.consumed.insert(path.consumed.end(), used.begin(), used.end());
    path.exact = path.exact && exact;
    path.selectivity *= selectivity;
    path.used_columns = static_cast<int>(k) + 1;
    if (set->empty()) {
      path.empty = true;
      path.spans.clear();
      return path;
    }
    bool points = std::all_of(set->begin(), set->end(),
                              [](const Interval& i) { return i.IsPoint(); });
    if (points && prefixes.size() * set->size() <= kMaxSpans) {
      std::vector<std::pair<std::string, std::string>> next;
      for (const auto& [p, label] : prefixes) {
        for (const Interval& i : *set) {
          next.emplace_back(
              p + i.lo.bytes,
              labels ? label + (label.empty() ? "" : ", ") + i.Label()
                     : std::string());
        }
      }
      prefixes = std::move(next);
      path.prefix_points = prefixes.size();
      path.eq_columns = static_cast<int>(k) + 1;
      if (is_list && set->size() == 1) {
        pinned_lists.push_back(columns[k].column);
      }
      continue;
    }
    range = std::move(*set);
    have_range = true;
    path.range_selectivity = selectivity;
    break;
  }
  if (path.used_columns == 0) return path;  // nothing to read by key
  // A row owns one entry per element of each list column, so the scan can
  // meet it more than once unless every list column is pinned to one value.
  for (const KeyColumn& key : columns) {
    if (table.columns[key.column].is_list &&
        std::find(pinned_lists.begin(), pinned_lists.end(), key.column) ==
            pinned_lists.end()) {
      path.may_repeat_rows = true;
    }
  }
  for (const auto& [p, label] : prefixes) {
    if (!have_range) {
      path.spans.push_back({p, keys::PrefixSuccessor(p),
                            labels ? "[" + label + "]" : std::string()});
      continue;
    }
    for (const Interval& i : range) {
      KeySpan span;
      span.lo = i.lo.unbounded   ? p
                : i.lo.inclusive ? p + i.lo.bytes
                                 : keys::PrefixSuccessor(p + i.lo.bytes);
      span.hi = i.hi.unbounded   ? keys::PrefixSuccessor(p)
                : i.hi.inclusive ? keys::PrefixSuccessor(p + i.hi.bytes)
                                 : p + i.hi.bytes;
      if (labels) {
        std::string l = i.Label();
        span.label =
            "[" + label + (label.empty() || l.empty() ? "" : ", ") + l + "]";
      }
      if (span.lo < span.hi) path.spans.push_back(std::move(span));
    }
  }
  std::sort(path.spans.begin(), path.spans.end(),
            [](const KeySpan& a, const KeySpan& b) { return a.lo < b.lo; });
  if (path.spans.empty()) path.empty = true;
  path.pk_sorted =
      index == nullptr ||
      (path.eq_columns == static_cast<int>(columns.size()) && !have_range);
  return path;
}

}  // namespace levelql
