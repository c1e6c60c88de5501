// Pager: the shell's `.page N` mode. A SELECT shows its first N rows; then
// `.next` shows the following page and `.prev` the one before, through the
// query's continuation tokens (Cursor::ContinuationToken and
// Cursor::PreviousPageToken): each page is one short read from a position,
// never an OFFSET, and going back reads the plan backwards.
//
// Uses only the public API. One thread.
#ifndef LEVELQL_TOOLS_REPL_PAGER_H_
#define LEVELQL_TOOLS_REPL_PAGER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "levelql/database.h"

namespace levelql::repl {

class Pager {
 public:
  // Shows up to `rows` rows of a cursor; returns how many it showed, or
  // the cursor's error.
  using ShowPage = std::function<Result<int64_t>(Cursor& cursor, int64_t rows)>;

  int64_t page_rows() const { return page_rows_; }  // 0: paging is off
  void set_page_rows(int64_t rows) {
    page_rows_ = rows;
    Forget();
  }
  bool active() const { return cursor_ != nullptr; }

  // Starts paging a query: shows its first page.
  Status Start(std::unique_ptr<Statement> statement, Params params,
               const ShowPage& show);
  // The page after (or before) the one shown last.
  Status Next(const ShowPage& show);
  Status Previous(const ShowPage& show);
  // "page 3, rows 21-30" for the page shown last.
  std::string Where() const;
  void Forget();

 private:
  Status ShowFrom(const std::string& token, int64_t page, const ShowPage& show);

  int64_t page_rows_ = 0;
  std::unique_ptr<Statement> statement_;
  Params params_;
  std::unique_ptr<Cursor> cursor_;  // the page shown last
  int64_t page_ = 0;                // its number, from 1
  int64_t shown_ = 0;               // rows it showed
};

}  // namespace levelql::repl

#endif  // LEVELQL_TOOLS_REPL_PAGER_H_
