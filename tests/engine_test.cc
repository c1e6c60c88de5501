// End-to-end behaviour of the engine through SQL: storage, catalog, index
// maintenance, constraints, CHECK, persistence and error reporting.
#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "engine/catalog/catalog.h"
#include "engine/storage/kv_store.h"
#include "indexes/row_format.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;

using testing::OpenMemory;
using testing::QueryText;
using testing::TempDir;

void ExpectClean(Database& db) {
  Status s = db.Execute("CHECK");
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(EngineTest, InsertAndSelectThroughFullScan) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL)");
  Exec(*db, "INSERT INTO t VALUES (2, 'b', 2.5), (1, 'a', NULL), (3, 'c', -1)");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM t"),
            "(1, a, NULL)(2, b, 2.5)(3, c, -1.0)");
  EXPECT_EQ(QueryText(*db, "SELECT name FROM t WHERE score > 0"), "(b)");
  EXPECT_EQ(QueryText(*db, "SELECT id FROM t ORDER BY name DESC LIMIT 2"),
            "(3)(2)");
  ExpectClean(*db);
}

// A cursor asked for rows after its end keeps answering false (an index
// span's LevelDB iterator must not be stepped past its end), in every
// plan shape.
TEST(EngineTest, NextAfterTheEndKeepsReturningFalse) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)");
  Exec(*db, "CREATE INDEX ia ON t (a)");
  Exec(*db, "CREATE INDEX ib ON t (b COLLATE nocase)");
  Exec(*db, "INSERT INTO t VALUES (1, 1, 'x'), (2, 2, 'y'), (3, 3, 'X')");
  for (const char* sql :
       {"SELECT id FROM t WHERE a > 1", "SELECT id FROM t WHERE a = 5",
        "SELECT id FROM t ORDER BY a DESC", "SELECT id FROM t ORDER BY id DESC",
        "SELECT id FROM t WHERE a = 1 OR b = 'y'",
        "SELECT id FROM t WHERE a > 0 AND b = 'x'",
        "SELECT b FROM t WHERE b LIKE 'x%'", "SELECT * FROM t WHERE id = 2",
        "SELECT id FROM t LIMIT 2", "SELECT count(*) FROM t GROUP BY a",
        "SELECT x.id FROM t AS x JOIN t AS y ON x.a = y.a",
        "SELECT DISTINCT b FROM t ORDER BY b"}) {
    SCOPED_TRACE(sql);
    auto cur = db->Query(sql);
    ASSERT_TRUE(cur.ok()) << cur.status().ToString();
    int rows = 0;
    while ((*cur)->Next()) ++rows;
    for (int i = 0; i < 3; ++i) EXPECT_FALSE((*cur)->Next());
    EXPECT_TRUE((*cur)->status().ok()) << (*cur)->status().ToString();
    EXPECT_LE(rows, 3);
  }
}

TEST(EngineTest, SecondaryIndexesAreMaintainedByEveryWrite) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE files (id INTEGER PRIMARY KEY, created INTEGER, name "
       "TEXT, owner INTEGER)");
  Exec(*db, "CREATE INDEX by_owner ON files (owner, created DESC)");
  Exec(*db, "CREATE UNIQUE INDEX by_name ON files (name)");
  Exec(*db,
       "INSERT INTO files VALUES (1, 20120902, 'a', 1), (2, 20120904, 'b', "
       "1), (3, 20120906, NULL, 2), (4, 20120908, NULL, 2)");
  ExpectClean(*db);
  Exec(*db, "UPDATE files SET owner = 3, name = 'z' WHERE id = 1");
  ExpectClean(*db);
  Exec(*db, "DELETE FROM files WHERE owner = 2");
  ExpectClean(*db);
  EXPECT_EQ(QueryText(*db, "SELECT id, name, owner FROM files"),
            "(1, z, 3)(2, b, 1)");
  Exec(*db, "DROP INDEX by_owner");
  ExpectClean(*db);
}

