// Helpers shared by the engine tests: run SQL, render results as text.
#ifndef LEVELQL_TESTS_TEST_UTIL_H_
#define LEVELQL_TESTS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "levelql/database.h"

namespace levelql::testing {

// Renders every row as "(v1, v2)" concatenated, or "error: <status>".
inline std::string QueryText(Database& db, const std::string& sql,
                             const Params& params = {}) {
  auto cur = db.Query(sql, params);
  if (!cur.ok()) return "error: " + cur.status().ToString();
  std::string out;
  while ((*cur)->Next()) {
    out += "(";
    const Row& row = (*cur)->row();
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) out += ", ";
      out += row[i].ToString();
    }
    out += ")";
  }
  if (!(*cur)->status().ok()) return "error: " + (*cur)->status().ToString();
  return out;
}

inline std::unique_ptr<Database> OpenMemory() {
  auto db = Database::Open(":memory:");
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return std::move(db).value();
}

// A fresh directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("levelql-test-" + std::to_string(::getpid()) + "-" +
             std::to_string(counter_++));
    std::filesystem::remove_all(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_TEST_UTIL_H_
