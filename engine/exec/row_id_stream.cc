#include "engine/exec/row_id_stream.h"

#include <algorithm>

#include "engine/storage/rank_index.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

// How many Next() steps a Seek tries before it pays for a real seek.
// A LevelDB seek costs about as much as a few dozen Next() calls (measured
// by bench W3), so nearby targets are reached by stepping.
constexpr int kStepsBeforeSeek = 32;

// Candidate keys an intersection meets before it may judge itself
// unselective and continue with its driver alone.
constexpr uint64_t kCandidatesBeforeSwitch = 256;

class SpanStream final : public RowIdStream {
 public:
  // `pk_after_span`: every entry of a span is the span's start followed by
  // the primary key (a non-unique index whose columns the spans all fix).
  //
  // `source`, when not null, is where `spans` came from (the plan node's
  // path, which outlives the stream): Rewind reads the spans from it again
  // (a reused plan's run sets new keys). Without it the stream cannot be
  // kept for another run.
  SpanStream(ExecContext* ctx, std::shared_ptr<const TableSchema> table,
             const IndexSchema* index, std::vector<KeySpan> spans, bool reverse,
             NodeStats* stats, bool pk_after_span = false,
             const std::vector<KeySpan>* source = nullptr)
      : ctx_(ctx),
        table_(std::move(table)),
        index_(index),
        source_(source),
        spans_(std::move(spans)),
        reverse_(reverse),
        stats_(stats),
        table_prefix_len_(rows::IdPrefix(table_->id).size()),
        pk_after_span_(pk_after_span) {
    Start();
  }

  bool Park() override {
    if (source_ == nullptr) return false;
    it_.reset();  // iterators pin the store's files
    rank_it_.reset();
    spans_.clear();  // the last run's keys (from its values)
    return true;
  }
  void Rewind() override {
    spans_.assign(source_->begin(), source_->end());  // keeps the capacity
    valid_ = pk_ready_ = false;
    pk_status_ = status_ = Status::OK();
    Start();
  }

  bool Valid() const override { return valid_; }
  // Found on first use: many entries are stepped over (OFFSET, COUNT(*))
  // and never asked for their primary key. A view into the entry.
  std::string_view pk() const override {
    if (!pk_ready_) {
      pk_ready_ = true;
      const size_t fixed = pk_after_span_ ? spans_[span_].lo.size() : 0;
      if (index_ == nullptr) {
        pk_ = key_.substr(table_prefix_len_);
      } else if (fixed > 0 && key_.size() > fixed) {
        pk_ = key_.substr(fixed);  // no component to walk over
      } else {
        rows::EntryParts parts;
        Status s = rows::ParseIndexEntry(*index_, key_, it_->value(), &parts);
        if (s.ok()) {
          pk_ = parts.pk;
        } else {
          pk_status_ = s;
          pk_ = {};
        }
      }
    }
    return pk_;
  }
  std::string_view entry_key() const override { return key_; }
  std::string_view entry_value() const override { return it_->value(); }
  bool reads_rows() const override { return index_ == nullptr; }
  bool position_is_entry() const override { return true; }
  Status status() const override {
    if (!status_.ok()) return status_;
    return pk_status_.ok() ? it_->status() : pk_status_;
  }

  void ResumeAtEntry(std::string_view key, bool inclusive) override {
    // SeekEntry finds the first entry at or after its target forward, the
    // first before it backward; key+'\0' is the smallest key after `key`.
    span_ = 0;
    SeekEntry(reverse_ == inclusive ? std::string(key) + '\0'
                                    : std::string(key));
  }

