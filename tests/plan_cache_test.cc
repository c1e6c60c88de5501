// Plan reuse (engine/plan/plan_cache.h): a prepared SELECT run again with
// other parameter values reuses its plan only when the values give it the
// same shape, and returns what the statement planned afresh returns. Each
// case runs one prepared statement through a sequence of values and
// compares every run with the same SQL and values planned afresh
// (PRAGMA disable_rules = 'plan_cache'); the cases are the ways values
// change a plan: a constant condition that turns false, NULL (an empty
// range), IN lists whose points merge, LIKE patterns with and without a
// prefix, a disjunct that contradicts itself, LIMIT and OFFSET, a join
// whose key range is copied to the other table, and a schema change.
// Plans whose WHERE clause is only equalities build their keys from the
// values directly (PointScan): those cases also count that they did, and
// that values of another type, NULL, or values no key can hold fall back.
#include "engine/plan/plan_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "levelql/database.h"
#include "tests/support/sql_text.h"

namespace levelql {
namespace {

using testing::Exec;

using testing::CursorText;
using testing::OpenMemory;

class PlanCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = OpenMemory();
    Exec(*db_,
         "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, "
         "name TEXT COLLATE nocase)");
    Exec(*db_, "CREATE INDEX t_a ON t (a, b)");
    Exec(*db_, "CREATE INDEX t_b ON t (b)");
    Exec(*db_, "CREATE INDEX t_name ON t (name)");
    std::string insert = "INSERT INTO t VALUES ";
    const char* names[] = {"apple", "Apricot", "banana", "Berry", "cherry"};
    for (int i = 1; i <= 60; ++i) {
      insert += (i > 1 ? ", (" : "(") + std::to_string(i) + ", " +
                std::to_string(i % 6) + ", " + std::to_string(i % 5) + ", '" +
                names[i % 5] + std::to_string(i % 3) + "')";
    }
    Exec(*db_, insert);
    Exec(*db_, "CREATE TABLE u (a INTEGER PRIMARY KEY, label TEXT)");
    Exec(*db_,
         "INSERT INTO u VALUES (0, 'zero'), (1, 'one'), (2, 'two'), "
         "(3, 'three'), (5, 'five')");
    // Descending key columns, a collated text key, a two-column primary key.
    Exec(*db_,
         "CREATE TABLE d (x TEXT COLLATE nocase, y INTEGER, g TEXT COLLATE "
         "nocase, s REAL, PRIMARY KEY (x DESC, y))");
    Exec(*db_, "CREATE INDEX d_gs ON d (g DESC, s DESC)");
    std::string rows = "INSERT INTO d VALUES ";
    const char* words[] = {"Alpha", "beta", "GAMMA", "Delta"};
    for (int i = 0; i < 40; ++i) {
      rows += (i > 0 ? ", ('" : "('") + std::string(words[i % 4]) + "', " +
              std::to_string(i) + ", '" + words[(i / 4) % 4] + "', " +
              std::to_string(i % 3) + ".5)";
    }
    Exec(*db_, rows);
  }

  // Runs `sql` prepared once with each of `values`, and the same SQL
  // planned afresh; returns how many of the prepared runs reused a plan.
  uint64_t Check(const std::string& sql, const std::vector<Params>& values) {
    auto stmt = db_->Prepare(sql);
    EXPECT_TRUE(stmt.ok()) << sql << ": " << stmt.status().ToString();
    if (!stmt.ok()) return 0;
    uint64_t reused = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      Exec(*db_, "PRAGMA disable_rules = 'plan_cache'");
      const std::string want = CursorText(db_->Query(sql, values[i]));
      Exec(*db_, "PRAGMA disable_rules = ''");
      const uint64_t before = PlanReuses();
      const uint64_t points_before = PlanPointReuses();
      const std::string got = CursorText((*stmt)->Query(values[i]));
      reused += PlanReuses() - before;
      point_reused_ += PlanPointReuses() - points_before;
      EXPECT_EQ(got, want) << sql << ", run " << i + 1;
      EXPECT_EQ(got.rfind("error", 0), std::string::npos) << got;
    }
    return reused;
  }

  std::unique_ptr<Database> db_;
  uint64_t point_reused_ = 0;  // of Check's reuses, by PointScan
};

Value I(int64_t v) { return Value::Int(v); }
Value T(const std::string& s) { return Value::Text(s); }

