#include "engine/exec/compound.h"

#include <utility>

namespace levelql {
namespace {

using parser::CompoundOp;

// One SELECT's rows: its first `width` values, its number, each row's
// place.
class Numbered : public RowSource {
 public:
  Numbered(std::shared_ptr<ExecContext> keep, std::unique_ptr<RowSource> input,
           size_t width, int64_t number)
      : keep_(std::move(keep)),
        input_(std::move(input)),
        width_(width),
        number_(number) {}

  bool Next(Row* row) override {
    if (!input_->Next(row)) return false;
    row->resize(width_);
    row->push_back(Value::Int(number_));
    row->push_back(Value::Int(place_++));
    return true;
  }
  Status status() const override { return input_->status(); }

 private:
  std::shared_ptr<ExecContext> keep_;  // what `input_` reads through
  std::unique_ptr<RowSource> input_;
  const size_t width_;
  const int64_t number_;
  int64_t place_ = 0;
};

// UNION ALL: the left rows, then the right ones.
class Append : public RowSource {
 public:
  Append(std::unique_ptr<RowSource> left, std::unique_ptr<RowSource> right)
      : left_(std::move(left)), right_(std::move(right)) {}

  bool Next(Row* row) override {
    if (!left_done_) {
      if (left_->Next(row)) return true;
      if (!left_->status().ok()) return false;
      left_done_ = true;
    }
    return right_->Next(row);
  }
  Status status() const override {
    return left_done_ ? right_->status() : left_->status();
  }

 private:
  std::unique_ptr<RowSource> left_, right_;
  bool left_done_ = false;
};

// UNION, INTERSECT, EXCEPT over two inputs sorted by their values (then
// SELECT number and place): one row per value.
class SetMerge : public RowSource {
 public:
  SetMerge(std::unique_ptr<RowSource> left, std::unique_ptr<RowSource> right,
           CompoundOp op, std::vector<SortKey> values)
      : left_(std::move(left)),
        right_(std::move(right)),
        op_(op),
        values_(std::move(values)) {}

  bool Next(Row* row) override {
    for (;;) {
      if (!Fill(left_.get(), &l_, &has_l_) ||
          !Fill(right_.get(), &r_, &has_r_)) {
        return false;
      }
      if (!has_l_ && !has_r_) return false;
      const int c = !has_l_ ? 1 : !has_r_ ? -1 : CompareRows(l_, r_, values_);
      const bool in_left = c <= 0, in_right = c >= 0;
      // Of equal rows the last is kept, as SQLite keeps it (a later row
      // replaces an equal one in its temporary index): the right side's
      // for UNION, the left side's for INTERSECT and EXCEPT.
      Row left_last, right_last;
      if (in_left) Skip(left_.get(), &l_, &has_l_, &left_last);
      if (in_right) Skip(right_.get(), &r_, &has_r_, &right_last);
      if (!status_.ok()) return false;
      const bool keep = op_ == CompoundOp::kUnion       ? true
                        : op_ == CompoundOp::kIntersect ? in_left && in_right
                                                        : in_left && !in_right;
      if (keep) {
        *row = op_ == CompoundOp::kUnion && in_right ? std::move(right_last)
                                                     : std::move(left_last);
        return true;
      }
    }
  }
  Status status() const override { return status_; }

 private:
  // Reads the next row of `in` into `*row` unless one is waiting there.
  bool Fill(RowSource* in, Row* row, bool* has) {
    if (*has || done(in)) return true;
    if (in->Next(row)) {
      *has = true;
      return true;
    }
    status_ = in->status();
    if (!status_.ok()) return false;
    (in == left_.get() ? left_end_ : right_end_) = true;
    return true;
  }
  bool done(RowSource* in) const {
    return in == left_.get() ? left_end_ : right_end_;
  }
  // Steps past the row of `in` waiting in `*row` and every one after it
  // equal to it, the last of which it leaves in `*last`.
  void Skip(RowSource* in, Row* row, bool* has, Row* last) {
    do {
      *last = std::move(*row);
      *has = false;
      if (!Fill(in, row, has)) return;
    } while (*has && CompareRows(*row, *last, values_) == 0);
  }

  std::unique_ptr<RowSource> left_, right_;
  const CompoundOp op_;
  const std::vector<SortKey> values_;
  Row l_, r_;
  bool has_l_ = false, has_r_ = false;
  bool left_end_ = false, right_end_ = false;
  Status status_;
};

}  // namespace

std::unique_ptr<RowSource> NewCompound(
    ExecContext* ctx, std::shared_ptr<ExecContext> inputs_ctx,
    std::vector<std::unique_ptr<RowSource>> inputs,
    const std::vector<CompoundOp>& ops, size_t width,
    std::vector<const Collation*> collations) {
  std::vector<SortKey> values;
  for (size_t c = 0; c < width; ++c) {
    values.push_back({static_cast<int>(c), false, collations[c]});
  }
  std::vector<SortKey> sorted = values;
  sorted.push_back({static_cast<int>(width), false, nullptr});
  sorted.push_back({static_cast<int>(width + 1), false, nullptr});
  std::unique_ptr<RowSource> out =
      std::make_unique<Numbered>(inputs_ctx, std::move(inputs[0]), width, 0);
  for (size_t i = 1; i < inputs.size(); ++i) {
    auto next = std::make_unique<Numbered>(inputs_ctx, std::move(inputs[i]),
                                           width, static_cast<int64_t>(i));
    if (ops[i - 1] == CompoundOp::kUnionAll) {
      out = std::make_unique<Append>(std::move(out), std::move(next));
      continue;
    }
    out = std::make_unique<SetMerge>(NewSort(ctx, std::move(out), sorted, -1),
                                     NewSort(ctx, std::move(next), sorted, -1),
                                     ops[i - 1], values);
  }
  return out;
}

}  // namespace levelql