  // The step every scan, merge and count makes: moving away from a key in
  // the span, only the span's far end can be passed, so one comparison.
  void Next() override {
    if (reverse_) {
      it_->Prev();
    } else {
      it_->Next();
    }
    if (it_->Valid()) {
      key_ = it_->key();
      const KeySpan& span = spans_[span_];
      if (reverse_ ? key_ >= span.lo : key_ < span.hi) {
        Load();
        return;
      }
    }
    ++span_;
    EnterSpan();
  }
  bool SeekEntry(std::string_view target) override {
    if (!reverse_) {
      while (span_ < spans_.size() && spans_[span_].hi <= target) ++span_;
      if (span_ >= spans_.size()) {
        valid_ = false;
        return true;
      }
      Reposition(std::max(std::string(target), spans_[span_].lo));
      return true;
    }
    while (span_ < spans_.size() && spans_[span_].lo >= target) ++span_;
    if (span_ >= spans_.size()) {
      valid_ = false;
      return true;
    }
    ++ctx_->seeks;
    if (stats_) ++stats_->seeks;
    it_->SeekBefore(std::min(std::string(target), spans_[span_].hi));
    Settle();
    return true;
  }

  bool reverse() const override { return reverse_; }

  void Seek(std::string_view target) override {
    for (int i = 0; i < kStepsBeforeSeek && valid_ && Before(pk(), target);
         ++i) {
      Next();
    }
    while (valid_ && Before(pk(), target)) {
      const KeySpan& span = spans_[span_];
      std::string key;
      if (index_ == nullptr) {
        key = rows::IdPrefix(table_->id);
      } else if (!index_->unique || NullInSpan()) {
        // A pk-sorted index span fixes every index column: its entries are
        // span.lo followed by the pk components.
        key = span.lo;
      } else {
        Next();  // a unique span holds at most one entry
        continue;
      }
      key.append(target.data(), target.size());
      if (!reverse_) {
        if (key >= span.hi) {
          ++span_;
          EnterSpan();
          continue;
        }
        Reposition(std::max(key, span.lo));
        continue;
      }
      // Backward: the last entry at or before the target.
      if (key < span.lo) {
        ++span_;
        EnterSpan();
        continue;
      }
      ++ctx_->seeks;
      if (stats_) ++stats_->seeks;
      it_->Seek(key);
      if (!it_->Valid()) {
        if (it_->status().ok()) it_->SeekToLast();
      } else if (it_->key() != key) {
        it_->Prev();
      }
      Settle();
    }
  }

  void SkipKeys(int64_t n) override {
    if (!Ranked()) {
      // Steps the iterator itself (Next is not virtual here: final).
      for (int64_t i = 0; i < n && valid_; ++i) Next();
      return;
    }
    while (n > 0 && valid_) {
      const KeySpan& span = spans_[span_];
      // Entries before the current one, and before the span's far end.
      Result<int64_t> here = ranks::Rank(space_, it_->key(), RankView());
      Result<int64_t> end =
          ranks::Rank(space_, reverse_ ? span.lo : span.hi, RankView());
      if (!here.ok() || !end.ok()) {
        return Fail(!here.ok() ? here.status() : end.status());
      }
      // Entries from the current one to the end of the span, inclusive.
      const int64_t left = reverse_ ? *here - *end + 1 : *end - *here;
      if (n >= left) {
        n -= left;
        ++span_;
        EnterSpan();
        continue;
      }
      Result<std::string> key =
          ranks::EntryAt(space_, reverse_ ? *here - n : *here + n, RankView());
      if (!key.ok()) return Fail(key.status());
      Reposition(*key);  // an entry of this span: exact in both directions
      return;
    }
  }

  int64_t SkipRun(std::string_view prefix) override {
    if (!Ranked() || reverse_) return RowIdStream::SkipRun(prefix);
    // The run ends at the prefix's successor or the span's end.
    const KeySpan& span = spans_[span_];
    std::string end = keys::PrefixSuccessor(prefix);
    if (end.empty() || end > span.hi) end = span.hi;
    KvIterator* view = RankView();  // (sets space_)
    Result<int64_t> run = ranks::CountBetween(space_, it_->key(), end, view);
    if (!run.ok()) {
      Fail(run.status());
      return 0;
    }
    if (end == span.hi) {
      ++span_;
      EnterSpan();
    } else {
      Reposition(end);
    }
    return *run;
  }