TEST(EngineTest, UniqueViolationInMultiRowInsertStoresNothing) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE u (id INTEGER PRIMARY KEY, email TEXT)");
  Exec(*db, "CREATE UNIQUE INDEX by_email ON u (email)");
  Exec(*db, "INSERT INTO u VALUES (1, 'x@y.z')");
  Status s = db->Execute(
      "INSERT INTO u VALUES (2, 'a@b.c'), (3, 'q@r.s'), (4, 'a@b.c')");
  EXPECT_EQ(s.code(), Status::Code::kConstraintError);
  EXPECT_NE(s.ToString().find("by_email"), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("'a@b.c'"), std::string::npos) << s.ToString();
  EXPECT_EQ(QueryText(*db, "SELECT id FROM u"), "(1)");
  ExpectClean(*db);
}

TEST(EngineTest, DuplicatePrimaryKeyIsAConstraintError) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (a INTEGER, b TEXT, PRIMARY KEY (a, b DESC))");
  Exec(*db, "INSERT INTO t VALUES (1, 'x')");
  Status s = db->Execute("INSERT INTO t VALUES (1, 'x')");
  EXPECT_EQ(s.code(), Status::Code::kConstraintError) << s.ToString();
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t"), "(1)");
}

TEST(EngineTest, WrongTypeInInsertNamesValueAndColumn) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE p (id INTEGER PRIMARY KEY, age INTEGER)");
  Status s = db->Execute("INSERT INTO p VALUES (1, 'abc')");
  EXPECT_EQ(s.ToString(),
            "TypeError at 1:26: cannot store 'abc' in INTEGER column age");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM p"), "(0)");
}

TEST(EngineTest, UnknownTableAndColumnAreErrorsWithPositions) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (a INTEGER)");
  EXPECT_EQ(QueryText(*db, "SELECT a FROM nope"),
            "error: NotFound at 1:15: no table nope");
  EXPECT_EQ(QueryText(*db, "SELECT b FROM t"),
            "error: NotFound at 1:8: no column b in table t");
}

TEST(EngineTest, LimitMustBeANonNegativeInt64) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (a INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (1), (2), (3)");
  EXPECT_NE(QueryText(*db, "SELECT a FROM t LIMIT -1").find("InvalidArgument"),
            std::string::npos);
  EXPECT_NE(QueryText(*db, "SELECT a FROM t LIMIT 9223372036854775808")
                .find("InvalidArgument"),
            std::string::npos);
  EXPECT_EQ(
      QueryText(*db, "SELECT a FROM t LIMIT 9223372036854775807 OFFSET 1"),
      "(2)(3)");
}

TEST(EngineTest, InvalidUtf8IsRejected) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (s TEXT)");
  auto r = db->Execute("INSERT INTO t VALUES (?)",
                       Params{Value::Text(std::string("ab\xff", 3))});
  EXPECT_EQ(r.status().code(), Status::Code::kTypeError)
      << r.status().ToString();
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t"), "(0)");
}

TEST(EngineTest, HiddenRowidGrowsAcrossStatements) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (s TEXT)");
  Exec(*db, "INSERT INTO t VALUES ('a'), ('b')");
  Exec(*db, "INSERT INTO t VALUES ('c')");
  EXPECT_EQ(QueryText(*db, "SELECT rowid, s FROM t"), "(1, a)(2, b)(3, c)");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM t"), "(a)(b)(c)");
}

// As SQLite (and as after a reopen): the next hidden rowid is one past the
// largest left, also right after the largest was deleted.
TEST(EngineTest, HiddenRowidFollowsTheLargestLeft) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (s TEXT)");
  Exec(*db, "INSERT INTO t VALUES ('a'), ('b'), ('c')");
  Exec(*db, "DELETE FROM t WHERE s = 'c'");
  Exec(*db, "INSERT INTO t VALUES ('d')");
  Exec(*db, "DELETE FROM t WHERE s = 'a'");
  Exec(*db, "INSERT INTO t VALUES ('e')");
  EXPECT_EQ(QueryText(*db, "SELECT rowid, s FROM t"), "(2, b)(3, d)(4, e)");
}

