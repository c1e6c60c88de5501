// Kept runs (engine/select_cursor.h, BoundQuery::KeepRun): a prepared
// SELECT whose reused plan differs between runs only in its scans' point
// keys keeps the operators of an ended run and starts the next run in them
// (RowSource::Park and Rewind). Every run must answer as the same SQL
// planned afresh: for its own values, at its own snapshot, in its own
// transaction, and after a schema change. Each case also counts the
// restarts, so a case that silently stopped keeping runs shows.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "engine/select_cursor.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"

namespace levelql {
namespace {

using testing::CursorText;
using testing::Exec;
using testing::OpenMemory;

Value I(int64_t v) { return Value::Int(v); }
Value T(const std::string& s) { return Value::Text(s); }

class KeptRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = OpenMemory();
    Exec(*db_,
         "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, "
         "name TEXT)");
    Exec(*db_, "CREATE INDEX t_ab ON t (a, b)");
    std::string insert = "INSERT INTO t VALUES ";
    for (int i = 1; i <= 60; ++i) {
      insert += (i > 1 ? ", (" : "(") + std::to_string(i) + ", " +
                std::to_string(i % 6) + ", " + std::to_string(i % 5) + ", 'n" +
                std::to_string(i * 7 % 13) + "')";
    }
    Exec(*db_, insert);
    Exec(*db_, "CREATE TABLE u (a INTEGER PRIMARY KEY, label TEXT)");
    Exec(*db_,
         "INSERT INTO u VALUES (0, 'zero'), (1, 'one'), (2, 'two'), "
         "(3, 'three'), (5, 'five')");
  }

  // `sql` with `p`, planned afresh (no plan reuse, so no kept run).
  std::string Fresh(const std::string& sql, const Params& p) {
    Exec(*db_, "PRAGMA disable_rules = 'plan_cache'");
    std::string text = CursorText(db_->Query(sql, p));
    Exec(*db_, "PRAGMA disable_rules = ''");
    return text;
  }

  // Runs `sql` prepared once with each of `values` and compares each run
  // with the same values planned afresh; returns the restarts of kept runs.
  uint64_t Check(const std::string& sql, const std::vector<Params>& values) {
    auto stmt = db_->Prepare(sql);
    EXPECT_TRUE(stmt.ok()) << sql << ": " << stmt.status().ToString();
    if (!stmt.ok()) return 0;
    uint64_t restarted = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      const std::string want = Fresh(sql, values[i]);
      const uint64_t before = KeptRunsRestarted();
      EXPECT_EQ(CursorText((*stmt)->Query(values[i])), want)
          << sql << ", run " << i + 1;
      restarted += KeptRunsRestarted() - before;
    }
    return restarted;
  }

  std::unique_ptr<Database> db_;
};

TEST_F(KeptRunTest, EachRunAnswersItsOwnValues) {
  // Runs 2, 3 and 10 restart a kept run (61 has no row). Text, a real and
  // NULL are no key of the recipe: their runs end the kept one and plan by
  // the general reuse, whose runs are not kept; the next run after each
  // builds its operators anew and keeps them.
  EXPECT_EQ(Check("SELECT * FROM t WHERE id = ?", {{I(5)},
                                                   {I(60)},
                                                   {I(61)},
                                                   {T("7")},
                                                   {I(9)},
                                                   {Value::Real(2.5)},
                                                   {I(2)},
                                                   {Value::Null()},
                                                   {I(3)},
                                                   {I(3)}}),
            3u);
}

TEST_F(KeptRunTest, ExpressionsAndProjections) {
  EXPECT_EQ(Check("SELECT name, id * 2, a + b FROM t WHERE id = abs(?) + 1",
                  {{I(4)}, {I(-10)}, {I(58)}, {I(59)}, {I(0)}}),
            4u);
  // A term no point key answers: the general reuse, whose runs are not
  // kept.
  EXPECT_EQ(Check("SELECT id FROM t WHERE id = ? AND name = ?",
                  {{I(6), T("n3")}, {I(7), T("n10")}, {I(7), T("n1")}}),
            0u);
}

