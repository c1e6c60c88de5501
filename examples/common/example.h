// The few lines every example program shares: stop at the first error, and
// print a query with its rows or its plan.
//
// Examples use only the public API (<levelql/database.h>). They are
// single-threaded; nothing here is thread-safe. Output goes to stdout, which
// ctest compares with the example's expected.txt.
#ifndef LEVELQL_EXAMPLES_COMMON_EXAMPLE_H_
#define LEVELQL_EXAMPLES_COMMON_EXAMPLE_H_

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "levelql/database.h"

namespace example {

// Exits with the error when `status` is not OK. An example has no better
// plan; an application would handle the Status.
inline void Check(const levelql::Status& status) {
  if (status.ok()) return;
  std::cerr << "error: " << status.ToString() << "\n";
  std::exit(1);
}

// The value of `result`, or exits with its error.
template <typename T>
T Check(levelql::Result<T> result) {
  Check(result.status());
  return std::move(result).value();
}

// Prints the rows of `cursor`, one per line, values separated by " | ",
// then checks that the query ended without an error. Returns the number of
// rows.
inline int PrintRows(levelql::Cursor& cursor) {
  int rows = 0;
  while (cursor.Next()) {
    std::string line = "  ";
    for (size_t i = 0; i < cursor.row().size(); ++i) {
      if (i > 0) line += " | ";
      line += cursor.row()[i].ToString();
    }
    std::cout << line << "\n";
    ++rows;
  }
  Check(cursor.status());  // Next() returning false may also mean an error
  return rows;
}

// Prints "> sql", then its rows.
inline void Show(levelql::Database& db, std::string_view sql,
                 const levelql::Params& params = {}) {
  std::cout << "> " << sql << "\n";
  std::unique_ptr<levelql::Cursor> cursor = Check(db.Query(sql, params));
  PrintRows(*cursor);
}

// Prints "> EXPLAIN sql", then its plan, one node per line.
inline void ShowPlan(levelql::Database& db, std::string_view sql,
                     const levelql::Params& params = {}) {
  std::cout << "> EXPLAIN " << sql << "\n";
  std::string plan = Check(db.Explain(sql, params));
  size_t start = 0;
  while (start < plan.size()) {
    size_t end = plan.find('\n', start);
    if (end == std::string::npos) end = plan.size();
    std::cout << "  " << std::string_view(plan).substr(start, end - start)
              << "\n";
    start = end + 1;
  }
}

}  // namespace example

#endif  // LEVELQL_EXAMPLES_COMMON_EXAMPLE_H_
