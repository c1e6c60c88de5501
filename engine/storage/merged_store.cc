#include "engine/storage/merged_store.h"

namespace levelql {
namespace {

// Two iterators over disjoint keys, merged. Moving forward, both sit at or
// after the current key and the current one is the smaller head; moving
// backward, both sit at or before it and it is the larger head. A change of
// direction puts the other one on the far side of the current key.
class MergedIterator : public KvIterator {
 public:
  MergedIterator(std::unique_ptr<KvIterator> a, std::unique_ptr<KvIterator> b)
      : a_(std::move(a)), b_(std::move(b)) {}

  bool Valid() const override { return current_ != nullptr; }
  void Seek(std::string_view target) override {
    a_->Seek(target);
    b_->Seek(target);
    forward_ = true;
    Pick();
  }
  void SeekToFirst() override {
    a_->SeekToFirst();
    b_->SeekToFirst();
    forward_ = true;
    Pick();
  }
  void SeekToLast() override {
    a_->SeekToLast();
    b_->SeekToLast();
    forward_ = false;
    Pick();
  }
  void SeekBefore(std::string_view target) override {
    a_->SeekBefore(target);
    b_->SeekBefore(target);
    forward_ = false;
    Pick();
  }
  void SetBounds(std::string_view lower, std::string_view upper) override {
    a_->SetBounds(lower, upper);
    b_->SetBounds(lower, upper);
  }
  void Next() override {
    KvIterator* other = current_ == a_.get() ? b_.get() : a_.get();
    if (!forward_) {
      // The other one sits before the current key: to the first after it
      // (no key is in both).
      other->Seek(current_->key());
      forward_ = true;
    }
    current_->Next();
    Pick();
  }
  void Prev() override {
    KvIterator* other = current_ == a_.get() ? b_.get() : a_.get();
    if (forward_) {
      // The other one sits after the current key: to the last before it.
      other->SeekBefore(current_->key());
      forward_ = false;
    }
    current_->Prev();
    Pick();
  }
  std::string_view key() const override { return current_->key(); }
  std::string_view value() const override { return current_->value(); }
  Status status() const override {
    Status s = a_->status();
    return s.ok() ? b_->status() : s;
  }

 private:
  // The head in the direction of travel; none when either side failed (an
  // end that is an error is not the end of the merge).
  void Pick() {
    current_ = nullptr;
    if (!a_->status().ok() || !b_->status().ok()) return;
    if (!a_->Valid()) {
      if (b_->Valid()) current_ = b_.get();
      return;
    }
    if (!b_->Valid()) {
      current_ = a_.get();
      return;
    }
    const bool a_first = a_->key() < b_->key();
    current_ = a_first == forward_ ? a_.get() : b_.get();
  }

  std::unique_ptr<KvIterator> a_, b_;
  KvIterator* current_ = nullptr;
  bool forward_ = true;
};

}  // namespace

std::unique_ptr<KvIterator> NewMergedIterator(std::unique_ptr<KvIterator> a,
                                              std::unique_ptr<KvIterator> b) {
  return std::make_unique<MergedIterator>(std::move(a), std::move(b));
}

Status MergedStore::Get(const KvSnapshot* snapshot, std::string_view key,
                        std::string* value) {
  Status s = side_->Get(nullptr, key, value);
  if (s.code() != Status::Code::kNotFound) return s;
  return base()->Get(snapshot, key, value);
}

std::unique_ptr<KvIterator> MergedStore::NewIterator(
    const KvSnapshot* snapshot) {
  return NewMergedIterator(base()->NewIterator(snapshot),
                           side_->NewIterator(nullptr));
}

}  // namespace levelql
