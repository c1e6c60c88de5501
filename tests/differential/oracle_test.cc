// Oracles that need no second engine: NoREC, TLP, plan equivalence (every
// rule off in turn, all off, a tiny sort budget, and each index alone), and
// continuation replay. Failures are shrunk and written to
// tests/sql/regressions/ with the answer the oracle expected (budgets and
// seeds: test_env.h).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>

#include "tests/differential/generator.h"
#include "tests/differential/oracles.h"
#include "tests/differential/shrink.h"
#include "tests/differential/test_env.h"

namespace levelql::difftest {
namespace {

// These oracles compare levelql with itself, so the generator may use all
// of the dialect, including what SQLite answers differently.
GenConfig OracleConfig(uint64_t seed) {
  GenConfig c;
  c.column_unique = true;
  c.nocase_through_expressions = true;
  c.cast_text_to_integer = true;
  uint64_t r = (seed * 0x9e3779b97f4a7c15ULL) >> 60;
  c.max_insert_rows = r < 10 ? 12 : r < 14 ? 40 : 150;
  return c;
}

// Evaluates an oracle on the last step of a Case, given a database that
// holds the state before it.
using Check = std::function<OracleResult(LevelqlEngine&, const Case&)>;

// A fresh in-memory database with the rules of open bugs off.
std::unique_ptr<LevelqlEngine> OpenDb() {
  auto db = LevelqlEngine::Open(":memory:");
  db->Run("PRAGMA disable_rules = '" + WithOpenBugRulesOff("") + "'", false);
  return db;
}

std::unique_ptr<LevelqlEngine> Replay(const Case& c) {
  auto db = OpenDb();
  for (size_t i = 0; i + 1 < c.steps.size(); ++i) {
    const Step& s = c.steps[i];
    db->Run(RenderStep(s, c.tables, Dialect::kLevelql),
            s.kind == Step::Kind::kQuery);
  }
  return db;
}

struct Stats {
  int64_t checks = 0;
  int64_t skipped = 0;
  int64_t failures = 0;
};

// Shrinks a failing case, writes its regression file and reports it.
void Report(const char* oracle, uint64_t seed, const Case& failing,
            const OracleResult& first, const Check& check) {
  const TableDef& t = failing.tables[failing.steps.back().table];
  std::string sql =
      RenderStep(failing.steps.back(), failing.tables, Dialect::kLevelql);
  std::printf(
      "\n%s MISMATCH (LEVELQL_SEED=%llu, %zu steps)\n  %s\n  %s\n"
      "  shrinking...\n",
      oracle, static_cast<unsigned long long>(seed), failing.steps.size(),
      sql.c_str(), first.diff.c_str());
  std::fflush(stdout);
  ShrinkOracle so;
  so.fails = [&](const Case& c) {
    auto db = Replay(c);
    OracleResult r = check(*db, c);
    return !r.skipped && !r.diff.empty();
  };
  so.rows_before_last = [](const Case& c) {
    auto db = LevelqlEngine::Open(":memory:");
    db->Run("PRAGMA disable_rules = 'all'", false);
    return RowsBeforeLast(c, *db, Dialect::kLevelql);
  };
  Case small = Shrink(failing, so);
  auto db = Replay(small);
  OracleResult r = check(*db, small);
  std::string header = std::string("# ") + oracle +
                       " regression found by tests/differential (replay the "
                       "run with\n# LEVELQL_SEED=" +
                       std::to_string(seed) +
                       "). Expected answers come from the oracle.\n# " + r.diff;
  if (std::string(oracle) == "continuation") {
    header +=
        "\n# Paging one row at a time differs: run with levelql-slt --page.";
  }
  for (char& ch : header) {
    if (ch == '\r') ch = ' ';
  }
  std::string body = ToSltWithTail(small, header, &r.tail);
  std::string path = WriteRegressionText(body, header.size(), RegressionDir());
  std::printf("  shrunk to %zu steps -> %s\n%s\n", small.steps.size(),
              path.c_str(), body.c_str());
  std::fflush(stdout);
  ADD_FAILURE() << oracle << " failed (LEVELQL_SEED=" << seed
                << "): " << first.diff << "\n  " << sql << "\n  table "
                << t.name << "\n  regression: " << path;
}

// One database for the oracles: a table, indexes, data, some writes.
class OracleRound {
 public:
  explicit OracleRound(uint64_t seed)
      : seed_(seed), gen_(seed, OracleConfig(seed)), db_(OpenDb()) {
    Rng& rng = gen_.rng();
    history_.tables.push_back(gen_.RandomTable("t0"));
    Step create;
    create.kind = Step::Kind::kCreateTable;
    Apply(create);
    for (int i = rng.Range(0, 3); i > 0; --i) Apply(NewIndex());
    for (int i = rng.Range(1, 20); i > 0; --i) Apply(gen_.RandomInsert(0));
    for (int i = rng.Range(0, 2); i > 0; --i) Apply(NewIndex());
    for (int i = rng.Range(0, 10); i > 0; --i) Apply(gen_.RandomWrite(0));
  }