  bool CountRemaining(int64_t* n) override {
    // Stepping: Next is not virtual here (final).
    if (!Ranked()) return RowIdStream::CountRemaining(n);
    *n = 0;
    for (size_t s = span_; valid_ && s < spans_.size(); ++s) {
      const KeySpan& span = spans_[s];
      const bool first = s == span_;
      KvIterator* view = RankView();  // (sets space_)
      Result<int64_t> count = ranks::CountBetween(
          space_, first && !reverse_ ? std::string(it_->key()) : span.lo,
          first && reverse_ ? After(it_->key()) : span.hi, view);
      if (!count.ok()) {
        Fail(count.status());
        return false;
      }
      *n += *count;
    }
    return status_.ok();
  }

 private:
  // Opens the iterator on the context's snapshot and enters the first span.
  void Start() {
    it_ = ctx_->store->NewIterator(ctx_->snapshot.get());
    SetBounds();
    if (reverse_) std::reverse(spans_.begin(), spans_.end());
    span_ = 0;
    EnterSpan();
  }
  bool Ranked() const { return index_ != nullptr && index_->ranked; }
  // A second cursor on the statement's snapshot, for the counts.
  KvIterator* RankView() {
    if (!rank_it_) {
      rank_it_ = ctx_->store->NewIterator(ctx_->snapshot.get());
      space_ = {rows::IdPrefix(index_->id), rows::IdPrefix(index_->rank_id)};
    }
    return rank_it_.get();
  }
  void Fail(Status s) {
    status_ = std::move(s);
    valid_ = false;
  }
  static std::string After(std::string_view key) {
    std::string out(key);
    out.push_back('\0');
    return out;
  }

  bool Before(std::string_view a, std::string_view b) const {
    return reverse_ ? a > b : a < b;
  }

  bool NullInSpan() const {
    std::vector<Value> values;
    if (!rows::DecodeIndexKey(*index_, spans_[span_].lo, &values).ok()) {
      return true;
    }
    for (const Value& v : values) {
      if (v.is_null()) return true;
    }
    return false;
  }

  // The scan reads nothing outside [lowest lo, highest hi) of its spans.
  void SetBounds() {
    if (spans_.empty()) return;
    std::string lower = spans_[0].lo, upper = spans_[0].hi;
    for (const KeySpan& span : spans_) {
      lower = std::min(lower, span.lo);
      if (span.hi.empty() || upper.empty()) {
        upper.clear();  // unbounded
      } else {
        upper = std::max(upper, span.hi);
      }
    }
    it_->SetBounds(lower, upper);
  }

  void Reposition(const std::string& key) {
    ++ctx_->seeks;
    if (stats_) ++stats_->seeks;
    it_->Seek(key);
    Settle();
  }

  void EnterSpan() {
    valid_ = false;
    while (span_ < spans_.size()) {
      const KeySpan& span = spans_[span_];
      ++ctx_->seeks;
      if (stats_) ++stats_->seeks;
      if (reverse_) {
        it_->SeekBefore(span.hi);
      } else {
        it_->Seek(span.lo);
      }
      if (InSpan()) {
        Load();
        return;
      }
      if (!it_->status().ok()) return;
      ++span_;
    }
  }

  // Whether the iterator is in the current span; notes its key.
  bool InSpan() {
    if (!it_->Valid()) return false;
    const KeySpan& span = spans_[span_];
    key_ = it_->key();
    return key_ >= span.lo && key_ < span.hi;
  }

  void Settle() {
    if (InSpan()) {
      Load();
      return;
    }
    ++span_;
    EnterSpan();
  }

  void Load() {
    if (ctx_->Tick()) {
      status_ = ctx_->InterruptedStatus();
      valid_ = false;
      return;
    }
    ++ctx_->keys_read;
    if (stats_) {
      ++stats_->keys;
      ++stats_->rows;
    }
    pk_ready_ = false;
    valid_ = true;
  }

