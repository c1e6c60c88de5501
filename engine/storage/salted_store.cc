#include "engine/storage/salted_store.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "indexes/key_codec.h"
#include "indexes/salt.h"

namespace levelql {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

// See salted_store.h. In pass mode the iterator is `base_`; in merge mode it
// is the heap of `children_` over the buckets of the range `prefix_`.
// Moving forward, every live child sits at or after the current key and the
// heap is ordered smallest first; moving backward, at or before it, largest
// first. A change of direction re-seeks the other children around the
// current key, like LevelDB's MergingIterator.
class SaltedIterator : public KvIterator {
 public:
  SaltedIterator(std::shared_ptr<const SaltLayout> layout,
                 std::function<std::unique_ptr<KvIterator>()> factory,
                 std::atomic<uint64_t>* bucket_seeks, int pin, bool parallel)
      : layout_(std::move(layout)),
        factory_(std::move(factory)),
        bucket_seeks_(bucket_seeks),
        pin_(pin),
        parallel_(parallel),
        base_(factory_()) {}
  // Children end last first, then base_: a store that keeps ended
  // iterators (iterator_pool.h) hands the last one back first, so the next
  // scan's base and bucket 0, 1, ... get the iterators that read there.
  ~SaltedIterator() override {
    while (!children_.empty()) children_.pop_back();
  }

  bool Valid() const override {
    return merging_ ? !heap_.empty() : base_->Valid();
  }

  void Seek(std::string_view target) override {
    std::string_view suffix;
    if (EnterRangeOf(target, &suffix)) {
      MergeSeek(suffix);
      return;
    }
    base_->Seek(target);
    SettlePass(true);
  }
  // Inside a salted range, every bucket to its last key before the target
  // (none when the target is the range's start: then the keys before the
  // range), merged backward.
  void SeekBefore(std::string_view target) override {
    std::string_view suffix;
    if (!EnterRangeOf(target, &suffix)) {
      base_->SeekBefore(target);
      SettlePass(false);
      return;
    }
    if (!suffix.empty()) PlaceChildren(suffix, false, -1);
    if (suffix.empty() || heap_.empty()) {
      LeaveBackward();
    } else {
      SetKey();
    }
  }
  void SeekToFirst() override {
    base_->SeekToFirst();
    SettlePass(true);
  }
  void SetBounds(std::string_view lower, std::string_view upper) override {
    lower_.assign(lower);
    upper_.assign(upper);
    base_->SetBounds(lower, upper);
    BoundChildren();
  }
  void SeekToLast() override {
    base_->SeekToLast();
    SettlePass(false);
  }

  void Next() override {
    if (!merging_) {
      base_->Next();
      SettlePass(true);
      return;
    }
    if (!forward_) TurnForward();
    std::pop_heap(heap_.begin(), heap_.end(), Order());
    int b = heap_.back();
    children_[b]->Next();
    Replace(b);
    if (heap_.empty()) LeaveForward();
  }

  void Prev() override {
    if (!merging_) {
      base_->Prev();
      SettlePass(false);
      return;
    }
    if (forward_) TurnBackward();
    std::pop_heap(heap_.begin(), heap_.end(), Order());
    int b = heap_.back();
    children_[b]->Prev();
    Replace(b);
    if (heap_.empty()) LeaveBackward();
  }

  std::string_view key() const override {
    return merging_ ? std::string_view(key_) : base_->key();
  }
  std::string_view value() const override {
    return merging_ ? children_[heap_.front()]->value() : base_->value();
  }
  Status status() const override {
    LQ_RETURN_IF_ERROR(base_->status());
    for (const auto& child : children_) LQ_RETURN_IF_ERROR(child->status());
    return Status::OK();
  }

 private:
  // Heap order: std::*_heap keep the largest first, so forward compares
  // "greater" and backward "less".
  struct Compare {
    const SaltedIterator* self;
    bool operator()(int a, int b) const {
      int c = self->Suffix(a).compare(self->Suffix(b));
      return self->forward_ ? c > 0 : c < 0;
    }
  };
  Compare Order() const { return Compare{this}; }

