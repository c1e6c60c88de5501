#include "engine/exec/join.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/exec/row_memory.h"
#include "engine/exec/value_ops.h"

namespace levelql {
namespace {

// Copies the values of `from` that hold one (`columns`; all without) to
// `to` from place `at` on.
void PlaceSide(const Row& from, const std::optional<std::vector<int>>& columns,
               size_t at, Row* to) {
  if (!columns) {
    std::copy(from.begin(), from.end(), to->begin() + at);
    return;
  }
  for (int c : *columns) {
    if (static_cast<size_t>(c) < from.size()) (*to)[at + c] = from[c];
  }
}

// `out` = the outputs `at` names (JoinLayout::outputs), or else the left
// row's values at `at.left_at` and the right row's at `at.right_at`, in a row
// of `at.width` values (no width: the left row's, then the right row's). A row
// of another width is made anew, its other values NULL (tables not joined yet);
// one of that width is this join's last row, assigned over, which keeps its
// values' buffers (an operator above may have moved values out of it: every
// value the two rows hold is written again, and no one reads the others).
void Place(const Row& left, const Row& right, const JoinLayout& at, Row* out) {
  if (!at.outputs.empty()) {
    const size_t n = at.outputs.size();
    if (out->size() != n) out->assign(n, Value());
    for (size_t i = 0; i < n; ++i) {
      const JoinLayout::Output& o = at.outputs[i];
      const Row& from = o.right ? right : left;
      if (static_cast<size_t>(o.column) < from.size()) {
        (*out)[i] = from[o.column];  // -1 is past every row's end
      } else {
        (*out)[i] = Value();
      }
    }
    return;
  }
  size_t width = at.width;
  size_t left_at = at.left_at, right_at = at.right_at;
  if (width == 0) {
    width = left.size() + right.size();
    left_at = 0;
    right_at = left.size();
  }
  if (out->size() != width) out->assign(width, Value());
  PlaceSide(left, at.left_columns, left_at, out);
  PlaceSide(right, at.right_columns, right_at, out);
}

class MergeJoin : public RowSource {
 public:
  MergeJoin(const ExecContext* ctx, std::unique_ptr<RowSource> left,
            std::unique_ptr<RowSource> right, RowSourceFactory reopen_right,
            int left_key, int right_key, const Collation* collation,
            bool reverse, SeekTarget seek_target, int64_t memory_bytes,
            JoinLayout layout)
      : ctx_(ctx),
        left_(std::move(left)),
        right_(std::move(right)),
        reopen_right_(std::move(reopen_right)),
        left_key_(left_key),
        right_key_(right_key),
        collation_(collation),
        reverse_(reverse),
        seek_target_(std::move(seek_target)),
        memory_bytes_(memory_bytes),
        layout_(layout) {}

  bool Next(Row* out) override {
    for (;;) {
      if (matching_) {
        if (streaming_ ? NextStreamed(out)
            : reread_  ? NextReread(out)
                       : NextHeld(out)) {
          return true;
        }
        matching_ = false;
      }
      if (!status_.ok() || !NextLeft()) return false;
      const Value& key = left_row_[left_key_];
      if (key.is_null()) continue;
      if (has_group_ && Compare(key, group_key_) == 0) {
        StartMatching();  // another left row of the same key
        continue;
      }
      has_group_ = false;
      // The right rows of the first key not before this one: stepped to,
      // or past a few rows, sought.
      if (!Position(right_.get(), &has_right_, &right_row_, key)) {
        // The right input is done (or failed): no later left row pairs.
        left_done_ = true;
        return false;
      }
      if (Compare(right_row_[right_key_], key) > 0) continue;
      // A key the next left row does not share pairs as the right rows
      // stream by; one it shares, from the rows taken.
      streaming_ = !NextLeftShares(key);
      if (streaming_) {
        matching_ = true;
        continue;
      }
      TakeGroup(key);
      if (!status_.ok()) return false;
      StartMatching();
    }
  }
  Status status() const override {
    if (!status_.ok()) return status_;
    return left_->status().ok() ? right_->status() : left_->status();
  }
  // A seek target holds the right scan's key prefix of the run it was made
  // in: a join that seeks is built anew each run.
  bool Park() override {
    if (seek_target_ || !left_->Park() || !right_->Park()) return false;
    ParkBuffer(&left_row_);
    ParkBuffer(&right_row_);
    ParkBuffer(&group_);
    group_key_ = Value();
    ParkBuffer(&target_);
    ParkBuffer(&ahead_row_);
    reread_input_.reset();
    return true;
  }
  void Rewind() override {
    left_->Rewind();
    right_->Rewind();
    has_right_ = right_done_ = left_done_ = matching_ = false;
    has_group_ = reread_ = streaming_ = has_ahead_ = false;
    group_.clear();
    group_key_ = Value();
    next_match_ = 0;
    status_ = Status::OK();
  }