  ExecContext* ctx_;
  std::shared_ptr<const TableSchema> table_;
  const IndexSchema* index_;
  const std::vector<KeySpan>* source_;
  std::vector<KeySpan> spans_;
  bool reverse_;
  NodeStats* stats_;
  size_t table_prefix_len_;
  std::unique_ptr<KvIterator> it_;
  std::string_view key_;  // it_->key() while valid_
  size_t span_ = 0;
  bool valid_ = false;
  const bool pk_after_span_;
  mutable bool pk_ready_ = false;
  mutable std::string_view pk_;
  mutable Status pk_status_;  // an entry whose primary key would not parse
  Status status_;
  std::unique_ptr<KvIterator> rank_it_;  // ranked indexes: the counts
  ranks::Space space_;
};

// The rows of a primary-key path that fixes every key column: each span is
// one row key, read with a point Get (bloom filters, no iterator) instead
// of a scan. Keys in span order (primary-key order), or reversed.
//
// The spans are read in place from the plan node's path (`source`, which
// outlives the stream), so a reused plan's run that sets new keys there
// finds them on Rewind.
class PointStream : public RowIdStream {
 public:
  PointStream(ExecContext* ctx, const TableSchema& table,
              const std::vector<KeySpan>* source, bool reverse,
              NodeStats* stats)
      : ctx_(ctx),
        source_(source),
        reverse_(reverse),
        stats_(stats),
        prefix_len_(rows::IdPrefix(table.id).size()) {
    Rewind();
  }
  bool Park() override {
    ParkBuffer(&value_);
    return true;
  }
  void Rewind() override {
    pos_ = 0;
    status_ = Status::OK();
    Settle();
  }
  bool Valid() const override { return pos_ < source_->size(); }
  bool reverse() const override { return reverse_; }
  void Next() override {
    ++pos_;
    Settle();
  }
  void Seek(std::string_view target) override {
    while (Valid() && (reverse_ ? pk() > target : pk() < target)) Next();
  }
  std::string_view pk() const override {
    return std::string_view(Span(pos_).lo).substr(prefix_len_);
  }
  Status status() const override { return status_; }
  std::string_view entry_key() const override { return Span(pos_).lo; }
  std::string_view entry_value() const override { return value_; }
  bool reads_rows() const override { return true; }
  bool position_is_entry() const override { return true; }
  void ResumeAtEntry(std::string_view key, bool inclusive) override {
    // Past the points before `key` in the reading order (and at it, unless
    // inclusive).
    pos_ = 0;
    while (pos_ < source_->size()) {
      const int c = Span(pos_).lo.compare(key);
      if (reverse_ ? c < 0 : c > 0) break;
      if (c == 0 && inclusive) break;
      ++pos_;
    }
    Settle();
  }

 private:
  // The i-th span in reading order.
  const KeySpan& Span(size_t i) const {
    return (*source_)[reverse_ ? source_->size() - 1 - i : i];
  }
  // Moves to the first span whose row exists.
  void Settle() {
    for (; pos_ < source_->size(); ++pos_) {
      ++ctx_->seeks;
      if (stats_) ++stats_->seeks;
      Status s = ctx_->store->Get(ctx_->snapshot.get(), Span(pos_).lo, &value_);
      if (s.ok()) {
        ++ctx_->keys_read;
        if (stats_) {
          ++stats_->keys;
          ++stats_->rows;
        }
        return;
      }
      if (s.code() != Status::Code::kNotFound) {
        status_ = s;
        pos_ = source_->size();
        return;
      }
    }
  }

  ExecContext* ctx_;
  const std::vector<KeySpan>* source_;
  bool reverse_;
  NodeStats* stats_;
  size_t prefix_len_;
  size_t pos_ = 0;
  std::string value_;
  Status status_;
};

