// Differential testing against SQLite: random schemas, indexes, data and
// interleaved writes, then random queries whose answers SQLite computes.
// Every disagreement is shrunk and written as a standalone sqllogictest file
// under the build directory (tests/support/paths.h), to be copied into
// tests/sql/regressions/ by hand. Budgets and seeds: README.md here.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>

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

// The base seeds `make test` runs (round r of base seed b uses seed b + r).
constexpr std::initializer_list<uint64_t> kSeeds = {1864201, 5530117, 9217433};

struct Stats {
  int64_t queries = 0;
  int64_t writes = 0;
  int64_t known = 0;  // skipped as intended differences
  int64_t failures = 0;
  int64_t rounds = 0;
  int64_t transactions = 0;  // committed or rolled back
  int64_t both_failed = 0;   // statements both engines refused
  int64_t nonempty = 0;      // queries that returned rows
  int64_t joins = 0;         // queries over two tables
  int64_t compounds = 0;     // UNION, INTERSECT, EXCEPT
  int64_t derived = 0;       // read through SELECT * FROM (...) as a table
  std::map<std::string, int64_t> errors;  // levelql's refusals, by kind
};

// A query with GROUP BY, DISTINCT, an aggregate, LIMIT or a compound: in
// FROM, it is read as a table of its rows (not merged).
bool MakesRows(const Query& q) {
  return !q.group_by.empty() || q.distinct || q.aggregate || q.limit >= 0 ||
         !q.compound.empty();
}

// Most rounds use small tables; some grow past the executor's batch sizes
// and the sort memory budget.
GenConfig ConfigFor(uint64_t seed) {
  GenConfig c = GenConfig::FromEnv();
  uint64_t r = (seed * 0x9e3779b97f4a7c15ULL) >> 60;  // 0..15
  c.max_insert_rows = r < 11 ? 12 : r < 14 ? 40 : 200;
  return c;
}

// One database: a schema, data, then writes and queries until `queries`
// have been compared or something disagrees.
class Round {
 public:
  Round(uint64_t seed, Stats* stats)
      : seed_(seed),
        gen_(seed, ConfigFor(seed)),
        txn_rng_(seed * 0x2545f4914f6cdd1dULL + 15),
        stats_(stats) {
    Rng& rng = gen_.rng();
    // A fifth of the rounds run with some planner rules off.
    if (rng.OneIn(5)) {
      for (const std::string& r : RuleNames()) {
        if (rng.OneIn(3)) {
          history_.disable_rules +=
              (history_.disable_rules.empty() ? "" : ",") + r;
        }
      }
      if (rng.OneIn(4)) history_.disable_rules = "all";
    }
    history_.disable_rules = WithOpenBugRulesOff(history_.disable_rules);
    // A fifth on LevelDB files (compactions, real iterators), the rest in
    // memory.
    history_.file_backed = rng.OneIn(5);
    pair_ = std::make_unique<EnginePair>(history_.disable_rules,
                                         history_.file_backed);
  }