  uint64_t seed() const { return seed_; }
  Generator& gen() { return gen_; }
  LevelqlEngine& db() { return *db_; }
  const TableDef& table() const { return history_.tables[0]; }
  const Case& history() const { return history_; }

  void Apply(const Step& s) {
    db_->Run(RenderStep(s, history_.tables, Dialect::kLevelql), false);
    for (auto& [name, sibling] : siblings_) {
      if (!IsOtherIndex(s, name)) {
        sibling.second->Run(RenderStep(s, history_.tables, Dialect::kLevelql),
                            false);
        sibling.first.steps.push_back(s);
      }
    }
    history_.steps.push_back(s);
  }

  // A copy of the database per index that holds only that index (and one
  // with none): the planner's only choice there is that index.
  void MakeSiblings() {
    std::vector<std::string> names;
    for (const Step& s : history_.steps) {
      if (s.kind == Step::Kind::kCreateIndex) names.push_back(s.index.name);
    }
    names.push_back("");
    for (const std::string& name : names) {
      Case c;
      c.tables = history_.tables;
      auto db = OpenDb();
      for (const Step& s : history_.steps) {
        if (IsOtherIndex(s, name)) continue;
        db->Run(RenderStep(s, c.tables, Dialect::kLevelql), false);
        c.steps.push_back(s);
      }
      siblings_[name] = {std::move(c), std::move(db)};
    }
  }

  // A sibling (its history and database), chosen at random.
  std::pair<Case, std::unique_ptr<LevelqlEngine>>* RandomSibling() {
    if (siblings_.empty()) return nullptr;
    auto it = siblings_.begin();
    std::advance(it, gen_.rng().Uniform(siblings_.size()));
    return &it->second;
  }

  Case With(const Case& history, const Step& last) const {
    Case c = history;
    c.steps.push_back(last);
    return c;
  }

 private:
  static bool IsOtherIndex(const Step& s, const std::string& keep) {
    return (s.kind == Step::Kind::kCreateIndex ||
            s.kind == Step::Kind::kDropIndex) &&
           s.index.name != keep;
  }

  Step NewIndex() {
    Step s;
    s.kind = Step::Kind::kCreateIndex;
    s.index = gen_.RandomIndex(0, "i" + std::to_string(next_index_++));
    return s;
  }