TEST_F(KeptRunTest, IndexScansSkipsAndJoins) {
  // An index scan (its iterator let go when the run parks, opened again on
  // the next run's snapshot), OFFSET on an index-only scan's keys, and a
  // merge join whose both scans take their keys from the value.
  EXPECT_EQ(
      Check("SELECT id, name FROM t WHERE a = ? AND b = ?", {{I(1), I(1)},
                                                             {I(2), I(2)},
                                                             {I(3), I(4)},
                                                             {I(9), I(9)},
                                                             {I(5), I(0)}}),
      4u);
  EXPECT_EQ(Check("SELECT id, b FROM t WHERE a = ? ORDER BY b LIMIT 3 OFFSET 2",
                  {{I(1)}, {I(2)}, {I(0)}, {I(7)}, {I(4)}}),
            4u);
  EXPECT_EQ(Check("SELECT t.id, u.label FROM t JOIN u ON u.a = t.a WHERE "
                  "t.a = ? ORDER BY t.b, t.id LIMIT 4",
                  {{I(1)}, {I(2)}, {I(4)}, {I(5)}, {I(3)}}),
            4u);
}

TEST_F(KeptRunTest, ReadsAtEachRunsSnapshot) {
  // Each run of a kept primary-key lookup reads at its own snapshot: it
  // sees what was written in between (a stale one would miss the row, then
  // its change). The index scan case below also catches a kept iterator.
  const std::string sql = "SELECT id, name FROM t WHERE id = ?";
  auto stmt = db_->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  const uint64_t before = KeptRunsRestarted();
  EXPECT_EQ(CursorText((*stmt)->Query({I(100)})), Fresh(sql, {I(100)}));
  Exec(*db_, "INSERT INTO t VALUES (100, 1, 1, 'new')");
  const std::string inserted = CursorText((*stmt)->Query({I(100)}));
  EXPECT_NE(inserted.find("new"), std::string::npos) << inserted;
  Exec(*db_, "UPDATE t SET name = 'changed' WHERE id = 100");
  const std::string updated = CursorText((*stmt)->Query({I(100)}));
  EXPECT_NE(updated.find("changed"), std::string::npos) << updated;
  Exec(*db_, "DELETE FROM t WHERE id = 100");
  EXPECT_EQ(CursorText((*stmt)->Query({I(100)})), Fresh(sql, {I(100)}));
  EXPECT_EQ(KeptRunsRestarted() - before, 3u);
}

TEST_F(KeptRunTest, IndexScanReadsAtEachRunsSnapshot) {
  // A kept index scan opens its iterator again on the next run's snapshot
  // (one kept from the run before would miss the rows written since).
  const std::string sql = "SELECT id FROM t WHERE a = ? AND b = ?";
  auto stmt = db_->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  const uint64_t before = KeptRunsRestarted();
  EXPECT_EQ(CursorText((*stmt)->Query({I(1), I(1)})), Fresh(sql, {I(1), I(1)}));
  Exec(*db_, "INSERT INTO t VALUES (101, 1, 1, 'x'), (102, 1, 1, 'y')");
  const std::string added = CursorText((*stmt)->Query({I(1), I(1)}));
  EXPECT_NE(added.find("102"), std::string::npos) << added;
  EXPECT_EQ(added, Fresh(sql, {I(1), I(1)}));
  Exec(*db_, "DELETE FROM t WHERE a = 1 AND b = 1 AND id < 100");
  EXPECT_EQ(CursorText((*stmt)->Query({I(1), I(1)})), Fresh(sql, {I(1), I(1)}));
  EXPECT_EQ(KeptRunsRestarted() - before, 2u);
}