 private:
  int Compare(const Value& a, const Value& b) const {
    const int c = CompareValues(a, b, collation_);
    return reverse_ ? -c : c;
  }
  bool ReadRight() {
    if (right_done_) return has_right_ = false;
    has_right_ = right_->Next(&right_row_);
    if (!has_right_) right_done_ = true;
    return has_right_;
  }

  // The next left row into left_row_ (the one read ahead, if any).
  bool NextLeft() {
    if (has_ahead_) {
      std::swap(left_row_, ahead_row_);
      has_ahead_ = false;
      return true;
    }
    if (left_done_ || !left_->Next(&left_row_)) {
      left_done_ = true;
      return false;
    }
    return true;
  }

  // Whether the left row after left_row_ has key `key` (read ahead).
  bool NextLeftShares(const Value& key) {
    if (left_done_ || !left_->Next(&ahead_row_)) {
      left_done_ = true;
      return false;
    }
    has_ahead_ = true;
    const Value& next = ahead_row_[left_key_];
    return !next.is_null() && Compare(next, key) == 0;
  }

  // The next right row of left_row_'s key, read from the right input.
  bool NextStreamed(Row* out) {
    if (!has_right_ && !ReadRight()) {
      status_ = right_->status();
      return false;
    }
    if (Compare(right_row_[right_key_], left_row_[left_key_]) != 0) {
      return false;  // a later key's: kept for a later left row
    }
    Place(left_row_, right_row_, layout_, out);
    has_right_ = false;
    return true;
  }

  // Moves `input` (whose unused row, if any, is `*row` with `*has_row`) to
  // its first row whose key is not before `key`: false when there is none
  // (the input ended, or failed: status_). Steps, and past a few rows seeks
  // when the input can.
  bool Position(RowSource* input, bool* has_row, Row* row, const Value& key) {
    int stepped = 0;
    for (;;) {
      if (!*has_row) {
        if (input == right_.get() ? !ReadRight() : !input->Next(row)) {
          status_ = input->status();
          return false;
        }
        *has_row = true;
      }
      const Value& r = (*row)[right_key_];
      if (!r.is_null() && Compare(r, key) >= 0) return true;
      *has_row = false;
      if (++stepped == kStepsBeforeSeek && seek_target_ &&
          seek_target_(key, &target_) && input->SeekEntry(target_)) {
        stepped = 0;
      }
    }
  }

  // Holds the right rows of `key` (right_row_ is the first) while they fit
  // in the memory budget. Past it, lets them go when the right input can be
  // opened again (reread_: each left row of the key then reads them anew)
  // and steps the right input past the key.
  void TakeGroup(const Value& key) {
    group_.clear();
    group_key_ = key;
    has_group_ = true;
    reread_ = false;
    int64_t held = 0;
    do {
      if (!reread_) {
        held += static_cast<int64_t>(RowHeapBytes(right_row_) + sizeof(Row));
        if (held > memory_bytes_ && reopen_right_) {
          reread_ = true;
          group_.clear();
          group_.shrink_to_fit();
        } else {
          group_.push_back(std::move(right_row_));
        }
      }
      has_right_ = false;
    } while (ReadRight() && Compare(right_row_[right_key_], group_key_) == 0);
    status_ = right_->status();
  }