// True when `a` comes before `b` in a stream read in direction `reverse`.
bool Before(bool reverse, std::string_view a, std::string_view b) {
  return reverse ? a > b : a < b;
}

class UnionStream final : public RowIdStream {
 public:
  UnionStream(std::vector<std::unique_ptr<RowIdStream>> children,
              NodeStats* stats)
      : children_(std::move(children)),
        stats_(stats),
        reverse_(children_[0]->reverse()) {
    Pick();
  }
  bool reverse() const override { return reverse_; }
  bool Valid() const override { return valid_; }
  std::string_view pk() const override { return cur_; }
  // The entry of the (first) stream positioned at the current key.
  std::string_view entry_key() const override {
    return children_[cur_child_]->entry_key();
  }
  std::string_view entry_value() const override {
    return children_[cur_child_]->entry_value();
  }
  bool reads_rows() const override {
    return children_[cur_child_]->reads_rows();
  }
  void Next() override {
    // cur_ is the key of children_[cur_child_]: that one moves last.
    for (size_t i = 0; i < children_.size(); ++i) {
      RowIdStream& c = *children_[i];
      if (i != cur_child_ && c.Valid() && c.pk() == cur_) c.Next();
    }
    children_[cur_child_]->Next();
    Pick();
  }
  void Seek(std::string_view target) override {
    for (auto& c : children_) {
      if (c->Valid() && Before(reverse_, c->pk(), target)) c->Seek(target);
    }
    Pick();
  }
  // Steps itself (the class is final: no virtual call per key).
  bool CountRemaining(int64_t* n) override {
    return RowIdStream::CountRemaining(n);
  }
  Status status() const override {
    for (const auto& c : children_) {
      if (!c->status().ok()) return c->status();
    }
    return Status::OK();
  }

 private:
  void Pick() {
    valid_ = false;
    for (size_t i = 0; i < children_.size(); ++i) {
      const auto& c = children_[i];
      if (!c->Valid()) {
        // An exhausted stream may have stopped on an error.
        if (!c->status().ok()) return;
        continue;
      }
      if (!valid_ || Before(reverse_, c->pk(), cur_)) {
        cur_ = c->pk();
        cur_child_ = i;
        valid_ = true;
      }
    }
    if (valid_ && stats_) ++stats_->rows;
  }
  std::vector<std::unique_ptr<RowIdStream>> children_;
  NodeStats* stats_;
  bool reverse_;
  bool valid_ = false;
  size_t cur_child_ = 0;
  // The smallest key (in the reading direction): a view of the key of
  // children_[cur_child_], valid until that stream moves.
  std::string_view cur_;
};

class IntersectStream final : public RowIdStream {
 public:
  IntersectStream(std::vector<std::unique_ptr<RowIdStream>> children,
                  NodeStats* stats, bool exact)
      : children_(std::move(children)),
        stats_(stats),
        reverse_(children_[0]->reverse()),
        exact_(exact) {
    Align();
  }
  bool reverse() const override { return reverse_; }
  bool Valid() const override {
    return driver_only_ ? children_[0]->Valid() : valid_;
  }
  std::string_view entry_key() const override {
    return children_[0]->entry_key();
  }
  std::string_view entry_value() const override {
    return children_[0]->entry_value();
  }
  bool reads_rows() const override { return children_[0]->reads_rows(); }
  std::string_view pk() const override {
    return driver_only_ ? children_[0]->pk() : std::string_view(cur_);
  }
  void Next() override {
    children_[0]->Next();
    if (driver_only_) {
      if (stats_ && children_[0]->Valid()) ++stats_->rows;
      return;
    }
    Align();
    MaybeSwitch();
  }
  void Seek(std::string_view target) override {
    children_[0]->Seek(target);
    if (!driver_only_) Align();
  }
  // Past the fallback to the driver alone its keys are no count: only an
  // exact intersection counts.
  bool CountRemaining(int64_t* n) override {
    return exact_ && RowIdStream::CountRemaining(n);
  }
  Status status() const override {
    for (const auto& c : children_) {
      if (!c->status().ok()) return c->status();
    }
    return Status::OK();
  }

