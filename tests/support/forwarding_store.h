// ForwardingStore: a KvStore that passes the four calls every store must
// have (snapshots, Get, Write, iterators) to another one. Tests derive from
// it and override only what they watch or change; every other call keeps
// KvStore's default (no sizes, no compaction, not shared).
#ifndef LEVELQL_TESTS_SUPPORT_FORWARDING_STORE_H_
#define LEVELQL_TESTS_SUPPORT_FORWARDING_STORE_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "engine/storage/kv_store.h"

namespace levelql::testing {

class ForwardingStore : public KvStore {
 public:
  explicit ForwardingStore(KvStore* base) : base_(base) {}  // borrowed
  explicit ForwardingStore(std::unique_ptr<KvStore> base)
      : owned_(std::move(base)), base_(owned_.get()) {}

  std::shared_ptr<const KvSnapshot> GetSnapshot() override {
    return base_->GetSnapshot();
  }
  Status Get(const KvSnapshot* snapshot, std::string_view key,
             std::string* value) override {
    return base_->Get(snapshot, key, value);
  }
  Status Write(const WriteBatch& batch, bool sync) override {
    return base_->Write(batch, sync);
  }
  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot* snapshot) override {
    return base_->NewIterator(snapshot);
  }

 private:
  std::unique_ptr<KvStore> owned_;
  KvStore* base_;
};

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_SUPPORT_FORWARDING_STORE_H_
