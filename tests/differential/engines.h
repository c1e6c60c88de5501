// The two engines a differential test drives, behind one small interface,
// and the comparison of their answers.
//
// An Engine runs one SQL statement and returns an Outcome: the rows (as
// Cells, a type-tagged rendering both engines share), or the error text,
// plus the number of rows a write statement changed. LevelqlEngine wraps a
// levelql::Database (":memory:" or a directory); SqliteEngine wraps an
// in-memory SQLite connection configured like the dialect
// (case_sensitive_like = ON). Engines are not thread-safe.
#ifndef LEVELQL_TESTS_DIFFERENTIAL_ENGINES_H_
#define LEVELQL_TESTS_DIFFERENTIAL_ENGINES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "levelql/database.h"
#include "levelql/value.h"

struct sqlite3;

namespace levelql::difftest {

// One result value, with the storage class SQLite would report.
struct Cell {
  enum class Kind { kNull, kInt, kReal, kText, kBlob };
  Kind kind = Kind::kNull;
  int64_t i = 0;
  double d = 0;
  std::string s;
  Value list;  // a levelql list (kind kText, s its rendering), else NULL

  // levelql Values: BOOLEAN and TIMESTAMP read as integers, lists as text
  // (ToValue() gives the list back).
  static Cell FromValue(const Value& v);
  Value ToValue() const;
};

using ResultRow = std::vector<Cell>;

struct Outcome {
  bool ok = true;
  std::string error;            // when !ok
  std::vector<ResultRow> rows;  // queries
  int64_t changes = 0;          // INSERT/UPDATE/DELETE
  int columns = 0;              // result columns of a query
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Runs one statement; `query` says whether it returns rows.
  virtual Outcome Run(const std::string& sql, bool query) = 0;
};

class LevelqlEngine : public Engine {
 public:
  // ":memory:" (a fresh private database: testing::FreshDatabasePath(), on
  // etcd under LEVELQL_TEST_ON_ETCD) or a directory path.
  static std::unique_ptr<LevelqlEngine> Open(const std::string& path);
  explicit LevelqlEngine(std::unique_ptr<Database> db) : db_(std::move(db)) {}
  Outcome Run(const std::string& sql, bool query) override;
  Database& db() { return *db_; }

 private:
  std::unique_ptr<Database> db_;
};

// The rows of a levelql cursor, or its error.
Outcome CursorOutcome(Result<std::unique_ptr<Cursor>> cursor);

class SqliteEngine : public Engine {
 public:
  SqliteEngine();  // a fresh in-memory database
  ~SqliteEngine() override;
  SqliteEngine(const SqliteEngine&) = delete;
  SqliteEngine& operator=(const SqliteEngine&) = delete;
  Outcome Run(const std::string& sql, bool query) override;

 private:
  sqlite3* db_ = nullptr;
};

// "NULL", "5", "2.5", "'text'" (reals always with a '.' or exponent, so an
// INTEGER 3 and a REAL 3.0 differ). `loose` rounds reals to 6 significant
// digits and reals below 1e-9 to 0, for sums computed in another order.
std::string RenderCell(const Cell& c, bool loose = false);
std::string RenderRow(const ResultRow& r, bool loose = false);

// Compares two answers: in order when `ordered`, otherwise as multisets.
// Tries exact rendering first, then loose, then reals within a relative
// 1e-9 row by row. Returns "" when they agree, else a short description of
// the difference (counts and a few rows each side lacks).
std::string CompareRows(const std::vector<ResultRow>& expected,
                        const std::vector<ResultRow>& got, bool ordered);

// Truth of a value as a WHERE clause sees it (NULL -> -1, false 0, true 1):
// numbers by != 0, text by its leading number (SQLite).
int CellTruth(const Cell& c);

}  // namespace levelql::difftest

#endif  // LEVELQL_TESTS_DIFFERENTIAL_ENGINES_H_
