// ALTER TABLE. ADD COLUMN: rows written before it read the column as its
// DEFAULT, across reopening; what cannot be added is refused and changes
// nothing; a format 4 database opens as format 5; prepared statements and
// continuation tokens made before the change meet the new definition.
// RENAME TO / RENAME COLUMN: the table's and its indexes' definitions and
// statistics follow, a rename a view depends on is refused. DROP COLUMN:
// every row rewritten without it (its indexes rebuilt), and what a key, an
// index or a view reads refused. (The answers
// are checked against SQLite in
// tests/differential/alter_table_differential_test.cc.)
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/stored_format.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;
using testing::QueryText;
using testing::TempDir;

class AlterTableTest : public ::testing::Test {
 protected:
  std::unique_ptr<Database> Open(Options options = Options()) {
    auto db = Database::Open(dir_.path(), options);
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return db.ok() ? std::move(*db) : nullptr;
  }

  std::string Error(Database& db, const std::string& sql) {
    auto r = db.Execute(sql);
    return r.ok() ? "ok" : r.ToString();
  }

  void SetFormat(const std::string& version) {
    testing::SetStoredFormat(dir_.path(), version);
  }
  std::string Format() { return testing::StoredFormat(dir_.path()); }

  TempDir dir_;
};

TEST_F(AlterTableTest, OldRowsReadTheDefaultAcrossReopening) {
  {
    auto db = Open();
    Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)");
    Exec(*db, "INSERT INTO t VALUES (1, 'x'), (2, 'y')");
    Exec(*db, "ALTER TABLE t ADD COLUMN n INTEGER NOT NULL DEFAULT 7");
    Exec(*db, "ALTER TABLE t ADD tags TEXT[] DEFAULT ARRAY['p', 'q']");
    Exec(*db, "ALTER TABLE t ADD s TEXT COLLATE nocase");
    Exec(*db, "INSERT INTO t (id, a, s) VALUES (3, 'z', 'Mixed')");
    EXPECT_EQ(QueryText(*db, "SELECT * FROM t ORDER BY id"),
              "(1, x, 7, [p, q], NULL)(2, y, 7, [p, q], NULL)"
              "(3, z, 7, [p, q], Mixed)");
  }
  auto db = Open();
  EXPECT_EQ(QueryText(*db, "SELECT id, n, s FROM t WHERE s = 'mixed'"),
            "(3, 7, Mixed)");
  // An index over the new columns is built from the rows as they read.
  Exec(*db, "CREATE INDEX t_n ON t (n, id DESC) INCLUDE (a)");
  Exec(*db, "CREATE INDEX t_tags ON t (tags)");
  EXPECT_EQ(QueryText(*db, "SELECT id, a FROM t WHERE n = 7 ORDER BY id DESC"),
            "(3, z)(2, y)(1, x)");
  EXPECT_EQ(QueryText(*db, "SELECT COUNT(*) FROM t WHERE tags = 'q'"), "(3)");
  // An old row rewritten by UPDATE holds every column from then on.
  Exec(*db, "UPDATE t SET n = 8 WHERE id = 1");
  EXPECT_EQ(QueryText(*db, "SELECT id FROM t WHERE n = 8"), "(1)");
  EXPECT_TRUE(db->Execute("CHECK").ok());
  // A UNIQUE index over a column every old row reads the same is refused.
  EXPECT_NE(Error(*db, "CREATE UNIQUE INDEX t_u ON t (tags)"), "ok");
  EXPECT_TRUE(db->Execute("CHECK").ok());
}

