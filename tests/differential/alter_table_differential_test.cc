// ALTER TABLE against SQLite: rows written before a column was added read
// it as its DEFAULT, through every path a query can take, and renamed or
// dropped columns read as SQLite reads them.
//
// For each fixed seed, one table is made in both engines (levelql on LevelDB
// files), filled, and then grown a column at a time: each new column (a
// random type, DEFAULT and collation), now and then a column renamed or
// dropped and the table renamed away and back, is followed by random writes
// (INSERTs naming a subset of the columns, UPDATEs, DELETEs), now and then
// an index over it, and queries reading it by equality, range, ORDER BY,
// GROUP BY, MIN/MAX and IS NULL. Every answer must be SQLite's. At the end
// levelql's CHECK must pass, and after reopening its database every query must
// still give SQLite's answer. LEVELQL_SEED runs one seed (replay or soak).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "tests/differential/engines.h"
#include "tests/support/temp_dir.h"

namespace levelql::difftest {
namespace {

struct Column {
  std::string name;
  std::string type;  // INTEGER, REAL or TEXT
  bool nocase = false;
  bool indexed = false;  // an index reads it (so it cannot be dropped)
};

class AlterRun {
 public:
  AlterRun(uint64_t seed, const std::string& dir)
      : rng_(seed), dir_(dir), lq_(LevelqlEngine::Open(dir)) {}

  void Run() {
    // The three row layouts: an INTEGER key; a hidden rowid (the key column
    // after the others, which moves when one is added); a collated TEXT key
    // (stored in the row value too, before every other column).
    shape_ = static_cast<Shape>(Pick(3));
    columns_ = {{"a", "INTEGER"}, {"b", "TEXT"}};
    switch (shape_) {
      case Shape::kIntegerKey:
        Both("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)");
        break;
      case Shape::kHiddenRowid:
        Both("CREATE TABLE t (id INTEGER, a INTEGER, b TEXT)");
        break;
      case Shape::kTextKey:
        Both(
            "CREATE TABLE t (k TEXT PRIMARY KEY COLLATE nocase, id INTEGER, "
            "a INTEGER, b TEXT)");
        break;
    }
    for (int i = 0; i < 30; ++i) Write();
    for (int added = 0; added < 5 && !::testing::Test::HasFailure(); ++added) {
      AddColumn(added);
      if (Pick(3) == 0) RenameColumn(added);
      if (Pick(4) == 0) RenameTable();
      if (Pick(4) == 0) DropColumn();
      for (int i = 0; i < 12; ++i) Write();
      if (Pick(2) == 0) Index();
      for (int i = 0; i < 8; ++i) Queries();
    }
    Outcome check = lq_->Run("CHECK", false);
    EXPECT_TRUE(check.ok) << check.error;
    lq_.reset();
    lq_ = LevelqlEngine::Open(dir_);
    for (int i = 0; i < 8; ++i) Queries();
  }

 private:
  int Pick(int n) { return static_cast<int>(rng_() % n); }

  std::string Literal(const Column& c) {
    if (Pick(6) == 0) return "NULL";
    if (c.type == "INTEGER") return std::to_string(Pick(7) - 2);
    if (c.type == "REAL") return std::to_string(Pick(5) - 1) + ".5";
    static const char* kWords[] = {"ab", "AB", "b", "ba", "", "z"};
    return std::string("'") + kWords[Pick(6)] + "'";
  }

  void Both(const std::string& sql) {
    Outcome want = sqlite_.Run(sql, false);
    Outcome got = lq_->Run(sql, false);
    ASSERT_EQ(want.ok, got.ok)
        << sql << "\nSQLite: " << want.error << "\nlevelql: " << got.error;
    // (SQLite's count after DDL is the last write's.)
    if (want.ok && sql.rfind("CREATE", 0) != 0 && sql.rfind("ALTER", 0) != 0) {
      EXPECT_EQ(want.changes, got.changes) << sql;
    }
  }

  void Query(const std::string& sql, bool ordered) {
    Outcome want = sqlite_.Run(sql, true);
    Outcome got = lq_->Run(sql, true);
    ASSERT_TRUE(want.ok) << sql << ": " << want.error;
    ASSERT_TRUE(got.ok) << sql << ": " << got.error;
    EXPECT_EQ(CompareRows(want.rows, got.rows, ordered), "") << sql;
    ++queries_;
    if (!got.rows.empty()) ++nonempty_;
  }

  void AddColumn(int n) {
    static const char* kTypes[] = {"INTEGER", "REAL", "TEXT"};
    Column c{"c" + std::to_string(n), kTypes[Pick(3)]};
    c.nocase = c.type == "TEXT" && Pick(2) == 0;
    std::string sql = "ALTER TABLE t ADD " +
                      std::string(Pick(2) ? "COLUMN " : "") + c.name + " " +
                      c.type + (c.nocase ? " COLLATE nocase" : "");
    if (Pick(3) != 0) sql += " DEFAULT " + Literal(c);
    Both(sql);
    columns_.push_back(c);
  }

  void RenameColumn(int n) {
    Column& c = columns_[Pick(static_cast<int>(columns_.size()))];
    const std::string to = "r" + std::to_string(n);
    Both("ALTER TABLE t RENAME " + std::string(Pick(2) ? "COLUMN " : "") +
         c.name + " TO " + to);
    c.name = to;
  }