TEST(EngineTest, MultiValuedColumnsOwnOneEntryPerDistinctElement) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE e (id INTEGER PRIMARY KEY, country TEXT, category "
       "TEXT[])");
  Exec(*db, "CREATE INDEX by_category ON e (category)");
  Exec(*db,
       "INSERT INTO e VALUES (1, 'Belgium', ARRAY['C']), (4, 'France', "
       "ARRAY['A', 'B', 'A']), (5, 'Belgium', ARRAY[]), (7, 'Brazil', NULL), "
       "(12, 'France', ARRAY['A'])");
  ExpectClean(*db);
  EXPECT_EQ(QueryText(*db, "SELECT id FROM e WHERE category = 'A'"), "(4)(12)");
  EXPECT_EQ(QueryText(*db, "SELECT id FROM e WHERE category LIKE 'B%'"), "(4)");
  Exec(*db, "UPDATE e SET category = ARRAY['B'] WHERE id = 4");
  ExpectClean(*db);
}

// Issue 12: the entry 'A' of ARRAY['A', NULL] is a unique key (the layout
// is per entry), so it is found, collides with a later 'A', and CHECK agrees.
TEST(EngineTest, UniqueListIndexEntryBesideANullElementIsAUniqueKey) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE u (id INTEGER PRIMARY KEY, tags TEXT[])");
  Exec(*db, "CREATE UNIQUE INDEX u_t ON u (tags)");
  Exec(*db, "INSERT INTO u VALUES (1, ARRAY['A', NULL]), (2, ARRAY[NULL])");
  EXPECT_EQ(QueryText(*db, "SELECT * FROM u WHERE tags = 'A'"),
            "(1, [A, NULL])");
  Status s = db->Execute("INSERT INTO u VALUES (3, ARRAY['B', 'A'])");
  EXPECT_EQ(s.ToString(),
            "ConstraintError: UNIQUE index u_t: duplicate key 'A'");
  Exec(*db, "INSERT INTO u VALUES (3, ARRAY[NULL, 'B'])");
  ExpectClean(*db);
}

TEST(EngineTest, CreateIndexBackfillsAndRejectsDuplicates) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (1, 10), (2, 10), (3, 30)");
  Exec(*db, "CREATE INDEX by_v ON t (v)");
  ExpectClean(*db);
  Status s = db->Execute("CREATE UNIQUE INDEX uv ON t (v)");
  EXPECT_EQ(s.code(), Status::Code::kConstraintError) << s.ToString();
  // The failed index left nothing behind: the name is free again.
  Exec(*db, "DELETE FROM t WHERE id = 2");
  Exec(*db, "CREATE UNIQUE INDEX uv ON t (v)");
  ExpectClean(*db);
}

TEST(EngineTest, CheckReportsAPlantedBadEntry) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Exec(**db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
    Exec(**db, "CREATE INDEX by_v ON t (v)");
    Exec(**db, "INSERT INTO t VALUES (1, 10), (2, 20)");
    ExpectClean(**db);
  }
  {
    // Plant an entry for a row that does not exist.
    auto store = OpenLevelDbStore(dir.path(), Options());
    ASSERT_TRUE(store.ok());
    auto catalog = LoadCatalog(store->get(), false);
    ASSERT_TRUE(catalog.ok());
    const TableSchema* t = catalog->FindTable("t");
    Row ghost = {Value::Int(99), Value::Int(30)};
    std::vector<rows::IndexEntry> entries;
    rows::IndexEntriesForRow(*t, *t->indexes[0], ghost, &entries);
    WriteBatch batch;
    batch.Put(entries[0].key, entries[0].value);
    ASSERT_TRUE((*store)->Write(batch, true).ok());
  }
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok());
  Status s = (*db)->Execute("CHECK");
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("1 dangling"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("(30)"), std::string::npos) << s.message();
}

TEST(EngineTest, DataAndCatalogSurviveReopen) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db,
         "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT COLLATE nocase)");
    Exec(**db, "CREATE INDEX by_s ON t (s)");
    Exec(**db, "INSERT INTO t VALUES (1, 'Straße'), (2, 'abc')");
  }
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ(QueryText(**db, "SELECT id FROM t WHERE s = 'STRASSE'"), "(1)");
  ExpectClean(**db);
}

// A read-only open writes nothing where there is no database: it neither
// creates the directory nor leaves LevelDB files behind.
TEST(EngineTest, ReadOnlyOpenOfNoDatabaseCreatesNothing) {
  TempDir dir;
  const std::string path = dir.path() + "/none";
  Options options;
  options.read_only = true;
  auto db = Database::Open(path, options);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().ToString(),
            "NotFound: cannot open database '" + path +
                "' read-only: there is no database there (a read-only open "
                "creates none)");
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_EQ(Database::Open(":memory:", options).status().code(),
            Status::Code::kInvalidArgument);
  // A database that exists opens read-only.
  ASSERT_TRUE(Database::Open(path).ok());
  EXPECT_TRUE(Database::Open(path, options).ok());
}