TEST_F(AlterTableTest, TablesWithAHiddenRowidOrACollatedKey) {
  auto db = Open();
  Exec(*db, "CREATE TABLE h (a INTEGER, b TEXT)");
  Exec(*db, "INSERT INTO h VALUES (1, 'x'), (2, 'y')");
  Exec(*db, "ALTER TABLE h ADD c REAL DEFAULT 0.5");
  Exec(*db, "INSERT INTO h VALUES (3, 'z', 1.5)");
  // The hidden rowid still names each row (and stays the last column).
  EXPECT_EQ(QueryText(*db, "SELECT rowid, a, c FROM h ORDER BY rowid"),
            "(1, 1, 0.5)(2, 2, 0.5)(3, 3, 1.5)");
  Exec(*db,
       "CREATE TABLE k (name TEXT PRIMARY KEY COLLATE nocase, v INTEGER) "
       "WITH (salt_buckets = 3)");
  Exec(*db, "INSERT INTO k VALUES ('Ann', 1), ('bob', 2)");
  Exec(*db, "ALTER TABLE k ADD w INTEGER DEFAULT -1");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM k WHERE name = 'ANN'"),
            "(Ann, 1, -1)");
  EXPECT_EQ(QueryText(*db, "SELECT name, w FROM k ORDER BY name"),
            "(Ann, -1)(bob, -1)");
  EXPECT_TRUE(db->Execute("CHECK").ok());
}

TEST_F(AlterTableTest, WhatCannotBeAddedIsRefusedAndChangesNothing) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)");
  Exec(*db, "CREATE VIEW v AS SELECT a FROM t");
  Exec(*db, "INSERT INTO t VALUES (1, 'x')");
  const std::string schema = QueryText(*db, "SELECT * FROM t");
  EXPECT_EQ(Error(*db, "ALTER TABLE t ADD b INTEGER PRIMARY KEY"),
            "InvalidArgument: cannot add column b to table t: a PRIMARY KEY "
            "column (the key of every row is already made)");
  EXPECT_EQ(Error(*db, "ALTER TABLE t ADD b INTEGER UNIQUE"),
            "InvalidArgument: cannot add column b to table t: a UNIQUE column "
            "(create the column, then CREATE UNIQUE INDEX)");
  const std::string not_null =
      "InvalidArgument: cannot add column b to table t: NOT NULL needs a "
      "DEFAULT other than NULL (the rows already there read the DEFAULT as "
      "their value)";
  EXPECT_EQ(Error(*db, "ALTER TABLE t ADD b INTEGER NOT NULL"), not_null);
  EXPECT_EQ(Error(*db, "ALTER TABLE t ADD b INTEGER NOT NULL DEFAULT NULL"),
            not_null);
  EXPECT_EQ(Error(*db, "ALTER TABLE t ADD a INTEGER"),
            "InvalidArgument at 1:19: duplicate column a in table t");
  EXPECT_EQ(Error(*db, "ALTER TABLE t ADD b INTEGER DEFAULT 'text'"),
            "TypeError: cannot store 'text' in INTEGER column b");
  EXPECT_EQ(Error(*db, "ALTER TABLE t ADD b INTEGER COLLATE nocase"),
            "TypeError at 1:19: COLLATE applies to TEXT, not to INTEGER "
            "column b");
  EXPECT_EQ(Error(*db, "ALTER TABLE nope ADD b INTEGER"),
            "NotFound: no table nope");
  EXPECT_EQ(Error(*db, "ALTER TABLE v ADD b INTEGER"),
            "InvalidArgument: v is a view: ALTER TABLE changes tables");
  Exec(*db, "BEGIN");
  EXPECT_EQ(Error(*db, "ALTER TABLE t ADD b INTEGER"),
            "NotSupported: ALTER TABLE inside a transaction: DDL, ANALYZE and "
            "REINDEX commit on their own, so they run only outside BEGIN ... "
            "COMMIT; COMMIT or ROLLBACK first");
  Exec(*db, "ROLLBACK");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM t"), schema);
  db.reset();
  Options read_only;
  read_only.read_only = true;
  db = Open(read_only);
  for (const char* alter :
       {"ALTER TABLE t ADD b INTEGER", "ALTER TABLE t RENAME TO u",
        "ALTER TABLE t RENAME a TO c", "ALTER TABLE t DROP COLUMN a"}) {
    EXPECT_EQ(Error(*db, alter),
              "NotSupported: the database is open read-only");
  }
  EXPECT_EQ(QueryText(*db, "SELECT * FROM t"), schema);
}