  // Returns false when a failure ended the round.
  bool Run(int64_t queries) {
    Rng& rng = gen_.rng();
    int tables = rng.OneIn(4) ? 2 : 1;
    for (int t = 0; t < tables; ++t) {
      history_.tables.push_back(gen_.RandomTable("t" + std::to_string(t)));
      Step create;
      create.kind = Step::Kind::kCreateTable;
      create.table = t;
      if (!Apply(create)) return false;
    }
    for (int t = 0; t < tables; ++t) {
      for (int i = rng.Range(0, 3); i > 0; --i) {
        if (!Apply(NewIndex(t))) return false;
      }
      for (int i = rng.Range(0, 20); i > 0; --i) {
        if (!Apply(gen_.RandomInsert(t))) return false;
      }
      for (int i = rng.Range(0, 2); i > 0; --i) {
        if (!Apply(NewIndex(t))) return false;
      }
    }
    for (int64_t q = 0; q < queries;) {
      if (!Transactions()) return false;
      int t = static_cast<int>(rng.Uniform(history_.tables.size()));
      int r = static_cast<int>(rng.Uniform(1000));
      Step s;
      if (r < 120) {
        s = gen_.RandomWrite(t);
        if (s.kind == Step::Kind::kInsert) last_insert_ = s;
      } else if (r < 130) {
        s = NewIndex(t);
      } else if (r < 135 && !indexes_.empty()) {
        s.kind = Step::Kind::kDropIndex;
        size_t i = rng.Uniform(indexes_.size());
        s.table = indexes_[i].first;
        s.index.name = indexes_[i].second;
        indexes_.erase(indexes_.begin() + static_cast<long>(i));
      } else if (r < 137) {
        // Drop the table and make it again, empty and without indexes.
        s.kind = Step::Kind::kDropTable;
        s.table = t;
        if (in_txn_ && !EndTransaction()) return false;
        if (!Apply(s)) return false;
        std::erase_if(indexes_, [t](const auto& ix) { return ix.first == t; });
        s = Step();
        s.kind = Step::Kind::kCreateTable;
        s.table = t;
      } else if (r < 150) {
        s.kind = Step::Kind::kQuery;  // the whole table
        s.table = t;
        s.query.table = t;
        s.query.star = true;
        ++q;
      } else {
        s.kind = Step::Kind::kQuery;
        s.table = t;
        if (rng.OneIn(12)) {
          // A join of two tables, or of the table with itself.
          const int other =
              static_cast<int>(rng.Uniform(history_.tables.size()));
          s.query = gen_.JoinQuery(t, other);
          stats_->joins += s.query.join_table >= 0;
        } else if (rng.OneIn(14)) {
          const int other =
              static_cast<int>(rng.Uniform(history_.tables.size()));
          s.query = gen_.CompoundQuery(t, other);
          stats_->compounds += !s.query.compound.empty();
        } else {
          s.query = gen_.RandomQuery(t);
        }
        // One that makes rows of its own, read as a table of its rows.
        if (MakesRows(s.query) && rng.OneIn(6)) {
          s.query.derived = true;
          s.query.derived_with = rng.OneIn(2);
          ++stats_->derived;
        }
        ++q;
      }
      // DDL commits on its own in SQLite and is refused inside a
      // transaction by levelql: end the transaction first.
      const bool ddl = s.kind == Step::Kind::kCreateIndex ||
                       s.kind == Step::Kind::kDropIndex ||
                       s.kind == Step::Kind::kCreateTable;
      if (ddl && in_txn_ && !EndTransaction()) return false;
      if (!Apply(s)) return false;
    }
    return in_txn_ ? EndTransaction() : true;
  }

 private:
  // Transactions, drawn from a generator of their own so that the rest of
  // a round's steps are those of the same seed without them: now and then
  // BEGIN; inside, now and then the last INSERT again (a statement that
  // fails on its key, changing nothing), and COMMIT or ROLLBACK. Queries
  // inside compare each engine's view with its own writes.
  bool Transactions() {
    if (!in_txn_) {
      if (!txn_rng_.OneIn(25)) return true;
      Step begin;
      begin.kind = Step::Kind::kBegin;
      begin.immediate = txn_rng_.OneIn(3);
      in_txn_ = true;
      return Apply(begin);
    }
    if (last_insert_ && txn_rng_.OneIn(6)) {
      if (!Apply(*last_insert_)) return false;
    }
    return txn_rng_.OneIn(10) ? EndTransaction() : true;
  }

  bool EndTransaction() {
    Step end;
    end.kind = txn_rng_.OneIn(3) ? Step::Kind::kRollback : Step::Kind::kCommit;
    in_txn_ = false;
    ++stats_->transactions;
    return Apply(end);
  }

  Step NewIndex(int t) {
    Step s;
    s.kind = Step::Kind::kCreateIndex;
    s.table = t;
    s.index = gen_.RandomIndex(t, "i" + std::to_string(next_index_++));
    indexes_.emplace_back(t, s.index.name);
    return s;
  }