TEST_F(PlanCacheTest, ReusesForValuesOfTheSameShape) {
  const uint64_t reused =
      Check("SELECT id FROM t WHERE a = ? AND b > ? ORDER BY b, id",
            {{I(1), I(0)}, {I(2), I(1)}, {I(3), I(-1)}, {I(5), I(3)}});
  EXPECT_EQ(reused, 4u);  // the first run's plan is a copy of its template
}

TEST_F(PlanCacheTest, EqualitiesBuildTheirKeysFromTheValues) {
  // The primary key: integers reuse by points; text, a real (whole or
  // not) and NULL change the value's type, and are planned as before.
  EXPECT_EQ(Check("SELECT * FROM t WHERE id = ?", {{I(5)},
                                                   {I(60)},
                                                   {I(61)},
                                                   {T("7")},
                                                   {Value::Real(3.0)},
                                                   {Value::Real(2.5)},
                                                   {Value::Null()},
                                                   {I(-1)},
                                                   {I(9)}}),
            5u);
  EXPECT_EQ(point_reused_, 5u);
  point_reused_ = 0;
  // Two columns of one index, values computed from parameters.
  Check("SELECT id FROM t WHERE b = ? AND a = abs(?) ORDER BY id",
        {{I(1), I(1)}, {I(2), I(-2)}, {I(4), I(3)}, {I(0), I(0)}});
  EXPECT_EQ(point_reused_, 4u);
  point_reused_ = 0;
  // A collated index: case and accents fold into the key.
  Check("SELECT id FROM t WHERE name = ? ORDER BY id",
        {{T("APPLE0")}, {T("banana1")}, {T("bERRY2")}, {T("none")}});
  EXPECT_EQ(point_reused_, 4u);
  point_reused_ = 0;
  // Descending columns: a collated primary key and a secondary index with
  // a REAL column (an integer value there is another type: planned anew).
  Check("SELECT * FROM d WHERE x = ? AND y = ?",
        {{T("alpha"), I(0)}, {T("GAMMA"), I(2)}, {T("Beta"), I(5)}});
  Check("SELECT x, y FROM d WHERE g = ? AND s = ? ORDER BY x, y",
        {{T("alpha"), Value::Real(0.5)},
         {T("DELTA"), Value::Real(2.5)},
         {T("beta"), I(1)},
         {T("beta"), Value::Real(1.5)}});
  EXPECT_EQ(point_reused_, 3u + 3u);
}

TEST_F(PlanCacheTest, OtherTermsKeepTheGeneralReuse) {
  // A range, a filter the index cannot answer, two terms on one column:
  // reused by deriving the ranges again, never by points.
  Check("SELECT id FROM t WHERE a = ? AND b > ? ORDER BY id",
        {{I(1), I(0)}, {I(2), I(3)}});
  Check("SELECT a, label FROM u WHERE label = ?",
        {{T("two")}, {T("five")}, {T("six")}});
  Check("SELECT id FROM t WHERE a = ? AND a = ? ORDER BY id",
        {{I(1), I(1)}, {I(2), I(3)}, {I(4), I(4)}});
  Check("SELECT id FROM t WHERE a = ? OR b = ? ORDER BY id",
        {{I(1), I(2)}, {I(3), I(4)}});
  EXPECT_EQ(point_reused_, 0u);
}

TEST_F(PlanCacheTest, ConstantConditionThatTurnsFalse) {
  // `? > ?` folds to a constant term: true drops it, false answers nothing.
  Check("SELECT id FROM t WHERE a = ? AND ? > ? ORDER BY id",
        {{I(1), I(5), I(2)}, {I(1), I(2), I(5)}, {I(2), I(9), I(1)}});
  Check(
      "SELECT x.id, y.id FROM t AS x, t AS y WHERE y.a = x.a AND ? > ? "
      "AND y.b < ? ORDER BY 1, 2",
      {{I(3), I(1), I(2)}, {I(1), I(1), I(2)}, {I(4), I(0), I(1)}});
}

TEST_F(PlanCacheTest, NullMakesAnEmptyRange) {
  const uint64_t reused =
      Check("SELECT id FROM t WHERE a = ? ORDER BY id",
            {{I(1)}, {Value::Null()}, {I(2)}, {Value::Null()}, {I(4)}});
  EXPECT_EQ(reused, 3u);  // the NULL runs are planned afresh
}

TEST_F(PlanCacheTest, InListsWhosePointsMerge) {
  Check("SELECT id FROM t WHERE a IN (?, ?, ?) ORDER BY id",
        {{I(1), I(2), I(3)},
         {I(1), I(1), I(1)},
         {I(4), I(5), I(4)},
         {I(0), I(2), I(3)}});
}

