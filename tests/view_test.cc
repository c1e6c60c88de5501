// Views as stored in the catalog: they survive reopening, a format 3
// database opens as format 4 with its data untouched, a prepared statement
// over a view sees the view made again, tokens resume over a view, and a
// view whose table is dropped fails where it is read and reads again once
// the table is back. A view with GROUP BY (rows of its own) is made for each
// execution, its tokens resume only over the same rows, and its rows stay
// within sort_memory_bytes; one reading the row around a correlated
// subquery is made for each such row. (Their rows are checked against
// SQLite in tests/sql/views.test, derived.test and correlated_from.test.)
#include <gtest/gtest.h>

#include "engine/catalog/catalog.h"
#include "engine/plan/binder.h"
#include "engine/storage/kv_store.h"
#include "indexes/row_format.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/stored_format.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;
using testing::QueryText;
using testing::TempDir;

class ViewTest : public ::testing::Test {
 protected:
  std::unique_ptr<Database> Open() {
    auto db = Database::Open(dir_.path());
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return db.ok() ? std::move(*db) : nullptr;
  }

  void SetFormat(const std::string& version) {
    testing::SetStoredFormat(dir_.path(), version);
  }
  std::string Format() { return testing::StoredFormat(dir_.path()); }

  TempDir dir_;
};

TEST_F(ViewTest, AViewSurvivesReopening) {
  {
    auto db = Open();
    Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
    Exec(*db, "INSERT INTO t VALUES (1, 5), (2, 7), (3, 9)");
    Exec(*db, "CREATE VIEW big (i, x) AS SELECT id, a FROM t WHERE a > 6");
    Exec(*db, "CREATE VIEW bigger AS SELECT i FROM big WHERE x > 8");
  }
  auto db = Open();
  EXPECT_EQ(QueryText(*db, "SELECT * FROM big ORDER BY i"), "(2, 7)(3, 9)");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM bigger"), "(3)");
  bool listed = false;
  for (const SchemaEntry& e : db->Schema()) {
    if (e.kind == "view" && e.name == "big") {
      listed = true;
      EXPECT_EQ(e.sql,
                "CREATE VIEW big (i, x) AS SELECT id, a FROM t WHERE a > 6");
    }
  }
  EXPECT_TRUE(listed);
  Exec(*db, "DROP VIEW bigger");
  db.reset();
  db = Open();
  EXPECT_NE(QueryText(*db, "SELECT * FROM bigger").find("no table bigger"),
            std::string::npos);
}

TEST_F(ViewTest, FormatThreeOpensAsTheCurrentAndALaterFormatIsRefused) {
  {
    auto db = Open();
    Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)");
    Exec(*db, "CREATE INDEX t_a ON t (a)");
    Exec(*db, "INSERT INTO t VALUES (1, 'x'), (2, 'y')");
  }
  EXPECT_EQ(Format(), "5");
  SetFormat("3");
  {
    auto db = Open();
    EXPECT_EQ(QueryText(*db, "SELECT id FROM t WHERE a = 'y'"), "(2)");
    EXPECT_TRUE(db->Execute("CHECK").ok());
    Exec(*db, "CREATE VIEW v AS SELECT a FROM t");
  }
  EXPECT_EQ(Format(), "5");
  SetFormat("6");
  auto db = Database::Open(dir_.path());
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().message(),
            "database format version 6 is not supported by this build (it "
            "reads versions 1 to 5)");
}

TEST_F(ViewTest, APreparedStatementSeesTheViewMadeAgain) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (1, 5), (2, 7), (3, 9)");
  Exec(*db, "CREATE VIEW v AS SELECT id FROM t WHERE a > 6");
  auto stmt = db->Prepare("SELECT id FROM v WHERE id < ? ORDER BY id");
  ASSERT_TRUE(stmt.ok()) << stmt.status().ToString();
  Params p;
  p.positional = {Value::Int(10)};
  EXPECT_EQ(testing::CursorText((*stmt)->Query(p)), "(2)(3)");
  Exec(*db, "DROP VIEW v");
  Exec(*db, "CREATE VIEW v AS SELECT id FROM t WHERE a < 8");
  EXPECT_EQ(testing::CursorText((*stmt)->Query(p)), "(1)(2)");
  // Through the statement cache too.
  EXPECT_EQ(QueryText(*db, "SELECT id FROM v ORDER BY id"), "(1)(2)");
  Exec(*db, "DROP VIEW v");
  Exec(*db, "CREATE VIEW v AS SELECT id FROM t WHERE a = 9");
  EXPECT_EQ(QueryText(*db, "SELECT id FROM v ORDER BY id"), "(3)");
}

