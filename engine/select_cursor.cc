#include "engine/select_cursor.h"

#include "engine/database_impl.h"

namespace levelql {

ResumePoint SelectRun::Point(ResumePoint::Kind kind, int64_t emitted) const {
  ResumePoint p;
  p.kind = kind;
  p.fingerprint = fingerprint;
  p.schema_version = catalog->version;
  p.order_signature = exec.order_signature;
  p.emitted = emitted;
  p.txn_id = txn_id;
  p.snapshot_id = snapshot_id;
  return p;
}

bool SelectRun::PositionOf(const Row& full, int64_t emitted,
                           ResumePoint* out) const {
  switch (exec.token_mode) {
    case TokenMode::kDone:
      *out = Point(ResumePoint::Kind::kDone, emitted);
      return true;
    case TokenMode::kSortKey: {
      *out = Point(ResumePoint::Kind::kSortKey, emitted);
      const PlanNode* n = OrderingNode(*exec.plan);
      if (!n) return false;
      for (const SortKey& k : n->sort_keys) {
        out->sort_key.push_back(full[k.column]);
      }
      return true;
    }
    case TokenMode::kStream:
      *out = Point(ResumePoint::Kind::kStart, emitted);
      return exec.root->Position(&out->kind, &out->key);
  }
  return false;
}

SelectCursor::SelectCursor(DatabaseImpl* db, std::unique_ptr<SelectRun> run)
    : db_(db), run_(std::move(run)) {
  // A kept run's last cursor's buffers: no allocation for the rows.
  full_.swap(run_->cursor_rows[0]);
  scratch_.swap(run_->cursor_rows[1]);
  row_.swap(run_->cursor_rows[2]);
}

SelectCursor::~SelectCursor() {
  if (!run_ || !run_->query) return;
  for (Row* r : {&full_, &scratch_, &row_}) ParkBuffer(r);
  run_->cursor_rows[0].swap(full_);
  run_->cursor_rows[1].swap(scratch_);
  run_->cursor_rows[2].swap(row_);
  std::shared_ptr<const BoundQuery> query = run_->query;  // outlives KeepRun
  query->KeepRun(std::move(run_));
}

namespace {
std::atomic<uint64_t> kept_runs_restarted{0};
}  // namespace

uint64_t KeptRunsRestarted() {
  return kept_runs_restarted.load(std::memory_order_relaxed);
}
void CountKeptRunRestarted() {
  kept_runs_restarted.fetch_add(1, std::memory_order_relaxed);
}

BoundQuery::~BoundQuery() = default;

std::unique_ptr<SelectRun> BoundQuery::TakeRun() const {
  std::lock_guard<std::mutex> lock(plan_mu_);
  if (runs_.empty()) return nullptr;
  std::unique_ptr<SelectRun> run = std::move(runs_.back());
  runs_.pop_back();
  return run;
}

void BoundQuery::KeepRun(std::unique_ptr<SelectRun> run) const {
  if (!run->Park()) return;  // ends here
  std::lock_guard<std::mutex> lock(plan_mu_);
  // A run of an older template (LIMIT took another value) is not restarted.
  if (run->exec.spares != plan_.get()) return;
  if (runs_.size() < kMaxRuns) runs_.push_back(std::move(run));
}

bool SelectRun::Park() {
  if (!exec.point_keys || !exec.root || !exec.root->Park()) return false;
  // The operators point at ctx (and, through the plan, at the query's
  // expressions, which the query keeping the run holds): what goes is
  // what this run read at and through.
  ctx.snapshot.reset();
  ctx.view_store.reset();
  ctx.salted_store.reset();
  ctx.store = ctx.physical_store = nullptr;
  ctx.stats = nullptr;
  ctx.resume = nullptr;
  // The rows made for its views and subqueries (and their temporary
  // database) are made again by the next run.
  ctx.derived_store.reset();
  ctx.derived_rows.reset();
  ctx.derived_spill.reset();
  ctx.derived_base = nullptr;
  ctx.derived_plans.clear();
  // The values (blobs, say) are not held while the run waits.
  api_params.positional.clear();
  api_params.named.clear();
  params.clear();
  session.reset();
  catalog.reset();
  stmt.reset();
  query.reset();  // the query keeps the run: no cycle
  return true;
}

bool SelectCursor::Next() {
  // The last row and its position stay when the end is reached, so a token
  // taken then still names the last row (rows added later come after it).
  // The operators are not asked again after their end (a LevelDB
  // iterator must not step past its end).
  if (ended_ || !run_->exec.root->Next(&scratch_)) {
    ended_ = true;
    return false;
  }
  ++emitted_;
  if (run_->exec.token_mode == TokenMode::kSortKey) {
    // A token reads the sort keys from the whole row, and they may be
    // outputs too: the outputs move to row_, the rest stays in full_, and
    // a token puts the two together again (ContinuationToken).
    std::swap(full_, scratch_);
    row_.resize(run_->exec.width);
    std::move(full_.begin(), full_.begin() + run_->exec.width, row_.begin());
    return true;
  }
  // Nothing reads the whole row again: it becomes the outputs, and the
  // last one's buffer takes the next row.
  std::swap(row_, scratch_);
  row_.resize(run_->exec.width);
  if (run_->exec.token_mode == TokenMode::kStream) {
    has_position_ = run_->exec.root->Position(&position_kind_, &position_);
  }
  return true;
}

std::string SelectCursor::Encode(const ResumePoint& p) const {
  return EncodeToken(p, run_->catalog->token_key);
}

std::string SelectCursor::ContinuationToken() const {
  // Nothing read yet: the position the cursor started at.
  if (emitted_ == 0) return Encode(run_->start);
  const int64_t emitted = run_->start.emitted + emitted_;
  if (run_->exec.token_mode == TokenMode::kStream) {
    if (!has_position_) return {};
    ResumePoint p = run_->Point(position_kind_, emitted);
    p.key = position_;
    return Encode(p);
  }
  // kSortKey: the outputs back in their places (kDone reads no row).
  Row whole = full_;
  if (run_->exec.token_mode == TokenMode::kSortKey) {
    std::copy(row_.begin(), row_.end(), whole.begin());
  }
  ResumePoint p;
  if (!run_->PositionOf(whole, emitted, &p)) return {};
  return Encode(p);
}

Result<std::string> SelectCursor::PreviousPageToken(int64_t rows) {
  if (rows <= 0) {
    return Status::InvalidArgument("a page has at least one row, got " +
                                   std::to_string(rows));
  }
  // The previous page is the `rows` rows that precede this cursor's first
  // row now: those at or before the position this cursor started after
  // (its row may have been deleted since, rows inserted before it). Its
  // token is the position of the row before them, found by reading the
  // plan backwards from the start position, that position included. The
  // rows OFFSET skips precede every page: when fewer than `rows` rows
  // follow them, the previous page is the first page (which skips them
  // again). Counting rows instead (the cursor's) would go stale as soon as
  // rows are written.
  const ResumePoint& start = run_->start;
  const ResumePoint first_page = run_->Point(ResumePoint::Kind::kStart, 0);
  if (start.kind == ResumePoint::Kind::kStart ||
      start.kind == ResumePoint::Kind::kDone) {
    return Encode(first_page);
  }
  LQ_ASSIGN_OR_RETURN(Limits limits, EvaluateLimits(*run_->bound, run_->ctx));
  int64_t want = 0;  // rows + 1 + the OFFSET, saturating
  if (__builtin_add_overflow(rows, limits.offset, &want) ||
      __builtin_add_overflow(want, int64_t{1}, &want)) {
    return Encode(first_page);
  }
  ResumePoint at_start = start;
  at_start.inclusive = true;
  LQ_ASSIGN_OR_RETURN(
      std::unique_ptr<SelectRun> back,
      db_->StartSelectRun(run_->session, run_->stmt, run_->api_params,
                          &at_start, want, run_->query));
  // The token is the position of the row rows + 1 back; the rest of the
  // read only tells whether the OFFSET rows precede it.
  Row full;
  ResumePoint p;
  int64_t read = 0;
  while (read < want && back->exec.root->Next(&full)) {
    if (++read == rows + 1 &&
        !back->PositionOf(full, std::max<int64_t>(0, start.emitted - rows),
                          &p)) {
      return Status::NotSupported("this plan cannot tell its position");
    }
  }
  LQ_RETURN_IF_ERROR(back->exec.root->status());
  if (read < want) return Encode(first_page);
  return Encode(p);
}

ValuesCursor::ValuesCursor(std::vector<std::string> names,
                           std::vector<Row> rows)
    : names_(std::move(names)),
      types_(names_.size(), Type::kNull),
      rows_(std::move(rows)) {}

bool ValuesCursor::Next() {
  if (pos_ >= rows_.size()) return false;
  row_ = std::move(rows_[pos_++]);
  return true;
}

std::unique_ptr<Cursor> PlanCursor(const std::string& text) {
  std::vector<Row> rows;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    rows.push_back({Value::Text(text.substr(start, end - start))});
    start = end + 1;
  }
  return std::make_unique<ValuesCursor>(std::vector<std::string>{"plan"},
                                        std::move(rows));
}

std::unique_ptr<Cursor> EmptyCursor() {
  return std::make_unique<ValuesCursor>(std::vector<std::string>{},
                                        std::vector<Row>{});
}

}  // namespace levelql