TEST_F(KeptRunTest, ReverseScansRankedOffsetsAndErrors) {
  EXPECT_EQ(Check("SELECT id, b FROM t WHERE a = ? ORDER BY b DESC LIMIT 4",
                  {{I(1)}, {I(2)}, {I(3)}, {I(8)}}),
            3u);
  // OFFSET through a ranked index's counts (SkipKeys on its second
  // iterator, let go and opened again like the first).
  Exec(*db_, "CREATE TABLE r (id INTEGER PRIMARY KEY, g INTEGER, v INTEGER)");
  std::string rows = "INSERT INTO r VALUES ";
  for (int i = 1; i <= 90; ++i) {
    rows += (i > 1 ? ", (" : "(") + std::to_string(i) + ", " +
            std::to_string(i % 3) + ", " + std::to_string(i * 37 % 101) + ")";
  }
  Exec(*db_, rows);
  Exec(*db_, "CREATE INDEX r_gv ON r (g, v) WITH (ranked)");
  EXPECT_EQ(Check("SELECT v FROM r WHERE g = ? ORDER BY v LIMIT 3 OFFSET 7",
                  {{I(0)}, {I(1)}, {I(2)}, {I(1)}}),
            3u);
  // A run that fails (an overflow) and the runs after it.
  EXPECT_EQ(
      Check("SELECT id * ? FROM t WHERE id = ?", {{I(2), I(3)},
                                                  {I(INT64_MAX), I(4)},
                                                  {I(3), I(5)},
                                                  {I(INT64_MAX / 2), I(6)}}),
      3u);
}

TEST_F(KeptRunTest, CursorsDroppedPartWayAndOutlivingTheirStatement) {
  const std::string sql = "SELECT id, b FROM t WHERE a = ? ORDER BY b";
  auto stmt = db_->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  const uint64_t before = KeptRunsRestarted();
  for (int a : {1, 2, 3}) {
    auto cursor = (*stmt)->Query({I(a)});
    ASSERT_TRUE(cursor.ok());
    ASSERT_TRUE((*cursor)->Next());  // one row of several, then dropped
  }
  EXPECT_EQ(CursorText((*stmt)->Query({I(4)})), Fresh(sql, {I(4)}));
  EXPECT_EQ(KeptRunsRestarted() - before, 3u);
  // The last cursor keeps its run into a query its statement no longer
  // holds: both go when the cursor does.
  auto last = (*stmt)->Query({I(5)});
  stmt->reset();
  EXPECT_EQ(CursorText(std::move(last)), Fresh(sql, {I(5)}));
}

TEST_F(KeptRunTest, DatabaseQueryKeepsRunsOfTheTextsItKeeps) {
  // Database::Query's statement cache plans a text's first run plainly,
  // keeps a template from the second, and restarts from the third.
  const std::string sql = "SELECT name FROM t WHERE id = ?";
  const uint64_t before = KeptRunsRestarted();
  for (int id : {10, 20, 30, 40, 50}) {
    const std::string got = CursorText(db_->Query(sql, {I(id)}));
    EXPECT_NE(got.find("n" + std::to_string(id * 7 % 13)), std::string::npos)
        << got;
  }
  EXPECT_EQ(KeptRunsRestarted() - before, 3u);
}

TEST_F(KeptRunTest, OpenCursorsEachHaveTheirRun) {
  // A run is kept only once its cursor is gone; two cursors open at once
  // have two runs, and both are kept for the next two runs.
  const std::string sql = "SELECT * FROM t WHERE id = ?";
  auto stmt = db_->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  {
    auto first = (*stmt)->Query({I(1)});
    auto second = (*stmt)->Query({I(2)});
    EXPECT_EQ(CursorText(std::move(second)), Fresh(sql, {I(2)}));
    EXPECT_EQ(CursorText(std::move(first)), Fresh(sql, {I(1)}));
  }
  const uint64_t before = KeptRunsRestarted();
  {
    auto third = (*stmt)->Query({I(3)});
    auto fourth = (*stmt)->Query({I(4)});
    auto fifth = (*stmt)->Query({I(5)});  // none left: built anew
    EXPECT_EQ(CursorText(std::move(fifth)), Fresh(sql, {I(5)}));
    EXPECT_EQ(CursorText(std::move(third)), Fresh(sql, {I(3)}));
    EXPECT_EQ(CursorText(std::move(fourth)), Fresh(sql, {I(4)}));
  }
  EXPECT_EQ(KeptRunsRestarted() - before, 2u);
}

