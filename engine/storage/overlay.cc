#include "engine/storage/overlay.h"

#include <iterator>

namespace levelql {
namespace {

// Merges `base` and `writes` (see overlay.h). Moving forward, both sides sit
// at or after the current key and the current entry is the smaller head;
// moving backward, both sit at or before it and it is the larger head. A
// change of direction re-seeks both sides around the current key.
class OverlayIterator : public KvIterator {
 public:
  OverlayIterator(std::unique_ptr<KvIterator> base, const PendingWrites* writes)
      : base_(std::move(base)), writes_(writes), pending_(writes_->end()) {}

  bool Valid() const override { return valid_; }

  void Seek(std::string_view target) override {
    base_->Seek(target);
    pending_ = writes_->lower_bound(target);
    forward_ = true;
    SettleForward();
  }
  void SeekToFirst() override {
    base_->SeekToFirst();
    pending_ = writes_->begin();
    forward_ = true;
    SettleForward();
  }
  void SeekToLast() override {
    base_->SeekToLast();
    pending_ = writes_->empty() ? writes_->end() : std::prev(writes_->end());
    forward_ = false;
    SettleBackward();
  }

  void SetBounds(std::string_view lower, std::string_view upper) override {
    base_->SetBounds(lower, upper);
  }

  void Next() override {
    if (!forward_) {
      // Both sides to the first key after the current one.
      const std::string current(key());
      base_->Seek(current);
      if (base_->Valid() && base_->key() == current) base_->Next();
      pending_ = writes_->upper_bound(current);
      forward_ = true;
    } else if (from_pending_) {
      if (base_->Valid() && base_->key() == pending_->first) base_->Next();
      ++pending_;
    } else {
      base_->Next();
    }
    SettleForward();
  }

  void Prev() override {
    if (forward_) {
      // Both sides to the last key before the current one.
      const std::string current(key());
      base_->Seek(current);
      if (base_->Valid()) {
        base_->Prev();
      } else {
        base_->SeekToLast();
      }
      auto it = writes_->lower_bound(current);
      pending_ = it == writes_->begin() ? writes_->end() : std::prev(it);
      forward_ = false;
    } else if (from_pending_) {
      if (base_->Valid() && base_->key() == pending_->first) base_->Prev();
      StepPendingBack();
    } else {
      base_->Prev();
    }
    SettleBackward();
  }

  std::string_view key() const override {
    return from_pending_ ? std::string_view(pending_->first) : base_->key();
  }
  std::string_view value() const override {
    return from_pending_ ? std::string_view(*pending_->second) : base_->value();
  }
  Status status() const override { return base_->status(); }

 private:
  // Backward, writes_->end() stands for "before the first pending write".
  void StepPendingBack() {
    pending_ =
        pending_ == writes_->begin() ? writes_->end() : std::prev(pending_);
  }

  // Positions on the smaller head; a pending write shadows the base's entry
  // of the same key, and a pending delete hides it.
  void SettleForward() {
    while (true) {
      const bool base = base_->Valid();
      const bool pending = pending_ != writes_->end();
      if (!base && !pending) {
        valid_ = false;
        return;
      }
      from_pending_ = pending && (!base || pending_->first <= base_->key());
      if (from_pending_ && !pending_->second) {  // deleted
        if (base && base_->key() == pending_->first) base_->Next();
        ++pending_;
        continue;
      }
      valid_ = true;
      return;
    }
  }

  // The same, backward: the larger head.
  void SettleBackward() {
    while (true) {
      const bool base = base_->Valid();
      const bool pending = pending_ != writes_->end();
      if (!base && !pending) {
        valid_ = false;
        return;
      }
      from_pending_ = pending && (!base || pending_->first >= base_->key());
      if (from_pending_ && !pending_->second) {  // deleted
        if (base && base_->key() == pending_->first) base_->Prev();
        StepPendingBack();
        continue;
      }
      valid_ = true;
      return;
    }
  }

  std::unique_ptr<KvIterator> base_;
  const PendingWrites* writes_;
  PendingWrites::const_iterator pending_;
  bool forward_ = true;
  bool from_pending_ = false;
  bool valid_ = false;
};

}  // namespace

std::unique_ptr<KvIterator> NewOverlayIterator(std::unique_ptr<KvIterator> base,
                                               const PendingWrites* writes) {
  return std::make_unique<OverlayIterator>(std::move(base), writes);
}

Status OverlayStore::Get(const KvSnapshot* snapshot, std::string_view key,
                         std::string* value) {
  if (!writes_->empty()) {
    auto it = writes_->find(key);
    if (it != writes_->end()) {
      if (!it->second) return Status::NotFound("deleted");
      *value = *it->second;
      return Status::OK();
    }
  }
  return base()->Get(snapshot, key, value);
}

std::unique_ptr<KvIterator> OverlayStore::NewIterator(
    const KvSnapshot* snapshot) {
  auto below = base()->NewIterator(snapshot);
  if (writes_->empty()) return below;
  return NewOverlayIterator(std::move(below), writes_.get());
}

}  // namespace levelql