TEST_F(AlterTableTest, PreparedStatementsAndTokensMeetTheNewDefinition) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)");
  auto star = db->Prepare("SELECT * FROM t WHERE id = ?");
  ASSERT_TRUE(star.ok());
  auto insert = db->Prepare("INSERT INTO t VALUES (?, ?)");
  ASSERT_TRUE(insert.ok());
  auto page = db->Query("SELECT id FROM t ORDER BY id LIMIT 2");
  ASSERT_TRUE(page.ok());
  ASSERT_TRUE((*page)->Next());
  const std::string token = (*page)->ContinuationToken();
  Exec(*db, "ALTER TABLE t ADD b TEXT DEFAULT 'd'");
  auto row = (*star)->Query({Value::Int(2)});
  ASSERT_TRUE(row.ok());
  ASSERT_TRUE((*row)->Next());
  EXPECT_EQ((*row)->row().size(), 3u);
  EXPECT_EQ((*row)->row()[2].text(), "d");
  // Two values for three columns, as a fresh INSERT would be told.
  EXPECT_FALSE((*insert)->Execute({Value::Int(4), Value::Int(40)}).ok());
  auto again = db->Prepare("SELECT id FROM t ORDER BY id LIMIT 2");
  ASSERT_TRUE(again.ok());
  auto resumed = (*again)->Resume(token);
  // Refused (the schema changed), never read against the other definition.
  ASSERT_FALSE(resumed.ok());
  EXPECT_EQ(resumed.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(QueryText(*db, "SELECT COUNT(*) FROM t"), "(3)");
}

TEST_F(AlterTableTest, RenamesRewriteTheRecordsThatNameTheTableOrColumn) {
  {
    auto db = Open();
    Exec(*db,
         "CREATE TABLE t (k TEXT COLLATE nocase, a TEXT, b INTEGER "
         "UNIQUE, PRIMARY KEY (k DESC))");
    Exec(*db, "CREATE INDEX t_a ON t (a, b DESC) INCLUDE (k) WITH (ranked)");
    Exec(*db,
         "INSERT INTO t VALUES ('x', 'p', 1), ('Y', 'q', 2), ('z', 'p', 3)");
    Exec(*db, "ANALYZE t");
    Exec(*db, "ALTER TABLE t RENAME COLUMN k TO key");
    Exec(*db, "ALTER TABLE t RENAME b TO n");
    Exec(*db, "ALTER TABLE t RENAME TO things");
  }
  auto db = Open();
  EXPECT_EQ(QueryText(*db,
                      "SELECT key, n FROM things WHERE a = 'p' "
                      "ORDER BY n DESC"),
            "(z, 3)(x, 1)");
  EXPECT_EQ(QueryText(*db, "SELECT n FROM things WHERE key = 'y'"), "(2)");
  EXPECT_EQ(QueryText(*db,
                      "SELECT key FROM things ORDER BY a, n DESC "
                      "LIMIT 1 OFFSET 1"),
            "(x)");
  // The index keeping the column's UNIQUE follows the table and column, so
  // that it is still known as one: it cannot be dropped.
  EXPECT_EQ(Error(*db, "INSERT INTO things VALUES ('w', 'r', 3)"),
            "ConstraintError: UNIQUE index things_n_unique: duplicate key 3");
  EXPECT_EQ(Error(*db, "DROP INDEX things_n_unique"),
            "InvalidArgument: index things_n_unique keeps the UNIQUE "
            "constraint of column n of table things and cannot be dropped (it "
            "goes with DROP TABLE things)");
  EXPECT_NE(QueryText(*db, "SELECT * FROM t").find("no table t"),
            std::string::npos);
  std::set<std::string> schema;
  for (const SchemaEntry& e : db->Schema()) schema.insert(e.sql);
  EXPECT_EQ(schema,
            (std::set<std::string>{
                "CREATE TABLE things (key TEXT COLLATE nocase, a TEXT, n "
                "INTEGER UNIQUE, PRIMARY KEY (key DESC))",
                "CREATE UNIQUE INDEX things_n_unique ON things (n)",
                "CREATE INDEX t_a ON things (a, n DESC) INCLUDE (key) WITH "
                "(ranked)"}));
  EXPECT_TRUE(db->Execute("CHECK").ok());
  // ANALYZE's statistics moved with the table: the plan still has them.
  EXPECT_NE(QueryText(*db, "EXPLAIN SELECT * FROM things WHERE a = 'p'")
                .find("est 2 rows"),
            std::string::npos);
}

