// ANALYZE, W2-W7 and W9-W11: the query workloads. Each draws its parameters
// from its own fixed-seed generator (so --workloads does not change them),
// prints and checks its plans, checks that every store returns the same
// rows, then times each store.
#include <algorithm>
#include <iostream>

#include "bench/bench.h"

namespace levelql::bench {

namespace {

Rng ParamsFor(const DataSpec& spec, const std::string& workload) {
  return Rng(spec.seed ^ Fnv64(workload));
}

// The number of query parameter sets: fewer for heavy queries.
size_t Queries(bool check_only, size_t timed, size_t checked) {
  return check_only ? checked : timed;
}

}  // namespace

void Bench::RunW2() {
  const std::string sql =
      "SELECT name FROM actions WHERE userid = ? ORDER BY stamp DESC "
      "LIMIT 10 OFFSET 20";
  Rng rng = ParamsFor(spec_, "W2");
  std::vector<ParamList> params;
  for (size_t i = 0; i < Queries(options_.check_only, 200, 50); ++i) {
    params.push_back({static_cast<int64_t>(1 + rng.Uniform(spec_.users))});
  }
  for (bool include : {false, true}) {
    std::string w = include ? "W2b" : "W2";
    if (include) {
      SwitchIndex("by_user", "by_user_name",
                  "CREATE INDEX by_user_name ON actions (userid, stamp DESC) "
                  "INCLUDE (name)",
                  "CREATE INDEX by_user_name ON actions (userid, stamp DESC, "
                  "name)");
    } else {
      SwitchIndex("by_user_name", "by_user", kCreateIndexes[0],
                  kCreateIndexes[0]);
    }
    RecordPlan(
        w, sql, params[0],
        include ? "by_user_name,IndexOnly,!Sort,!TopK" : "by_user,!Sort,!TopK");
    auto lq = lq_->Prepare(sql);
    auto sq = sq_->Prepare(sql);
    // The floor: the user's 30 entries, and (W2) a Get of the last 10 rows.
    // W2b's raw entries hold no name, so its floor only steps them (a lower
    // bound, with no rows to compare).
    auto raw_page = [this, include](const ParamList& p, RowConsumer* rows) {
      uint64_t sink = 0;
      raw_->UserPage(std::get<int64_t>(p[0]), 20, 10, !include, rows, &sink);
      sink_ ^= sink;
    };
    CheckResults(w, *lq, *sq, params, /*ordered=*/true,
                 include ? RawFn() : RawFn(raw_page));
    auto t = TimePerQuery(
        params.size(),
        {RunAll(*lq, params), RunAll(*sq, params), RunAll(raw_page, params)});
    const Measure& a = t[0];
    const Measure& b = t[1];
    if (include) {
      Outcome& o =
          AddLatency(w, "page 3 of a user, INCLUDE (name)", a, b, 0.5, t[2]);
      o.note =
          "levelql (userid, stamp DESC) INCLUDE (name) vs SQLite's covering "
          "(userid, stamp DESC, name)";
      SetFloor(o, t[2], b,
               "one seek and 30 entries stepped, no name read: a lower bound");
    } else {
      Outcome& o =
          AddLatency(w, "userid = ? ORDER BY stamp DESC LIMIT 10 OFFSET 20", a,
                     b, 1.0, t[2]);
      SetFloor(o, t[2], b, "one seek, 30 entries stepped, 10 Gets");
    }
  }
}

void Bench::RunW3() {
  const std::string sql =
      "SELECT id, name FROM actions WHERE category = ? AND country = ?";
  Rng rng = ParamsFor(spec_, "W3");
  std::vector<ParamList> params;
  for (size_t i = 0; i < Queries(options_.check_only, 50, 20); ++i) {
    params.push_back(
        {CategoryName(static_cast<int>(rng.Uniform(spec_.categories))),
         CountryName(static_cast<int>(rng.Uniform(spec_.countries)))});
  }
  RecordPlan("W3", sql, params[0], "Intersect,by_category,by_country");
  auto lq = lq_->Prepare(sql);
  auto sq = sq_->Prepare(sql);
  auto raw_and = [&](RawStore::Merge how) {
    return [this, how](const ParamList& p, RowConsumer* rows) {
      uint64_t sink = 0;
      raw_->And(std::get<std::string>(p[0]), std::get<std::string>(p[1]), how,
                rows, &sink);
    };
  };
  CheckResults("W3", *lq, *sq, params, false,
               raw_and(RawStore::Merge::kLeapfrog));
  bool ok = LastCheckOk();
  auto linear = raw_and(RawStore::Merge::kLinear);
  auto leapfrog = raw_and(RawStore::Merge::kLeapfrog);
  auto t = TimePerQuery(params.size(),
                        {RunAll(*lq, params), RunAll(*sq, params),
                         RunAll(linear, params), RunAll(leapfrog, params)});
  const Measure& a = t[0];
  const Measure& b = t[1];
  // The raw floor: the faster merge (by median) of the two.
  const Measure& raw = t[2].median <= t[3].median ? t[2] : t[3];
  const char* what = "category = ? AND country = ? (~100 rows)";
  AddLatency("W3", what, a, b, 0.5, raw);
  Outcome o = outcomes_.back();
  o.what = "the same vs a raw LevelDB merge";
  o.sqlite = Measure{};
  o.ratio = a.median / raw.median;
  o.goal = "<= 1.2x raw";
  o.goal_value = 1.2;
  o.note = "raw: best of a linear merge (" + t[2].text +
           ") and a leapfrog merge with Seek (" + t[3].text +
           "), plus a Get of each matching row";
  AddOutcome(std::move(o), ok);
}

void Bench::RunW4() {
  const std::string sql =
      "SELECT id, name FROM actions WHERE category = ? OR country = ?";
  Rng rng = ParamsFor(spec_, "W4");
  std::vector<ParamList> params;
  for (size_t i = 0; i < Queries(options_.check_only, 20, 10); ++i) {
    params.push_back(
        {CategoryName(static_cast<int>(rng.Uniform(spec_.categories))),
         CountryName(static_cast<int>(rng.Uniform(spec_.countries)))});
  }
  RecordPlan("W4", sql, params[0], "Union,by_category,by_country");
  auto lq = lq_->Prepare(sql);
  auto sq = sq_->Prepare(sql);
  auto raw_or = [this](const ParamList& p, RowConsumer* rows) {
    uint64_t sink = 0;
    raw_->Or(std::get<std::string>(p[0]), std::get<std::string>(p[1]), rows,
             &sink);
  };
  CheckResults("W4", *lq, *sq, params, false, raw_or);
  auto t = TimePerQuery(
      params.size(),
      {RunAll(*lq, params), RunAll(*sq, params), RunAll(raw_or, params)});
  AddLatency("W4", "category = ? OR country = ? (~25,000 rows)", t[0], t[1],
             1.0, t[2])
      .note =
      "raw: merge union of the two ranges, plus a Get of each row; "
      "levelql / raw = " +
      FormatRatio(t[0].median / t[2].median);
  SetFloor(outcomes_.back(), t[2], t[1],
           "the two ranges merged, a Get per row");

  // W4c (not in the issue): the same OR counted. Only the primary keys are
  // needed, so levelql answers from the union of the two index ranges and
  // fetches no row; the raw floor is the same merge without the Gets.
  const std::string count_sql =
      "SELECT COUNT(*) FROM actions WHERE category = ? OR country = ?";
  RecordPlan("W4c", count_sql, params[0], "Union,IndexOnly,!Fetch");
  auto lqc = lq_->Prepare(count_sql);
  auto sqc = sq_->Prepare(count_sql);
  auto raw_count = [this](const ParamList& p, RowConsumer* rows) {
    const int64_t n =
        raw_->CountOr(std::get<std::string>(p[0]), std::get<std::string>(p[1]));
    if (rows) rows->Add(Concat("i", std::to_string(n)));
  };
  CheckResults("W4c", *lqc, *sqc, params, false, raw_count);
  auto tc = TimePerQuery(
      params.size(),
      {RunAll(*lqc, params), RunAll(*sqc, params), RunAll(raw_count, params)});
  Outcome& o =
      AddLatency("W4c", "COUNT(*) WHERE category = ? OR country = ? (extra)",
                 tc[0], tc[1], 1.0, tc[2]);
  o.note =
      "not in the issue: only primary keys are needed, so levelql makes "
      "rows from the union's keys and fetches none";
  SetFloor(o, tc[2], tc[1], "the two ranges merged and counted");
}

void Bench::RunW5() {
  const std::string sql = "SELECT id, name FROM actions WHERE name LIKE ?";
  Rng rng = ParamsFor(spec_, "W5");
  std::vector<ParamList> params;
  for (size_t i = 0; i < Queries(options_.check_only, 100, 50); ++i) {
    std::string pattern;
    for (int k = 0; k < 3; ++k) {
      char c = static_cast<char>('a' + rng.Uniform(26));
      if (rng.Uniform(3) == 0) c = static_cast<char>(c - 32);  // any case
      pattern += c;
    }
    params.push_back({pattern + "%"});
  }
  // W5b (not in the issue): what closes the gap. levelql's nocase index
  // holds the folded name, so returning the name needs the row; INCLUDE
  // (name) keeps the original text in the entry. SQLite's index on name is
  // covering already (a NOCASE index stores the original text); it gets
  // the same index under the new name.
  for (bool include : {false, true}) {
    std::string w = include ? "W5b" : "W5";
    if (include) {
      SwitchIndex("by_name", "by_name_name",
                  "CREATE INDEX by_name_name ON actions (name COLLATE nocase) "
                  "INCLUDE (name)",
                  "CREATE INDEX by_name_name ON actions (name COLLATE nocase)");
    } else {
      SwitchIndex("by_name_name", "by_name", kCreateIndexes[3],
                  kCreateIndexes[3]);
    }
    RecordPlan(w, sql, params[0],
               include ? "by_name_name,IndexOnly" : "by_name,!TableScan");
    auto lq = lq_->Prepare(sql);
    auto sq = sq_->Prepare(sql);
    CheckResults(w, *lq, *sq, params, false);
    auto t =
        TimePerQuery(params.size(), {RunAll(*lq, params), RunAll(*sq, params)});
    if (include) {
      AddLatency(w, "the same with INCLUDE (name) (extra)", t[0], t[1], 1.0)
          .note =
          "not in the issue: levelql (name COLLATE nocase) INCLUDE (name) is "
          "index-only, like SQLite's NOCASE index";
    } else {
      AddLatency(w, "name LIKE 'abc%' (nocase), mixed-case patterns", t[0],
                 t[1], 1.0);
    }
  }
}

void Bench::RunW6(const StampIndex& index) {
  // Page 5,000 at 1M rows; smaller data sets use the page at 1/2 the table.
  const int64_t page = std::clamp<int64_t>(spec_.rows / 20, 2, 5000);
  const int64_t offset = (page - 1) * 10;
  const std::string label = "page " + std::to_string(page);
  const std::string w = Concat("W6", index.suffix);
  const double goal = index.ranked ? 0.2 : 1.0;
  const std::string what = label + " of ORDER BY stamp DESC by OFFSET" +
                           (index.ranked ? ", ranked index" : "");
  if (std::string why = UseStampIndex(index); !why.empty()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "<= %gx SQLite", goal);
    AddNotImplemented(w, what, buf, why);
    return;
  }
  const std::string by_offset =
      "SELECT id, name, stamp FROM actions ORDER BY stamp DESC "
      "LIMIT 10 OFFSET ?";
  std::vector<ParamList> params = {{offset}};
  RecordPlan(
      w, by_offset, params[0],
      Concat(index.name, index.ranked ? ",!Sort,!TopK" : ",Skip,!Sort,!TopK"));
  auto lq = lq_->Prepare(by_offset);
  auto sq = sq_->Prepare(by_offset);
  // The floor of a plain index: every entry before the page stepped, then
  // a Get of each of its rows. (A ranked index is not bound by it.)
  auto raw_page = [this](const ParamList& p, RowConsumer* rows) {
    uint64_t sink = 0;
    raw_->StampPage(std::get<int64_t>(p[0]), 10, rows, &sink);
    sink_ ^= sink;
  };
  CheckResults(w, *lq, *sq, params, /*ordered=*/true,
               index.ranked ? RawFn() : RawFn(raw_page));
  RowCollector expected;  // the page, as SQLite returns it
  sq->Run(params[0], &expected, nullptr);
  std::vector<std::function<void()>> runs = {RunAll(*lq, params),
                                             RunAll(*sq, params)};
  if (!index.ranked) {
    runs.push_back(RunAll(raw_page, params));
  }
  auto t = TimePerQuery(params.size(), runs);
  Outcome& added =
      AddLatency(w, what, t[0], t[1], goal, index.ranked ? Measure{} : t[2]);
  added.note = index.ranked
                   ? "levelql reads the ranked index, SQLite its plain by_stamp"
                   : "";
  if (index.ranked) return;  // W6t is about tokens, not the index kind
  SetFloor(
      added, t[2], t[1],
      "one seek, " + std::to_string(offset + 10) + " entries stepped, 10 Gets");