TEST_F(ViewTest, ATokenResumesOverAView) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
  Exec(*db, "CREATE INDEX t_a ON t (a)");
  for (int i = 1; i <= 20; ++i) {
    Exec(*db, "INSERT INTO t VALUES (" + std::to_string(i) + ", " +
                  std::to_string(i % 4) + ")");
  }
  Exec(*db, "CREATE VIEW v AS SELECT id, a FROM t WHERE a > 0");
  auto stmt = db->Prepare("SELECT id FROM v WHERE a = 2 ORDER BY id");
  ASSERT_TRUE(stmt.ok());
  auto cur = (*stmt)->Query();
  ASSERT_TRUE(cur.ok());
  ASSERT_TRUE((*cur)->Next());
  ASSERT_TRUE((*cur)->Next());
  EXPECT_EQ((*cur)->row()[0].int_value(), 6);
  const std::string token = (*cur)->ContinuationToken();
  // A row inserted before the position does not move it.
  Exec(*db, "INSERT INTO t VALUES (0, 2)");
  EXPECT_EQ(testing::CursorText((*stmt)->Resume(token)), "(10)(14)(18)");
}

TEST_F(ViewTest, AViewOfADroppedTableFailsWhereItIsRead) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (1, 5)");
  Exec(*db, "CREATE VIEW v AS SELECT a FROM t");
  Exec(*db, "DROP TABLE t");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM v"),
            "error: NotFound: in view v: at 1:32: no table t");
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (2, 8)");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM v"), "(8)");
}

// A view with GROUP BY is read as a table of its rows, made for each
// execution: a prepared statement sees the writes before it.
TEST_F(ViewTest, AGroupedViewIsMadeForEachExecution) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (1, 5), (2, 5), (3, 9)");
  Exec(*db, "CREATE VIEW g AS SELECT a, count(*) AS n FROM t GROUP BY a");
  auto stmt = db->Prepare("SELECT a, n FROM g WHERE n >= ? ORDER BY a");
  ASSERT_TRUE(stmt.ok()) << stmt.status().ToString();
  Params p;
  p.positional = {Value::Int(1)};
  EXPECT_EQ(testing::CursorText((*stmt)->Query(p)), "(5, 2)(9, 1)");
  Exec(*db, "INSERT INTO t VALUES (4, 9), (5, 7)");
  EXPECT_EQ(testing::CursorText((*stmt)->Query(p)), "(5, 2)(7, 1)(9, 2)");
  p.positional = {Value::Int(2)};
  EXPECT_EQ(testing::CursorText((*stmt)->Query(p)), "(5, 2)(9, 2)");
  // Inside a transaction, its own writes too; none of its rows is stored.
  Exec(*db, "BEGIN");
  Exec(*db, "DELETE FROM t WHERE a = 5");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM g"), "(7, 1)(9, 2)");
  Exec(*db, "ROLLBACK");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM g"), "(3)");
  db.reset();
  auto store = OpenLevelDbStore(dir_.path(), Options());
  ASSERT_TRUE(store.ok());
  auto it = (*store)->NewIterator(nullptr);
  it->Seek(rows::IdPrefix(kFirstDerivedTableId - 1000));
  if (it->Valid()) {
    EXPECT_GE(it->key(), rows::IdPrefix(kFirstDerivedTableId + 1));
  }
}

// A WHERE term on a grouping column is pushed into the view's SELECT (only
// the group asked for is made): the answers stay those of the whole view,
// for each parameter value of a prepared statement.
TEST_F(ViewTest, ATermOnAGroupingColumnIsPushedIntoTheView) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, c INTEGER)");
  Exec(*db, "CREATE INDEX t_a ON t (a)");
  for (int i = 1; i <= 30; ++i) {
    Exec(*db, "INSERT INTO t VALUES (" + std::to_string(i) + ", " +
                  std::to_string(i % 4) + ", " + std::to_string(i) + ")");
  }
  Exec(*db,
       "CREATE VIEW g AS SELECT a, count(*) AS n, sum(c) AS s FROM t "
       "GROUP BY a");
  EXPECT_NE(QueryText(*db, "EXPLAIN SELECT n FROM g WHERE a = 2")
                .find("IndexScan t.t_a [a=2]"),
            std::string::npos);
  auto stmt = db->Prepare("SELECT a, n, s FROM g WHERE a = ? AND n > 0");
  ASSERT_TRUE(stmt.ok()) << stmt.status().ToString();
  for (int a = 0; a < 5; ++a) {
    Params p;
    p.positional = {Value::Int(a)};
    EXPECT_EQ(testing::CursorText((*stmt)->Query(p)),
              QueryText(*db, "SELECT a, count(*), sum(c) FROM t WHERE a = " +
                                 std::to_string(a) + " GROUP BY a"))
        << a;
  }
}