  // The key of child b after its range id and bucket byte.
  std::string_view Suffix(int b) const {
    return children_[b]->key().substr(prefix_.size() + 1);
  }
  bool InBucket(int b) const {
    return children_[b]->Valid() &&
           StartsWith(children_[b]->key(), bucket_prefix_[b]);
  }

  // After base_ moved: stay in pass mode, or merge the salted range it
  // entered from its first (forward) or last (backward) key.
  void SettlePass(bool forward) {
    merging_ = false;
    if (!base_->Valid()) return;
    std::string_view k = base_->key();
    if (!pass_prefix_.empty() && StartsWith(k, pass_prefix_)) return;
    pass_prefix_.clear();
    int64_t id;
    size_t id_size;
    if (!KeyRangeId(k, &id, &id_size)) return;
    const SaltLayout::Range* range = layout_->Find(id);
    if (range == nullptr) {
      pass_prefix_.assign(k.substr(0, id_size));
      return;
    }
    const std::string prefix(k.substr(0, id_size));
    EnterRange(prefix, *range);
    if (forward) {
      MergeSeek("");
    } else {
      MergeSeekToLast();
    }
  }

  // When `target` lies in a salted range: enters it, sets *suffix to the
  // target after the range's id, and returns true.
  bool EnterRangeOf(std::string_view target, std::string_view* suffix) {
    int64_t id;
    size_t id_size;
    if (!KeyRangeId(target, &id, &id_size)) return false;
    const SaltLayout::Range* range = layout_->Find(id);
    if (range == nullptr) return false;
    EnterRange(target.substr(0, id_size), *range);
    *suffix = target.substr(id_size);
    return true;
  }

  // Child i reads bucket i, or with a pin the pinned bucket alone (none
  // when the range has fewer buckets).
  void EnterRange(std::string_view prefix, const SaltLayout::Range& range) {
    merging_ = true;
    const int n = pin_ < 0 ? range.buckets : pin_ < range.buckets ? 1 : 0;
    while (static_cast<int>(children_.size()) < n) {
      children_.push_back(factory_());
    }
    if (prefix_ != prefix || buckets_ != n) {
      prefix_.assign(prefix);
      buckets_ = n;
      bucket_prefix_.resize(buckets_);
      for (int b = 0; b < buckets_; ++b) {
        bucket_prefix_[b] = prefix_;
        bucket_prefix_[b].push_back(static_cast<char>(pin_ < 0 ? b : pin_));
      }
      BoundChildren();
    }
  }

  // A child reads its bucket only, and of it only the part the caller's
  // bounds (SetBounds) allow: inside a bucket the stored key is the bucket
  // prefix then the same suffix as the logical key, in the same order.
  void BoundChildren() {
    for (int b = 0; b < buckets_; ++b) {
      const std::string& bucket = bucket_prefix_[b];
      std::string lower = bucket, upper = keys::PrefixSuccessor(bucket);
      if (lower_.size() > prefix_.size() && StartsWith(lower_, prefix_)) {
        lower = bucket + lower_.substr(prefix_.size());
      }
      if (upper_.size() > prefix_.size() && StartsWith(upper_, prefix_)) {
        upper = bucket + upper_.substr(prefix_.size());
      }
      children_[b]->SetBounds(lower, upper);
    }
  }

  // fn(b) for every bucket but `keep` (-1: none); with parallel_ (a store
  // whose every read is a round trip) at once, a thread per bucket, so
  // that positioning N buckets costs one round trip instead of N. Each
  // child is used by one thread.
  template <typename Fn>
  void EachBucket(int keep, const Fn& fn) {
    if (!parallel_ || buckets_ - (keep >= 0 ? 1 : 0) < 2) {
      for (int b = 0; b < buckets_; ++b) {
        if (b != keep) fn(b);
      }
      return;
    }
    std::vector<std::thread> threads;
    threads.reserve(buckets_);
    for (int b = 0; b < buckets_; ++b) {
      if (b != keep) threads.emplace_back([&fn, b] { fn(b); });
    }
    for (std::thread& t : threads) t.join();
  }

