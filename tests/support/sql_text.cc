// SQL results as text for test assertions (sql_text.h).
#include "tests/support/sql_text.h"

#include <gtest/gtest.h>

namespace levelql::testing {

std::string QueryText(Database& db, const std::string& sql,
                      const Params& params) {
  return CursorText(db.Query(sql, params));
}

std::string QueryText(Transaction& txn, const std::string& sql,
                      const Params& params) {
  return CursorText(txn.Query(sql, params));
}

std::string CursorText(Result<std::unique_ptr<Cursor>> cur) {
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

void Exec(Database& db, const std::string& sql) {
  Status s = db.Execute(sql);
  EXPECT_TRUE(s.ok()) << sql << "\n" << s.ToString();
}

void Exec(Transaction& txn, const std::string& sql) {
  Status s = txn.Execute(sql);
  EXPECT_TRUE(s.ok()) << sql << "\n" << s.ToString();
}

std::unique_ptr<Database> OpenMemory() {
  auto db = Database::Open(":memory:");
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(db).value() : nullptr;
}

}  // namespace levelql::testing