// A new database is made only in a new or empty directory: never among
// other files (nothing is written there).
TEST(EngineTest, NoDatabaseIsCreatedAmongOtherFiles) {
  TempDir dir;
  std::ofstream(dir.path() + "/notes.csv") << "a,b\n";
  auto db = Database::Open(dir.path());
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().ToString(),
            "IOError: cannot create a database in '" + dir.path() +
                "': it is a directory that holds other files (notes.csv) "
                "and no levelql database; use a new or empty directory");
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/CURRENT"));
  EXPECT_TRUE(Database::Open(dir.path() + "/sub").ok());
}

TEST(EngineTest, SecondOpenInTheSameProcessSaysTheDatabaseIsInUse) {
  TempDir dir;
  auto first = Database::Open(dir.path());
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto second = Database::Open(dir.path());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().ToString(),
            "IOError: the database at " + dir.path() +
                " is already open in this process (its lock file " +
                dir.path() +
                "/LOCK is held). levelql is single-process by design: one "
                "process opens a database, and its threads share that "
                "Database object. Open it once and give that Database to "
                "every thread.");
  first->reset();
  EXPECT_TRUE(Database::Open(dir.path()).ok()) << "the lock is released";
}

// Run in a child process by the next test (skipped otherwise): opens the
// database at $LEVELQL_TEST_OPEN and prints "status: <Status>".
TEST(EngineTest, HelperOpensTheDatabaseNamedInTheEnvironment) {
  const char* path = std::getenv("LEVELQL_TEST_OPEN");
  if (path == nullptr) GTEST_SKIP() << "run by OpenFromAnotherProcess...";
  auto db = Database::Open(path);
  std::printf("status: %s\n", db.ok() ? "OK" : db.status().ToString().c_str());
}

TEST(EngineTest, OpenFromAnotherProcessSaysTheDatabaseIsInUse) {
  TempDir dir;
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  // A fresh process (exec, not only fork: a forked child would inherit
  // LevelDB's in-process lock table and report "this process").
  std::string self = std::filesystem::read_symlink("/proc/self/exe");
  std::string command =
      "LEVELQL_TEST_OPEN='" + dir.path() + "' '" + self +
      "' "
      "--gtest_filter=EngineTest.HelperOpensTheDatabaseNamedInTheEnvironment "
      "2>&1";
  FILE* child = popen(command.c_str(), "r");
  ASSERT_NE(child, nullptr);
  std::string output;
  char buf[512];
  while (size_t n = fread(buf, 1, sizeof(buf), child)) output.append(buf, n);
  ASSERT_EQ(pclose(child), 0) << output;
  size_t at = output.find("status: ");
  ASSERT_NE(at, std::string::npos) << output;
  std::string status = output.substr(at + 8, output.find('\n', at) - at - 8);
  EXPECT_EQ(status,
            "IOError: the database at " + dir.path() +
                " is in use by another process, which holds its lock file " +
                dir.path() +
                "/LOCK. levelql is single-process by design: one process "
                "opens a database, and its threads share that Database "
                "object. Close the other process, or open another database.");
}

