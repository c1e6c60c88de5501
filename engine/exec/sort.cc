// Sort and top-k, within ctx->sort_memory_bytes.
//
// A sort buffers rows until their memory reaches the budget, counted as
// the heap they really hold (the row's Value array by capacity, string
// buffers beyond the small-string size, lists, malloc's rounding, and the
// buffer's own slots, old and new while it grows). A full buffer is sorted and
// appended to a temporary file as a run. At the end, runs are merged: at most
// `fan_in` at a time, each through a read buffer of its own, with fan_in x
// (read buffer + one row) within the budget. While more than fan_in runs
// remain, consecutive groups of fan_in runs are merged into longer runs in a
// second file (a pass; the files then swap roles); the last <= fan_in runs are
// merged straight into the output. Ties keep input order (stable): within a run
// by sequence number, across runs by run order, which every pass keeps.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <queue>

#include "engine/exec/operators.h"
#include "engine/exec/row_memory.h"
#include "indexes/key_codec.h"

namespace levelql {
namespace {

// Most runs merged at once, whatever the budget: beyond this a wider merge
// saves no pass worth its heap comparisons and read buffers.
constexpr size_t kMaxFanIn = 64;
// A run's read buffer: budget / 1024, within these bounds.
constexpr size_t kMinReadBuffer = 4 << 10;
constexpr size_t kMaxReadBuffer = 256 << 10;

// A temporary file holding runs back to back (deleted when closed). Runs
// are appended through stdio and read back with pread.
class SpillFile {
 public:
  struct Extent {
    uint64_t offset = 0;
    uint64_t size = 0;
  };

  SpillFile() : file_(std::tmpfile()) {}
  ~SpillFile() {
    if (file_) std::fclose(file_);
  }
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  bool ok() const { return file_ != nullptr && !failed_; }
  int fd() const { return fileno(file_); }

  void BeginRun() { run_start_ = size_; }
  void Write(const Row& row) {
    buf_.clear();
    for (const Value& v : row) {
      keys::EncodeValue(v, keys::Direction::kAsc, &buf_);
    }
    const uint32_t len = static_cast<uint32_t>(buf_.size());
    if (std::fwrite(&len, sizeof(len), 1, file_) != 1 ||
        std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size()) {
      failed_ = true;
    }
    size_ += sizeof(len) + buf_.size();
  }
  Extent EndRun() { return {run_start_, size_ - run_start_}; }
  // Makes the runs written so far readable through fd().
  bool Flush() {
    if (std::fflush(file_) != 0) failed_ = true;
    return ok();
  }
  // Drops every run (their readers must be gone).
  bool Clear() {
    if (std::fflush(file_) != 0 || ftruncate(fd(), 0) != 0 ||
        std::fseek(file_, 0, SEEK_SET) != 0) {
      failed_ = true;
    }
    size_ = 0;
    return ok();
  }

 private:
  std::FILE* file_;
  bool failed_ = false;
  uint64_t size_ = 0;
  uint64_t run_start_ = 0;
  std::string buf_;
};

// Reads one run of a SpillFile through a buffer of its own.
class RunReader {
 public:
  RunReader(int fd, SpillFile::Extent extent, size_t buffer_bytes)
      : fd_(fd),
        pos_(extent.offset),
        end_(extent.offset + extent.size),
        buffer_bytes_(buffer_bytes) {}

  bool failed() const { return failed_; }

  // The next row; false at the end of the run or on error (see failed()).
  bool Next(size_t width, Row* row) {
    if (!Fill(sizeof(uint32_t))) return false;
    uint32_t len = 0;
    std::memcpy(&len, buf_.data() + at_, sizeof(len));
    if (!Fill(sizeof(len) + len)) {
      failed_ = true;  // a record cut short
      return false;
    }
    std::string_view in(buf_.data() + at_ + sizeof(len), len);
    at_ += sizeof(len) + len;
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
  // Ensures `n` unread bytes are buffered; false when the run has fewer.
  bool Fill(size_t n) {
    if (buf_.size() - at_ >= n) return true;
    buf_.erase(0, at_);
    at_ = 0;
    const uint64_t left = end_ - pos_;
    if (buf_.size() + left < n) {
      if (!buf_.empty() || left > 0) failed_ = true;
      return false;
    }
    const size_t want =
        std::max(n, std::min<size_t>(buffer_bytes_, buf_.size() + left));
    const size_t have = buf_.size();
    buf_.resize(want);
    size_t got = have;
    while (got < want) {
      const ssize_t r =
          pread(fd_, buf_.data() + got, want - got, static_cast<off_t>(pos_));
      if (r <= 0) {
        failed_ = true;
        return false;
      }
      got += static_cast<size_t>(r);
      pos_ += static_cast<uint64_t>(r);
    }
    return true;
  }

  int fd_;
  uint64_t pos_;
  uint64_t end_;
  size_t buffer_bytes_;
  std::string buf_;
  size_t at_ = 0;
  bool failed_ = false;
};

class Sort : public RowSource {
 public:
  Sort(ExecContext* ctx, std::unique_ptr<RowSource> input,
       std::vector<SortKey> keys, int64_t limit)
      : ctx_(ctx),
        input_(std::move(input)),
        keys_(std::move(keys)),
        limit_(limit),
        budget_(
            static_cast<size_t>(std::max<int64_t>(ctx->sort_memory_bytes, 0))) {
  }