TEST_F(AlterTableTest, AUniqueColumnStaysUniqueThroughRenames) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT UNIQUE)");
  Exec(*db, "CREATE TABLE u_b_unique (x INTEGER)");  // takes that name
  Exec(*db, "INSERT INTO t VALUES (1, 'x')");
  Exec(*db, "ANALYZE t");
  Exec(*db, "ALTER TABLE t RENAME TO u");
  // (u_b_unique is a table's name: the index takes the next free one.)
  EXPECT_EQ(Error(*db, "DROP INDEX u_b_unique_"),
            "InvalidArgument: index u_b_unique_ keeps the UNIQUE constraint of "
            "column b of table u and cannot be dropped (it goes with DROP "
            "TABLE u)");
  Exec(*db, "ALTER TABLE u RENAME COLUMN b TO c");
  EXPECT_EQ(Error(*db, "DROP INDEX u_c_unique"),
            "InvalidArgument: index u_c_unique keeps the UNIQUE constraint of "
            "column c of table u and cannot be dropped (it goes with DROP "
            "TABLE u)");
  EXPECT_EQ(Error(*db, "INSERT INTO u VALUES (2, 'x')"),
            "ConstraintError: UNIQUE index u_c_unique: duplicate key 'x'");
  EXPECT_EQ(Error(*db, "ALTER TABLE u DROP COLUMN c"),
            "InvalidArgument: cannot drop column c of table u: a UNIQUE "
            "column");
  db.reset();
  db = Open();
  EXPECT_EQ(Error(*db, "DROP INDEX u_c_unique"),
            "InvalidArgument: index u_c_unique keeps the UNIQUE constraint of "
            "column c of table u and cannot be dropped (it goes with DROP "
            "TABLE u)");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM u"), "(1, x)");
  EXPECT_TRUE(db->Execute("CHECK").ok());
}

