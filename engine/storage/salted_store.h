// The salted view of a store: salted tables' keys read as if unsalted.
//
// A salted table (CREATE TABLE ... WITH (salt_buckets = N)) stores every row
// key and index entry key with a bucket byte after the id (indexes/salt.h).
// Everything above the store - scans, point reads, tokens, ranked counts,
// ANALYZE, CHECK - works on the logical keys without that byte, through this
// view:
//
// - A SaltedIterator presents each salted key range as one range in logical
//   order: positioned inside one, it reads that range's N buckets with N
//   iterators and merges them with a heap on the keys after the bucket byte
//   (the range's key columns, then the primary key), in both directions.
//   Seek(target) seeks every bucket to target, so a scan, a resumed token or
//   a leapfrog seek costs N seeks and what follows is a k-way merge: LIMIT k
//   reads at most k entries past the N first. Outside salted ranges it is
//   the underlying iterator.
// - Get of a row key computes the bucket from the primary key: one read. Get
//   of an index entry key (a UNIQUE entry's owner is in its value, unknown
//   before the read) tries every bucket.
// - Write() passes batches through unchanged: writers build physical keys
//   themselves (WriteTxn), since only they know every entry's row.
//
// With no salted table the view adds nothing: NewIterator returns the
// underlying iterator. Thread-safe like the store under it; an iterator is
// used by one thread.
#ifndef LEVELQL_ENGINE_STORAGE_SALTED_STORE_H_
#define LEVELQL_ENGINE_STORAGE_SALTED_STORE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "engine/storage/kv_store.h"

namespace levelql {

// Which key ranges (table and index ids) are salted, and with how many
// buckets. Immutable once shared.
class SaltLayout {
 public:
  struct Range {
    int buckets = 0;
    // A table's rows (keys end with the primary key, so the bucket of a key
    // is computable); else an index.
    bool is_table = false;
  };
  void Add(int64_t id, Range range) { ranges_[id] = range; }
  const Range* Find(int64_t id) const {
    auto it = ranges_.find(id);
    return it == ranges_.end() ? nullptr : &it->second;
  }
  bool empty() const { return ranges_.empty(); }

 private:
  std::map<int64_t, Range> ranges_;
};

// The id a table, index or count key starts with, and its size in bytes;
// false for metadata keys and anything else that does not start with one.
bool KeyRangeId(std::string_view key, int64_t* id, size_t* id_size);

// Merges the buckets of `layout`'s ranges over iterators made by `factory`
// (all on the same snapshot), as described above.
std::unique_ptr<KvIterator> NewSaltedIterator(
    std::shared_ptr<const SaltLayout> layout,
    std::function<std::unique_ptr<KvIterator>()> factory);

class SaltedStore : public KvStore {
 public:
  // `base` is borrowed and must outlive this store and its iterators.
  SaltedStore(KvStore* base, std::shared_ptr<const SaltLayout> layout)
      : base_(base), layout_(std::move(layout)) {}

  std::shared_ptr<const KvSnapshot> GetSnapshot() override {
    return base_->GetSnapshot();
  }
  Status Get(const KvSnapshot* snapshot, std::string_view key,
             std::string* value) override;
  Status Write(const WriteBatch& batch, bool sync) override {
    return base_->Write(batch, sync);
  }
  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot* snapshot) override;

 private:
  KvStore* base_;
  std::shared_ptr<const SaltLayout> layout_;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_SALTED_STORE_H_