// A token over such rows names a row by its place among them: it resumes
// over the same rows, and is refused once they changed.
TEST_F(ViewTest, ATokenOverAGroupedViewResumesOnlyOverTheSameRows) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
  Exec(*db, "CREATE TABLE other (k INTEGER PRIMARY KEY)");
  for (int i = 1; i <= 20; ++i) {
    Exec(*db, "INSERT INTO t VALUES (" + std::to_string(i) + ", " +
                  std::to_string(i % 5) + ")");
  }
  Exec(*db, "CREATE VIEW g AS SELECT a, count(*) AS n FROM t GROUP BY a");
  auto stmt = db->Prepare("SELECT a FROM g");
  ASSERT_TRUE(stmt.ok());
  auto cur = (*stmt)->Query();
  ASSERT_TRUE(cur.ok());
  ASSERT_TRUE((*cur)->Next());
  ASSERT_TRUE((*cur)->Next());
  EXPECT_EQ((*cur)->row()[0].int_value(), 1);
  const std::string token = (*cur)->ContinuationToken();
  EXPECT_EQ(testing::CursorText((*stmt)->Resume(token)), "(2)(3)(4)");
  // A write elsewhere leaves its rows as they were.
  Exec(*db, "INSERT INTO other VALUES (1)");
  EXPECT_EQ(testing::CursorText((*stmt)->Resume(token)), "(2)(3)(4)");
  // A new group before the position would move every place after it.
  Exec(*db, "INSERT INTO t VALUES (21, -1)");
  auto resumed = (*stmt)->Resume(token);
  ASSERT_FALSE(resumed.ok());
  EXPECT_EQ(resumed.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(resumed.status().message().find("restart the query"),
            std::string::npos)
      << resumed.status().ToString();
}

// Its rows are held in memory within sort_memory_bytes, and past it go to a
// temporary database (derived_spill.h): the same answers either way, also
// for a statement writing what it reads.
TEST_F(ViewTest, RowsMadeForAStatementPastSortMemorySpill) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)");
  Exec(*db, "CREATE TABLE log (n INTEGER)");
  std::string insert = "INSERT INTO t VALUES ";
  for (int i = 1; i <= 200; ++i) {
    insert += (i > 1 ? ", (" : "(") + std::to_string(i) + ", '" +
              std::string(40, 'a' + i % 26) + std::to_string(i) + "')";
  }
  Exec(*db, insert);
  for (const char* budget : {"4096", "1048576"}) {
    Exec(*db, std::string("PRAGMA sort_memory_bytes = ") + budget);
    EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM (SELECT DISTINCT s FROM t)"),
              "(200)")
        << budget;
    Exec(*db,
         "INSERT INTO log SELECT count(*) FROM (SELECT DISTINCT s FROM t)");
  }
  EXPECT_EQ(QueryText(*db, "SELECT n FROM log"), "(200)(200)");
}

// A subquery in FROM reading the row around a correlated subquery is made
// again for each such row, its rows its own: never among another row's, and
// counted against sort_memory_bytes each time (not all the runs together).
TEST_F(ViewTest, RowsMadeForEachOuterRowAreThatRowsAlone) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)");
  Exec(*db, "CREATE TABLE o (k INTEGER PRIMARY KEY)");
  std::string insert = "INSERT INTO t VALUES ";
  for (int i = 1; i <= 200; ++i) {
    insert += (i > 1 ? ", (" : "(") + std::to_string(i) + ", '" +
              std::string(40, 'a' + i % 26) + std::to_string(i) + "')";
  }
  Exec(*db, insert);
  Exec(*db, "INSERT INTO o VALUES (0), (1), (2), (3), (4), (5), (6), (7)");
  const std::string per_k =
      "SELECT k, (SELECT count(*) || ':' || max(id) FROM (SELECT DISTINCT "
      "s, id FROM t WHERE t.id % 8 = o.k)) FROM o ORDER BY k";
  const std::string expected =
      "(0, 25:200)(1, 25:193)(2, 25:194)(3, 25:195)(4, 25:196)(5, 25:197)"
      "(6, 25:198)(7, 25:199)";
  EXPECT_EQ(QueryText(*db, per_k), expected);
  // 25 rows of ~50 bytes a run fit in 4 KiB; the 200 of all runs do not,
  // and nearly 200 of each run below go to a temporary database each time.
  Exec(*db, "PRAGMA sort_memory_bytes = 4096");
  EXPECT_EQ(QueryText(*db, per_k), expected);
  EXPECT_EQ(QueryText(*db,
                      "SELECT k, (SELECT count(*) FROM (SELECT DISTINCT s "
                      "FROM t WHERE t.id > o.k)) FROM o ORDER BY k"),
            "(0, 200)(1, 199)(2, 198)(3, 197)(4, 196)(5, 195)(6, 194)(7, 193)");
}

}  // namespace
}  // namespace levelql
