// Rows of views and subqueries in FROM (and of a FULL JOIN) past
// sort_memory_bytes go to a temporary database (engine/exec/derived_spill.h):
// every query gives the same rows under a 2 KiB budget as under the
// default one (SQLite has no such bound), tokens page through them, the
// directories are gone after, and a TMPDIR that cannot hold one is a clear
// error that changes nothing.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;
using testing::QueryText;

// Sets TMPDIR for the test's life, and puts the old value back.
class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const std::string& dir) {
    if (const char* old = getenv("TMPDIR")) old_ = old;
    setenv("TMPDIR", dir.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (old_.empty()) {
      unsetenv("TMPDIR");
    } else {
      setenv("TMPDIR", old_.c_str(), 1);
    }
  }

 private:
  std::string old_;
};

struct Data {
  std::vector<int> a_keys, b_keys;  // -1: NULL
};

// Tables a and b of 300 rows, k among NULL and 0..3: their FULL JOIN on k
// has about 15,000 rows.
Data Fill(Database& db) {
  Exec(db, "CREATE TABLE a (id INTEGER PRIMARY KEY, k INTEGER, s TEXT)");
  Exec(db, "CREATE TABLE b (id INTEGER PRIMARY KEY, k INTEGER, s TEXT)");
  std::mt19937 rng(20261128);
  Data d;
  for (const char* t : {"a", "b"}) {
    std::string sql = std::string("INSERT INTO ") + t + " VALUES ";
    for (int i = 1; i <= 300; ++i) {
      const int k = static_cast<int>(rng() % 5) - 1;
      (t[0] == 'a' ? d.a_keys : d.b_keys).push_back(k);
      sql += (i > 1 ? "," : "") + std::string("(") + std::to_string(i) + "," +
             (k < 0 ? "NULL" : std::to_string(k)) + ",'" + t +
             std::to_string(i) + "')";
    }
    Exec(db, sql);
  }
  return d;
}

// The rows of `a FULL JOIN b ON a.k = b.k`, counted from the data.
int64_t FullJoinRows(const Data& d) {
  int64_t rows = 0;
  std::vector<bool> b_paired(d.b_keys.size(), false);
  for (int ka : d.a_keys) {
    int64_t paired = 0;
    for (size_t j = 0; j < d.b_keys.size(); ++j) {
      if (ka >= 0 && d.b_keys[j] == ka) {
        ++paired;
        b_paired[j] = true;
      }
    }
    rows += paired > 0 ? paired : 1;
  }
  for (bool p : b_paired) rows += p ? 0 : 1;
  return rows;
}

const char* kFullJoin =
    "(SELECT a.id AS aid, a.k AS ak, b.id AS bid, b.s AS bs FROM a FULL "
    "JOIN b ON a.k = b.k) AS x";

TEST(DerivedSpill, RowsPastTheBudgetGiveTheSameAnswers) {
  TempDir tmp("spill");
  ScopedTmpdir scoped(tmp.path());
  auto db = testing::OpenMemory();
  ASSERT_TRUE(db);
  const Data data = Fill(*db);
  const std::string join = kFullJoin;
  const std::vector<std::string> queries = {
      "SELECT COUNT(*), SUM(x.aid), SUM(x.bid), MAX(x.bs) FROM " + join,
      "SELECT x.ak, COUNT(*) FROM " + join + " GROUP BY x.ak ORDER BY x.ak",
      // A derived table made from another one.
      "SELECT z.ak, z.n FROM (SELECT x.ak AS ak, COUNT(*) AS n FROM " + join +
          " GROUP BY x.ak) AS z ORDER BY z.n DESC, z.ak",
      "SELECT x.aid, x.bid FROM " + join +
          " WHERE x.bid > 290 ORDER BY x.aid DESC, x.bid LIMIT 7",
      // Tables made per outer row by a correlated subquery.
      "SELECT a.id, (SELECT COUNT(*) FROM (SELECT b.id FROM b WHERE b.k = "
      "a.k GROUP BY b.id) AS y) FROM a WHERE a.id % 37 = 0 ORDER BY a.id",
  };
  std::vector<std::string> want;
  for (const std::string& q : queries) want.push_back(QueryText(*db, q));
  EXPECT_EQ(want[0].substr(0, want[0].find(',')),
            "(" + std::to_string(FullJoinRows(data)));
  Exec(*db, "PRAGMA sort_memory_bytes = 2048");
  for (size_t i = 0; i < queries.size(); ++i) {
    EXPECT_EQ(want[i].rfind("error", 0), std::string::npos) << want[i];
    EXPECT_EQ(QueryText(*db, queries[i]), want[i]) << queries[i];
    // Each of them needs the temporary database under this budget.
    ScopedTmpdir none("/nonexistent/levelql-test-tmp");
    EXPECT_EQ(QueryText(*db, queries[i]).rfind("error: IOError", 0), 0u)
        << queries[i];
  }
  // Pages of 1,000 rows, each resumed by the last one's continuation token
  // (the rows are made again, spilled again, for each): every row once, in
  // order.
  const std::string all =
      "SELECT x.aid, x.bid FROM " + join + " ORDER BY x.aid, x.bid";
  const std::string whole = QueryText(*db, all);
  auto pages = db->Prepare(all);
  ASSERT_TRUE(pages.ok()) << pages.status().ToString();
  std::string paged, token;
  int page_count = 0;
  for (bool more = true; more && page_count < 100; ++page_count) {
    auto cursor = token.empty() ? (*pages)->Query() : (*pages)->Resume(token);
    ASSERT_TRUE(cursor.ok()) << cursor.status().ToString();
    int rows = 0;
    while (rows < 1000 && (more = (*cursor)->Next())) {
      const Row& r = (*cursor)->row();
      paged += "(" + r[0].ToString() + ", " + r[1].ToString() + ")";
      ++rows;
    }
    ASSERT_TRUE((*cursor)->status().ok()) << (*cursor)->status().ToString();
    token = (*cursor)->ContinuationToken();
  }
  EXPECT_GT(page_count, 10);
  EXPECT_TRUE(paged == whole)
      << "paged " << paged.size() << " bytes, whole " << whole.size();
  // Every temporary database is gone with its statement.
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

TEST(DerivedSpill, NoTemporaryDirectoryIsAClearErrorThatChangesNothing) {
  auto db = testing::OpenMemory();
  ASSERT_TRUE(db);
  Fill(*db);
  Exec(*db, "CREATE TABLE c (id INTEGER PRIMARY KEY, aid INTEGER)");
  Exec(*db, "PRAGMA sort_memory_bytes = 2048");
  {
    ScopedTmpdir scoped("/nonexistent/levelql-test-tmp");
    const std::string got =
        QueryText(*db, std::string("SELECT COUNT(*) FROM ") + kFullJoin);
    EXPECT_NE(got.find("IOError"), std::string::npos) << got;
    EXPECT_NE(got.find("TMPDIR"), std::string::npos) << got;
    Status insert = db->Execute(
        std::string("INSERT INTO c (aid) SELECT x.aid FROM ") + kFullJoin);
    EXPECT_EQ(insert.code(), Status::Code::kIOError) << insert.ToString();
  }
  EXPECT_EQ(QueryText(*db, "SELECT COUNT(*) FROM c"), "(0)");
  // Within the budget no directory is needed.
  {
    ScopedTmpdir scoped("/nonexistent/levelql-test-tmp");
    EXPECT_EQ(QueryText(*db,
                        "SELECT COUNT(*) FROM (SELECT k FROM a GROUP "
                        "BY k) AS y"),
              "(5)");
  }
}

}  // namespace
}  // namespace levelql