  // The same page by continuation token: the cost of page N given the
  // token of page N-1, against the cost of page 1. The statement's LIMIT
  // covers all N pages and each page reads 10 rows and stops, so this works
  // whether a resumed cursor counts LIMIT per page or for the whole query.
  Outcome o;
  o.workload = "W6t";
  o.what = label + " by continuation token";
  o.unit = "s/query";
  o.goal = "<= 2x page 1";
  o.goal_value = 2;
  const std::string by_token =
      "SELECT id, name, stamp FROM actions ORDER BY stamp DESC LIMIT ?";
  const Params limit{Value::Int(page * 10)};
  auto stmt = lq_->db()->Prepare(by_token);
  if (!stmt.ok()) Die("levelql: " + stmt.status().ToString());
  // Reads one page from `c` (a cursor or an error); returns the token after
  // its last row, or "" and sets *error.
  auto read_page = [](Result<std::unique_ptr<Cursor>> c, RowCollector* rows,
                      std::string* error) -> std::string {
    if (!c.ok()) {
      *error = c.status().ToString();
      return "";
    }
    std::string token;
    for (int i = 0; i < 10 && (*c)->Next(); ++i) {
      if (rows) {
        std::string r;
        for (size_t k = 0; k < (*c)->row().size(); ++k) {
          if (k) r += '\x1f';
          AppendValue((*c)->row()[k], &r);
        }
        rows->Add(std::move(r));
      }
      token = (*c)->ContinuationToken();
    }
    if (!(*c)->status().ok()) *error = (*c)->status().ToString();
    if (token.empty() && error->empty()) {
      *error = "empty ContinuationToken()";
    }
    return error->empty() ? token : "";
  };
  std::string error;
  std::string before_last = read_page((*stmt)->Query(limit), nullptr, &error);
  double walk = Now();
  for (int64_t p = 2; p < page && error.empty(); ++p) {
    before_last =
        read_page((*stmt)->Resume(before_last, limit), nullptr, &error);
  }
  walk = Now() - walk;
  RowCollector got;
  if (error.empty()) {
    read_page((*stmt)->Resume(before_last, limit), &got, &error);
  }
  if (!error.empty()) {
    o.levelql.text = "n/a";
    o.note = "tokens not implemented or failing: " + error;
    std::cout << "W6t: n/a - " << o.note << "\n";
    outcomes_.push_back(o);
    return;
  }
  ResultCheck check{"W6t", "", got.rows == expected.rows};
  check.detail = check.ok
                     ? "page " + std::to_string(page) +
                           " by token equals SQLite's OFFSET page (walked in " +
                           FormatSeconds(walk) + ")"
                     : "page " + std::to_string(page) +
                           " by token differs from SQLite's OFFSET page: " +
                           std::to_string(got.rows.size()) + " rows";
  std::cout << "W6t results: " << (check.ok ? "same" : "DIFFERENT") << " - "
            << check.detail << "\n";
  checks_.push_back(check);
  auto tt = TimePerQuery(1, {[&] {
                               std::string e;
                               read_page((*stmt)->Query(limit), nullptr, &e);
                             },
                             [&] {
                               std::string e;
                               read_page((*stmt)->Resume(before_last, limit),
                                         nullptr, &e);
                             }});
  o.levelql = tt[1];
  o.runs = options_.runs;
  o.ratio = tt[1].median / tt[0].median;
  o.note = "page 1: " + tt[0].text + " (" + MinMax("s", tt[0]) +
           "); each page reads 10 rows of LIMIT " + std::to_string(page * 10);
  AddOutcome(std::move(o), check.ok);
}