  void CountSeeks(int n) {
    if (bucket_seeks_) bucket_seeks_->fetch_add(n, std::memory_order_relaxed);
  }

  void MergeSeek(std::string_view suffix) {
    PlaceChildren(suffix, true, -1);
    if (heap_.empty()) {
      LeaveForward();
    } else {
      SetKey();
    }
  }

  void MergeSeekToLast() {
    CountSeeks(buckets_);
    forward_ = false;
    heap_.clear();
    EachBucket(-1, [this](int b) {
      ChildBefore(b, keys::PrefixSuccessor(bucket_prefix_[b]));
    });
    for (int b = 0; b < buckets_; ++b) {
      if (InBucket(b)) heap_.push_back(b);
    }
    std::make_heap(heap_.begin(), heap_.end(), Order());
    if (heap_.empty()) {
      LeaveBackward();
    } else {
      SetKey();
    }
  }

  // Child b to the last key before `bound`.
  void ChildBefore(int b, std::string_view bound) {
    children_[b]->SeekBefore(bound);
  }

  // Child b moved: back into the heap if it is still in its bucket.
  void Replace(int b) {
    if (InBucket(b)) {
      std::push_heap(heap_.begin(), heap_.end(), Order());
    } else {
      heap_.pop_back();
    }
    if (!heap_.empty()) SetKey();
  }

  // Every child but the current one to its first key after the current key.
  void TurnForward() {
    const std::string suffix(Suffix(heap_.front()));
    PlaceChildren(suffix, true, heap_.front());
  }

  // Every child but the current one to its last key before the current key.
  void TurnBackward() {
    const std::string suffix(Suffix(heap_.front()));
    PlaceChildren(suffix, false, heap_.front());
  }

  // Puts every child but `keep` (-1: none) at its first key at or after
  // its bucket's prefix + `suffix` (after it, when `keep` sits there), or
  // backward at its last key before it, and rebuilds the heap of the
  // children left in their buckets.
  void PlaceChildren(std::string_view suffix, bool forward, int keep) {
    CountSeeks(buckets_ - (keep >= 0 ? 1 : 0));
    forward_ = forward;
    heap_.clear();
    EachBucket(keep, [&](int b) {
      std::string target = bucket_prefix_[b];
      target.append(suffix);
      if (!forward) {
        ChildBefore(b, target);
      } else {
        children_[b]->Seek(target);
        if (keep >= 0 && InBucket(b) && Suffix(b) == suffix) {
          children_[b]->Next();
        }
      }
    });
    for (int b = 0; b < buckets_; ++b) {
      if (b == keep || InBucket(b)) heap_.push_back(b);
    }
    std::make_heap(heap_.begin(), heap_.end(), Order());
  }

  void LeaveForward() {
    merging_ = false;
    base_->Seek(keys::PrefixSuccessor(prefix_));
    SettlePass(true);
  }

  void LeaveBackward() {
    merging_ = false;
    base_->SeekBefore(prefix_);
    SettlePass(false);
  }

  void SetKey() { key_.assign(prefix_).append(Suffix(heap_.front())); }

  std::shared_ptr<const SaltLayout> layout_;
  std::function<std::unique_ptr<KvIterator>()> factory_;
  std::atomic<uint64_t>* bucket_seeks_;
  int pin_;                    // the only bucket read, or -1 for all
  bool parallel_;              // buckets positioned concurrently
  std::string lower_, upper_;  // SetBounds', in the logical key space
  std::unique_ptr<KvIterator> base_;
  // Pass mode: the id prefix of the unsalted range base_ is in ("" when
  // unknown), so that stepping inside it needs no decoding.
  std::string pass_prefix_;

  bool merging_ = false;
  bool forward_ = true;
  std::string prefix_;  // the salted range's id prefix
  int buckets_ = 0;
  std::vector<std::string> bucket_prefix_;  // prefix_ + bucket byte
  std::vector<std::unique_ptr<KvIterator>> children_;
  std::vector<int> heap_;  // live children; the current one first
  std::string key_;        // the current logical key
};

}  // namespace

