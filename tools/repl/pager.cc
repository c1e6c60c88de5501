#include "tools/repl/pager.h"

#include <algorithm>

namespace levelql::repl {

void Pager::Forget() {
  cursor_.reset();
  statement_.reset();
  page_ = 0;
  shown_ = 0;
}

Status Pager::Start(std::unique_ptr<Statement> statement, Params params,
                    const ShowPage& show) {
  Forget();
  auto cursor = statement->Query(params);
  if (!cursor.ok()) return cursor.status();
  statement_ = std::move(statement);
  params_ = std::move(params);
  cursor_ = std::move(cursor).value();
  page_ = 1;
  Result<int64_t> shown = show(*cursor_, page_rows_);
  if (!shown.ok()) {
    Forget();
    return shown.status();
  }
  shown_ = *shown;
  return Status::OK();
}

Status Pager::ShowFrom(const std::string& token, int64_t page,
                       const ShowPage& show) {
  auto cursor = statement_->Resume(token, params_);
  if (!cursor.ok()) return cursor.status();
  Result<int64_t> shown = show(**cursor, page_rows_);
  if (!shown.ok()) return shown.status();
  cursor_ = std::move(cursor).value();
  // Rows written since may leave no earlier page (then this is page 1), or
  // leave some before page 1's place (then it is not page 1 yet).
  page_ = cursor_->AtFirstPage() ? 1 : std::max<int64_t>(page, 2);
  shown_ = *shown;
  return Status::OK();
}

Status Pager::Next(const ShowPage& show) {
  if (!active()) return Status::InvalidArgument("no query is being paged");
  if (shown_ < page_rows_) {
    return Status::InvalidArgument("that was the last page");
  }
  return ShowFrom(cursor_->ContinuationToken(), page_ + 1, show);
}

Status Pager::Previous(const ShowPage& show) {
  if (!active()) return Status::InvalidArgument("no query is being paged");
  if (cursor_->AtFirstPage()) {
    return Status::InvalidArgument("this is the first page");
  }
  Result<std::string> token = cursor_->PreviousPageToken(page_rows_);
  if (!token.ok()) return token.status();
  return ShowFrom(*token, page_ - 1, show);
}

std::string Pager::Where() const {
  const int64_t first = (page_ - 1) * page_rows_ + 1;
  std::string out = "-- page " + std::to_string(page_);
  if (shown_ == 0) return out + ", no rows";
  out += ", rows " + std::to_string(first) + "-" +
         std::to_string(first + shown_ - 1);
  if (shown_ == page_rows_) out += "; .next for more";
  if (page_ > 1) out += "; .prev to go back";
  return out;
}

}  // namespace levelql::repl