TEST(EngineTest, CollationVersionMismatchQuarantinesTheIndexUntilReindex) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db, "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)");
    Exec(**db, "CREATE INDEX by_s ON t (s COLLATE \"icu:de\")");
    Exec(**db, "INSERT INTO t VALUES (1, 'b'), (2, 'a')");
  }
  {
    // Rewrite the index record as if an older ICU had built it.
    auto store = OpenLevelDbStore(dir.path(), Options());
    ASSERT_TRUE(store.ok());
    std::string value;
    ASSERT_TRUE((*store)->Get(nullptr, IndexRecordKey("by_s"), &value).ok());
    std::string_view in = value;
    Value id, sql, versions;
    ASSERT_TRUE(keys::DecodeValue(&in, keys::Direction::kAsc, &id).ok());
    ASSERT_TRUE(keys::DecodeValue(&in, keys::Direction::kAsc, &sql).ok());
    std::string rewritten;
    keys::EncodeValue(id, keys::Direction::kAsc, &rewritten);
    keys::EncodeValue(sql, keys::Direction::kAsc, &rewritten);
    keys::EncodeValue(Value::Text("icu-1.0 collator-0"), keys::Direction::kAsc,
                      &rewritten);
    WriteBatch batch;
    batch.Put(IndexRecordKey("by_s"), rewritten);
    ASSERT_TRUE((*store)->Write(batch, true).ok());
  }
  // The database opens; the index is never read, and writes to its table
  // say what to run.
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ(QueryText(**db, "SELECT id FROM t ORDER BY s"), "(2)(1)");
  auto plan = (*db)->Explain("SELECT id FROM t WHERE s > 'a'");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->find("by_s"), std::string::npos) << *plan;
  Status s = (*db)->Execute("INSERT INTO t VALUES (3, 'c')");
  EXPECT_EQ(s.code(), Status::Code::kNotSupported);
  EXPECT_NE(s.message().find("REINDEX by_s"), std::string::npos)
      << s.ToString();
  EXPECT_NE(s.message().find("collation version"), std::string::npos);
  EXPECT_EQ((*db)->Execute("CHECK INDEX by_s").code(),
            Status::Code::kNotSupported);
}

TEST(EngineTest, AggregatesFollowSqlite) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (a INTEGER, b REAL)");
  EXPECT_EQ(QueryText(*db, "SELECT count(*), sum(a), avg(a), min(a) FROM t"),
            "(0, NULL, NULL, NULL)");
  Exec(*db, "INSERT INTO t VALUES (1, 1.5), (2, NULL), (2, 3.0), (NULL, 1.5)");
  EXPECT_EQ(QueryText(*db,
                      "SELECT count(*), count(a), count(DISTINCT a), sum(a), "
                      "sum(b), max(b), avg(a) FROM t"),
            "(4, 3, 2, 5, 6.0, 3.0, 1.66666666666667)");
  EXPECT_EQ(QueryText(*db,
                      "SELECT DISTINCT 7 / 2, 7 % 3, 1 / 0, 7.5 % 2, -7 / 2, "
                      "'12abc' + 1, 2 || 3 FROM t"),
            "(3, 1, NULL, 1.0, -3, 13, 23)");
}

TEST(EngineTest, SortSpillsPastItsMemoryBudgetAndStaysStable) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, s TEXT)");
  std::string insert = "INSERT INTO t VALUES ";
  for (int i = 0; i < 3000; ++i) {
    if (i) insert += ", ";
    insert += "(" + std::to_string(i) + ", " + std::to_string((i * 7919) % 50) +
              ", 'row" + std::to_string(i) + "')";
  }
  Exec(*db, insert);
  std::string in_memory = QueryText(*db, "SELECT v, id FROM t ORDER BY v DESC");
  Exec(*db, "PRAGMA sort_memory_bytes = 4096");
  EXPECT_EQ(QueryText(*db, "SELECT v, id FROM t ORDER BY v DESC"), in_memory);
  // Ties keep primary-key order: v DESC, then id ascending.
  auto cur = db->Query("SELECT v, id FROM t ORDER BY v DESC");
  ASSERT_TRUE(cur.ok());
  int64_t prev_v = INT64_MAX, prev_id = -1, rows = 0;
  while ((*cur)->Next()) {
    int64_t v = (*cur)->row()[0].int_value(), id = (*cur)->row()[1].int_value();
    ASSERT_TRUE(v < prev_v || (v == prev_v && id > prev_id)) << v << " " << id;
    prev_v = v;
    prev_id = id;
    ++rows;
  }
  EXPECT_EQ(rows, 3000);
  std::string plan =
      QueryText(*db, "EXPLAIN ANALYZE SELECT v, id FROM t ORDER BY v DESC");
  EXPECT_NE(plan.find("spilled runs"), std::string::npos) << plan;
}

