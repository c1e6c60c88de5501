// A read-only store made over another: the base of OverlayStore (a
// transaction's view, overlay.h) and MergedStore (a statement's spilled
// rows, merged_store.h). Snapshots and the store's traits are the base's;
// Write is refused with the reason the view gives. A subclass reads.
#ifndef LEVELQL_ENGINE_STORAGE_READ_ONLY_VIEW_H_
#define LEVELQL_ENGINE_STORAGE_READ_ONLY_VIEW_H_

#include <memory>

#include "engine/storage/kv_store.h"

namespace levelql {

class ReadOnlyView : public KvStore {
 public:
  // `base` is borrowed and must outlive this store and its iterators;
  // `why_read_only` (a literal) is the NotSupported message of Write.
  ReadOnlyView(KvStore* base, const char* why_read_only)
      : base_(base), why_read_only_(why_read_only) {}

  std::shared_ptr<const KvSnapshot> GetSnapshot() override {
    return base_->GetSnapshot();
  }
  Status Write(const WriteBatch&, bool) override {
    return Status::NotSupported(why_read_only_);
  }
  bool shared() const override { return base_->shared(); }
  bool remote() const override { return base_->remote(); }

 protected:
  KvStore* base() const { return base_; }

 private:
  KvStore* base_;
  const char* why_read_only_;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_READ_ONLY_VIEW_H_
