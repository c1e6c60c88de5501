// Ranked indexes (CREATE INDEX ... WITH (ranked)): OFFSET and COUNT(*) read
// from the index's counts must equal what stepping the same index gives,
// after any mix of inserts, deletes and updates, forward and backward, over
// one span or several, and CHECK must find the counts right. Two tables hold
// the same rows, one with a ranked index and one with the same index plain;
// every query runs on both (a fixed seed; LEVELQL_SEED replays another).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "engine/catalog/catalog.h"
#include "engine/storage/kv_store.h"
#include "indexes/row_format.h"
#include "levelql/database.h"
#include "tests/support/env.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;

using testing::OpenMemory;
using testing::QueryText;

// `sql` with `@t` standing for the table `table`.
std::string On(std::string sql, const char* table) {
  for (size_t at; (at = sql.find("@t")) != std::string::npos;) {
    sql.replace(at, 2, table);
  }
  return sql;
}

// Runs `sql` on both tables.
void ExpectSame(Database& db, const std::string& sql) {
  const std::string ranked = On(sql, "r"), plain = On(sql, "p");
  const std::string got = QueryText(db, ranked);
  ASSERT_EQ(got.rfind("error", 0), std::string::npos) << ranked << ": " << got;
  ASSERT_EQ(got, QueryText(db, plain)) << ranked;
}

// COUNT(*) per group, counted in runs of keys (through the counts on the
// ranked table, by stepping on the plain one), against count(id), which
// reads every row one by one.
void ExpectSameGroups(Database& db, const std::string& sql) {
  ExpectSame(db, sql);
  std::string by_rows = sql;
  by_rows.replace(by_rows.find("count(*)"), 8, "count(id)");
  ASSERT_EQ(QueryText(db, On(sql, "r")), QueryText(db, On(by_rows, "r")))
      << sql;
}

TEST(RankedIndex, GroupCountsSkipRunsThroughTheCounts) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE r (id INTEGER PRIMARY KEY, g INTEGER, s INTEGER);"
       "CREATE INDEX r_gs ON r (g, s DESC) WITH (ranked);"
       "INSERT INTO r VALUES (1, 1, 10), (2, 1, 20), (3, 2, 5), (4, 1, 10),"
       "(5, NULL, 1), (6, 2, 5)");
  const std::string sql = "SELECT g, count(*) FROM r GROUP BY g";
  auto plan = db->Explain(sql);
  ASSERT_TRUE(plan.ok());
  EXPECT_NE(plan->find("counting runs of keys"), std::string::npos) << *plan;
  EXPECT_EQ(QueryText(*db, sql), "(NULL, 1)(1, 3)(2, 2)");
  EXPECT_EQ(QueryText(*db,
                      "SELECT g, s, count(*) FROM r WHERE g >= 1 GROUP BY g, "
                      "s ORDER BY g DESC"),
            "(2, 5, 2)(1, 20, 1)(1, 10, 2)");
  // Keys read: one per group, not one per row.
  auto analyzed = db->Explain("EXPLAIN ANALYZE " + sql);
  ASSERT_TRUE(analyzed.ok());
  EXPECT_NE(analyzed->find("actual 3 rows, 3 keys"), std::string::npos)
      << *analyzed;
}

