// The statement cache (engine/statement_cache.h): Database::Query run again
// with a SELECT text it ran lately skips parsing, binding and planning, and
// still answers as the text planned afresh would: for other values, after
// writes, after a schema change, inside a transaction, past the capacity.
#include "engine/statement_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/plan/plan_cache.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"

namespace levelql {
namespace {

using testing::CursorText;
using testing::Exec;

std::unique_ptr<Database> Open(size_t entries) {
  Options options;
  options.statement_cache_entries = entries;
  auto db = Database::Open(":memory:", options);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  Exec(**db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, s TEXT)");
  Exec(**db, "CREATE INDEX t_a ON t (a)");
  std::string rows = "INSERT INTO t VALUES ";
  for (int i = 1; i <= 40; ++i) {
    rows += (i > 1 ? ", (" : "(") + std::to_string(i) + ", " +
            std::to_string(i % 7) + ", 's" + std::to_string(i) + "')";
  }
  Exec(**db, rows);
  return std::move(db).value();
}

Value I(int64_t v) { return Value::Int(v); }

// The statement planned afresh: the rule off, so nothing kept is used, and
// another text (a trailing space), so the runs of `sql` are not counted.
std::string Fresh(Database& db, const std::string& sql, const Params& p) {
  Exec(db, "PRAGMA disable_rules = 'plan_cache'");
  std::string text = CursorText(db.Query(sql + " ", p));
  Exec(db, "PRAGMA disable_rules = ''");
  return text;
}

TEST(StatementCacheTest, RepeatedTextReusesItsPlanFromTheSecondRun) {
  auto db = Open(64);
  const std::string sql = "SELECT id, s FROM t WHERE a = ? ORDER BY id";
  std::vector<std::string> want;
  for (int64_t a = 1; a <= 5; ++a) want.push_back(Fresh(*db, sql, {{I(a)}}));
  std::vector<uint64_t> reused;
  for (int64_t a = 1; a <= 5; ++a) {
    const uint64_t before = PlanReuses();
    EXPECT_EQ(CursorText(db->Query(sql, {{I(a)}})), want[a - 1]) << "a " << a;
    reused.push_back(PlanReuses() - before);
  }
  // First run: planned as before; second: the template's own copy; later:
  // reused.
  EXPECT_EQ(reused, (std::vector<uint64_t>{0, 1, 1, 1, 1}));
}

TEST(StatementCacheTest, NoEntriesPlansEveryCall) {
  auto db = Open(0);
  const std::string sql = "SELECT id FROM t WHERE a = ? ORDER BY id";
  const uint64_t before = PlanReuses();
  for (int64_t a : {1, 2, 3}) {
    EXPECT_EQ(CursorText(db->Query(sql, {{I(a)}})), Fresh(*db, sql, {{I(a)}}));
  }
  EXPECT_EQ(PlanReuses() - before, 0u);
}

TEST(StatementCacheTest, WritesAndSchemaChangesAreSeen) {
  auto db = Open(64);
  const std::string sql = "SELECT id, s FROM t WHERE a = ? ORDER BY id";
  for (int i = 0; i < 3; ++i) CursorText(db->Query(sql, {{I(2)}}));
  Exec(*db, "INSERT INTO t VALUES (100, 2, 'new')");
  EXPECT_EQ(CursorText(db->Query(sql, {{I(2)}})), Fresh(*db, sql, {{I(2)}}));
  EXPECT_NE(CursorText(db->Query(sql, {{I(2)}})).find("new"),
            std::string::npos);
  // The kept plan reads t_a; without it (and with a row only the table
  // holds) the text must be bound and planned again.
  Exec(*db, "DROP INDEX t_a");
  Exec(*db, "INSERT INTO t VALUES (101, 2, 'newer')");
  const std::string after = CursorText(db->Query(sql, {{I(2)}}));
  EXPECT_EQ(after, Fresh(*db, sql, {{I(2)}}));
  EXPECT_NE(after.find("newer"), std::string::npos);
  // A column the text names may go: the error, not a stale binding.
  Exec(*db, "DROP TABLE t");
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, b INTEGER)");
  EXPECT_EQ(CursorText(db->Query(sql, {{I(2)}})).rfind("error", 0), 0u);
}

TEST(StatementCacheTest, TransactionsSeeTheirOwnWrites) {
  auto db = Open(64);
  const std::string sql = "SELECT count(*) FROM t WHERE a = ?";
  const std::string outside = CursorText(db->Query(sql, {{I(3)}}));
  CursorText(db->Query(sql, {{I(3)}}));
  auto txn = db->Begin();
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  Exec(**txn, "INSERT INTO t VALUES (200, 3, 'x'), (201, 3, 'y')");
  const std::string inside = CursorText((*txn)->Query(sql, {{I(3)}}));
  EXPECT_NE(inside, outside);
  EXPECT_EQ(CursorText(db->Query(sql, {{I(3)}})), outside);
  ASSERT_TRUE((*txn)->Commit().ok());
  EXPECT_EQ(CursorText(db->Query(sql, {{I(3)}})), inside);
}

TEST(StatementCacheTest, PastTheCapacityTextsAreParsedAgain) {
  auto db = Open(2);
  const std::vector<std::string> texts = {
      "SELECT id FROM t WHERE a = ? ORDER BY id",
      "SELECT s FROM t WHERE a = ? ORDER BY s",
      "SELECT count(*) FROM t WHERE a = ?"};
  std::vector<std::string> want;
  for (int round = 0; round < 3; ++round) {
    for (const std::string& sql : texts) {
      want.push_back(Fresh(*db, sql, {{I(round)}}));
    }
  }
  // Round robin over three texts with room for two: each run finds its
  // text gone (least recently used), so no run reuses a plan.
  const uint64_t before = PlanReuses();
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < texts.size(); ++i) {
      EXPECT_EQ(CursorText(db->Query(texts[i], {{I(round)}})),
                want[round * texts.size() + i]);
    }
  }
  EXPECT_EQ(PlanReuses() - before, 0u);
  // Two texts alternating fit: both reuse.
  const uint64_t two = PlanReuses();
  for (int round = 0; round < 4; ++round) {
    for (size_t i = 0; i < 2; ++i) CursorText(db->Query(texts[i], {{I(1)}}));
  }
  EXPECT_GE(PlanReuses() - two, 4u);
}

TEST(StatementCacheTest, KeepsOnlySelects) {
  StatementCache cache(4);
  StatementCache::Entry found;
  EXPECT_FALSE(cache.Find("SELECT 1", &found));
  cache.Store(std::string(StatementCache::kMaxText + 1, ' '), {});
  EXPECT_FALSE(
      cache.Find(std::string(StatementCache::kMaxText + 1, ' '), &found));
  // Writes through Query run every time (the rows they add show).
  auto db = Open(64);
  for (int i = 0; i < 3; ++i) {
    CursorText(db->Query("INSERT INTO t VALUES (?, 9, 'w')", {{I(300 + i)}}));
  }
  EXPECT_EQ(CursorText(db->Query("SELECT count(*) FROM t WHERE a = 9")),
            Fresh(*db, "SELECT count(*) FROM t WHERE a = 9", {}));
  EXPECT_NE(
      CursorText(db->Query("SELECT count(*) FROM t WHERE a = 9")).find("3"),
      std::string::npos);
}

}  // namespace
}  // namespace levelql
