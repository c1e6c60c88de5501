// Running a differential Case on both engines, shrinking a failing one, and
// writing it out as a standalone sqllogictest file.
//
// A Case "fails" when every step but the last gets the same outcome from
// levelql and SQLite and the last does not. Shrink() keeps a Case failing
// while it deletes steps, replaces the write history by one INSERT of the
// final rows, deletes rows, drops indexes and simplifies predicates and
// select lists (delta debugging, as in SQLancer's and CockroachDB's
// reducers). ToSlt() prints the result in the format of tests/sql/*.test
// with SQLite's answer as the expected one. Not thread-safe.
#ifndef LEVELQL_TESTS_DIFFERENTIAL_SHRINK_H_
#define LEVELQL_TESTS_DIFFERENTIAL_SHRINK_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tests/differential/engines.h"
#include "tests/differential/sql_ast.h"
#include "tests/support/temp_dir.h"

namespace levelql::difftest {

// The outcome of one step on both engines.
struct StepCheck {
  bool agree = true;
  // The engines differ in a way KNOWN_DIFFERENCES.md describes (the step
  // counts as skipped, not as a failure).
  bool known = false;
  std::string diff;  // what differed, when !agree
  Outcome expected;  // SQLite
  Outcome got;       // levelql
};

// Compares one statement's outcomes: success or failure, the rows of a
// `query` (in order when `ordered`), the number of changed rows when
// `count_changes`.
StepCheck CompareOutcomes(Outcome expected, Outcome got, bool query,
                          bool ordered, bool count_changes);

// A fresh pair of in-memory engines that run steps side by side.
class EnginePair {
 public:
  // `disable_rules`: levelql's PRAGMA disable_rules value ("" for none).
  // `file_backed`: levelql on LevelDB in a temporary directory (removed by
  // the destructor) instead of in memory.
  explicit EnginePair(const std::string& disable_rules = "",
                      bool file_backed = false);
  ~EnginePair();
  EnginePair(const EnginePair&) = delete;
  EnginePair& operator=(const EnginePair&) = delete;
  StepCheck Apply(const Step& step, const std::vector<TableDef>& tables);
  SqliteEngine& sqlite() { return *sqlite_; }
  LevelqlEngine& levelql() { return *levelql_; }

 private:
  std::unique_ptr<testing::TempDir> dir_;  // null when in memory
  std::unique_ptr<SqliteEngine> sqlite_;
  std::unique_ptr<LevelqlEngine> levelql_;
};

// True when all steps but the last agree and the last does not.
bool CaseFails(const Case& c, std::string* diff = nullptr);

// What a shrink keeps true, and where it reads the rows a Case holds.
struct ShrinkOracle {
  std::function<bool(const Case&)> fails;
  // Every table's rows after all steps but the last, one vector per table.
  std::function<std::vector<std::vector<std::vector<Value>>>(const Case&)>
      rows_before_last;
};

// A smaller Case that still fails `oracle`; `budget` bounds the runs.
Case Shrink(const Case& c, const ShrinkOracle& oracle, int budget = 4000);
// Shrink() for differential cases (CaseFails, rows from SQLite).
Case Shrink(const Case& c, int budget = 4000);

// Runs all steps but the last of `c` on `engine` (a fresh one), then reads
// back every table.
std::vector<std::vector<std::vector<Value>>> RowsBeforeLast(const Case& c,
                                                            Engine& engine,
                                                            Dialect d);

// The Case as a sqllogictest script (levelql dialect, SQLite's answers),
// opened by the comment lines in `header`.
std::string ToSlt(const Case& c, const std::string& header);

// For oracle failures: the steps before the last as levelql runs them with
// every planner rule off, then the records in `tail` instead of the last
// step (the caller knows the expected answer).
std::string ToSltWithTail(const Case& c, const std::string& header,
                          const std::string* tail);

// A query record ("query IT rowsort" ...) with the rows of `o` as the
// expected answer; "statement error" when `o` failed.
std::string QueryRecord(const std::string& sql, const Outcome& o, bool ordered);

// Writes ToSlt() to `dir`/diff-<hash>.test (creating dir) and returns the
// path; "" on error.
std::string WriteRegression(const Case& c, const std::string& dir,
                            const std::string& header);
// Writes `body` to `dir`/diff-<hash of the body after the header>.test.
std::string WriteRegressionText(const std::string& body, size_t header_size,
                                const std::string& dir);

}  // namespace levelql::difftest

#endif  // LEVELQL_TESTS_DIFFERENTIAL_SHRINK_H_