TEST(RankedIndex, PlansUseTheCountsForOffsetAndCount) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE r (id INTEGER PRIMARY KEY, g INTEGER, s INTEGER);"
       "CREATE INDEX r_gs ON r (g, s DESC) WITH (ranked);"
       "INSERT INTO r VALUES (1, 1, 10), (2, 1, 20), (3, 2, 5)");
  auto plan = db->Explain(
      "SELECT id FROM r WHERE g = 1 ORDER BY s DESC LIMIT 1 OFFSET 1");
  ASSERT_TRUE(plan.ok());
  EXPECT_NE(plan->find("Skip 1"), std::string::npos) << *plan;
  EXPECT_NE(plan->find("ranked"), std::string::npos) << *plan;
  EXPECT_EQ(QueryText(*db,
                      "SELECT id FROM r WHERE g = 1 ORDER BY s DESC "
                      "LIMIT 1 OFFSET 1"),
            "(1)");
  // COUNT(*) reads no entry: EXPLAIN ANALYZE shows one key read (the
  // scan's first), not every entry in the range.
  auto analyzed =
      db->Explain("EXPLAIN ANALYZE SELECT count(*) FROM r WHERE g >= 1");
  ASSERT_TRUE(analyzed.ok());
  EXPECT_NE(analyzed->find("actual 1 rows, 1 keys"), std::string::npos)
      << *analyzed;
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM r WHERE g >= 1"), "(3)");
  Exec(*db, "CHECK");
}

TEST(RankedIndex, OffsetsAndCountsEqualThePlainIndexThroughRandomWrites) {
  const auto seeds = testing::TestSeeds("ranked_index_test", {7340113});
  for (uint64_t seed : seeds) {
    SCOPED_TRACE("LEVELQL_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto db = OpenMemory();
    Exec(*db,
         "CREATE TABLE r (id INTEGER PRIMARY KEY, g INTEGER, s INTEGER);"
         "CREATE TABLE p (id INTEGER PRIMARY KEY, g INTEGER, s INTEGER);"
         "CREATE INDEX p_gs ON p (g, s DESC)");
    auto pick = [&](int n) { return static_cast<int>(rng() % n); };
    // Rows before the index exists: CREATE INDEX builds the counts in bulk.
    std::string rows;
    for (int id = 1; id <= 600; ++id) {
      rows += std::string(rows.empty() ? "" : ", ") + "(" + std::to_string(id) +
              ", " + std::to_string(pick(6)) + ", " +
              std::to_string(pick(2000)) + ")";
    }
    Exec(*db,
         "INSERT INTO r VALUES " + rows + "; INSERT INTO p VALUES " + rows);
    Exec(*db, "CREATE INDEX r_gs ON r (g, s DESC) WITH (ranked)");
    int next_id = 601;
    for (int round = 0; round < 40; ++round) {
      // A write: counted in and out row by row.
      std::string write;
      switch (pick(4)) {
        case 0: {
          std::string values;
          for (int k = pick(30) + 1; k > 0; --k) {
            values += std::string(values.empty() ? "" : ", ") + "(" +
                      std::to_string(next_id++) + ", " +
                      std::to_string(pick(6)) + ", " +
                      std::to_string(pick(2000)) + ")";
          }
          write = "INSERT INTO @t VALUES " + values;
          break;
        }
        case 1:
          write = "DELETE FROM @t WHERE id % " + std::to_string(pick(20) + 7) +
                  " = " + std::to_string(pick(7));
          break;
        case 2:
          write = "UPDATE @t SET s = s + " + std::to_string(pick(50)) +
                  " WHERE g = " + std::to_string(pick(6));
          break;
        default:
          write = "UPDATE @t SET g = " + std::to_string(pick(6)) +
                  " WHERE id % 17 = " + std::to_string(pick(17));
          break;
      }
      for (const char* t : {"r", "p"}) Exec(*db, On(write, t));
      // Reads: OFFSET over one span and over several, both directions,
      // past the end; COUNT over points, ranges and everything.
      const std::string g = std::to_string(pick(6));
      const std::string off = std::to_string(pick(200));
      ExpectSame(*db, "SELECT id FROM @t WHERE g = " + g +
                          " ORDER BY s DESC LIMIT 3 OFFSET " + off);
      ExpectSame(*db, "SELECT id FROM @t WHERE g = " + g +
                          " ORDER BY s LIMIT 3 OFFSET " + off);
      ExpectSame(*db, "SELECT id, s FROM @t WHERE g >= " + g +
                          " ORDER BY g, s DESC LIMIT 4 OFFSET " +
                          std::to_string(pick(800)));
      ExpectSame(*db, "SELECT id FROM @t WHERE g = " + g +
                          " AND s < 1000 ORDER BY s DESC LIMIT 2 OFFSET " +
                          off);
      ExpectSame(*db, "SELECT count(*) FROM @t WHERE g = " + g);
      ExpectSame(*db, "SELECT count(*) FROM @t WHERE g BETWEEN " + g + " AND " +
                          std::to_string(pick(6) + 2));
      ExpectSame(*db, "SELECT count(*) FROM @t WHERE g IN (1, " + g + ", 4)");
      ExpectSame(*db, "SELECT count(*) FROM @t WHERE g = " + g +
                          " AND s >= " + std::to_string(pick(2000)));
      ExpectSame(*db, "SELECT count(*) FROM @t WHERE g >= 0");
      ExpectSameGroups(*db, "SELECT g, count(*) FROM @t GROUP BY g");
      ExpectSameGroups(*db, "SELECT g, count(*) FROM @t WHERE g >= " + g +
                                " GROUP BY g ORDER BY g DESC");
      ExpectSameGroups(*db, "SELECT s, count(*) FROM @t WHERE g = " + g +
                                " GROUP BY s HAVING count(*) > 1");
      ExpectSameGroups(*db, "SELECT g, s % 3, count(*) FROM @t GROUP BY g, 2");
      ExpectSameGroups(
          *db, "SELECT g, s, count(*) FROM @t WHERE g BETWEEN 1 AND " + g +
                   " GROUP BY g, s LIMIT 5 OFFSET " + std::to_string(pick(20)));
    }
    Exec(*db, "CHECK");
  }
}

TEST(RankedIndex, RebuildsKeepTheCountsRight) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE r (id INTEGER PRIMARY KEY, g INTEGER);"
       "CREATE INDEX r_g ON r (g) WITH (ranked);"
       "INSERT INTO r VALUES (1, 1), (2, 2), (3, 3)");
  Exec(*db, "CHECK");
  Exec(*db, "REINDEX r_g; CHECK; REINDEX r; CHECK; DROP INDEX r_g; CHECK");
  Exec(*db, "CREATE INDEX r_g ON r (g) WITH (ranked); CHECK");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM r WHERE g > 1"), "(2)");
}