void Bench::RunW7(const StampIndex& index) {
  const std::string w = Concat("W7", index.suffix);
  const int64_t span = std::max<int64_t>(1, spec_.rows / 100);
  const std::string what =
      "COUNT(*) WHERE stamp BETWEEN (1% = " + FormatCount(span) + " keys)" +
      (index.ranked ? ", ranked index" : "");
  if (std::string why = UseStampIndex(index); !why.empty()) {
    AddNotImplemented(w, what, "<= 0.1x SQLite's time", why);
    return;
  }
  const std::string sql =
      "SELECT COUNT(*) FROM actions WHERE stamp BETWEEN ? AND ?";
  Rng rng = ParamsFor(spec_, "W7");
  std::vector<ParamList> params;
  for (size_t i = 0; i < Queries(options_.check_only, 50, 20); ++i) {
    int64_t first = 1 + static_cast<int64_t>(rng.Uniform(
                            static_cast<uint64_t>(spec_.rows - span + 1)));
    params.push_back({StampOf(spec_, first), StampOf(spec_, first + span - 1)});
  }
  PlanRecord& plan = RecordPlan(
      w, sql, params[0],
      Concat(index.name, index.ranked ? ",!Fetch" : ",IndexOnly,!Fetch"));
  bool index_only = plan.as_expected;
  auto lq = lq_->Prepare(sql);
  auto sq = sq_->Prepare(sql);
  auto raw_count = [this](const ParamList& p, RowConsumer* rows) {
    int64_t n =
        raw_->CountStamps(std::get<int64_t>(p[0]), std::get<int64_t>(p[1]));
    if (rows) rows->Add(Concat("i", std::to_string(n)));
  };
  CheckResults(w, *lq, *sq, params, false, raw_count);
  bool ok = LastCheckOk();
  auto t = TimePerQuery(
      params.size(),
      {RunAll(*lq, params), RunAll(*sq, params), RunAll(raw_count, params)});
  const double keys = static_cast<double>(span);
  if (index.ranked) {
    // A ranked index counts a range without visiting it: compared by time.
    Outcome& o = AddLatency(w, what, t[0], t[1], 0.1, t[2]);
    o.goal = "<= 0.1x SQLite's time";
    o.note = "levelql reads the ranked index, SQLite its plain by_stamp";
    return;
  }
  Outcome o;
  o.workload = w;
  o.what = what;
  o.unit = "keys/s";
  o.levelql = RateOf(t[0], keys, "keys/s");
  o.sqlite = RateOf(t[1], keys, "keys/s");
  o.raw = RateOf(t[2], keys, "keys/s");
  o.runs = options_.runs;
  o.ratio = o.levelql.median / o.raw.median;
  o.goal = ">= 0.8x raw, index-only";
  o.goal_value = 0.8;
  o.higher_is_better = true;
  o.note = std::string(index_only ? "index-only plan" : "NOT index-only") +
           "; per query: levelql " + t[0].text + ", SQLite " + t[1].text +
           " (" + FormatRatio(t[0].median / t[1].median) + "), raw " +
           t[2].text;
  Outcome& added = AddOutcome(std::move(o), ok);
  if (added.met == Outcome::Met::kYes && !index_only) {
    added.met = Outcome::Met::kNo;
  }
}

