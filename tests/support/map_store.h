// An ordered map as a KvIterator source, for tests of iterators and key
// layouts without LevelDB: keys in bytewise order, like the store's.
#ifndef LEVELQL_TESTS_SUPPORT_MAP_STORE_H_
#define LEVELQL_TESTS_SUPPORT_MAP_STORE_H_

#include <iterator>
#include <map>
#include <string>
#include <string_view>

#include "engine/storage/kv_store.h"

namespace levelql::testing {

using Map = std::map<std::string, std::string, std::less<>>;

// Iterates `map` (borrowed) like a LevelDB iterator.
class MapIterator : public KvIterator {
 public:
  explicit MapIterator(const Map* map) : map_(map), it_(map->end()) {}
  bool Valid() const override { return it_ != map_->end(); }
  void Seek(std::string_view target) override {
    it_ = map_->lower_bound(target);
  }
  void SeekToFirst() override { it_ = map_->begin(); }
  void SeekToLast() override {
    it_ = map_->empty() ? map_->end() : std::prev(map_->end());
  }
  void Next() override { ++it_; }
  void Prev() override {
    it_ = it_ == map_->begin() ? map_->end() : std::prev(it_);
  }
  std::string_view key() const override { return it_->first; }
  std::string_view value() const override { return it_->second; }
  Status status() const override { return Status::OK(); }

 private:
  const Map* map_;
  Map::const_iterator it_;
};

// A KvStore over `map` (borrowed), with no snapshots: reads see the map as
// it is.
class MapStore : public KvStore {
 public:
  explicit MapStore(Map* map) : map_(map) {}
  std::shared_ptr<const KvSnapshot> GetSnapshot() override { return nullptr; }
  Status Get(const KvSnapshot*, std::string_view key,
             std::string* value) override {
    auto it = map_->find(key);
    if (it == map_->end()) return Status::NotFound("no such key");
    *value = it->second;
    return Status::OK();
  }
  Status Write(const WriteBatch& batch, bool) override {
    for (const WriteBatch::Op& op : batch.ops()) {
      if (op.is_delete) {
        map_->erase(op.key);
      } else {
        (*map_)[op.key] = op.value;
      }
    }
    return Status::OK();
  }
  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot*) override {
    return std::make_unique<MapIterator>(map_);
  }

 private:
  Map* map_;
};

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_SUPPORT_MAP_STORE_H_