 private:
  // Leapfrog: every stream seeks to the largest current key until all agree.
  void Align() {
    valid_ = false;
    while (true) {
      for (const auto& c : children_) {
        if (!c->Valid()) return;
      }
      // The latest key in the reading direction.
      std::string_view latest = children_[0]->pk();
      for (const auto& c : children_) {
        if (Before(reverse_, latest, c->pk())) latest = c->pk();
      }
      std::string target(latest);
      bool agreed = true;
      for (auto& c : children_) {
        if (Before(reverse_, c->pk(), target)) {
          c->Seek(target);
          if (!c->Valid()) return;
          agreed = agreed && c->pk() == target;
        }
      }
      if (agreed) {
        cur_ = std::move(target);
        valid_ = true;
        ++outputs_;
        if (stats_) ++stats_->rows;
        return;
      }
      ++rejected_;  // the candidate is missing from some stream
    }
  }

  // An intersection that rejects almost nothing costs seeks for no gain:
  // continue with the driver alone (the plan re-checks the WHERE clause on
  // every row, so dropping the other streams keeps the answer). Judged on
  // every candidate key met, the rejected ones included, once 256 were.
  void MaybeSwitch() {
    const uint64_t candidates = outputs_ + rejected_;
    if (!exact_ && candidates >= kCandidatesBeforeSwitch &&
        outputs_ * 10 >= candidates * 9) {
      driver_only_ = true;
    }
  }

  std::vector<std::unique_ptr<RowIdStream>> children_;
  NodeStats* stats_;
  bool reverse_;
  const bool exact_;  // never continues with the driver alone
  bool valid_ = false;
  bool driver_only_ = false;
  uint64_t outputs_ = 0;   // candidates every stream had
  uint64_t rejected_ = 0;  // candidates some stream lacked
  std::string cur_;
};

class SortedStream : public RowIdStream {
 public:
  SortedStream(std::unique_ptr<RowIdStream> child, bool reverse,
               NodeStats* stats)
      : reverse_(reverse) {
    while (child->Valid()) {
      keys_.emplace_back(child->pk());
      child->Next();
    }
    status_ = child->status();
    std::sort(keys_.begin(), keys_.end());
    keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
    if (reverse_) std::reverse(keys_.begin(), keys_.end());
    if (stats) stats->rows = keys_.size();
  }
  bool reverse() const override { return reverse_; }
  bool Valid() const override { return status_.ok() && pos_ < keys_.size(); }
  std::string_view pk() const override { return keys_[pos_]; }
  void Next() override { ++pos_; }
  void Seek(std::string_view target) override {
    auto from = keys_.begin() + static_cast<ptrdiff_t>(pos_);
    pos_ = (reverse_ ? std::lower_bound(from, keys_.end(), target,
                                        std::greater<std::string_view>())
                     : std::lower_bound(from, keys_.end(), target)) -
           keys_.begin();
  }
  Status status() const override { return status_; }

 private:
  bool reverse_;
  std::vector<std::string> keys_;
  size_t pos_ = 0;
  Status status_;
};

class SkipStream : public RowIdStream {
 public:
  SkipStream(std::unique_ptr<RowIdStream> child, int64_t n, NodeStats* stats)
      : child_(std::move(child)), n_(n), stats_(stats) {
    child_->SkipKeys(n_);
    Count();
  }
  bool Park() override { return child_->Park(); }
  void Rewind() override {
    child_->Rewind();
    child_->SkipKeys(n_);
    Count();
  }
  bool Valid() const override { return child_->Valid(); }
  std::string_view pk() const override { return child_->pk(); }
  std::string_view entry_key() const override { return child_->entry_key(); }
  std::string_view entry_value() const override {
    return child_->entry_value();
  }
  bool reads_rows() const override { return child_->reads_rows(); }
  bool reverse() const override { return child_->reverse(); }
  bool position_is_entry() const override {
    return child_->position_is_entry();
  }
  void ResumeAtEntry(std::string_view key, bool inclusive) override {
    child_->ResumeAtEntry(key, inclusive);
    Count();
  }
  void Next() override {
    child_->Next();
    Count();
  }
  void Seek(std::string_view target) override {
    if (Valid() && (reverse() ? pk() <= target : pk() >= target)) return;
    child_->Seek(target);
    Count();
  }
  bool CountRemaining(int64_t* n) override { return child_->CountRemaining(n); }
  Status status() const override { return child_->status(); }

