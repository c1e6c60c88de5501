// Oracles that need no second engine: NoREC, TLP, plan equivalence (every
// rule off in turn, all off, a tiny sort budget, and each index alone), and
// continuation replay (also across ANALYZE and planner-rule changes). The
// generator uses levelql-only shapes here: list columns in every index key
// position, UNIQUE over lists, search and icu:de collations, constant ORDER
// BY terms (GenConfig::ForOracles). Failures are shrunk and written under
// the build directory with the answer the oracle expected (budgets and
// seeds: README.md here).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "engine/plan/plan_cache.h"
#include "engine/select_cursor.h"
#include "tests/differential/generator.h"
#include "tests/differential/oracles.h"
#include "tests/differential/shrink.h"
#include "tests/support/env.h"
#include "tests/support/paths.h"
#include "tests/support/report.h"

namespace levelql::difftest {
namespace {

using testing::EnvInt;
using testing::SecondsSince;

// The base seeds `make test` runs, per oracle (round r of base seed b uses
// seed b + r).
constexpr std::initializer_list<uint64_t> kNoRecSeeds = {3100417, 6200731};
constexpr std::initializer_list<uint64_t> kTlpSeeds = {3300293, 6400559};
constexpr std::initializer_list<uint64_t> kPlanSeeds = {3500069, 6600421};
constexpr std::initializer_list<uint64_t> kReuseSeeds = {3900161, 7100299};
constexpr std::initializer_list<uint64_t> kPagingWritesSeeds = {3800233,
                                                                6900127};
constexpr std::initializer_list<uint64_t> kContinuationSeeds = {3700187,
                                                                6800363};

// These oracles compare levelql with itself, so the generator may use all
// of the dialect, including what SQLite answers differently.
GenConfig OracleConfig(uint64_t seed) {
  GenConfig c = GenConfig::ForOracles();
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
  int64_t skipped = 0;  // overflow in one evaluation only
  int64_t failures = 0;
};

// Runs rounds until `budget` checks are done: each base seed of `fixed` (or
// LEVELQL_SEED) gets its share, in rounds seeded base, base + 1, ...
// `round(seed, end)` makes checks until stats->checks reaches `end` or the
// round is over.
// `share` divides the budget for an oracle whose checks cost more.
void RunRounds(const char* name, std::initializer_list<uint64_t> fixed,
               Stats* stats,
               const std::function<void(uint64_t, int64_t)>& round,
               int64_t share = 1) {
  const int64_t budget =
      std::max<int64_t>(1, EnvInt("LEVELQL_ORACLE_CHECKS", 5000) / share);
  const int64_t max_failures = EnvInt("LEVELQL_MAX_FAILURES", 5);
  const std::vector<uint64_t> seeds = testing::TestSeeds(name, fixed);
  for (size_t i = 0; i < seeds.size(); ++i) {
    const int64_t end =
        stats->checks + testing::ShareOf(budget, seeds.size(), i);
    for (uint64_t r = 0; stats->checks < end && stats->failures < max_failures;
         ++r) {
      round(seeds[i] + r, end);
    }
  }
}

// Prints the oracle's counts and its summary line; the test fails on any
// failure.
void Finish(const char* name, const Stats& stats,
            std::chrono::steady_clock::time_point start,
            const std::string& extra = "") {
  std::printf("[%s] %lld checks (%lld skipped: overflow)%s, %.1f s\n", name,
              static_cast<long long>(stats.checks),
              static_cast<long long>(stats.skipped), extra.c_str(),
              SecondsSince(start));
  testing::PrintSummary(name, stats.checks, "checks", stats.failures);
  EXPECT_EQ(stats.failures, 0);
}

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
    // A reference that cannot be computed (say, the shrinker dropped the
    // table) is another failure than a wrong answer.
    return !r.skipped && !r.diff.empty() &&
           (r.reference_failed ? r.diff == first.diff
                               : !first.reference_failed);
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
        "\n# Paging differs: run with levelql-slt --page (a change between "
        "pages,\n# ANALYZE or PRAGMA, is replayed by the seed only).";
  }
  for (char& ch : header) {
    if (ch == '\r') ch = ' ';
  }
  std::string body = ToSltWithTail(small, header, &r.tail);
  std::string path =
      WriteRegressionText(body, header.size(), testing::RegressionDir());
  std::printf("  shrunk to %zu steps -> %s\n%s\n", small.steps.size(),
              path.c_str(), body.c_str());
  std::fflush(stdout);
  ADD_FAILURE() << oracle << " failed (LEVELQL_SEED=" << seed
                << "): " << first.diff << "\n  " << sql << "\n  table "
                << t.name << "\n  " << testing::KeepRegressionHint(path);
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

// A query over the round's table, or (one in eight) a self-join of it.
Query RandomQueryOrJoin(Generator& gen) {
  return gen.rng().OneIn(8) ? gen.JoinQuery(0, 0) : gen.RandomQuery(0);
}

Step QueryStep(Query q) {
  Step s;
  s.kind = Step::Kind::kQuery;
  s.table = q.table;
  s.query = std::move(q);
  return s;
}

// Runs `oracle` over random predicates until the budget is spent.
void RunPredicateOracle(const char* name, std::initializer_list<uint64_t> seeds,
                        OracleResult (*oracle)(Engine&, const TableDef&,
                                               const Expr&)) {
  auto start = std::chrono::steady_clock::now();
  Stats stats;
  Check check = [oracle](LevelqlEngine& db, const Case& c) {
    const Step& last = c.steps.back();
    // The shrinker may try the query without its WHERE: nothing to check.
    if (!last.query.where) return OracleResult();
    return oracle(db, c.tables[last.table], *last.query.where);
  };
  RunRounds(name, seeds, &stats, [&](uint64_t seed, int64_t end) {
    OracleRound round(seed);
    int64_t n = 40 + static_cast<int64_t>(seed % 120);
    for (int64_t i = 0; i < n && stats.checks < end; ++i) {
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
  });
  Finish(name, stats, start);
}

TEST(Oracles, NoRec) { RunPredicateOracle("norec", kNoRecSeeds, &NoRec); }

TEST(Oracles, Tlp) { RunPredicateOracle("tlp", kTlpSeeds, &Tlp); }

TEST(Oracles, PlanEquivalence) {
  auto start = std::chrono::steady_clock::now();
  Stats stats;
  PlanTeeth teeth, sibling_teeth;
  Check check = [](LevelqlEngine& db, const Case& c) {
    PlanTeeth ignored;
    const Step& last = c.steps.back();
    return PlanEquivalence(db, QueryTable(last.query, c.tables), last.query,
                           &ignored);
  };
  RunRounds("plan", kPlanSeeds, &stats, [&](uint64_t seed, int64_t end) {
    OracleRound round(seed);
    round.MakeSiblings();
    int64_t n = 20 + static_cast<int64_t>(seed % 60);
    for (int64_t i = 0; i < n && stats.checks < end; ++i) {
      if (round.gen().rng().OneIn(10)) round.Apply(round.gen().RandomWrite(0));
      Query q = RandomQueryOrJoin(round.gen());
      const TableDef t = QueryTable(q, round.history().tables);
      ++stats.checks;
      OracleResult res = PlanEquivalence(round.db(), t, q, &teeth);
      const Case* history = &round.history();
      auto* sibling = round.RandomSibling();
      if (res.diff.empty() && sibling != nullptr) {
        res = PlanEquivalence(*sibling->second, t, q, &sibling_teeth);
        history = &sibling->first;
      }
      if (res.skipped) ++stats.skipped;
      if (res.diff.empty()) continue;
      ++stats.failures;
      Report("plan", round.seed(), round.With(*history, QueryStep(q)), res,
             check);
      break;
    }
  });
  std::printf("[plan] EXPLAIN changed with the rule off (of %lld queries):",
              static_cast<long long>(teeth.checks));
  for (const auto& [cfg, n] : teeth.plan_changed) {
    std::printf(" %s=%lld", cfg.c_str(), static_cast<long long>(n));
  }
  std::printf("\n");
  Finish("plan", stats, start);
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

// Now and then the continuation oracle changes something between pages:
// ANALYZE, or another set of planner rules.
Midway RandomMidway(Rng& rng) {
  Midway m;
  int r = static_cast<int>(rng.Uniform(10));
  if (r == 0) {
    m.kind = Midway::Kind::kAnalyze;
  } else if (r == 1) {
    m.kind = Midway::Kind::kRules;
    if (rng.OneIn(3)) {
      m.rules = "all";
    } else {
      for (const std::string& rule : RuleNames()) {
        if (rng.OneIn(3)) m.rules += (m.rules.empty() ? "" : ",") + rule;
      }
    }
    m.rules = WithOpenBugRulesOff(m.rules);
  }
  // Steps around open bugs (LEVELQL_GEN_OFF, generator.h); the random
  // choices above are made either way, so the rest of the run stays put.
  if ((m.kind == Midway::Kind::kAnalyze &&
       GenSwitchedOff("resume_after_analyze")) ||
      (m.kind == Midway::Kind::kRules &&
       GenSwitchedOff("resume_after_rule_change"))) {
    m = Midway();
  }
  return m;
}

// Continuation replay: paging one row at a time through Statement::Resume
// (answers over 60 rows in larger pages) returns the unpaged answer; after
// ANALYZE or a PRAGMA disable_rules change between pages, it returns the
// rest of the answer or refuses because the plan changed.
TEST(Oracles, ContinuationReplay) {
  auto start = std::chrono::steady_clock::now();
  Stats stats;
  int64_t midway = 0, refused = 0;
  RunRounds("continuation", kContinuationSeeds, &stats,
            [&](uint64_t seed, int64_t end) {
              OracleRound round(seed);
              int64_t n = 20 + static_cast<int64_t>(seed % 60);
              for (int64_t i = 0; i < n && stats.checks < end; ++i) {
                Query q = RandomQueryOrJoin(round.gen());
                Midway m = RandomMidway(round.gen().rng());
                ++stats.checks;
                OracleResult res = ContinuationReplay(
                    round.db(), QueryTable(q, round.history().tables), q, m);
                midway += m.kind != Midway::Kind::kNone;
                refused += res.refused;
                if (res.skipped) ++stats.skipped;
                if (res.diff.empty()) {
                  // The statistics stay; replays of later failures need them.
                  if (m.kind == Midway::Kind::kAnalyze) {
                    Step analyze;
                    analyze.kind = Step::Kind::kAnalyze;
                    round.Apply(analyze);
                  }
                  continue;
                }
                ++stats.failures;
                Check check = [m](LevelqlEngine& db, const Case& c) {
                  const Step& last = c.steps.back();
                  return ContinuationReplay(
                      db, QueryTable(last.query, c.tables), last.query, m);
                };
                Report("continuation", round.seed(),
                       round.With(round.history(), QueryStep(q)), res, check);
                break;
              }
            });
  Finish("continuation", stats, start,
         ", " + std::to_string(midway) +
             " with ANALYZE or PRAGMA between "
             "pages (" +
             std::to_string(refused) + " refused: plan changed)");
}

// 1-6 random writes to t0 for ContinuationWithWrites, rendered. A table
// without a declared key gets no UPDATE: one UPDATE can swap the contents
// of two rows, and then rows that look unchanged sit under other hidden
// rowids (positions), which the oracle cannot see.
std::vector<std::string> WritesBetweenPages(OracleRound& round) {
  Generator& gen = round.gen();
  std::vector<std::string> writes;
  for (int64_t i = gen.rng().Range(1, 6); i > 0; --i) {
    Step s = gen.RandomWrite(0);
    if (round.table().pk.empty() && s.kind == Step::Kind::kUpdate) {
      s = gen.RandomDelete(0);
    }
    writes.push_back(RenderStep(s, round.history().tables, Dialect::kLevelql));
  }
  return writes;
}

// Continuation with writes between pages: rows present throughout come
// exactly once and in order; previous pages hold the rows before the
// cursor as they are now (each check on a copy of the round's database).
TEST(Oracles, ContinuationWithWrites) {
  auto start = std::chrono::steady_clock::now();
  Stats stats;
  int64_t refused = 0, writes_run = 0;
  RunRounds(
      "paging_writes", kPagingWritesSeeds, &stats,
      [&](uint64_t seed, int64_t end) {
        OracleRound round(seed);
        int64_t n = 10 + static_cast<int64_t>(seed % 30);
        for (int64_t i = 0; i < n && stats.checks < end; ++i) {
          Query q = RandomQueryOrJoin(round.gen());
          if (!EveryColumnQuery(q, round.history().tables)) continue;
          std::vector<std::string> writes = WritesBetweenPages(round);
          Case c = round.With(round.history(), QueryStep(q));
          auto db = Replay(c);
          ++stats.checks;
          writes_run += static_cast<int64_t>(writes.size());
          OracleResult res = ContinuationWithWrites(*db, c.tables, q, writes);
          refused += res.refused;
          if (res.diff.empty()) continue;
          ++stats.failures;
          Check check = [writes](LevelqlEngine& db, const Case& c) {
            return ContinuationWithWrites(db, c.tables, c.steps.back().query,
                                          writes);
          };
          Report("paging_writes", round.seed(), c, res, check);
          break;
        }
      },
      /*share=*/2);  // a check replays the round, then pages
  Finish("paging_writes", stats, start,
         ", " + std::to_string(writes_run) + " writes between pages (" +
             std::to_string(refused) +
             " refused: plan or rows made first changed)");
}

// Plan reuse: a prepared query run with other parameter values returns
// what a fresh plan returns; and plans are reused (teeth).
TEST(Oracles, PlanReuse) {
  auto start = std::chrono::steady_clock::now();
  Stats stats;
  const uint64_t reuses_before = PlanReuses();
  const uint64_t points_before = PlanPointReuses();
  const uint64_t kept_before = KeptRunsRestarted();
  RunRounds("reuse", kReuseSeeds, &stats, [&](uint64_t seed, int64_t end) {
    OracleRound round(seed);
    int64_t n = 20 + static_cast<int64_t>(seed % 60);
    for (int64_t i = 0; i < n && stats.checks < end; ++i) {
      if (round.gen().rng().OneIn(10)) round.Apply(round.gen().RandomWrite(0));
      Query q = RandomQueryOrJoin(round.gen());
      const uint64_t variants = round.gen().rng().Next();
      ++stats.checks;
      OracleResult res = PlanReuse(
          round.db(), QueryTable(q, round.history().tables), q, variants);
      if (res.skipped) ++stats.skipped;
      if (res.diff.empty()) continue;
      ++stats.failures;
      Check check = [variants](LevelqlEngine& db, const Case& c) {
        const Step& last = c.steps.back();
        return PlanReuse(db, QueryTable(last.query, c.tables), last.query,
                         variants);
      };
      Report("reuse", round.seed(), round.With(round.history(), QueryStep(q)),
             res, check);
      break;
    }
  });
  const uint64_t reuses = PlanReuses() - reuses_before;
  const uint64_t by_points = PlanPointReuses() - points_before;
  const uint64_t kept = KeptRunsRestarted() - kept_before;
  Finish("reuse", stats, start,
         ", " + std::to_string(reuses) + " runs reused a plan (" +
             std::to_string(by_points) + " by point keys, " +
             std::to_string(kept) + " in a kept run's operators)");
  // Teeth: most prepared runs must reuse their plan, and some (equality-
  // only WHERE clauses) by point keys, some of those restarting the
  // operators of the run before.
  if (stats.checks >= 1000) {
    EXPECT_GT(reuses, static_cast<uint64_t>(stats.checks));
    EXPECT_GT(by_points, static_cast<uint64_t>(stats.checks / 50));
    EXPECT_GT(kept, static_cast<uint64_t>(stats.checks / 100));
  }
}

}  // namespace
}  // namespace levelql::difftest