  bool Apply(const Step& s) {
    StepCheck c = pair_->Apply(s, history_.tables);
    bool query = s.kind == Step::Kind::kQuery;
    (query ? stats_->queries : stats_->writes)++;
    if (!c.expected.ok && !c.got.ok) {
      ++stats_->both_failed;
      std::string kind = c.got.error.substr(0, c.got.error.find(':'));
      if (kind.size() > 40) kind.resize(40);
      ++stats_->errors[(query ? "query " : "write ") + kind];
    }
    if (query && !c.got.rows.empty()) ++stats_->nonempty;
    if (c.agree || c.known) {
      if (!c.agree) ++stats_->known;
      if (!query) history_.steps.push_back(s);
      return true;
    }
    ++stats_->failures;
    Case failing = history_;
    failing.steps.push_back(s);
    std::string sql = RenderStep(s, history_.tables, Dialect::kLevelql);
    std::printf(
        "\nMISMATCH (LEVELQL_SEED=%llu, %zu steps)\n  %s\n  %s\n  "
        "shrinking...\n",
        static_cast<unsigned long long>(seed_), failing.steps.size(),
        sql.c_str(), c.diff.c_str());
    std::fflush(stdout);
    Case small = Shrink(failing);
    std::string diff;
    CaseFails(small, &diff);
    std::string header =
        "# Differential regression found by tests/differential (replay the\n"
        "# run with LEVELQL_SEED=" +
        std::to_string(seed_) +
        "). Expected answers are SQLite's.\n"
        "# levelql differed on the last statement: " +
        diff;
    if (small.file_backed) {
      header +=
          "\n# Found on LevelDB files: run with levelql-slt --backend leveldb.";
    }
    for (char& ch : header) {
      if (ch == '\r') ch = ' ';
    }
    std::string path = WriteRegression(small, testing::RegressionDir(), header);
    std::printf("  shrunk to %zu steps -> %s\n%s\n", small.steps.size(),
                path.c_str(), ToSlt(small, "").c_str());
    std::fflush(stdout);
    ADD_FAILURE() << "levelql and SQLite disagree (LEVELQL_SEED=" << seed_
                  << "): " << c.diff << "\n  " << sql << "\n  "
                  << testing::KeepRegressionHint(path);
    return false;
  }

  uint64_t seed_;
  Generator gen_;
  Rng txn_rng_;
  bool in_txn_ = false;
  std::optional<Step> last_insert_;
  Stats* stats_;
  Case history_;
  std::unique_ptr<EnginePair> pair_;
  std::vector<std::pair<int, std::string>> indexes_;
  int next_index_ = 0;
};

TEST(Differential, AgreesWithSqlite) {
  const int64_t budget = EnvInt("LEVELQL_DIFF_QUERIES", 20000);
  const int64_t max_failures = EnvInt("LEVELQL_MAX_FAILURES", 5);
  const std::vector<uint64_t> seeds =
      testing::TestSeeds("differential", kSeeds);
  auto start = std::chrono::steady_clock::now();
  Stats stats;
  for (size_t i = 0; i < seeds.size(); ++i) {
    const int64_t end =
        stats.queries + testing::ShareOf(budget, seeds.size(), i);
    for (uint64_t r = 0; stats.queries < end && stats.failures < max_failures;
         ++r) {
      const uint64_t seed = seeds[i] + r;
      Round round(seed, &stats);
      int64_t queries = 50 + static_cast<int64_t>(seed % 250);
      round.Run(std::min(queries, end - stats.queries));
      ++stats.rounds;
      if (r % 200 == 199) {
        std::printf(
            "[differential] %lld queries, %lld writes, %lld rounds, %.0f s\n",
            static_cast<long long>(stats.queries),
            static_cast<long long>(stats.writes),
            static_cast<long long>(stats.rounds), SecondsSince(start));
        std::fflush(stdout);
      }
    }
  }
  std::printf(
      "[differential] %lld queries and %lld writes compared in %lld rounds "
      "(%lld known differences skipped), %lld failures, %.1f s\n",
      static_cast<long long>(stats.queries),
      static_cast<long long>(stats.writes),
      static_cast<long long>(stats.rounds), static_cast<long long>(stats.known),
      static_cast<long long>(stats.failures), SecondsSince(start));
  std::printf(
      "[differential] %lld queries returned rows; %lld joins; %lld "
      "compound SELECTs; %lld read through FROM (...); %lld transactions; "
      "%lld statements failed in both engines:",
      static_cast<long long>(stats.nonempty),
      static_cast<long long>(stats.joins),
      static_cast<long long>(stats.compounds),
      static_cast<long long>(stats.derived),
      static_cast<long long>(stats.transactions),
      static_cast<long long>(stats.both_failed));
  for (const auto& [kind, n] : stats.errors) {
    std::printf(" %s=%lld", kind.c_str(), static_cast<long long>(n));
  }
  std::printf("\n");
  testing::PrintSummary("differential", stats.queries, "queries",
                        stats.failures);
  EXPECT_EQ(stats.failures, 0);
}

}  // namespace
}  // namespace levelql::difftest