void Bench::RunW9() {
  const std::string sql = "SELECT * FROM actions WHERE id = ?";
  Rng rng = ParamsFor(spec_, "W9");
  std::vector<ParamList> params;
  for (size_t i = 0; i < Queries(options_.check_only, 2000, 200); ++i) {
    params.push_back({static_cast<int64_t>(
        1 + rng.Uniform(static_cast<uint64_t>(spec_.rows)))});
  }
  RecordPlan("W9", sql, params[0], "!TableScan,!Sort");
  auto lq = lq_->Prepare(sql);
  auto sq = sq_->Prepare(sql);
  auto raw_get = [this](const ParamList& p, RowConsumer* rows) {
    uint64_t sink = 0;
    raw_->GetRow(std::get<int64_t>(p[0]), rows, &sink);
  };
  CheckResults("W9", *lq, *sq, params, /*ordered=*/true, raw_get);
  auto t = TimePerQuery(
      params.size(), {RunAll(*lq, params), RunAll(*sq, params), [&] {
                        uint64_t sink = 0;
                        for (const ParamList& p : params) {
                          raw_->GetRow(std::get<int64_t>(p[0]), nullptr, &sink);
                        }
                        sink_ ^= sink;
                      }});
  AddLatency("W9", "point lookup by primary key, prepared (SELECT *)", t[0],
             t[1], 1.0, t[2])
      .note = std::to_string(params.size()) +
              " random ids per run, the same in every store; raw: one "
              "LevelDB Get and decoding the row";
}