TEST_F(AlterTableTest, RenameToRewritesTheViewsThatReadTheTable) {
  {
    auto db = Open();
    Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)");
    Exec(*db, "CREATE TABLE x (id INTEGER PRIMARY KEY, t INTEGER)");
    Exec(*db, "INSERT INTO t VALUES (1, 'p'), (2, 'q'), (3, 'r')");
    Exec(*db, "INSERT INTO x VALUES (2, 20), (3, 30), (4, 40)");
    const std::vector<std::string> views = {
        "CREATE VIEW v1 AS SELECT a FROM t WHERE t.id > 1",
        "CREATE VIEW v2 AS SELECT t.a, x.t FROM t JOIN x ON x.id = t.id",
        "CREATE VIEW v3 AS SELECT q.a FROM t AS q WHERE q.id < 3",
        // A common table of that name hides the table: unchanged.
        "CREATE VIEW v4 AS WITH t AS (SELECT 5 AS a) SELECT a FROM t",
        "CREATE VIEW v5 AS SELECT id FROM x WHERE id IN (SELECT t.id FROM t)",
        "CREATE VIEW v6 AS SELECT t.* FROM t",
        "CREATE VIEW v7 AS SELECT a FROM t UNION SELECT 'z'",
        // An alias t of another table: unchanged.
        "CREATE VIEW v8 AS SELECT t.id FROM x AS t",
        "CREATE VIEW v9 AS SELECT (SELECT MAX(t.id) FROM t) AS m, t FROM x",
        "CREATE VIEW v10 AS SELECT x.id FROM x WHERE EXISTS (SELECT 1 FROM t "
        "WHERE t.id = x.id)",
        "CREATE VIEW v11 AS SELECT t.id FROM x AS t WHERE t.id IN (SELECT "
        "t.id FROM t)",
    };
    for (const std::string& view : views) Exec(*db, view);
    std::vector<std::string> before;
    for (size_t i = 1; i <= views.size(); ++i) {
      before.push_back(QueryText(
          *db, "SELECT * FROM v" + std::to_string(i) + " ORDER BY 1"));
    }
    Exec(*db, "ALTER TABLE t RENAME TO u");
    for (size_t i = 1; i <= views.size(); ++i) {
      EXPECT_EQ(
          QueryText(*db, "SELECT * FROM v" + std::to_string(i) + " ORDER BY 1"),
          before[i - 1])
          << "v" << i;
    }
    std::map<std::string, std::string> sql;
    for (const SchemaEntry& e : db->Schema()) sql[e.name] = e.sql;
    EXPECT_EQ(sql["v2"],
              "CREATE VIEW v2 AS SELECT u.a, x.t FROM u JOIN x ON x.id = u.id");
    EXPECT_EQ(sql["v4"], views[3]);
    EXPECT_EQ(sql["v8"], views[7]);
    EXPECT_EQ(sql["v11"],
              "CREATE VIEW v11 AS SELECT t.id FROM x AS t WHERE t.id IN "
              "(SELECT u.id FROM u)");
  }
  auto db = Open();  // the rewritten views as stored
  EXPECT_EQ(QueryText(*db, "SELECT * FROM v10 ORDER BY 1"), "(2)(3)");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM v6 ORDER BY 1"),
            "(1, p)(2, q)(3, r)");
  EXPECT_TRUE(db->Execute("CHECK").ok());
}

TEST_F(AlterTableTest, ARenameAViewCouldReadOtherwiseIsRefused) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (k INTEGER PRIMARY KEY, a INTEGER)");
  Exec(*db, "CREATE TABLE x (k INTEGER PRIMARY KEY, a INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)");
  Exec(*db, "INSERT INTO x VALUES (1, 100), (2, 20)");
  // Each names something u already: t.k made u.k would mean that one.
  const std::vector<std::string> views = {
      "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM x AS u WHERE u.k = t.k)",
      "SELECT * FROM t WHERE t.k = (SELECT u.k FROM x AS u WHERE u.k = t.k)",
      "WITH u AS (SELECT k, a + 1000 AS a FROM x) SELECT t.k, t.a FROM t",
      "SELECT t.a FROM t, x AS u",
  };
  for (const std::string& view : views) {
    SCOPED_TRACE(view);
    Exec(*db, "CREATE VIEW v AS " + view);
    const std::string rows = QueryText(*db, "SELECT * FROM v ORDER BY 1");
    EXPECT_EQ(Error(*db, "ALTER TABLE t RENAME TO u"),
              "InvalidArgument: view v reads table t and already names "
              "something u (an alias or a WITH table): renaming the table to "
              "u could change what the view reads; DROP VIEW v first (and "
              "create it again after)");
    EXPECT_EQ(QueryText(*db, "SELECT * FROM v ORDER BY 1"), rows);
    // Another name is free of it.
    Exec(*db, "ALTER TABLE t RENAME TO w");
    EXPECT_EQ(QueryText(*db, "SELECT * FROM v ORDER BY 1"), rows);
    Exec(*db, "ALTER TABLE w RENAME TO t");
    Exec(*db, "DROP VIEW v");
  }
}