bool KeyRangeId(std::string_view key, int64_t* id, size_t* id_size) {
  // Ids are positive INTEGER components: tags 0x15 (one byte) to 0x1c.
  if (key.empty() || static_cast<unsigned char>(key[0]) < 0x15 ||
      static_cast<unsigned char>(key[0]) > 0x1c) {
    return false;
  }
  std::string_view rest = key;
  Value v;
  if (!keys::DecodeValue(&rest, keys::Direction::kAsc, &v).ok() ||
      v.type() != Type::kInteger) {
    return false;
  }
  *id = v.int_value();
  *id_size = key.size() - rest.size();
  return true;
}

std::unique_ptr<KvIterator> NewSaltedIterator(
    std::shared_ptr<const SaltLayout> layout,
    std::function<std::unique_ptr<KvIterator>()> factory,
    std::atomic<uint64_t>* bucket_seeks, int pin, bool parallel) {
  if (layout == nullptr || layout->empty()) return factory();
  return std::make_unique<SaltedIterator>(std::move(layout), std::move(factory),
                                          bucket_seeks, pin, parallel);
}

Status SaltedStore::Get(const KvSnapshot* snapshot, std::string_view key,
                        std::string* value) {
  int64_t id;
  size_t id_size;
  const SaltLayout::Range* range = nullptr;
  if (!layout_->empty() && KeyRangeId(key, &id, &id_size)) {
    range = layout_->Find(id);
  }
  if (range == nullptr) return base_->Get(snapshot, key, value);
  int first = 0, last = range->buckets - 1;
  if (range->is_table) {
    first = last = rows::SaltBucket(key.substr(id_size), range->buckets);
  }
  if (pin_ >= 0) {
    if (pin_ < first || pin_ > last) return Status::NotFound("no such key");
    first = last = pin_;
  }
  for (int b = first; b <= last; ++b) {
    counter_->fetch_add(1, std::memory_order_relaxed);
    Status s = base_->Get(
        snapshot, rows::SaltedKey(key, id_size, static_cast<uint8_t>(b)),
        value);
    if (s.code() != Status::Code::kNotFound) return s;
  }
  return Status::NotFound("no such key");
}

void SaltedStore::MultiGet(const KvSnapshot* snapshot,
                           const std::vector<std::string>& keys,
                           std::vector<std::string>* values,
                           std::vector<Status>* statuses) {
  values->assign(keys.size(), std::string());
  statuses->assign(keys.size(), Status::OK());
  std::vector<std::string> physical;
  std::vector<size_t> where;  // index into `keys` of each physical key
  for (size_t i = 0; i < keys.size(); ++i) {
    int64_t id;
    size_t id_size;
    const SaltLayout::Range* range = nullptr;
    if (!layout_->empty() && KeyRangeId(keys[i], &id, &id_size)) {
      range = layout_->Find(id);
    }
    if (range == nullptr) {
      physical.push_back(keys[i]);
    } else if (range->is_table) {
      const int b = rows::SaltBucket(std::string_view(keys[i]).substr(id_size),
                                     range->buckets);
      if (pin_ >= 0 && pin_ != b) {
        (*statuses)[i] = Status::NotFound("no such key");
        continue;
      }
      counter_->fetch_add(1, std::memory_order_relaxed);
      physical.push_back(
          rows::SaltedKey(keys[i], id_size, static_cast<uint8_t>(b)));
    } else {
      (*statuses)[i] = Get(snapshot, keys[i], &(*values)[i]);
      continue;
    }
    where.push_back(i);
  }
  std::vector<std::string> found;
  std::vector<Status> found_status;
  base_->MultiGet(snapshot, physical, &found, &found_status);
  for (size_t j = 0; j < where.size(); ++j) {
    (*values)[where[j]] = std::move(found[j]);
    (*statuses)[where[j]] = std::move(found_status[j]);
  }
}

std::unique_ptr<KvIterator> SaltedStore::NewIterator(
    const KvSnapshot* snapshot) {
  KvStore* base = base_;
  return NewSaltedIterator(
      layout_, [base, snapshot] { return base->NewIterator(snapshot); },
      counter_, pin_, base_->remote());
}

}  // namespace levelql