void Bench::RunW10() { RunGroupCount("W10", "by_category"); }

// The same over a ranked index (levelql only; SQLite keeps a plain index of
// the same name): each category's run of entries is counted by the index's
// counts and skipped with one seek.
void Bench::RunW10r() {
  SwitchIndex("by_category", "by_category_ranked",
              "CREATE INDEX by_category_ranked ON actions (category) WITH "
              "(ranked)",
              "CREATE INDEX by_category_ranked ON actions (category)");
  RunGroupCount("W10r", "by_category_ranked");
  SwitchIndex("by_category_ranked", "by_category",
              "CREATE INDEX by_category ON actions (category)",
              "CREATE INDEX by_category ON actions (category)");
}

void Bench::RunGroupCount(const std::string& w, const std::string& index) {
  const std::string sql =
      "SELECT category, COUNT(*) FROM actions GROUP BY category";
  // One streaming pass over the index's entries, no fetch and no sort.
  RecordPlan(w, sql, {},
             index + ",IndexOnly,counting runs of keys,!Fetch,!Sort");
  std::vector<ParamList> params(Queries(options_.check_only, 3, 1));
  auto lq = lq_->Prepare(sql);
  auto sq = sq_->Prepare(sql);
  // The floor of a plain index: every entry stepped, runs counted.
  const bool ranked = w == "W10r";
  auto raw_count = [this](const ParamList&, RowConsumer* rows) {
    uint64_t sink = 0;
    raw_->CountCategories(rows, &sink);
    sink_ ^= sink;
  };
  CheckResults(w, *lq, *sq, params, /*ordered=*/true,
               ranked ? RawFn() : RawFn(raw_count));
  std::vector<std::function<void()>> runs = {RunAll(*lq, params),
                                             RunAll(*sq, params)};
  if (!ranked) {
    runs.push_back(RunAll(raw_count, params));
  }
  auto t = TimePerQuery(params.size(), runs);
  Outcome& o = AddLatency(w,
                          "COUNT(*) per category (GROUP BY over an index)" +
                              std::string(ranked ? ", ranked index" : ""),
                          t[0], t[1], 0.5, ranked ? Measure{} : t[2]);
  o.note = "both read an index on category in order" +
           std::string(ranked ? " (levelql's ranked)" : "");
  if (!ranked) SetFloor(o, t[2], t[1], "every entry stepped, runs counted");
}