TEST_F(AlterTableTest, ARewrittenViewKeepsItsColumnNames) {
  {
    auto db = Open();
    Exec(*db, "CREATE TABLE t (k INTEGER PRIMARY KEY, a INTEGER)");
    Exec(*db, "INSERT INTO t VALUES (1, 10)");
    Exec(*db, "CREATE VIEW v AS SELECT a+1, t.k, k*2 AS twice FROM t");
    Exec(*db, "CREATE VIEW w AS SELECT \"a+1\", k, twice FROM v");
    Exec(*db, "ALTER TABLE t RENAME TO u");
  }
  auto db = Open();  // the views as stored
  EXPECT_EQ(QueryText(*db, "SELECT * FROM w"), "(11, 1, 2)");
  auto cursor = db->Query("SELECT * FROM v");
  ASSERT_TRUE(cursor.ok());
  EXPECT_EQ((*cursor)->column_names(),
            (std::vector<std::string>{"a+1", "k", "twice"}));
}

TEST_F(AlterTableTest, ARenameAViewReadsIsRefusedAndChangesNothing) {
  auto db = Open();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT)");
  Exec(*db, "CREATE TABLE u (id INTEGER PRIMARY KEY)");
  Exec(*db, "CREATE INDEX u_id ON u (id DESC)");
  Exec(*db, "CREATE VIEW v AS SELECT a FROM t");
  Exec(*db, "INSERT INTO t VALUES (1, 'x', 'y')");
  EXPECT_EQ(Error(*db, "ALTER TABLE t RENAME a TO c"),
            "InvalidArgument: view v reads column a of table t: renaming it "
            "would leave the view unreadable; DROP VIEW v first (and create it "
            "again after)");
  // What the view does not read may be renamed.
  Exec(*db, "ALTER TABLE t RENAME b TO c");
  EXPECT_EQ(Error(*db, "ALTER TABLE t RENAME TO u"),
            "InvalidArgument: cannot rename table t to u: there is already a "
            "table, view or index of that name");
  EXPECT_EQ(Error(*db, "ALTER TABLE t RENAME TO u_id"),
            "InvalidArgument: cannot rename table t to u_id: there is already "
            "a table, view or index of that name");
  EXPECT_EQ(Error(*db, "ALTER TABLE t RENAME c TO a"),
            "InvalidArgument: cannot rename column c of table t to a: there is "
            "already a column a");
  EXPECT_EQ(Error(*db, "ALTER TABLE t RENAME rowid TO r"),
            "InvalidArgument: no column rowid in table t");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM v"), "(x)");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM t"), "(1, x, y)");
}

TEST_F(AlterTableTest, DropColumnRewritesEveryRowWithoutIt) {
  {
    auto db = Open();
    Exec(*db,
         "CREATE TABLE t (a INTEGER, b TEXT, c REAL, d TEXT COLLATE "
         "nocase)");  // the hidden rowid is the key
    Exec(*db, "CREATE INDEX t_d ON t (d DESC) INCLUDE (a) WITH (ranked)");
    Exec(*db,
         "INSERT INTO t VALUES (1, 'x', 1.5, 'P'), (2, 'y', 2.5, 'q'), "
         "(3, 'z', NULL, 'R')");
    Exec(*db, "ALTER TABLE t ADD e INTEGER DEFAULT 9");  // short rows
    Exec(*db, "DELETE FROM t WHERE a = 2");
    Exec(*db, "INSERT INTO t VALUES (4, 'w', 4.5, 'p', 10)");
    Exec(*db, "ALTER TABLE t DROP COLUMN b");
    Exec(*db, "ALTER TABLE t DROP c");
  }
  auto db = Open();
  EXPECT_EQ(QueryText(*db, "SELECT rowid, * FROM t ORDER BY rowid"),
            "(1, 1, P, 9)(3, 3, R, 9)(4, 4, p, 10)");
  EXPECT_EQ(QueryText(*db, "SELECT a FROM t WHERE d = 'p' ORDER BY a"),
            "(1)(4)");
  EXPECT_EQ(QueryText(*db, "SELECT a FROM t ORDER BY d DESC LIMIT 1 OFFSET 1"),
            "(1)");
  EXPECT_EQ(QueryText(*db, "SELECT COUNT(*) FROM t WHERE d >= 'p'"), "(3)");
  EXPECT_TRUE(db->Execute("CHECK").ok());
  // The next row takes the next rowid, as before the rebuild.
  Exec(*db, "INSERT INTO t (a, d) VALUES (5, 's')");
  EXPECT_EQ(QueryText(*db, "SELECT rowid FROM t WHERE a = 5"), "(5)");
}