TEST(EngineTest, AnalyzeStatisticsChangeEstimates) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, flag INTEGER, k INTEGER)");
  Exec(*db, "CREATE INDEX by_flag ON t (flag)");
  std::string insert = "INSERT INTO t VALUES ";
  for (int i = 0; i < 400; ++i) {
    if (i) insert += ", ";
    insert += "(" + std::to_string(i) + ", " + std::to_string(i % 2) + ", " +
              std::to_string(i) + ")";
  }
  Exec(*db, insert);
  std::string before =
      QueryText(*db, "EXPLAIN SELECT id FROM t WHERE flag = 1");
  EXPECT_NE(before.find("est 50 rows"), std::string::npos) << before;
  Exec(*db, "ANALYZE t");
  std::string after = QueryText(*db, "EXPLAIN SELECT id FROM t WHERE flag = 1");
  EXPECT_NE(after.find("est 200 rows"), std::string::npos) << after;
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t WHERE flag = 1"), "(200)");
}

TEST(EngineTest, CreateIndexBackfillsInBatchesAndUndoesAFailure) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
  std::string insert = "INSERT INTO t VALUES ";
  for (int i = 0; i < 25000; ++i) {
    if (i) insert += ", ";
    insert += "(" + std::to_string(i) + ", " + std::to_string(i) + ")";
  }
  Exec(*db, insert);
  Exec(*db, "INSERT INTO t VALUES (25000, 7)");  // v = 7 twice
  // The duplicate is met after more than one batch has been written.
  Status s = db->Execute("CREATE UNIQUE INDEX uv ON t (v)");
  EXPECT_EQ(s.code(), Status::Code::kConstraintError) << s.ToString();
  ExpectClean(*db);
  EXPECT_EQ(db->Schema().size(), 1u);
  Exec(*db, "CREATE INDEX by_v ON t (v)");
  ExpectClean(*db);
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t WHERE v = 7"), "(2)");
}

TEST(EngineTest, AnUnfinishedIndexBuildIsRemovedOnOpen) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
    Exec(**db, "INSERT INTO t VALUES (1, 10), (2, 20)");
    Exec(**db, "CREATE INDEX by_v ON t (v)");
  }
  {
    // Put the building marker back, as if the process died mid-backfill.
    auto store = OpenLevelDbStore(dir.path(), Options());
    ASSERT_TRUE(store.ok());
    WriteBatch batch;
    batch.Put(BuildingKey("by_v"), "");
    ASSERT_TRUE((*store)->Write(batch, true).ok());
  }
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ((*db)->Schema().size(), 1u);  // the table only
  ExpectClean(**db);
  Exec(**db, "CREATE INDEX by_v ON t (v)");
  ExpectClean(**db);
}

TEST(EngineTest, StatementTimeoutStopsALongQuery) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
  std::string insert = "INSERT INTO t VALUES ";
  for (int i = 0; i < 20000; ++i) {
    if (i) insert += ", ";
    insert += "(" + std::to_string(i) + ", " + std::to_string(i % 97) + ")";
  }
  Exec(*db, insert);
  // CHECK reads each row again through the index's entry: 20,000 reads of
  // a row by key, far past 1 ms (a plain scan of the rows alone is close).
  Exec(*db, "CREATE INDEX t_v ON t (v)");
  Exec(*db, "PRAGMA statement_timeout_ms = 1");
  // A scan of 20,000 rows per outer step: far longer than 1 ms in all.
  Status s;
  for (int i = 0; i < 200 && s.ok(); ++i) {
    s = db->Execute("SELECT count(*) FROM t WHERE v * 3 + 1 > 0");
  }
  EXPECT_EQ(s.code(), Status::Code::kInterrupted) << s.ToString();
  // CHECK reads every row and entry: it stops too.
  s = Status::OK();
  for (int i = 0; i < 200 && s.ok(); ++i) s = db->Execute("CHECK");
  EXPECT_EQ(s.code(), Status::Code::kInterrupted) << s.ToString();
  EXPECT_NE(s.message().find("statement_timeout_ms"), std::string::npos)
      << s.ToString();
  Exec(*db, "PRAGMA statement_timeout_ms = 0");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t"), "(20000)");
  ExpectClean(*db);
}