// A users table (one row per user of actions), made on demand in both
// engines (untimed setup), for the join workload.
void Bench::EnsureUsers() {
  // Each store that lacks it (a reused data set may have it in one only).
  RowCollector found;
  sq_->Prepare("SELECT name FROM sqlite_master WHERE name = 'users'")
      ->Run({}, &found, nullptr);
  const bool in_levelql = LevelqlHasTable("users");
  const bool in_sqlite = !found.rows.empty();
  if (!raw_->HasUsers()) {
    raw_->AddUsers();  // untimed: the raw store only serves the floors
    SettleRaw();
  }
  if (in_levelql && in_sqlite) return;
  SetupStep step{
      "CREATE TABLE users; INSERT INTO users SELECT DISTINCT userid"};
  const std::string create =
      "CREATE TABLE users (userid INTEGER PRIMARY KEY, name TEXT NOT NULL)";
  const std::string fill =
      "INSERT INTO users SELECT DISTINCT userid, 'user ' || userid FROM "
      "actions";
  double t0 = Now();
  if (!in_levelql) {
    lq_->Exec(create);
    lq_->Exec(fill);
    step.levelql = Now() - t0 + SettleLevelql();
  }
  t0 = Now();
  if (!in_sqlite) {
    sq_->Exec(create);
    sq_->Exec(fill);
    sq_->Exec("ANALYZE users");
    step.sqlite = Now() - t0;
  }
  setup_.push_back(step);
}

