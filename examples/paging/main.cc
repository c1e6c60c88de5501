// Story 1 of DESIGN.md: a user's actions, newest first, one page at a time.
//
// The primary key <userid><stamp descending><actionid> stores each user's
// actions newest first, so "page N of user 1" is one seek plus a few steps
// along the key, never a sort. Two ways to page:
//   - LIMIT/OFFSET: simple, but OFFSET still steps over the earlier rows,
//     and a row inserted between two requests shifts every later page;
//   - continuation tokens: the cursor hands out an opaque token after any
//     row; Statement::Resume(token) continues right after that row, with
//     one seek, however far down the list it is.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <memory>
#include <string>

#include "common/example.h"
#include "levelql/database.h"

using example::Check;
using levelql::Cursor;
using levelql::Value;

namespace {

constexpr int kPageSize = 3;

// Prints up to kPageSize rows of `cursor` and returns the token that
// resumes after the last of them, or "" when the page was not full (the
// last page).
std::string PrintPage(Cursor& cursor) {
  std::string token;
  int rows = 0;
  while (rows < kPageSize && cursor.Next()) {
    const levelql::Row& row = cursor.row();
    std::cout << "  " << row[0].ToString() << " | " << row[1].text() << " | "
              << row[2].ToString() << "\n";
    token = cursor.ContinuationToken();
    ++rows;
  }
  Check(cursor.status());  // false from Next() may also mean an error
  return rows == kPageSize ? token : "";
}

}  // namespace

int main() {
  std::unique_ptr<levelql::Database> db =
      Check(levelql::Database::Open(":memory:"));
  Check(db->Execute(R"sql(
    CREATE TABLE actions (
      userid INTEGER, stamp TIMESTAMP, actionid INTEGER, name TEXT,
      PRIMARY KEY (userid, stamp DESC, actionid));
    INSERT INTO actions VALUES
      (1, '2012-09-01 10:00:00', 1, 'login'),
      (1, '2012-09-01 10:05:00', 2, 'search'),
      (1, '2012-09-01 10:06:30', 3, 'view'),
      (1, '2012-09-02 08:00:00', 4, 'login'),
      (1, '2012-09-02 08:01:00', 5, 'upload'),
      (1, '2012-09-03 19:30:00', 6, 'share'),
      (1, '2012-09-04 07:45:00', 7, 'logout'),
      (2, '2012-09-01 11:00:00', 8, 'login'),
      (2, '2012-09-02 12:00:00', 9, 'view'))sql"));

  // The story's query: page three (of ten rows each) is one seek, 20 index
  // entries skipped without fetching their rows, then 10 fetched. No Sort.
  example::ShowPlan(*db,
                    "SELECT actionid, name, stamp FROM actions WHERE userid = "
                    "1 ORDER BY stamp DESC LIMIT 10 OFFSET 20");

  // Paging with tokens. The query has no LIMIT: a page is simply how many
  // rows we read before taking the token. (A LIMIT would bound the whole
  // result across all pages, not each page.)
  std::unique_ptr<levelql::Statement> newest =
      Check(db->Prepare("SELECT actionid, name, stamp FROM actions "
                        "WHERE userid = ? ORDER BY stamp DESC"));
  levelql::Params user1 = {Value::Int(1)};  // binds the first `?`

  std::unique_ptr<Cursor> cursor = Check(newest->Query(user1));
  std::cout << "\ncolumns:";
  for (size_t i = 0; i < cursor->column_names().size(); ++i) {
    std::cout << " " << cursor->column_names()[i] << " "
              << levelql::TypeName(cursor->column_types()[i]);
  }
  std::cout << "\npage 1:\n";
  std::string token = PrintPage(*cursor);
  cursor.reset();  // a web server would send `token` to the client here

  // Meanwhile user 1 does something new. It belongs on page 1, so with
  // OFFSET 3 page 2 would show action 5 a second time; the token does not
  // move.
  Check(db->Execute(
      "INSERT INTO actions VALUES (1, '2012-09-05 09:00:00', 10, 'comment')"));

  // The token is printable, so it can travel in a URL. It belongs to this
  // query and these parameter values: Resume needs both again.
  bool printable = std::all_of(token.begin(), token.end(),
                               [](unsigned char c) { return std::isprint(c); });
  std::cout << "token is printable: " << (printable ? "yes" : "no") << "\n";
  for (int page = 2; !token.empty(); ++page) {
    cursor = Check(newest->Resume(token, user1));
    std::cout << "page " << page << ":\n";
    token = PrintPage(*cursor);
  }

  // For comparison, OFFSET counts from the current first row.
  std::cout << "\npage 2 with OFFSET:\n";
  cursor = Check(
      db->Query("SELECT actionid, name, stamp FROM actions WHERE userid = ? "
                "ORDER BY stamp DESC LIMIT ?2 OFFSET ?3",
                {Value::Int(1), Value::Int(kPageSize), Value::Int(kPageSize)}));
  PrintPage(*cursor);
  return 0;
}
