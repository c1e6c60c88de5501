#include "tests/differential/oracles.h"

#include "tests/differential/generator.h"
#include "tests/differential/shrink.h"

namespace levelql::difftest {
namespace {

std::string Cols(const TableDef& t) {
  std::string out;
  for (const Column& c : t.cols) out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

bool Overflow(const Outcome& o) {
  return !o.ok && o.error.find("overflow") != std::string::npos;
}

// The table's rows split by the truth of p as a projected value:
// parts[0] TRUE, parts[1] FALSE, parts[2] NULL.
struct Partition {
  bool ok = true;
  std::string error;
  std::vector<ResultRow> parts[3];
};

Partition ReferencePartition(Engine& db, const TableDef& t, const Expr& p) {
  Partition out;
  Outcome o =
      db.Run("SELECT " + Cols(t) + ", " + RenderExpr(p, t, Dialect::kLevelql) +
                 " FROM " + t.name,
             true);
  if (!o.ok) {
    out.ok = false;
    out.error = o.error;
    return out;
  }
  for (ResultRow& r : o.rows) {
    int truth = CellTruth(r.back());
    r.pop_back();
    out.parts[truth == 1 ? 0 : truth == 0 ? 1 : 2].push_back(std::move(r));
  }
  return out;
}

Outcome RowsOutcome(std::vector<ResultRow> rows, int columns) {
  Outcome o;
  o.rows = std::move(rows);
  o.columns = columns;
  return o;
}

Outcome CountOutcome(size_t n) {
  Cell c;
  c.kind = Cell::Kind::kInt;
  c.i = static_cast<int64_t>(n);
  return RowsOutcome({{c}}, 1);
}

int64_t CountOf(const Outcome& o) {
  return o.ok && o.rows.size() == 1 && o.rows[0].size() == 1 &&
                 o.rows[0][0].kind == Cell::Kind::kInt
             ? o.rows[0][0].i
             : -1;
}

// Checks `SELECT cols ... WHERE w` and `SELECT count(*) ... WHERE w`
// against `expected`. Appends the records that pin the answers to *tail.
std::string CheckPart(Engine& db, const TableDef& t, const std::string& w,
                      const std::vector<ResultRow>& expected, bool* skipped,
                      std::string* tail) {
  std::string rows_sql =
      "SELECT " + Cols(t) + " FROM " + t.name + " WHERE " + w;
  std::string count_sql = "SELECT count(*) FROM " + t.name + " WHERE " + w;
  Outcome rows = db.Run(rows_sql, true);
  Outcome count = db.Run(count_sql, true);
  *tail += QueryRecord(
      rows_sql, RowsOutcome(expected, static_cast<int>(t.cols.size())), false);
  *tail += QueryRecord(count_sql, CountOutcome(expected.size()), false);
  for (const Outcome* o : {&rows, &count}) {
    if (o->ok) continue;
    if (Overflow(*o)) {
      *skipped = true;
      return "";
    }
    return "WHERE " + w + " failed: " + o->error;
  }
  std::string d = CompareRows(expected, rows.rows, false);
  if (!d.empty()) return "WHERE " + w + ": " + d;
  if (CountOf(count) != static_cast<int64_t>(expected.size())) {
    return "count(*) WHERE " + w + " = " + std::to_string(CountOf(count)) +
           ", expected " + std::to_string(expected.size());
  }
  return "";
}

// MIN, MAX (and for integers SUM) of column `col` over `rows`.
ResultRow Aggregates(const std::vector<ResultRow>& rows, size_t col,
                     bool with_sum) {
  Cell mn, mx, sum;
  bool any = false;
  int64_t total = 0;
  // Numeric order without rounding large integers through double.
  auto less = [](const Cell& a, const Cell& b) {
    if (a.kind == Cell::Kind::kInt && b.kind == Cell::Kind::kInt) {
      return a.i < b.i;
    }
    double x = a.kind == Cell::Kind::kInt ? static_cast<double>(a.i) : a.d;
    double y = b.kind == Cell::Kind::kInt ? static_cast<double>(b.i) : b.d;
    return x < y;
  };
  for (const ResultRow& r : rows) {
    const Cell& c = r[col];
    if (c.kind == Cell::Kind::kNull) continue;
    if (!any || less(c, mn)) mn = c;
    if (!any || less(mx, c)) mx = c;
    total += c.i;
    any = true;
  }
  if (any) {
    sum.kind = Cell::Kind::kInt;
    sum.i = total;
  }
  ResultRow out = {mn, mx};
  if (with_sum) out.push_back(sum);
  return out;
}

}  // namespace

OracleResult NoRec(Engine& db, const TableDef& t, const Expr& p) {
  OracleResult r;
  Partition ref = ReferencePartition(db, t, p);
  if (!ref.ok) {
    r.skipped = true;
    return r;
  }
  r.diff = CheckPart(db, t, RenderExpr(p, t, Dialect::kLevelql), ref.parts[0],
                     &r.skipped, &r.tail);
  return r;
}

OracleResult Tlp(Engine& db, const TableDef& t, const Expr& p) {
  OracleResult r;
  Partition ref = ReferencePartition(db, t, p);
  if (!ref.ok) {
    r.skipped = true;
    return r;
  }
  std::string ps = RenderExpr(p, t, Dialect::kLevelql);
  const std::string where[3] = {ps, "(NOT " + ps + ")", "(" + ps + " IS NULL)"};
  for (int k = 0; k < 3 && r.diff.empty() && !r.skipped; ++k) {
    r.diff = CheckPart(db, t, where[k], ref.parts[k], &r.skipped, &r.tail);
  }
  if (!r.diff.empty() || r.skipped) return r;
  // Aggregates over each part, for every numeric column.
  for (size_t c = 0; c < t.cols.size(); ++c) {
    if (t.cols[c].type == ColType::kText) continue;
    // SUM only where no part overflows (an error in levelql by design).
    bool with_sum = t.cols[c].type == ColType::kInt;
    for (int k = 0; k < 3 && with_sum; ++k) {
      int64_t total = 0;
      for (const ResultRow& row : ref.parts[k]) {
        if (row[c].kind == Cell::Kind::kInt &&
            __builtin_add_overflow(total, row[c].i, &total)) {
          with_sum = false;
          break;
        }
      }
    }
    const std::string& name = t.cols[c].name;
    std::string aggs = "min(" + name + "), max(" + name + ")" +
                       (with_sum ? ", sum(" + name + ")" : "");
    for (int k = 0; k < 3; ++k) {
      std::string sql =
          "SELECT " + aggs + " FROM " + t.name + " WHERE " + where[k];
      Outcome got = db.Run(sql, true);
      ResultRow want = Aggregates(ref.parts[k], c, with_sum);
      if (!got.ok) {
        if (Overflow(got)) {
          r.skipped = true;
          return r;
        }
        r.diff = sql + " failed: " + got.error;
      } else {
        r.diff = CompareRows({want}, got.rows, false);
        if (!r.diff.empty()) r.diff = sql + ": " + r.diff;
      }
      if (!r.diff.empty()) {
        r.tail +=
            QueryRecord(sql, RowsOutcome({want}, with_sum ? 3 : 2), false);
        return r;
      }
    }
  }
  r.tail.clear();
  return r;
}

const std::vector<std::string>& RuleNames() {
  static const std::vector<std::string> names = {
      "fold_constants", "push_not",   "contradiction", "pk_range",
      "index_scan",     "intersect",  "union",         "ordered_scan",
      "topk",           "index_only", "offset_skip"};
  return names;
}

OracleResult PlanEquivalence(LevelqlEngine& db, const TableDef& t,
                             const Query& q, PlanTeeth* teeth) {
  OracleResult r;
  std::string sql = RenderQuery(q, t, Dialect::kLevelql);
  auto explain = [&]() {
    auto plan = db.db().Explain(sql);
    return plan.ok() ? *plan : plan.status().ToString();
  };
  db.Run("PRAGMA disable_rules = 'all'", false);
  Outcome ref = db.Run(sql, true);
  std::string plan_off = explain();
  std::vector<std::string> configs = {""};
  for (const std::string& rule : RuleNames()) configs.push_back(rule);
  configs.push_back("sort");
  std::string plan_on;
  ++teeth->checks;
  const std::string base =
      "PRAGMA disable_rules = '" + WithOpenBugRulesOff("") + "'";
  for (const std::string& cfg : configs) {
    std::string pragma = cfg == "sort" ? "PRAGMA sort_memory_bytes = 1024"
                                       : "PRAGMA disable_rules = '" +
                                             WithOpenBugRulesOff(cfg) + "'";
    db.Run(cfg == "sort" ? base : pragma, false);
    if (cfg == "sort") db.Run(pragma, false);
    Outcome got = db.Run(sql, true);
    if (cfg == "sort") db.Run("PRAGMA sort_memory_bytes = 67108864", false);
    if (cfg.empty()) {
      plan_on = explain();
      if (plan_on != plan_off) ++teeth->plan_changed["all"];
    } else if (cfg != "sort" && explain() != plan_on) {
      ++teeth->plan_changed[cfg];
    }
    if (!ref.ok || !got.ok) {
      if (ref.ok == got.ok) continue;
      if (Overflow(ref) || Overflow(got)) {
        r.skipped = true;
        continue;
      }
      r.diff = "[" +
               (cfg.empty() ? std::string("all rules on") : cfg + " off") +
               "] " +
               (ref.ok ? "failed: " + got.error
                       : "succeeded, all rules off failed: " + ref.error);
    } else {
      r.diff = CompareRows(ref.rows, got.rows, q.ordered);
      if (!r.diff.empty()) {
        r.diff = "[" +
                 (cfg.empty() ? std::string("all rules on") : cfg + " off") +
                 "] " + r.diff;
      }
    }
    if (!r.diff.empty()) {
      if (cfg == "sort") r.tail = "statement ok\n" + base + "\n\n";
      if (cfg != "sort" || base != "PRAGMA disable_rules = ''") {
        r.tail += "statement ok\n" + pragma + "\n\n";
      }
      r.tail += QueryRecord(sql, ref, q.ordered);
      break;
    }
  }
  db.Run(base, false);
  return r;
}

}  // namespace levelql::difftest