  // A column no index reads (the table keeps two at least): every row is
  // rewritten without it.
  void DropColumn() {
    std::vector<size_t> free;
    for (size_t i = 0; i < columns_.size(); ++i) {
      if (!columns_[i].indexed) free.push_back(i);
    }
    if (free.empty() || columns_.size() <= 2) return;
    const size_t i = free[Pick(static_cast<int>(free.size()))];
    Both("ALTER TABLE t DROP " + std::string(Pick(2) ? "COLUMN " : "") +
         columns_[i].name);
    columns_.erase(columns_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  // Away and back, reading it under the other name between.
  void RenameTable() {
    Both("ALTER TABLE t RENAME TO elsewhere");
    Query("SELECT * FROM elsewhere ORDER BY id", true);
    Both("ALTER TABLE elsewhere RENAME TO t");
  }

  void Write() {
    const int kind = Pick(10);
    if (kind < 6) {
      // Some of the columns, always the key; the others take their DEFAULT.
      // id is unique in each layout (so ORDER BY id is a total order).
      const int n = shape_ == Shape::kHiddenRowid ? next_id_++ : Pick(60);
      std::string names = "id", values = std::to_string(n);
      if (shape_ == Shape::kTextKey) {
        names += ", k";
        values +=
            std::string(Pick(2) ? ", 'K" : ", 'k") + std::to_string(n) + "'";
      }
      for (size_t i = 0; i < columns_.size(); ++i) {
        if (Pick(3) == 0) continue;
        names += ", " + columns_[i].name;
        values += ", " + Literal(columns_[i]);
      }
      Both("INSERT OR REPLACE INTO t (" + names + ") VALUES (" + values + ")");
    } else if (kind < 9) {
      const Column& c = columns_[Pick(static_cast<int>(columns_.size()))];
      Both("UPDATE t SET " + c.name + " = " + Literal(c) +
           " WHERE id % 7 = " + std::to_string(Pick(7)));
    } else {
      Both("DELETE FROM t WHERE id = " + std::to_string(Pick(60)));
    }
  }

  void Index() {
    Column& c = columns_.back();
    c.indexed = true;
    std::string sql = "CREATE INDEX i" + std::to_string(indexes_++) +
                      " ON t (" + c.name + (Pick(2) ? " DESC" : "");
    if (Pick(2) == 0) {
      sql += ", " + columns_[0].name;  // a, or what is first now
      columns_[0].indexed = true;
    }
    sql += ")";
    if (Pick(3) == 0) {
      sql += " INCLUDE (" + columns_[1].name + ")";
      columns_[1].indexed = true;
    }
    // SQLite has no INCLUDE: its index holds the key columns only.
    std::string plain = sql.substr(0, sql.find(" INCLUDE"));
    Outcome want = sqlite_.Run(plain, false);
    Outcome got = lq_->Run(sql, false);
    ASSERT_TRUE(want.ok && got.ok) << sql << ": " << got.error;
  }

  void Queries() {
    const Column& c = columns_[Pick(static_cast<int>(columns_.size()))];
    const std::string v = Literal(c);
    // Which of two values equal under nocase a group or MIN/MAX shows is
    // unspecified (KNOWN_DIFFERENCES.md, 15): shown in lower case.
    auto shown = [&](const std::string& e) {
      return c.nocase ? "lower(" + e + ")" : e;
    };
    switch (Pick(7)) {
      case 0:
        return Query("SELECT * FROM t ORDER BY id", true);
      case 1:
        return Query(
            "SELECT id, " + c.name + " FROM t WHERE " + c.name + " = " + v,
            false);
      case 2:
        return Query("SELECT * FROM t WHERE " + c.name + " >= " + v +
                         " ORDER BY " + c.name + ", id LIMIT 5",
                     true);
      case 3:
        return Query(
            "SELECT " + shown(c.name) + ", COUNT(*) FROM t GROUP BY " + c.name,
            false);
      case 4:
        return Query("SELECT " + shown("MIN(" + c.name + ")") + ", " +
                         shown("MAX(" + c.name + ")") + ", COUNT(" + c.name +
                         ") FROM t",
                     false);
      case 5:
        return Query("SELECT id FROM t WHERE " + c.name + " IS NULL", false);
      default:
        return Query("SELECT id, " + c.name + " FROM t ORDER BY " + c.name +
                         " DESC, id DESC",
                     true);
    }
  }

  enum class Shape { kIntegerKey, kHiddenRowid, kTextKey };
  Shape shape_ = Shape::kIntegerKey;
  int next_id_ = 0;
  std::mt19937_64 rng_;
  std::string dir_;
  SqliteEngine sqlite_;
  std::unique_ptr<LevelqlEngine> lq_;
  std::vector<Column> columns_;  // all but the key (and id)
  int indexes_ = 0;

 public:
  int queries_ = 0;   // compared
  int nonempty_ = 0;  // of them with rows
};

TEST(AlterTableDifferential, AddedColumnsReadAsSqliteReadsThem) {
  std::vector<uint64_t> seeds;
  for (uint64_t s = 1; s <= 36; ++s) seeds.push_back(s);
  if (const char* s = std::getenv("LEVELQL_SEED")) {
    seeds = {std::strtoull(s, nullptr, 10)};
  }
  int queries = 0, nonempty = 0;
  for (uint64_t seed : seeds) {
    SCOPED_TRACE("LEVELQL_SEED=" + std::to_string(seed));
    testing::TempDir dir;
    AlterRun run(seed, dir.path() + "/db");
    run.Run();
    queries += run.queries_;
    nonempty += run.nonempty_;
    if (HasFailure()) break;
  }
  std::printf("[alter_table] %zu seeds, %d queries compared, %d with rows\n",
              seeds.size(), queries, nonempty);
  EXPECT_GT(nonempty, queries / 2);
}

}  // namespace
}  // namespace levelql::difftest
