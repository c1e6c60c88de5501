// NoREC, TLP, plan equivalence and continuation replay (oracles.h).
#include "tests/differential/oracles.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

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

// Handles a reference scan that failed: overflow skips the check (the
// filtered queries may never evaluate p on the row that overflows), any
// other error fails it.
void ReferenceFailed(const Partition& ref, OracleResult* r) {
  if (ref.error.find("overflow") != std::string::npos) {
    r->skipped = true;
  } else {
    r->diff = "the reference scan failed: " + ref.error;
    r->reference_failed = true;
  }
}

}  // namespace

OracleResult NoRec(Engine& db, const TableDef& t, const Expr& p) {
  OracleResult r;
  Partition ref = ReferencePartition(db, t, p);
  if (!ref.ok) {
    ReferenceFailed(ref, &r);
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
    ReferenceFailed(ref, &r);
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
    if (t.cols[c].type == ColType::kText || t.cols[c].list) continue;
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
  // The engine's own list (PRAGMA disable_rules = 'all' answers with every
  // rule's name), so that a new rule is switched off in turn too.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    auto db = LevelqlEngine::Open(":memory:");
    Outcome o = db->Run("PRAGMA disable_rules = 'all'", true);
    std::string list = o.ok && o.rows.size() == 1 ? o.rows[0][0].s : "";
    for (size_t pos = 0; pos < list.size();) {
      size_t comma = std::min(list.find(',', pos), list.size());
      out.push_back(list.substr(pos, comma - pos));
      pos = comma + 1;
    }
    if (out.size() < 5) {
      std::fprintf(stderr, "cannot read the planner rules: %s\n",
                   o.error.c_str());
      std::abort();
    }
    return out;
  }();
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

std::string Midway::ToString() const {
  switch (kind) {
    case Kind::kNone:
      return "";
    case Kind::kAnalyze:
      return "ANALYZE";
    case Kind::kRules:
      return "PRAGMA disable_rules = '" + rules + "'";
  }
  return "";
}

namespace {

// One paged read of `sql`: pages of `page_size` rows, each after the first
// from Statement::Resume(token of the previous page's last row); `midway`
// runs after the first page. `total` is the unpaged row count (an empty
// token is only allowed once that many rows were read).
struct PagedRead {
  Outcome out;
  bool refused = false;  // Resume refused because the plan changed
};

bool SameRow(const ResultRow& a, const ResultRow& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != b[i].kind || a[i].i != b[i].i || a[i].s != b[i].s ||
        (a[i].d != b[i].d && !(a[i].d != a[i].d && b[i].d != b[i].d))) {
      return false;
    }
  }
  return true;
}

// Checks Cursor::PreviousPageToken on `cur`, which starts after the rows
// read so far: with nothing written meanwhile, its page is the last
// page_size of them, in the same order. Empty when it is.
std::string CheckPreviousPage(Statement& stmt, Cursor& cur,
                              const std::vector<ResultRow>& read,
                              size_t page_size) {
  auto back = cur.PreviousPageToken(static_cast<int64_t>(page_size));
  if (!back.ok()) return "PreviousPageToken: " + back.status().ToString();
  auto again = stmt.Resume(*back);
  if (!again.ok()) return "Resume(previous page): " + again.status().ToString();
  const size_t first = read.size() - page_size;
  for (size_t i = 0; i < page_size; ++i) {
    if (!(*again)->Next()) {
      return "the previous page of the rows after row " +
             std::to_string(read.size()) + " ended after " + std::to_string(i) +
             " rows " + (*again)->status().ToString();
    }
    ResultRow row;
    for (const Value& v : (*again)->row()) row.push_back(Cell::FromValue(v));
    if (!SameRow(row, read[first + i])) {
      return "the previous page of the rows after row " +
             std::to_string(read.size()) + " differs at its row " +
             std::to_string(i + 1);
    }
  }
  return {};
}