TEST_F(PlanCacheTest, LikePatternsWithAndWithoutPrefix) {
  Check("SELECT id FROM t WHERE name LIKE ? ORDER BY id", {{T("ap%")},
                                                           {T("%rry%")},
                                                           {T("B%")},
                                                           {T("_pple1")},
                                                           {T("APRICOT2")},
                                                           {T("")},
                                                           {Value::Null()},
                                                           {T("ch%")}});
}

TEST_F(PlanCacheTest, DisjunctThatContradictsItself) {
  // A union whose first disjunct is empty for some values: a plan made
  // without it must not serve values for which it matches rows.
  Check("SELECT id FROM t WHERE (a = ? AND a = ?) OR b = ? ORDER BY id",
        {{I(1), I(2), I(3)}, {I(2), I(2), I(3)}, {I(4), I(4), I(0)}});
}

TEST_F(PlanCacheTest, LimitAndOffsetValues) {
  Check("SELECT id FROM t WHERE a = ? ORDER BY b DESC, id LIMIT ? OFFSET ?",
        {{I(1), I(3), I(0)},
         {I(1), I(3), I(2)},
         {I(2), I(1), I(0)},
         {I(2), I(0), I(1)}});
}

TEST_F(PlanCacheTest, JoinKeyRangeCopiedToTheOtherTable) {
  const uint64_t reused = Check(
      "SELECT t.id, u.label FROM t JOIN u ON u.a = t.a WHERE t.a = ? "
      "ORDER BY t.id",
      {{I(1)}, {I(2)}, {I(4)}, {I(5)}, {Value::Null()}, {I(0)}});
  EXPECT_GE(reused, 4u);
}

TEST_F(PlanCacheTest, JoinsBuildEachTablesKeysFromTheValues) {
  // The value reaches the other table through the join key (u.a = t.a and
  // t.a = ?: u.a = ?); both scans build their keys from it.
  Check(
      "SELECT t.id, u.label FROM t JOIN u ON u.a = t.a WHERE t.a = ? "
      "ORDER BY t.id",
      {{I(1)}, {I(2)}, {I(4)}, {I(5)}, {Value::Null()}, {I(0)}});
  EXPECT_EQ(point_reused_, 5u);
  point_reused_ = 0;
  Check(
      "SELECT u.label, t.b FROM t JOIN u ON u.a = t.a WHERE t.a = ? AND t.b "
      "= ? ORDER BY t.id DESC LIMIT 2",
      {{I(1), I(1)}, {I(2), I(2)}, {I(3), I(3)}, {I(0), I(0)}, {I(5), I(4)}});
  EXPECT_EQ(point_reused_, 5u);
  point_reused_ = 0;
  // A term on a column no index holds is a filter of its table's rows; a
  // value for each side is two terms on one column: the general reuse.
  Check(
      "SELECT t.id, u.label FROM t JOIN u ON u.a = t.a WHERE t.a = ? AND "
      "u.label = ? ORDER BY t.id",
      {{I(1), T("one")}, {I(2), T("one")}, {I(3), T("three")}});
  Check(
      "SELECT t.id, u.label FROM t JOIN u ON u.a = t.a WHERE t.a = ? AND "
      "u.a = ? ORDER BY t.id",
      {{I(1), I(1)}, {I(2), I(3)}, {I(3), I(3)}});
  EXPECT_EQ(point_reused_, 0u);
}

TEST_F(PlanCacheTest, PlansOfEndedRunsServeLaterRuns) {
  // A run's copy of the plan goes back to the template when the run ends,
  // still pointing into that run's WHERE clause; the next run must take
  // its ranges and filters from its own values. Two runs open at once
  // each have a copy; both come back, and the next runs take them.
  const std::string sql =
      "SELECT t.id, u.label FROM t JOIN u ON u.a = t.a WHERE t.a = ? AND "
      "t.b > ? AND t.name LIKE ? ORDER BY t.id";
  auto fresh = [&](const Params& p) {
    Exec(*db_, "PRAGMA disable_rules = 'plan_cache'");
    std::string text = CursorText(db_->Query(sql, p));
    Exec(*db_, "PRAGMA disable_rules = ''");
    return text;
  };
  auto stmt = db_->Prepare(sql);
  ASSERT_TRUE(stmt.ok()) << stmt.status().ToString();
  const std::vector<Params> values = {{I(1), I(0), T("a%")},
                                      {I(2), I(1), T("%")},
                                      {I(3), I(-1), T("b%")},
                                      {I(5), I(3), T("c%")},
                                      {I(0), I(0), T("%e%")}};
  std::vector<std::string> want;
  for (const Params& p : values) want.push_back(fresh(p));
  {
    auto first = (*stmt)->Query(values[0]);
    auto second = (*stmt)->Query(values[1]);
    EXPECT_EQ(CursorText(std::move(second)), want[1]);
    EXPECT_EQ(CursorText(std::move(first)), want[0]);
  }
  const uint64_t before = PlanSparesTaken();
  for (size_t i = 2; i < values.size(); ++i) {
    EXPECT_EQ(CursorText((*stmt)->Query(values[i])), want[i]) << "run " << i;
  }
  EXPECT_EQ(PlanSparesTaken() - before, 3u);
  // The answers differ between values, so a copy that kept its last run's
  // ranges would show.
  EXPECT_NE(want[2], want[3]);
  EXPECT_NE(want[3], want[4]);
}