void Bench::RunW11() {
  EnsureUsers();
  const std::string sql =
      "SELECT u.name, a.stamp FROM actions a JOIN users u ON u.userid = "
      "a.userid WHERE a.userid = ? ORDER BY a.stamp DESC LIMIT 10";
  Rng rng = ParamsFor(spec_, "W11");
  std::vector<ParamList> params;
  for (size_t i = 0; i < Queries(options_.check_only, 200, 50); ++i) {
    params.push_back({static_cast<int64_t>(
        1 + rng.Uniform(static_cast<uint64_t>(spec_.users)))});
  }
  // The user's key range reaches the users side too: one point read.
  RecordPlan("W11", sql, params[0], "MergeJoin,by_user,!TableScan");
  auto lq = lq_->Prepare(sql);
  auto sq = sq_->Prepare(sql);
  auto raw_join = [this](const ParamList& p, RowConsumer* rows) {
    uint64_t sink = 0;
    raw_->UserJoinPage(std::get<int64_t>(p[0]), 10, rows, &sink);
    sink_ ^= sink;
  };
  CheckResults("W11", *lq, *sq, params, /*ordered=*/true, raw_join);
  auto t = TimePerQuery(
      params.size(),
      {RunAll(*lq, params), RunAll(*sq, params), RunAll(raw_join, params)});
  Outcome& o = AddLatency(
      "W11", "join actions with users on userid, one user's newest 10", t[0],
      t[1], 1.0, t[2]);
  o.note = std::to_string(params.size()) +
           " random users per run; users holds one row per user";
  SetFloor(o, t[2], t[1], "a Get of the user, one seek, 10 entries stepped");
  RunW11s();
}