PagedRead ReadPaged(LevelqlEngine& engine, const std::string& sql,
                    size_t page_size, const Midway& midway, size_t total) {
  PagedRead p;
  Database& db = engine.db();
  auto fail = [&](const std::string& what) {
    p.out.ok = false;
    p.out.error = what;
    return p;
  };
  auto stmt = db.Prepare(sql);
  if (!stmt.ok()) return fail(stmt.status().ToString());
  auto cur = (*stmt)->Query();
  if (!cur.ok()) return fail(cur.status().ToString());
  for (int page = 0; page < 100000; ++page) {
    for (size_t i = 0; i < page_size; ++i) {
      if (!(*cur)->Next()) {
        if (!(*cur)->status().ok()) return fail((*cur)->status().ToString());
        return p;
      }
      ResultRow row;
      for (const Value& v : (*cur)->row()) row.push_back(Cell::FromValue(v));
      p.out.rows.push_back(std::move(row));
    }
    std::string token = (*cur)->ContinuationToken();
    if (page == 0 && midway.kind != Midway::Kind::kNone) {
      Outcome changed = engine.Run(
          midway.kind == Midway::Kind::kAnalyze ? "ANALYZE" : midway.ToString(),
          false);
      if (!changed.ok) return fail(midway.ToString() + ": " + changed.error);
    }
    if (token.empty()) {
      if (p.out.rows.size() >= total) return p;
      return fail("empty continuation token after " +
                  std::to_string(p.out.rows.size()) + " of " +
                  std::to_string(total) + " rows");
    }
    auto next = (*stmt)->Resume(token);
    if (!next.ok()) {
      const Status& s = next.status();
      if (midway.kind != Midway::Kind::kNone &&
          s.code() == Status::Code::kInvalidArgument &&
          s.message().find(kPlanChangedMessage) != std::string::npos) {
        p.refused = true;
        return p;
      }
      return fail("Resume after " + std::to_string(p.out.rows.size()) +
                  " rows: " + s.ToString());
    }
    cur = std::move(next);
    // The page before the new cursor's first row is the page just read
    // (a few pages of each query: the backward read costs a page).
    if (midway.kind == Midway::Kind::kNone && (page < 3 || page % 17 == 0)) {
      std::string wrong =
          CheckPreviousPage(**stmt, **cur, p.out.rows, page_size);
      if (!wrong.empty()) return fail(wrong);
    }
  }
  return fail("more than 100000 pages");
}

}  // namespace

OracleResult ContinuationReplay(LevelqlEngine& db, const TableDef& t,
                                const Query& q, const Midway& midway) {
  OracleResult r;
  const std::string base =
      "PRAGMA disable_rules = '" + WithOpenBugRulesOff("") + "'";
  std::string sql = RenderQuery(q, t, Dialect::kLevelql);
  Outcome whole = db.Run(sql, true);
  size_t n = whole.rows.size();
  // Pages of 1-50 rows, and at most ~60 pages: a resumed sort sorts the
  // whole answer again, so a large answer a row at a time is quadratic.
  size_t page = n <= 60 ? 1 : std::max(1 + (n * 7919) % 50, (n + 59) / 60);
  PagedRead paged = ReadPaged(db, sql, page, midway, n);
  db.Run(base, false);
  if (!whole.ok || !paged.out.ok) {
    // Overflow is an error by design; a plan changed midway may meet it
    // where the unpaged plan does not.
    bool overflow = Overflow(whole) || Overflow(paged.out);
    if (overflow && midway.kind != Midway::Kind::kNone) {
      r.skipped = true;
    } else if (!whole.ok && paged.out.ok) {
      r.diff = "paging succeeded, the unpaged query failed: " + whole.error;
    } else if (whole.ok) {
      r.diff = "paging failed: " + paged.out.error;
    }
  } else if (paged.refused) {
    r.refused = true;
  } else {
    r.diff = CompareRows(whole.rows, paged.out.rows, q.ordered);
  }
  if (!r.diff.empty()) {
    if (midway.kind != Midway::Kind::kNone) {
      r.diff = "[" + midway.ToString() + " after the first page] " + r.diff;
    }
    // The expected answer is the reference plan's.
    db.Run("PRAGMA disable_rules = 'all'", false);
    r.tail = QueryRecord(sql, db.Run(sql, true), q.ordered);
    db.Run(base, false);
  }
  return r;
}

}  // namespace levelql::difftest

