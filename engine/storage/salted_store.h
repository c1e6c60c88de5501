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

#include <atomic>
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
// `bucket_seeks`, when not null, counts the seeks of bucket iterators (for
// EXPLAIN ANALYZE); it must outlive the iterator.
// With `pin` >= 0, only that bucket of each salted range. With `parallel`
// (the store's reads are round trips: KvStore::remote), the buckets are
// positioned concurrently, a thread each.
std::unique_ptr<KvIterator> NewSaltedIterator(
    std::shared_ptr<const SaltLayout> layout,
    std::function<std::unique_ptr<KvIterator>()> factory,
    std::atomic<uint64_t>* bucket_seeks = nullptr, int pin = -1,
    bool parallel = false);

class SaltedStore : public KvStore {
 public:
  // `base` is borrowed and must outlive this store and its iterators. With
  // `pin` >= 0 the view holds only that bucket of every salted range (the
  // rows of that bucket, and their entries): per-bucket plans read through
  // one such view per bucket. `counter`, when given, counts bucket reads
  // instead of this store's own counter (and must outlive it).
  SaltedStore(KvStore* base, std::shared_ptr<const SaltLayout> layout,
              int pin = -1, std::atomic<uint64_t>* counter = nullptr)
      : base_(base),
        layout_(std::move(layout)),
        pin_(pin),
        counter_(counter ? counter : &bucket_seeks_) {}

  std::shared_ptr<const KvSnapshot> GetSnapshot() override {
    return base_->GetSnapshot();
  }
  Status Get(const KvSnapshot* snapshot, std::string_view key,
             std::string* value) override;
  Status Write(const WriteBatch& batch, bool sync) override {
    return base_->Write(batch, sync);
  }
  // Keys of a table go to the base store in one MultiGet (a row's bucket
  // is known from its key); others are looked up as Get does.
  void MultiGet(const KvSnapshot* snapshot,
                const std::vector<std::string>& keys,
                std::vector<std::string>* values,
                std::vector<Status>* statuses) override;
  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot* snapshot) override;
  bool shared() const override { return base_->shared(); }
  bool remote() const override { return base_->remote(); }
  // A salted range's buckets lie inside its logical range (the bucket byte
  // follows the id): the same bounds cover them.
  int64_t ApproximateBytes(std::string_view lo, std::string_view hi) override {
    return base_->ApproximateBytes(lo, hi);
  }
  void CompactRange(std::string_view lo, std::string_view hi) override {
    base_->CompactRange(lo, hi);
  }

  // Reads of single buckets (an iterator positioning one bucket of a salted
  // range, or a Get) by this store and its iterators so far.
  uint64_t bucket_seeks() const { return counter_->load(); }
  std::atomic<uint64_t>* counter() { return counter_; }
  KvStore* base() const { return base_; }
  const std::shared_ptr<const SaltLayout>& layout() const { return layout_; }

 private:
  KvStore* base_;
  std::shared_ptr<const SaltLayout> layout_;
  int pin_;
  std::atomic<uint64_t> bucket_seeks_{0};
  std::atomic<uint64_t>* counter_;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_SALTED_STORE_H_