// A join over small tables reads few keys and pairs many held rows: its
// pairs count toward the interrupt check too (each scan of the inner side
// alone is under the check's 1,024 steps).
TEST(EngineTest, StatementTimeoutStopsAJoinOfSmallTables) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
  std::string insert = "INSERT INTO t VALUES ";
  for (int i = 0; i < 300; ++i)
    insert += (i ? ", (" : "(") + std::to_string(i) + ")";
  Exec(*db, insert);
  Exec(*db, "PRAGMA statement_timeout_ms = 20");
  // 27 million pairs: seconds, where the timeout is 20 ms.
  auto start = std::chrono::steady_clock::now();
  Status s = db->Execute("SELECT count(*) FROM t a, t b, t c");
  EXPECT_EQ(s.code(), Status::Code::kInterrupted) << s.ToString();
  EXPECT_NE(s.message().find("statement_timeout_ms"), std::string::npos)
      << s.ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  // Read again per outer row (a budget no inner side fits in): the same.
  Exec(*db, "PRAGMA sort_memory_bytes = 1024");
  s = db->Execute("SELECT count(*) FROM t a, t b, t c");
  EXPECT_EQ(s.code(), Status::Code::kInterrupted) << s.ToString();
}

// Deep expressions on threads with small stacks (thread pools give 256 KiB
// to 1 MiB): the parser, the binder and the evaluator recurse once per
// level and stop with LimitExceeded short of the stack's end, where a
// 999-term sum crashed a 1 MiB thread in the evaluator and a 999-term OR a
// 512 KiB one in the binder.
struct DeepJob {
  Database* db;
  std::string sql;
  Status status;
};

void* RunDeepJob(void* arg) {
  auto* job = static_cast<DeepJob*>(arg);
  auto cur = job->db->Query(job->sql);
  if (!cur.ok()) {
    job->status = cur.status();
    return nullptr;
  }
  while ((*cur)->Next()) {
  }
  job->status = (*cur)->status();
  return nullptr;
}

TEST(EngineTest, DeepExpressionsOnSmallStacksFailCleanly) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, s TEXT)");
  Exec(*db, "INSERT INTO t VALUES (1, 1, 'x'), (2, 2, 'y')");
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  const std::vector<std::string> queries = {
      "SELECT a" + repeat(" + 1", 998) + " FROM t",
      "SELECT s" + repeat(" || 'z'", 998) + " FROM t",
      "SELECT " + repeat("- ", 999) + "a FROM t",
      "SELECT id FROM t WHERE a = 0" + repeat(" OR a = 1", 998),
      "SELECT " + repeat("(", 999) + "1" + repeat(")", 999) + " FROM t",
      "SELECT " + repeat("abs(", 999) + "a" + repeat(")", 999) + " FROM t",
  };
  for (size_t stack : {size_t{64} << 10, size_t{256} << 10, size_t{512} << 10,
                       size_t{1} << 20}) {
    for (const std::string& sql : queries) {
      SCOPED_TRACE(std::to_string(stack >> 10) + " KiB: " + sql.substr(0, 40));
      DeepJob job{db.get(), sql, Status::OK()};
      pthread_attr_t attr;
      pthread_attr_init(&attr);
      pthread_attr_setstacksize(&attr, stack);
      pthread_t thread;
      ASSERT_EQ(pthread_create(&thread, &attr, RunDeepJob, &job), 0);
      pthread_join(thread, nullptr);
      pthread_attr_destroy(&attr);
      EXPECT_TRUE(job.status.ok() ||
                  job.status.code() == Status::Code::kLimitExceeded)
          << job.status.ToString();
    }
  }
  // A default stack answers them all.
  for (const std::string& sql : queries) {
    EXPECT_TRUE(db->Query(sql).ok()) << sql.substr(0, 40);
  }
}

TEST(EngineTest, PreparedStatementsCountTheirParameters) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (a INTEGER, b TEXT)");
  auto stmt =
      db->Prepare("SELECT a FROM t WHERE a = ? AND b = :name OR a = ?3");
  ASSERT_TRUE(stmt.ok());
  EXPECT_EQ((*stmt)->parameter_count(), 3);  // ?1, :name as ?2, ?3
  std::vector<std::string> names = (*stmt)->parameter_names();
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[1], "name");
}