// A join whose one side is narrowed by a term the key does not carry: the
// users whose names start with "user NN" (about 111 of 10,000), with
// their actions. levelql reads the few users first and seeks the index on
// actions(userid) past each one (rule join_order); SQLite looks each
// user's actions up in the same index.
void Bench::RunW11s() {
  const std::string sql =
      "SELECT COUNT(*), MAX(a.stamp) FROM actions a JOIN users u ON "
      "u.userid = a.userid WHERE u.name LIKE ?";
  Rng rng = ParamsFor(spec_, "W11s");
  std::vector<ParamList> params;
  for (size_t i = 0; i < Queries(options_.check_only, 50, 10); ++i) {
    params.push_back({"user " + std::to_string(10 + rng.Uniform(90)) + "%"});
  }
  RecordPlan("W11s", sql, params[0], "MergeJoin,by_user");
  auto lq = lq_->Prepare(sql);
  auto sq = sq_->Prepare(sql);
  // The floor: every user read for the name test, then one seek per match
  // and its entries stepped.
  auto raw_join = [this](const ParamList& p, RowConsumer* rows) {
    std::string prefix = std::get<std::string>(p[0]);
    prefix.pop_back();  // the pattern's final %
    uint64_t sink = 0;
    raw_->CountUsersLike(prefix, rows, &sink);
    sink_ ^= sink;
  };
  CheckResults("W11s", *lq, *sq, params, /*ordered=*/true, raw_join);
  auto t = TimePerQuery(
      params.size(),
      {RunAll(*lq, params), RunAll(*sq, params), RunAll(raw_join, params)});
  Outcome& o =
      AddLatency("W11s", "join users named 'user NN%' (~1%) with their actions",
                 t[0], t[1], 1.0, t[2]);
  o.note = std::to_string(params.size()) +
           " name prefixes per run; COUNT(*) and MAX(stamp) of their actions";
  SetFloor(o, t[2], t[1],
           "every user read, a seek per match, its entries stepped");
}

void Bench::RunAnalyze() {
  // levelql analyzes one table; SQLite's ANALYZE covers every table, and
  // there is only `actions`. Both read the table and its 5 indexes.
  auto probe = lq_->TryExec("ANALYZE actions");
  if (probe.code() == Status::Code::kNotSupported) {
    AddNotImplemented("ANALYZE", "ANALYZE of the loaded table", "<= 1x SQLite",
                      probe.ToString());
    return;
  }
  auto t = TimePerQuery(1, {[this] { lq_->Exec("ANALYZE actions"); },
                            [this] { sq_->Exec("ANALYZE"); }});
  Outcome& o = AddLatency("ANALYZE",
                          "ANALYZE of the loaded table (" +
                              FormatCount(static_cast<double>(spec_.rows)) +
                              " rows, 5 indexes)",
                          t[0], t[1], 1.0);
  o.unit = "s";
  // levelql samples an index of Options::analyze_sample_bytes or more
  // (about 13% of its entries at 1M rows); SQLite's analysis_limit samples
  // too: the same share, for comparison (then everything again, so the
  // plans of later workloads rest on full statistics).
  const int64_t limit = spec_.rows * 13 / 100;
  sq_->Exec("PRAGMA analysis_limit = " + std::to_string(limit));
  auto limited = TimePerQuery(1, {[this] { sq_->Exec("ANALYZE"); }});
  sq_->Exec("PRAGMA analysis_limit = 0");
  sq_->Exec("ANALYZE");
  o.note =
      "levelql ANALYZE actions (indexes of 8 MiB or more sampled) vs SQLite "
      "ANALYZE (sqlite_stat1, no STAT4, every entry read), each statement "
      "timed to its end";
  if (limited[0].measured()) {
    o.note += "; SQLite with PRAGMA analysis_limit = " +
              FormatCount(static_cast<double>(limit)) +
              " (a like share): " + FormatSeconds(limited[0].median);
  }
}

}  // namespace levelql::bench