 private:
  // EXPLAIN ANALYZE: a key the stream now stands on.
  void Count() {
    if (stats_ && child_->Valid()) ++stats_->rows;
  }

  std::unique_ptr<RowIdStream> child_;
  const int64_t n_;
  NodeStats* stats_;
};

// Whether every entry in a span of `path` is the span's start followed by
// the primary key: the span fixes every column of a non-unique index (a
// unique one keeps the primary key in the value unless a column is NULL).
bool PkAfterSpan(const AccessPath& path) {
  return path.index != nullptr && !path.index->unique && path.pk_sorted;
}

}  // namespace

std::unique_ptr<RowIdStream> NewSpanStream(
    ExecContext* ctx, std::shared_ptr<const TableSchema> table,
    const AccessPath& path, bool reverse, NodeStats* stats) {
  if (path.index == nullptr &&
      path.eq_columns == static_cast<int>(table->primary_key.size()) &&
      path.used_columns == path.eq_columns) {
    return std::make_unique<PointStream>(ctx, *table, &path.spans, reverse,
                                         stats);
  }
  if (MergesSpans(path)) {
    // Each span is pk-sorted on its own; merge them.
    std::vector<std::unique_ptr<RowIdStream>> children;
    for (const KeySpan& span : path.spans) {
      children.push_back(std::make_unique<SpanStream>(
          ctx, table, path.index, std::vector<KeySpan>{span}, reverse, stats,
          PkAfterSpan(path)));
    }
    return NewUnionStream(std::move(children), nullptr);
  }
  return std::make_unique<SpanStream>(ctx, std::move(table), path.index,
                                      path.spans, reverse, stats,
                                      PkAfterSpan(path), &path.spans);
}

std::unique_ptr<RowIdStream> NewUnionStream(
    std::vector<std::unique_ptr<RowIdStream>> children, NodeStats* stats) {
  if (children.size() == 1) return std::move(children[0]);
  return std::make_unique<UnionStream>(std::move(children), stats);
}

std::unique_ptr<RowIdStream> NewIntersectStream(
    std::vector<std::unique_ptr<RowIdStream>> children, NodeStats* stats,
    bool exact) {
  if (children.size() == 1) return std::move(children[0]);
  return std::make_unique<IntersectStream>(std::move(children), stats, exact);
}

std::unique_ptr<RowIdStream> NewSortedStream(std::unique_ptr<RowIdStream> child,
                                             bool reverse, NodeStats* stats) {
  return std::make_unique<SortedStream>(std::move(child), reverse, stats);
}

void ResumeAtPk(RowIdStream* ids, std::string_view pk, bool inclusive) {
  if (!ids->Valid()) return;
  if (!ids->reverse()) {
    std::string target(pk);
    if (!inclusive) target.push_back('\0');  // the smallest key after pk
    if (ids->pk() < target) ids->Seek(target);
    return;
  }
  if (ids->pk() >= pk) ids->Seek(pk);
  if (!inclusive && ids->Valid() && ids->pk() == pk) ids->Next();
}

std::unique_ptr<RowIdStream> NewSkipStream(std::unique_ptr<RowIdStream> child,
                                           int64_t n, NodeStats* stats) {
  return std::make_unique<SkipStream>(std::move(child), n, stats);
}

}  // namespace levelql