  void StartMatching() {
    matching_ = true;
    next_match_ = 0;
    if (reread_) {
      reread_input_ = reopen_right_();
      has_reread_row_ = false;
      reread_started_ = false;
    }
  }

  bool NextHeld(Row* out) {
    if (next_match_ >= group_.size()) return false;
    if (ctx_->Tick()) {  // pairs of held rows: no scan counts them
      status_ = ctx_->InterruptedStatus();
      return false;
    }
    Place(left_row_, group_[next_match_++], layout_, out);
    return true;
  }

  // The next right row of the group's key, read from the reopened input.
  bool NextReread(Row* out) {
    if (!reread_started_) {
      reread_started_ = true;
      if (!Position(reread_input_.get(), &has_reread_row_, &reread_row_,
                    group_key_)) {
        return false;
      }
    } else if (!reread_input_->Next(&reread_row_)) {
      status_ = reread_input_->status();
      return false;
    }
    if (Compare(reread_row_[right_key_], group_key_) != 0) return false;
    Place(left_row_, reread_row_, layout_, out);
    return true;
  }

  // Right rows read one by one before seeking (a seek reads a block per
  // level of the store; the next few rows are usually in the block read).
  static constexpr int kStepsBeforeSeek = 8;

  const ExecContext* ctx_;
  std::unique_ptr<RowSource> left_, right_;
  const RowSourceFactory reopen_right_;
  const int left_key_, right_key_;
  const Collation* collation_;
  const bool reverse_;
  const SeekTarget seek_target_;
  const int64_t memory_bytes_;
  const JoinLayout layout_;
  Status status_;
  std::string target_;
  Row left_row_, right_row_;
  bool has_right_ = false;  // right_row_ is read and not yet used
  bool right_done_ = false;
  bool left_done_ = false;  // the left input has no row left to read
  Row ahead_row_;           // the left row after left_row_, read ahead
  bool has_ahead_ = false;
  // left_row_ pairs with right rows as they are read (no later left row
  // shares its key).
  bool streaming_ = false;
  bool has_group_ = false;  // group_key_ is the last key taken
  std::vector<Row> group_;  // right rows of key group_key_ (unless reread_)
  Value group_key_;
  bool matching_ = false;  // left_row_ pairs with the group
  size_t next_match_ = 0;
  // The group did not fit: each left row of its key reads it from here.
  bool reread_ = false;
  std::unique_ptr<RowSource> reread_input_;
  Row reread_row_;
  bool has_reread_row_ = false;
  bool reread_started_ = false;
};

// A hash of a join key that is equal for keys CompareValues finds equal:
// numbers by their value as a double (1 = 1.0), text by its collation's
// sort key (equal exactly when the collation compares equal). Keys that
// collide are told apart by comparing them.
uint64_t KeyHash(const Value& v, const Collation* collation,
                 std::string* scratch) {
  scratch->clear();
  if (v.is_numeric()) {
    double d = v.AsDouble();
    if (d == 0) d = 0;  // -0.0 = 0.0
    scratch->push_back('n');
    char bytes[sizeof d];
    std::memcpy(bytes, &d, sizeof d);
    scratch->append(bytes, sizeof d);
  } else if (v.type() == Type::kText) {
    scratch->push_back('t');
    if (collation) {
      collation->SortKey(v.text(), scratch);
    } else {
      scratch->append(v.text());
    }
  } else if (v.type() == Type::kBlob) {
    scratch->push_back('b');
    scratch->append(v.text());
  } else {
    scratch->push_back('l');  // lists: all alike, compared
  }
  return std::hash<std::string_view>()(*scratch);
}

// The right input held in memory while it fits, read again per left row
// past that (rescan_): every left row with every right row (no key), or
// with the right rows of an equal key (`keyed`: held under a hash of the
// key, NULL keys pairing with nothing). Either way left order, then right
// order.
class HeldRightJoin : public RowSource {
 public:
  HeldRightJoin(const ExecContext* ctx, std::unique_ptr<RowSource> left,
                RowSourceFactory open_right, bool keyed, int left_key,
                int right_key, const Collation* collation, int64_t memory_bytes,
                JoinLayout layout, bool outer = false,
                const BoundExpr* on = nullptr)
      : ctx_(ctx),
        outer_(outer),
        on_(on),
        left_(std::move(left)),
        open_right_(std::move(open_right)),
        keyed_(keyed),
        left_key_(left_key),
        right_key_(right_key),
        collation_(collation),
        memory_bytes_(memory_bytes),
        layout_(layout) {}

