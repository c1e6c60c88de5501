// Built by the package test against an installed levelql, with
// find_package(levelql) and again with pkg-config. Prints one line; the
// test compares it.
#include <iostream>
#include <memory>

#include "levelql/database.h"

int main() {
  auto db = levelql::Database::Open(":memory:");
  if (!db.ok()) {
    std::cerr << db.status().ToString() << "\n";
    return 1;
  }
  levelql::Status s = (*db)->Execute(
      "CREATE TABLE t (id INTEGER PRIMARY KEY, word TEXT COLLATE \"icu:sv\");"
      "CREATE INDEX t_by_word ON t (word);"
      "INSERT INTO t VALUES (1, 'öl'), (2, 'zebra'), (3, 'apa')");
  auto cursor = (*db)->Query("SELECT word FROM t ORDER BY word LIMIT 10");
  if (!s.ok() || !cursor.ok()) {
    std::cerr << (s.ok() ? cursor.status() : s).ToString() << "\n";
    return 1;
  }
  std::cout << "installed levelql works:";
  while ((*cursor)->Next()) std::cout << " " << (*cursor)->row()[0].text();
  std::cout << "\n";
  return (*cursor)->status().ok() ? 0 : 1;
}