TEST_F(AlterTableTest, WhatCannotBeDroppedIsRefusedAndChangesNothing) {
  auto db = Open();
  Exec(*db,
       "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER "
       "UNIQUE, c REAL, d TEXT, e INTEGER)");
  Exec(*db, "CREATE INDEX t_a ON t (a) INCLUDE (c)");
  Exec(*db, "CREATE VIEW v AS SELECT d FROM t");
  Exec(*db, "CREATE TABLE one (x INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (1, 'x', 2, 3.5, 'y', 4)");
  const std::string before = QueryText(*db, "SELECT * FROM t");
  const std::string cannot = "InvalidArgument: cannot drop column ";
  EXPECT_EQ(Error(*db, "ALTER TABLE t DROP COLUMN id"),
            cannot + "id of table t: it is in the primary key");
  EXPECT_EQ(Error(*db, "ALTER TABLE t DROP COLUMN b"),
            cannot + "b of table t: a UNIQUE column");
  EXPECT_EQ(Error(*db, "ALTER TABLE t DROP COLUMN a"),
            cannot + "a of table t: index t_a reads it (DROP INDEX t_a first)");
  EXPECT_EQ(Error(*db, "ALTER TABLE t DROP COLUMN c"),
            cannot + "c of table t: index t_a reads it (DROP INDEX t_a first)");
  // The statement to run is named as it must be typed.
  Exec(*db, "CREATE INDEX \"Big e\" ON t (e)");
  EXPECT_EQ(Error(*db, "ALTER TABLE t DROP COLUMN e"),
            cannot +
                "e of table t: index Big e reads it (DROP INDEX \"Big e\" "
                "first)");
  EXPECT_EQ(Error(*db, "ALTER TABLE t DROP COLUMN d"),
            "InvalidArgument: view v reads column d of table t: dropping it "
            "would leave the view unreadable; DROP VIEW v first (and create it "
            "again after)");
  EXPECT_EQ(Error(*db, "ALTER TABLE one DROP COLUMN x"),
            cannot + "x of table one: it is the table's only column");
  EXPECT_EQ(Error(*db, "ALTER TABLE one DROP COLUMN rowid"),
            "InvalidArgument: no column rowid in table one");
  EXPECT_EQ(Error(*db, "ALTER TABLE nope DROP COLUMN x"),
            "NotFound: no table nope");
  EXPECT_EQ(Error(*db, "ALTER TABLE v DROP COLUMN d"),
            "InvalidArgument: v is a view: ALTER TABLE changes tables");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM t"), before);
  EXPECT_TRUE(db->Execute("CHECK").ok());
}

TEST_F(AlterTableTest, FormatFourOpensAsFive) {
  {
    auto db = Open();
    Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT)");
    Exec(*db, "INSERT INTO t VALUES (1, 'x')");
  }
  SetFormat("4");
  {
    Options read_only;
    read_only.read_only = true;
    auto db = Open(read_only);
    EXPECT_EQ(QueryText(*db, "SELECT * FROM t"), "(1, x)");
  }
  EXPECT_EQ(Format(), "4");
  {
    auto db = Open();
    Exec(*db, "ALTER TABLE t ADD b INTEGER DEFAULT 2");
    EXPECT_EQ(QueryText(*db, "SELECT * FROM t"), "(1, x, 2)");
  }
  EXPECT_EQ(Format(), "5");
}

}  // namespace
}  // namespace levelql