TEST(RankedIndex, CheckFindsACountThatDisagrees) {
  testing::TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db,
         "CREATE TABLE r (id INTEGER PRIMARY KEY, g INTEGER);"
         "CREATE INDEX r_g ON r (g) WITH (ranked);"
         "INSERT INTO r VALUES (1, 1), (2, 2), (3, 3)");
  }
  {
    // The record's fourth component is the count range's id; its level 1
    // sentinel (level byte 01, suffix ff) gets one count too many.
    auto store = OpenLevelDbStore(dir.path(), Options());
    ASSERT_TRUE(store.ok());
    std::string record;
    ASSERT_TRUE((*store)->Get(nullptr, IndexRecordKey("r_g"), &record).ok());
    std::string_view in = record;
    Value v;
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE(keys::DecodeValue(&in, keys::Direction::kAsc, &v).ok());
    }
    const std::string sentinel =
        rows::IdPrefix(v.int_value()) + std::string("\x01\xff", 2);
    std::string count;
    ASSERT_TRUE((*store)->Get(nullptr, sentinel, &count).ok());
    std::string_view c = count;
    ASSERT_TRUE(keys::DecodeValue(&c, keys::Direction::kAsc, &v).ok());
    std::string wrong;
    keys::EncodeValue(Value::Int(v.int_value() + 1), keys::Direction::kAsc,
                      &wrong);
    WriteBatch batch;
    batch.Put(sentinel, wrong);
    ASSERT_TRUE((*store)->Write(batch, true).ok());
  }
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok());
  Status s = (*db)->Execute("CHECK");
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("ranked index"), std::string::npos)
      << s.ToString();
  Exec(**db, "REINDEX r_g");
  Exec(**db, "CHECK");
}

}  // namespace
}  // namespace levelql