  bool Next(Row* out) override {
    if (!status_.ok()) return false;
    if (!loaded_) {
      loaded_ = true;
      Load();
      if (!status_.ok()) return false;
    }
    // Nothing to pair with (a LEFT JOIN still gives each left row).
    if (!rescan_ && inner_.empty() && !outer_) return false;
    for (;;) {
      if (!has_left_) {
        if (!left_->Next(&left_row_)) {
          status_ = left_->status();
          return false;
        }
        if (keyed_ && left_row_[left_key_].is_null()) {
          if (!outer_) continue;
          return WithNulls(out);  // a NULL key pairs with nothing
        }
        has_left_ = true;
        matched_ = false;
        next_ = 0;
        if (rescan_) {
          right_ = open_right_();
        } else if (keyed_) {
          auto it = buckets_.find(
              KeyHash(left_row_[left_key_], collation_, &scratch_));
          matches_ = it == buckets_.end() ? nullptr : &it->second;
        }
      }
      if (rescan_) {
        Row r;
        while (right_->Next(&r)) {
          if (Interrupted()) return false;
          if (Pairs(r) && Joined(r, out)) return true;
          if (!status_.ok()) return false;
        }
        status_ = right_->status();
        if (!status_.ok()) return false;
      } else {
        const size_t end = !keyed_    ? inner_.size()
                           : matches_ ? matches_->size()
                                      : 0;
        while (next_ < end) {
          if (Interrupted()) return false;
          const Row& r = inner_[keyed_ ? (*matches_)[next_] : next_];
          ++next_;
          if (Pairs(r) && Joined(r, out)) return true;
          if (!status_.ok()) return false;
        }
      }
      has_left_ = false;
      if (outer_ && !matched_) return WithNulls(out);  // none paired
    }
  }
  Status status() const override { return status_; }

 private:
  // Counts a pair tried (held rows are read without a scan's own count).
  bool Interrupted() {
    if (!ctx_->Tick()) return false;
    status_ = ctx_->InterruptedStatus();
    return true;
  }

  // A LEFT JOIN's row for a left row no right row pairs with: the left
  // row, NULLs in the right row's places. True.
  bool WithNulls(Row* out) const {
    out->assign(layout_.width, Value());
    std::copy(left_row_.begin(), left_row_.end(),
              out->begin() + layout_.left_at);
    return true;
  }

  // Places the current left row and right row `r` in `*out`: true when
  // they pair (a LEFT JOIN's ON is true of them; false on an error too).
  bool Joined(const Row& r, Row* out) {
    Place(left_row_, r, layout_, out);
    if (on_) {
      EvalContext ec{out, ctx_->params, nullptr, ctx_};
      Result<bool> holds = EvaluatePredicate(*on_, ec);
      if (!holds.ok()) {
        status_ = holds.status();
        return false;
      }
      if (!*holds) return false;
    }
    matched_ = true;
    return true;
  }