TEST_F(KeptRunTest, ThreadsShareAPreparedStatement) {
  const std::string sql = "SELECT id, a, name FROM t WHERE id = ?";
  std::vector<std::string> want;
  for (int id = 0; id <= 61; ++id) want.push_back(Fresh(sql, {I(id)}));
  auto stmt = db_->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  const uint64_t before = KeptRunsRestarted();
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 200; ++k) {
        const int id = (t * 17 + k * 7) % 62;
        if (CursorText((*stmt)->Query({I(id)})) != want[id]) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(KeptRunsRestarted() - before, 0u);
}

TEST_F(KeptRunTest, InsideATransaction) {
  // The transaction's view (its own writes) is the store of each run.
  auto txn = db_->Begin();
  ASSERT_TRUE(txn.ok());
  Exec(**txn, "INSERT INTO t VALUES (200, 2, 2, 'mine')");
  Exec(**txn, "DELETE FROM t WHERE id = 3");
  auto stmt = (*txn)->Prepare("SELECT id, name FROM t WHERE id = ?");
  ASSERT_TRUE(stmt.ok());
  const uint64_t before = KeptRunsRestarted();
  for (int id : {200, 3, 4, 200, 3}) {
    const std::string got = CursorText((*stmt)->Query({I(id)}));
    const std::string want = CursorText((*txn)->Query(
        "SELECT id, name FROM t WHERE id = " + std::to_string(id)));
    EXPECT_EQ(got, want) << id;
  }
  EXPECT_EQ(KeptRunsRestarted() - before, 4u);
  ASSERT_TRUE((*txn)->Rollback().ok());
  // Outside it, the same statement text sees neither write.
  EXPECT_EQ(Check("SELECT id, name FROM t WHERE id = ?", {{I(200)}, {I(3)}}),
            1u);
}

TEST_F(KeptRunTest, SchemaChangeEndsKeptRuns) {
  const std::string sql = "SELECT * FROM t WHERE id = ?";
  auto stmt = db_->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  EXPECT_EQ(CursorText((*stmt)->Query({I(8)})), Fresh(sql, {I(8)}));
  EXPECT_EQ(CursorText((*stmt)->Query({I(9)})), Fresh(sql, {I(9)}));
  // Another table of the same name: the kept run's plan and operators
  // belong to the old one.
  Exec(*db_, "DROP TABLE t");
  Exec(*db_, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
  Exec(*db_, "INSERT INTO t VALUES (8, 'eight'), (9, 'nine')");
  const uint64_t before = KeptRunsRestarted();
  const std::string eight = CursorText((*stmt)->Query({I(8)}));
  EXPECT_NE(eight.find("eight"), std::string::npos) << eight;
  EXPECT_EQ(KeptRunsRestarted() - before, 0u);
  EXPECT_EQ(CursorText((*stmt)->Query({I(9)})), Fresh(sql, {I(9)}));
  EXPECT_EQ(KeptRunsRestarted() - before, 1u);
}

TEST_F(KeptRunTest, LimitValuesMustMatchTheKeptPlan) {
  // LIMIT is part of the kept plan: another value plans again (and keeps
  // the new plan), so runs 2 and 4 restart, not 3 and 5.
  EXPECT_EQ(Check("SELECT id FROM t WHERE id = ? LIMIT ?", {{I(5), I(1)},
                                                            {I(6), I(1)},
                                                            {I(7), I(2)},
                                                            {I(8), I(2)},
                                                            {I(9), I(1)}}),
            2u);
}

}  // namespace
}  // namespace levelql
