// Sort and top-k. A sort keeps rows in memory up to the budget; past it,
// each full buffer is sorted and written to a temporary file as a run, and
// the runs are merged through a heap. Ties keep input order (stable): within
// a run by sequence number, across runs by run number.
#include <algorithm>
#include <cstdio>
#include <queue>

#include "engine/operators.h"
#include "indexes/key_codec.h"

namespace levelql {
namespace {

size_t RowBytes(const Row& row) {
  size_t n = sizeof(Row) + row.size() * sizeof(Value);
  for (const Value& v : row) {
    if (v.type() == Type::kText || v.type() == Type::kBlob) {
      n += v.text().size();
    }
  }
  return n;
}

// A sorted run in a temporary file (deleted when closed).
class Run {
 public:
  Run() : file_(std::tmpfile()) {}
  ~Run() {
    if (file_) std::fclose(file_);
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  bool ok() const { return file_ != nullptr && !failed_; }

  void Write(const Row& row) {
    buf_.clear();
    for (const Value& v : row)
      keys::EncodeValue(v, keys::Direction::kAsc, &buf_);
    uint32_t len = static_cast<uint32_t>(buf_.size());
    if (std::fwrite(&len, sizeof(len), 1, file_) != 1 ||
        std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size()) {
      failed_ = true;
    }
  }
  void Rewind() {
    if (std::fflush(file_) != 0) failed_ = true;
    std::rewind(file_);
  }
  // Reads the next row; false at the end (or on error: see ok()).
  bool Read(size_t width, Row* row) {
    uint32_t len = 0;
    if (std::fread(&len, sizeof(len), 1, file_) != 1) return false;
    buf_.resize(len);
    if (std::fread(buf_.data(), 1, len, file_) != len) {
      failed_ = true;
      return false;
    }
    std::string_view in = buf_;
    row->assign(width, Value());
    for (size_t i = 0; i < width; ++i) {
      if (!keys::DecodeValue(&in, keys::Direction::kAsc, &(*row)[i]).ok()) {
        failed_ = true;
        return false;
      }
    }
    return true;
  }

 private:
  std::FILE* file_;
  bool failed_ = false;
  std::string buf_;
};

class Sort : public RowSource {
 public:
  Sort(ExecContext* ctx, std::unique_ptr<RowSource> input,
       std::vector<SortKey> keys, int64_t limit)
      : ctx_(ctx),
        input_(std::move(input)),
        keys_(std::move(keys)),
        limit_(limit) {}

  bool Next(Row* row) override {
    if (!loaded_) {
      loaded_ = true;
      if (!Load()) return false;
    }
    if (runs_.empty()) {
      if (pos_ >= rows_.size()) return false;
      *row = std::move(rows_[pos_++].row);
      return true;
    }
    return NextMerged(row);
  }
  Status status() const override {
    return status_.ok() ? input_->status() : status_;
  }

 private:
  struct Item {
    Row row;
    uint64_t seq;  // input order (or run number when merging)
  };
  bool Less(const Item& a, const Item& b) const {
    int c = CompareRows(a.row, b.row, keys_);
    return c != 0 ? c < 0 : a.seq < b.seq;
  }

  bool Load() {
    auto less = [this](const Item& a, const Item& b) { return Less(a, b); };
    Row row;
    uint64_t seq = 0;
    if (limit_ >= 0) {
      // Top-k: a max-heap of the best `limit_` rows seen so far.
      std::priority_queue<Item, std::vector<Item>, decltype(less)> heap(less);
      if (limit_ > 0) {
        while (input_->Next(&row)) {
          Item item{std::move(row), seq++};
          if (static_cast<int64_t>(heap.size()) < limit_) {
            heap.push(std::move(item));
          } else if (less(item, heap.top())) {
            heap.pop();
            heap.push(std::move(item));
          }
        }
      }
      while (!heap.empty()) {
        rows_.push_back(std::move(const_cast<Item&>(heap.top())));
        heap.pop();
      }
      std::reverse(rows_.begin(), rows_.end());
      return input_->status().ok();
    }
    size_t bytes = 0;
    while (input_->Next(&row)) {
      width_ = row.size();
      bytes += RowBytes(row);
      rows_.push_back({std::move(row), seq++});
      if (bytes > static_cast<size_t>(ctx_->sort_memory_bytes)) {
        if (!Spill()) return false;
        bytes = 0;
      }
    }
    if (!input_->status().ok()) return false;
    std::stable_sort(rows_.begin(), rows_.end(), less);
    if (runs_.empty()) return true;
    if (!Spill()) return false;
    // Prime the merge with the first row of every run.
    for (size_t r = 0; r < runs_.size(); ++r) {
      runs_[r]->Rewind();
      Item item{Row(), r};
      if (runs_[r]->Read(width_, &item.row)) heads_.push_back(std::move(item));
      if (!runs_[r]->ok()) return SpillError();
    }
    auto greater = [this](const Item& a, const Item& b) { return Less(b, a); };
    std::make_heap(heads_.begin(), heads_.end(), greater);
    return true;
  }

  bool Spill() {
    std::stable_sort(
        rows_.begin(), rows_.end(),
        [this](const Item& a, const Item& b) { return Less(a, b); });
    auto run = std::make_unique<Run>();
    if (!run->ok()) return SpillError();
    for (const Item& item : rows_) run->Write(item.row);
    if (!run->ok()) return SpillError();
    runs_.push_back(std::move(run));
    ++ctx_->spilled_runs;
    rows_.clear();
    rows_.shrink_to_fit();
    return true;
  }

  bool NextMerged(Row* row) {
    if (heads_.empty()) return false;
    auto greater = [this](const Item& a, const Item& b) { return Less(b, a); };
    std::pop_heap(heads_.begin(), heads_.end(), greater);
    Item& top = heads_.back();
    *row = std::move(top.row);
    size_t r = top.seq;
    if (runs_[r]->Read(width_, &top.row)) {
      std::push_heap(heads_.begin(), heads_.end(), greater);
    } else {
      heads_.pop_back();
      if (!runs_[r]->ok()) return SpillError();
    }
    return true;
  }

  bool SpillError() {
    status_ = Status::IOError("sort could not use its temporary file");
    return false;
  }

  ExecContext* ctx_;
  std::unique_ptr<RowSource> input_;
  std::vector<SortKey> keys_;
  int64_t limit_;
  bool loaded_ = false;
  size_t width_ = 0;
  std::vector<Item> rows_;
  size_t pos_ = 0;
  std::vector<std::unique_ptr<Run>> runs_;
  std::vector<Item> heads_;  // heap of the next row of each run
  Status status_;
};

}  // namespace

std::unique_ptr<RowSource> NewSort(ExecContext* ctx,
                                   std::unique_ptr<RowSource> input,
                                   std::vector<SortKey> keys, int64_t limit) {
  return std::make_unique<Sort>(ctx, std::move(input), std::move(keys), limit);
}

}  // namespace levelql