  uint64_t seed_;
  Generator gen_;
  std::unique_ptr<LevelqlEngine> db_;
  Case history_;
  int next_index_ = 0;
  std::map<std::string, std::pair<Case, std::unique_ptr<LevelqlEngine>>>
      siblings_;
};

Step QueryStep(Query q) {
  Step s;
  s.kind = Step::Kind::kQuery;
  s.table = q.table;
  s.query = std::move(q);
  return s;
}

// Runs `oracle` over random predicates until the budget is spent.
void RunPredicateOracle(const char* name,
                        OracleResult (*oracle)(Engine&, const TableDef&,
                                               const Expr&)) {
  const int64_t budget = EnvInt("LEVELQL_ORACLE_CHECKS", 5000);
  const int64_t max_failures = EnvInt("LEVELQL_MAX_FAILURES", 5);
  const uint64_t base = BaseSeed(name);
  auto start = std::chrono::steady_clock::now();
  Stats stats;
  Check check = [oracle](LevelqlEngine& db, const Case& c) {
    const Step& last = c.steps.back();
    return oracle(db, c.tables[last.table], *last.query.where);
  };
  for (uint64_t r = 0; stats.checks < budget && stats.failures < max_failures;
       ++r) {
    OracleRound round(base + r);
    int64_t n = 40 + static_cast<int64_t>((base + r) % 120);
    for (int64_t i = 0; i < n && stats.checks < budget; ++i) {
      if (round.gen().rng().OneIn(10)) round.Apply(round.gen().RandomWrite(0));
      Query q;
      q.star = true;
      q.where = round.gen().RandomPredicate(
          0, static_cast<int>(round.gen().rng().Range(0, 3)));
      ++stats.checks;
      OracleResult res = oracle(round.db(), round.table(), *q.where);
      if (res.skipped) ++stats.skipped;
      if (res.skipped || res.diff.empty()) continue;
      ++stats.failures;
      Report(name, round.seed(), round.With(round.history(), QueryStep(q)), res,
             check);
      break;
    }
  }
  std::printf("[%s] %lld checks (%lld skipped), %lld failures, %.1f s\n", name,
              static_cast<long long>(stats.checks),
              static_cast<long long>(stats.skipped),
              static_cast<long long>(stats.failures), SecondsSince(start));
  EXPECT_EQ(stats.failures, 0);
}

TEST(Oracles, NoRec) { RunPredicateOracle("norec", &NoRec); }

TEST(Oracles, Tlp) { RunPredicateOracle("tlp", &Tlp); }

TEST(Oracles, PlanEquivalence) {
  const int64_t budget = EnvInt("LEVELQL_ORACLE_CHECKS", 5000);
  const int64_t max_failures = EnvInt("LEVELQL_MAX_FAILURES", 5);
  const uint64_t base = BaseSeed("plan");
  auto start = std::chrono::steady_clock::now();
  Stats stats;
  PlanTeeth teeth, sibling_teeth;
  Check check = [](LevelqlEngine& db, const Case& c) {
    PlanTeeth ignored;
    const Step& last = c.steps.back();
    return PlanEquivalence(db, c.tables[last.table], last.query, &ignored);
  };
  for (uint64_t r = 0; stats.checks < budget && stats.failures < max_failures;
       ++r) {
    OracleRound round(base + r);
    round.MakeSiblings();
    int64_t n = 20 + static_cast<int64_t>((base + r) % 60);
    for (int64_t i = 0; i < n && stats.checks < budget; ++i) {
      if (round.gen().rng().OneIn(10)) round.Apply(round.gen().RandomWrite(0));
      Query q = round.gen().RandomQuery(0);
      ++stats.checks;
      OracleResult res = PlanEquivalence(round.db(), round.table(), q, &teeth);
      const Case* history = &round.history();
      auto* sibling = round.RandomSibling();
      if (res.diff.empty() && sibling != nullptr) {
        res =
            PlanEquivalence(*sibling->second, round.table(), q, &sibling_teeth);
        history = &sibling->first;
      }
      if (res.skipped) ++stats.skipped;
      if (res.diff.empty()) continue;
      ++stats.failures;
      Report("plan", round.seed(), round.With(*history, QueryStep(q)), res,
             check);
      break;
    }
  }
  std::printf("[plan] %lld checks (%lld skipped), %lld failures, %.1f s\n",
              static_cast<long long>(stats.checks),
              static_cast<long long>(stats.skipped),
              static_cast<long long>(stats.failures), SecondsSince(start));
  std::printf("[plan] EXPLAIN changed with the rule off (of %lld queries):",
              static_cast<long long>(teeth.checks));
  for (const auto& [cfg, n] : teeth.plan_changed) {
    std::printf(" %s=%lld", cfg.c_str(), static_cast<long long>(n));
  }
  std::printf("\n");
  EXPECT_EQ(stats.failures, 0);
  // Teeth: with enough queries, switching off each access-path rule must
  // change some plan, or the comparison proves nothing about that rule.
  if (teeth.checks >= 2000) {
    for (const char* rule :
         {"all", "pk_range", "index_scan", "ordered_scan", "topk", "union",
          "intersect", "index_only", "offset_skip"}) {
      if (RulesOffForOpenBugs().find(rule) != std::string::npos) continue;
      EXPECT_GT(teeth.plan_changed[rule], 0)
          << "no query's plan changed with " << rule << " off";
    }
  }
}

// Reads `sql` in pages of `page_size` rows: each page comes from
// Statement::Resume(token of the previous page's last row). *unsupported is
// set when the engine has no continuation tokens.
Outcome Paged(Database& db, const std::string& sql, size_t page_size,
              bool* unsupported) {
  Outcome out;
  auto fail = [&](const Status& s) {
    out.ok = false;
    out.error = s.ToString();
    if (s.code() == Status::Code::kNotSupported) *unsupported = true;
    return out;
  };
  auto stmt = db.Prepare(sql);
  if (!stmt.ok()) return fail(stmt.status());
  auto cur = (*stmt)->Query();
  if (!cur.ok()) return fail(cur.status());
  for (int pages = 0; pages < 100000; ++pages) {
    for (size_t i = 0; i < page_size; ++i) {
      if (!(*cur)->Next()) {
        if (!(*cur)->status().ok()) return fail((*cur)->status());
        return out;
      }
      ResultRow row;
      for (const Value& v : (*cur)->row()) row.push_back(Cell::FromValue(v));
      out.rows.push_back(std::move(row));
    }
    std::string token = (*cur)->ContinuationToken();
    if (token.empty()) {
      *unsupported = true;
      return fail(Status::NotSupported("empty continuation token"));
    }
    auto next = (*stmt)->Resume(token);
    if (!next.ok()) return fail(next.status());
    cur = std::move(next);
  }
  return fail(Status::LimitExceeded("too many pages"));
}

OracleResult ContinuationCheck(LevelqlEngine& db, const TableDef& t,
                               const Query& q) {
  OracleResult r;
  std::string sql = RenderQuery(q, t, Dialect::kLevelql);
  Outcome whole = db.Run(sql, true);
  bool unsupported = false;
  // One row per page for small answers; larger pages (from the row count,
  // so a replay pages the same way) bound the resumes of large ones.
  size_t n = whole.rows.size();
  size_t page = n <= 60 ? 1 : 1 + (n * 7919) % 50;
  Outcome paged = Paged(db.db(), sql, page, &unsupported);
  if (unsupported || !whole.ok) {
    r.skipped = true;
    return r;
  }
  r.diff = paged.ok ? CompareRows(whole.rows, paged.rows, q.ordered)
                    : "paging failed: " + paged.error;
  if (!r.diff.empty()) {
    // The expected answer is the reference plan's.
    db.Run("PRAGMA disable_rules = 'all'", false);
    r.tail = QueryRecord(sql, db.Run(sql, true), q.ordered);
    db.Run("PRAGMA disable_rules = '" + WithOpenBugRulesOff("") + "'", false);
  }
  return r;
}

// Continuation replay: paging one row at a time through Statement::Resume
// (answers over 60 rows in larger pages) returns the unpaged answer.
TEST(Oracles, ContinuationReplay) {
  {
    auto db = OpenDb();
    db->Run("CREATE TABLE probe (a INTEGER PRIMARY KEY)", false);
    db->Run("INSERT INTO probe VALUES (1), (2)", false);
    bool unsupported = false;
    Paged(db->db(), "SELECT a FROM probe ORDER BY a", 1, &unsupported);
    if (unsupported) {
      // TODO(issue 6): runs as soon as Statement::Resume stops returning
      // NotSupported; nothing else needs to change here.
      GTEST_SKIP() << "continuation tokens are not implemented yet "
                      "(Statement::Resume returns NotSupported)";
    }
  }
  const int64_t budget = EnvInt("LEVELQL_ORACLE_CHECKS", 5000);
  const int64_t max_failures = EnvInt("LEVELQL_MAX_FAILURES", 5);
  const uint64_t base = BaseSeed("continuation");
  auto start = std::chrono::steady_clock::now();
  Stats stats;
  Check check = [](LevelqlEngine& db, const Case& c) {
    const Step& last = c.steps.back();
    return ContinuationCheck(db, c.tables[last.table], last.query);
  };
  for (uint64_t r = 0; stats.checks < budget && stats.failures < max_failures;
       ++r) {
    OracleRound round(base + r);
    int64_t n = 20 + static_cast<int64_t>((base + r) % 60);
    for (int64_t i = 0; i < n && stats.checks < budget; ++i) {
      Query q = round.gen().RandomQuery(0);
      ++stats.checks;
      OracleResult res = ContinuationCheck(round.db(), round.table(), q);
      if (res.skipped) ++stats.skipped;
      if (res.diff.empty()) continue;
      ++stats.failures;
      Report("continuation", round.seed(),
             round.With(round.history(), QueryStep(q)), res, check);
      break;
    }
  }
  std::printf(
      "[continuation] %lld checks (%lld skipped), %lld failures, %.1f s\n",
      static_cast<long long>(stats.checks),
      static_cast<long long>(stats.skipped),
      static_cast<long long>(stats.failures), SecondsSince(start));
  EXPECT_EQ(stats.failures, 0);
}

}  // namespace
}  // namespace levelql::difftest