TEST(EngineTest, APlainParameterAfterANamedOneGetsItsOwnSlot) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (a INTEGER)");
  Exec(*db, "INSERT INTO t VALUES (1)");
  Params p;
  p.named["x"] = Value::Int(5);
  p.positional = {Value::Null(), Value::Int(7)};  // ?1 is :x, bound by name
  EXPECT_EQ(QueryText(*db, "SELECT :x, ?, :x FROM t", p), "(5, 7, 5)");
}

// TEXT is UTF-8 wherever it comes from: a literal too (it was taken as it
// was, and `=` under nocase then disagreed with LIKE about it).
TEST(EngineTest, AStringLiteralMustBeUtf8) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (c TEXT COLLATE nocase)");
  for (const char* sql :
       {"SELECT 'a\xff'", "SELECT count(*) FROM t WHERE c = 'a\xff'",
        "SELECT count(*) FROM t WHERE c LIKE 'a\xc3'"}) {
    auto cur = db->Query(sql);
    ASSERT_FALSE(cur.ok()) << sql;
    EXPECT_EQ(cur.status().code(), Status::Code::kTypeError);
    EXPECT_NE(cur.status().message().find("string literal: invalid UTF-8"),
              std::string::npos)
        << cur.status().ToString();
  }
  EXPECT_EQ(QueryText(*db, "SELECT 'caf\xc3\xa9'"), "(caf\xc3\xa9)");
}

TEST(EngineTest, ANamedParameterKeyedWithItsColonIsExplained) {
  auto db = OpenMemory();
  auto stmt = db->Prepare("SELECT :b");
  ASSERT_TRUE(stmt.ok());
  Params p;
  p.named[":b"] = Value::Int(1);
  auto cur = (*stmt)->Query(p);
  ASSERT_FALSE(cur.ok());
  EXPECT_EQ(cur.status().message(),
            "named parameters are bound without their colon: \"b\", not "
            "\":b\"");
}

TEST(EngineTest, AnOpenThatMayNotCreateLeavesNoDirectory) {
  TempDir dir;
  const std::string path = dir.path() + "/missing";
  Options options;
  options.create_if_missing = false;
  auto db = Database::Open(path, options);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Status::Code::kIOError);
  EXPECT_NE(db.status().message().find("create_if_missing"), std::string::npos)
      << db.status().ToString();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(EngineTest, ContinuationTokensResumeOnlyTheirOwnQuery) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
  Exec(*db, "CREATE INDEX by_v ON t (v DESC)");
  Exec(*db, "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, 40)");
  auto stmt = db->Prepare("SELECT id FROM t WHERE v > ? ORDER BY v DESC");
  ASSERT_TRUE(stmt.ok());
  auto cur = (*stmt)->Query({Value::Int(15)});
  ASSERT_TRUE(cur.ok());
  ASSERT_TRUE((*cur)->Next());
  EXPECT_EQ((*cur)->row()[0].int_value(), 4);
  std::string token = (*cur)->ContinuationToken();
  ASSERT_FALSE(token.empty());

  // The same query and parameters: the rows after the first.
  auto rest = (*stmt)->Resume(token, {Value::Int(15)});
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  std::string got;
  while ((*rest)->Next()) got += (*rest)->row()[0].ToString() + " ";
  EXPECT_EQ(got, "3 2 ");

  // Other parameters, another statement, a changed schema, a damaged token.
  auto other_params = (*stmt)->Resume(token, {Value::Int(5)});
  EXPECT_EQ(other_params.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(other_params.status().message().find("another query or other "
                                                 "parameter values"),
            std::string::npos);
  auto other = db->Prepare("SELECT id FROM t WHERE v > ? ORDER BY v");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ((*other)->Resume(token, {Value::Int(15)}).status().code(),
            Status::Code::kInvalidArgument);
  std::string damaged = token;
  damaged[damaged.size() / 2] = damaged[damaged.size() / 2] == '0' ? '1' : '0';
  EXPECT_EQ((*stmt)->Resume(damaged, {Value::Int(15)}).status().code(),
            Status::Code::kInvalidArgument);
  Exec(*db, "CREATE INDEX by_id_v ON t (id, v)");
  auto after_ddl = (*stmt)->Resume(token, {Value::Int(15)});
  EXPECT_NE(after_ddl.status().message().find("schema change"),
            std::string::npos)
      << after_ddl.status().ToString();
}

}  // namespace
}  // namespace levelql