  bool Next(Row* row) override {
    if (!loaded_) {
      loaded_ = true;
      if (!Load()) return false;
    }
    if (readers_.empty()) {
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
  // A strict total order (seq breaks ties), so any sort is stable.
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
    size_t heap_bytes = 0;  // of the buffered rows
    while (input_->Next(&row)) {
      width_ = row.size();
      if (row.capacity() > row.size()) row.shrink_to_fit();
      const size_t bytes = RowHeapBytes(row);
      max_row_bytes_ = std::max(max_row_bytes_, bytes);
      // Growing the buffer holds its old and new slots at once (three
      // times the old): spill first when that would pass the budget.
      if (rows_.size() == rows_.capacity() && !rows_.empty() &&
          heap_bytes + bytes + HeapBytes(3 * rows_.capacity() * sizeof(Item)) >=
              budget_) {
        if (!Spill()) return false;
        heap_bytes = 0;
      }
      heap_bytes += bytes;
      rows_.push_back({std::move(row), seq++});
      if (heap_bytes + HeapBytes(rows_.capacity() * sizeof(Item)) >= budget_) {
        if (!Spill()) return false;
        heap_bytes = 0;
      }
    }
    if (!input_->status().ok()) return false;
    if (runs_.empty()) {
      std::sort(rows_.begin(), rows_.end(), less);
      return true;
    }
    if (!rows_.empty() && !Spill()) return false;
    rows_ = std::vector<Item>();
    return Merge();
  }

  bool Spill() {
    std::sort(rows_.begin(), rows_.end(),
              [this](const Item& a, const Item& b) { return Less(a, b); });
    if (!file_) file_ = std::make_unique<SpillFile>();
    if (!file_->ok()) return SpillError();
    file_->BeginRun();
    for (const Item& item : rows_) file_->Write(item.row);
    if (!file_->ok()) return SpillError();
    runs_.push_back(file_->EndRun());
    ++ctx_->spilled_runs;
    rows_.clear();  // the slots stay for the next run (counted in it)
    return true;
  }

  // Merges the runs down to at most fan_in, then opens the final merge.
  bool Merge() {
    // Merge memory: fan_in x (read buffer + one row) within the budget.
    read_buffer_ = std::clamp(budget_ / 1024, kMinReadBuffer, kMaxReadBuffer);
    const size_t per_run = read_buffer_ + max_row_bytes_ + sizeof(Item);
    const size_t fan_in = std::clamp<size_t>(budget_ / per_run, 2, kMaxFanIn);
    ctx_->max_merge_fan_in = std::max<uint64_t>(ctx_->max_merge_fan_in,
                                                std::min(fan_in, runs_.size()));
    if (!file_->Flush()) return SpillError();
    while (runs_.size() > fan_in) {
      if (!MergePass(fan_in)) return false;
    }
    return OpenReaders(runs_.begin(), runs_.end());
  }

  // Merges each group of fan_in consecutive runs into one run of a second
  // file, which then holds every run.
  bool MergePass(size_t fan_in) {
    if (!other_) other_ = std::make_unique<SpillFile>();
    if (!other_->ok()) return SpillError();
    std::vector<SpillFile::Extent> merged;
    Row row;
    for (size_t i = 0; i < runs_.size(); i += fan_in) {
      const size_t end = std::min(i + fan_in, runs_.size());
      if (!OpenReaders(runs_.begin() + i, runs_.begin() + end)) return false;
      other_->BeginRun();
      while (NextMerged(&row)) other_->Write(row);
      if (!status_.ok()) return false;
      if (!other_->ok()) return SpillError();
      merged.push_back(other_->EndRun());
    }
    readers_.clear();
    if (!other_->Flush() || !file_->Clear()) return SpillError();
    std::swap(file_, other_);
    runs_ = std::move(merged);
    ++ctx_->merge_passes;
    return true;
  }

  // Starts a merge of [begin, end) of runs_, in run order.
  bool OpenReaders(std::vector<SpillFile::Extent>::const_iterator begin,
                   std::vector<SpillFile::Extent>::const_iterator end) {
    readers_.clear();
    heads_.clear();
    for (auto r = begin; r != end; ++r) {
      readers_.push_back(
          std::make_unique<RunReader>(file_->fd(), *r, read_buffer_));
      Item item{Row(), readers_.size() - 1};
      if (readers_.back()->Next(width_, &item.row)) {
        heads_.push_back(std::move(item));
      }
      if (readers_.back()->failed()) return SpillError();
    }
    auto greater = [this](const Item& a, const Item& b) { return Less(b, a); };
    std::make_heap(heads_.begin(), heads_.end(), greater);
    return true;
  }

  bool NextMerged(Row* row) {
    if (heads_.empty()) return false;
    auto greater = [this](const Item& a, const Item& b) { return Less(b, a); };
    std::pop_heap(heads_.begin(), heads_.end(), greater);
    Item& top = heads_.back();
    *row = std::move(top.row);
    RunReader& reader = *readers_[top.seq];
    if (reader.Next(width_, &top.row)) {
      std::push_heap(heads_.begin(), heads_.end(), greater);
    } else {
      heads_.pop_back();
      if (reader.failed()) return SpillError();
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
  size_t budget_;
  bool loaded_ = false;
  size_t width_ = 0;
  size_t max_row_bytes_ = 0;
  std::vector<Item> rows_;
  size_t pos_ = 0;
  std::unique_ptr<SpillFile> file_;   // the runs
  std::unique_ptr<SpillFile> other_;  // a pass's output
  std::vector<SpillFile::Extent> runs_;
  size_t read_buffer_ = kMinReadBuffer;
  std::vector<std::unique_ptr<RunReader>> readers_;
  std::vector<Item> heads_;  // heap of the next row of each reader
  Status status_;
};

}  // namespace

std::unique_ptr<RowSource> NewSort(ExecContext* ctx,
                                   std::unique_ptr<RowSource> input,
                                   std::vector<SortKey> keys, int64_t limit) {
  return std::make_unique<Sort>(ctx, std::move(input), std::move(keys), limit);
}

}  // namespace levelql
