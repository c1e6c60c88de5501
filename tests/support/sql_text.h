// Running SQL in tests and rendering results as text that assertions can
// compare: QueryText(db, "SELECT ...") == "(1, a)(2, b)".
//
// Thread-compatible (as the Database it is given).
#ifndef LEVELQL_TESTS_SUPPORT_SQL_TEXT_H_
#define LEVELQL_TESTS_SUPPORT_SQL_TEXT_H_

#include <memory>
#include <string>

#include "levelql/database.h"

namespace levelql::testing {

// Renders every row as "(v1, v2)" concatenated, or "error: <status>".
std::string QueryText(Database& db, const std::string& sql,
                      const Params& params = {});
// The same inside a transaction.
std::string QueryText(Transaction& txn, const std::string& sql,
                      const Params& params = {});
// The rows of a cursor (what QueryText renders).
std::string CursorText(Result<std::unique_ptr<Cursor>> cursor);

// Runs one statement; a failure fails the current gtest test, naming the
// statement and the error.
void Exec(Database& db, const std::string& sql);
void Exec(Transaction& txn, const std::string& sql);

// A fresh ":memory:" database; fails the current gtest test (and returns
// nullptr) when it cannot be opened.
std::unique_ptr<Database> OpenMemory();

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_SUPPORT_SQL_TEXT_H_
