// Views as stored in the catalog: they survive reopening, a format 3
// database opens as format 4 with its data untouched, a prepared statement
// over a view sees the view made again, tokens resume over a view, and a
// view whose table is dropped fails where it is read and reads again once
// the table is back. (Their rows are checked against SQLite in
// tests/sql/views.test.)
#include <gtest/gtest.h>

#include "engine/catalog/catalog.h"
#include "engine/storage/kv_store.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"
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
    auto store = OpenLevelDbStore(dir_.path(), Options());
    ASSERT_TRUE(store.ok());
    WriteBatch batch;
    batch.Put(std::string(kFormatKey), version);
    ASSERT_TRUE((*store)->Write(batch, true).ok());
  }

  std::string Format() {
    auto store = OpenLevelDbStore(dir_.path(), Options());
    std::string v;
    EXPECT_TRUE((*store)->Get(nullptr, kFormatKey, &v).ok());
    return v;
  }

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

TEST_F(ViewTest, FormatThreeOpensAsFourAndALaterFormatIsRefused) {
  {
    auto db = Open();
    Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)");
    Exec(*db, "CREATE INDEX t_a ON t (a)");
    Exec(*db, "INSERT INTO t VALUES (1, 'x'), (2, 'y')");
  }
  EXPECT_EQ(Format(), "4");
  SetFormat("3");
  {
    auto db = Open();
    EXPECT_EQ(QueryText(*db, "SELECT id FROM t WHERE a = 'y'"), "(2)");
    EXPECT_TRUE(db->Execute("CHECK").ok());
    Exec(*db, "CREATE VIEW v AS SELECT a FROM t");
  }
  EXPECT_EQ(Format(), "4");
  SetFormat("5");
  auto db = Database::Open(dir_.path());
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().message(),
            "database format version 5 is not supported by this build (it "
            "reads versions 1 to 4)");
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

}  // namespace
}  // namespace levelql