namespace levelql::difftest {
namespace {

// A value near `v` for another run of a prepared statement: of the same
// type mostly (a reused plan must derive its ranges again), now and then
// NULL or another literal of the query (another shape: planned afresh).
Value Variant(const Value& v, const std::vector<Value>& others, Rng& rng) {
  const int r = static_cast<int>(rng.Uniform(100));
  if (r < 40) return v;
  if (r < 55) return rng.Pick(others);
  if (r < 60) return Value::Null();
  switch (v.type()) {
    case Type::kInteger: {
      const int64_t i = v.int_value();
      if (i > INT64_MIN + 4 && i < INT64_MAX - 4) {
        return Value::Int(i + rng.Range(-3, 3));
      }
      return v;
    }
    case Type::kReal:
      return Value::Real(v.real_value() +
                         static_cast<double>(rng.Range(-4, 4)) / 2);
    case Type::kText: {
      std::string s = v.text();
      if (rng.OneIn(3) && !s.empty()) {
        s.resize(rng.Uniform(s.size()));
      } else if (rng.OneIn(2)) {
        s += rng.OneIn(2) ? "a" : "%";
      } else if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') {
        s[0] = static_cast<char>(s[0] - 'a' + 'A');
      }
      return Value::Text(s);
    }
    default:
      return v;
  }
}

// `e` with its literals replaced by `values` from *next on, in rendering
// order.
void Substitute(Expr* e, const std::vector<Value>& values, size_t* next) {
  if (e->kind == Expr::Kind::kLiteral) {
    e->literal = values[(*next)++];
    return;
  }
  for (Expr& k : e->kids) Substitute(&k, values, next);
}

}  // namespace

OracleResult PlanReuse(LevelqlEngine& db, const TableDef& t, const Query& q,
                       uint64_t variant_seed) {
  OracleResult r;
  std::vector<Value> first;
  const std::string sql = RenderQuery(q, t, Dialect::kLevelql, &first);
  if (first.empty()) return r;  // nothing varies
  const std::string base =
      "PRAGMA disable_rules = '" + WithOpenBugRulesOff("") + "'";
  const std::string fresh =
      "PRAGMA disable_rules = '" + WithOpenBugRulesOff("plan_cache") + "'";
  db.Run(base, false);
  auto stmt = db.db().Prepare(sql);
  if (!stmt.ok()) return r;  // a `?` where the dialect wants a literal
  Rng rng(variant_seed);
  for (int run = 0; run < 8; ++run) {
    Params params;
    for (const Value& v : first) {
      params.positional.push_back(run == 0 ? v : Variant(v, first, rng));
    }
    db.Run(fresh, false);
    Outcome want = CursorOutcome(db.db().Query(sql, params));
    db.Run(base, false);
    Outcome got = CursorOutcome((*stmt)->Query(params));
    std::string diff;
    if (!want.ok || !got.ok) {
      if (want.ok == got.ok) continue;
      if (Overflow(want) || Overflow(got)) {
        r.skipped = true;
        continue;
      }
      diff = want.ok ? "failed: " + got.error
                     : "succeeded, planned afresh failed: " + want.error;
    } else {
      diff = CompareRows(want.rows, got.rows, q.ordered);
    }
    if (diff.empty()) continue;
    std::string values;
    for (const Value& v : params.positional) {
      values += (values.empty() ? "" : ", ") + RenderLiteral(v);
    }
    r.diff = "[run " + std::to_string(run + 1) + " of the prepared " + sql +
             " with (" + values + ")] " + diff;
    // The answer for those values, pinned with them as literals.
    Query literal = q;
    size_t next = 0;
    if (literal.join_on)
      Substitute(&*literal.join_on, params.positional, &next);
    if (literal.where) Substitute(&*literal.where, params.positional, &next);
    r.tail = QueryRecord(RenderQuery(literal, t, Dialect::kLevelql), want,
                         q.ordered);
    break;
  }
  db.Run(base, false);
  return r;
}

}  // namespace levelql::difftest