  // Whether right row `r` pairs with the current left row (keyed: the
  // hash only narrows; the keys are compared as the merge join does).
  bool Pairs(const Row& r) const {
    return !keyed_ || (!r[right_key_].is_null() &&
                       CompareValues(left_row_[left_key_], r[right_key_],
                                     collation_) == 0);
  }

  // Reads the right input into memory (keyed: each row listed under its
  // key's hash, in input order); past the budget, lets it go and reads it
  // again per left row (rescan_).
  void Load() {
    right_ = open_right_();
    Row r;
    int64_t held = 0;
    while (right_->Next(&r)) {
      if (keyed_ && r[right_key_].is_null()) continue;  // pairs with nothing
      held += static_cast<int64_t>(RowHeapBytes(r) + sizeof(Row) +
                                   (keyed_ ? sizeof(uint32_t) : 0));
      if (held > memory_bytes_ || inner_.size() == UINT32_MAX) {
        rescan_ = true;
        inner_.clear();
        inner_.shrink_to_fit();
        buckets_.clear();
        right_.reset();
        return;
      }
      if (keyed_) {
        buckets_[KeyHash(r[right_key_], collation_, &scratch_)].push_back(
            static_cast<uint32_t>(inner_.size()));
      }
      inner_.push_back(std::move(r));
    }
    status_ = right_->status();
    right_.reset();
  }

  const ExecContext* ctx_;
  const bool outer_;
  const BoundExpr* on_;
  bool matched_ = false;  // outer_: the left row paired with a right row
  std::unique_ptr<RowSource> left_;
  RowSourceFactory open_right_;
  std::unique_ptr<RowSource> right_;  // read now (Load, or a rescan)
  const bool keyed_;
  const int left_key_, right_key_;
  const Collation* collation_;
  const int64_t memory_bytes_;
  const JoinLayout layout_;
  Status status_;
  bool loaded_ = false;
  bool rescan_ = false;  // the right rows did not fit: read per left row
  std::vector<Row> inner_;
  // keyed: the positions in inner_ of the rows of each key hash
  std::unordered_map<uint64_t, std::vector<uint32_t>> buckets_;
  const std::vector<uint32_t>* matches_ = nullptr;  // the left key's bucket
  std::string scratch_;
  Row left_row_;
  bool has_left_ = false;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<RowSource> NewMergeJoin(
    const ExecContext* ctx, std::unique_ptr<RowSource> left,
    std::unique_ptr<RowSource> right, RowSourceFactory reopen_right,
    int left_key, int right_key, const Collation* collation, bool reverse,
    int64_t memory_bytes, SeekTarget seek_target, JoinLayout layout) {
  return std::make_unique<MergeJoin>(
      ctx, std::move(left), std::move(right), std::move(reopen_right), left_key,
      right_key, collation, reverse, std::move(seek_target), memory_bytes,
      layout);
}

std::unique_ptr<RowSource> NewNestedLoop(const ExecContext* ctx,
                                         std::unique_ptr<RowSource> left,
                                         RowSourceFactory open_right,
                                         int64_t memory_bytes,
                                         JoinLayout layout, bool outer,
                                         const BoundExpr* on) {
  return std::make_unique<HeldRightJoin>(
      ctx, std::move(left), std::move(open_right), false, -1, -1, nullptr,
      memory_bytes, layout, outer, on);
}

std::unique_ptr<RowSource> NewHashJoin(const ExecContext* ctx,
                                       std::unique_ptr<RowSource> left,
                                       RowSourceFactory open_right,
                                       int left_key, int right_key,
                                       const Collation* collation,
                                       int64_t memory_bytes, JoinLayout layout,
                                       bool outer, const BoundExpr* on) {
  return std::make_unique<HeldRightJoin>(
      ctx, std::move(left), std::move(open_right), true, left_key, right_key,
      collation, memory_bytes, layout, outer, on);
}

}  // namespace levelql