TEST_F(PlanCacheTest, ThreadsShareAPreparedStatement) {
  // Runs on several threads take and give back copies of one template's
  // plan at once; each answer must be its own values' (fixed values, so
  // the test is deterministic whatever the threads' interleaving).
  const std::string sql =
      "SELECT id, name FROM t WHERE a = ? AND b >= ? ORDER BY id";
  std::vector<Params> values;
  std::vector<std::string> want;
  for (int a = 0; a < 6; ++a) {
    for (int b = 0; b < 5; b += 2) {
      values.push_back({I(a), I(b)});
      Exec(*db_, "PRAGMA disable_rules = 'plan_cache'");
      want.push_back(CursorText(db_->Query(sql, values.back())));
      Exec(*db_, "PRAGMA disable_rules = ''");
    }
  }
  auto stmt = db_->Prepare(sql);
  ASSERT_TRUE(stmt.ok()) << stmt.status().ToString();
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 60; ++k) {
        const size_t i = (static_cast<size_t>(t) * 7 + k * 5) % values.size();
        if (CursorText((*stmt)->Query(values[i])) != want[i]) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(PlanCacheTest, SchemaChangeMakesANewPlan) {
  auto stmt = db_->Prepare("SELECT id FROM t WHERE b = ? ORDER BY id");
  ASSERT_TRUE(stmt.ok());
  EXPECT_EQ(CursorText((*stmt)->Query({I(2)})),
            CursorText(db_->Query("SELECT id FROM t WHERE b = 2 ORDER BY id")));
  EXPECT_EQ(CursorText((*stmt)->Query({I(3)})),
            CursorText(db_->Query("SELECT id FROM t WHERE b = 3 ORDER BY id")));
  Exec(*db_, "DROP INDEX t_b");
  Exec(*db_, "INSERT INTO t VALUES (100, 1, 2, 'x')");
  // The plan kept for the old catalog read t_b, which has no entry for row
  // 100: the answers below include it only if the run planned afresh. The
  // new plan is kept and reused (each run counts one reuse: the first is
  // the new template's copy).
  // (The answers are read first: Database::Query keeps plans too.)
  const std::string two =
      CursorText(db_->Query("SELECT id FROM t WHERE b = 2 ORDER BY id"));
  const std::string three =
      CursorText(db_->Query("SELECT id FROM t WHERE b = 3 ORDER BY id"));
  uint64_t before = PlanReuses();
  EXPECT_EQ(CursorText((*stmt)->Query({I(2)})), two);
  EXPECT_EQ(PlanReuses() - before, 1u);  // the new template's own copy
  before = PlanReuses();
  EXPECT_EQ(CursorText((*stmt)->Query({I(3)})), three);
  EXPECT_EQ(PlanReuses() - before, 1u);
}

TEST_F(PlanCacheTest, SubqueriesRunAgainOnEachExecution) {
  // A prepared statement's subqueries run on each execution, after the
  // data they read changed too: a kept plan never answers with another
  // run's subquery values.
  const std::vector<std::pair<std::string, Params>> queries = {
      {"SELECT id FROM t WHERE a IN (SELECT a FROM u WHERE label >= ?) "
       "ORDER BY id",
       {{T("o")}}},
      {"SELECT id FROM t WHERE b = (SELECT max(a) FROM u WHERE a < ?) "
       "ORDER BY id",
       {{I(6)}}},
      {"SELECT count(*) FROM t WHERE EXISTS (SELECT 1 FROM u WHERE a = ?)",
       {{I(4)}}},
      {"SELECT id FROM t WHERE a NOT IN (SELECT a FROM u WHERE a > ?) AND "
       "id < 20 ORDER BY id",
       {{I(2)}}},
  };
  const char* changes[] = {
      "DELETE FROM u WHERE a = 1", "INSERT INTO u VALUES (4, 'four')",
      "UPDATE u SET label = 'a' WHERE a = 0", "DELETE FROM u WHERE a >= 3"};
  std::vector<std::set<std::string>> seen(queries.size());
  std::vector<std::unique_ptr<Statement>> stmts;
  for (const auto& [sql, params] : queries) {
    auto stmt = db_->Prepare(sql);
    ASSERT_TRUE(stmt.ok()) << sql << ": " << stmt.status().ToString();
    stmts.push_back(std::move(stmt).value());
  }
  for (size_t round = 0; round <= std::size(changes); ++round) {
    const std::string change =
        round < std::size(changes) ? changes[round] : "the end";
    for (size_t q = 0; q < queries.size(); ++q) {
      const auto& [sql, params] = queries[q];
      Exec(*db_, "PRAGMA disable_rules = 'plan_cache'");
      const std::string want = CursorText(db_->Query(sql, params));
      Exec(*db_, "PRAGMA disable_rules = ''");
      const std::string got = CursorText(stmts[q]->Query(params));
      EXPECT_EQ(got, want) << sql << ", before " << change;
      seen[q].insert(got);
    }
    if (round < std::size(changes)) Exec(*db_, change);
  }
  // Every query's answer changed with the data at least once.
  for (size_t q = 0; q < queries.size(); ++q) {
    EXPECT_GE(seen[q].size(), 2u) << queries[q].first;
  }
}

TEST_F(PlanCacheTest, CorrelatedSubqueriesReuseTheirPlanAcrossOuterRows) {
  // A correlated subquery is planned for its first run's outer values and
  // that plan reused for the other rows' (plan_cache.h), as a prepared
  // statement's is for other parameters: each answer must be the one
  // planned afresh for every row. The outer values include NULL (an empty
  // range), values of another type (REAL, TEXT: another key shape), and
  // values that repeat (answered from the statement's kept values).
  Exec(*db_,
       "CREATE TABLE o (id INTEGER PRIMARY KEY, k INTEGER, r REAL, n TEXT)");
  Exec(*db_,
       "INSERT INTO o VALUES (1, 1, 1.0, 'apple1'), (2, 2, 2.5, 'BERRY2'), "
       "(3, NULL, NULL, NULL), (4, 5, 5.0, 'cherry0'), (5, 1, 0.5, 'x'), "
       "(6, 4, 4.0, 'Apricot2'), (7, 7, -1.0, 'banana1')");
  struct Case {
    std::string sql;
    bool reuses;  // every run after the first reuses the plan
  };
  const std::vector<Case> cases = {
      {"SELECT id, (SELECT count(*) FROM t WHERE t.a = o.k) FROM o", true},
      {"SELECT id, (SELECT max(id) FROM t WHERE t.a = o.k AND t.b = o.id % 5) "
       "FROM o",
       true},
      {"SELECT id, (SELECT label FROM u WHERE u.a = o.k - 1) FROM o", true},
      {"SELECT id, (SELECT count(*) FROM t WHERE t.name = o.n) FROM o", true},
      {"SELECT id, (SELECT count(*) FROM t WHERE t.a = o.r) FROM o", false},
      {"SELECT id, (SELECT min(id) FROM t WHERE t.b > o.k AND t.a = 2) FROM o",
       false},
      {"SELECT id, (SELECT count(*) FROM t WHERE t.a IN (o.k, o.k + 1)) "
       "FROM o",
       false},
      {"SELECT id FROM o WHERE EXISTS (SELECT 1 FROM t JOIN u ON u.a = t.b "
       "WHERE t.a = o.k AND u.label <> 'two')",
       false},
      {"SELECT id, (SELECT count(*) FROM d WHERE d.x = o.n AND d.y > o.k) "
       "FROM o",
       false},
  };
  for (const Case& c : cases) {
    const std::string sql = c.sql + " ORDER BY id";
    Exec(*db_, "PRAGMA disable_rules = 'plan_cache'");
    const std::string want = CursorText(db_->Query(sql));
    Exec(*db_, "PRAGMA disable_rules = ''");
    const uint64_t before = PlanReuses();
    const std::string got = CursorText(db_->Query(sql));
    EXPECT_EQ(got, want) << sql;
    EXPECT_EQ(got.rfind("error", 0), std::string::npos) << got;
    // o.k holds 6 values but NULL; the first run of each plans.
    if (c.reuses) EXPECT_GE(PlanReuses() - before, 5u) << sql;
  }
}

}  // namespace
}  // namespace levelql
