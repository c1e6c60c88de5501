// Reuse of LevelDB iterators between reads of the same state of a store.
//
// Making a LevelDB iterator and ending it costs about as much as a seek (a
// merging iterator over the memtables and every level's files, references
// to them, their ends: ~9,000 instructions), and a prepared statement run
// again makes the same iterators again. An ended iterator is kept here
// while no write has been applied since the state it reads, and handed to
// the next read of that same state, positioned wherever it was: a reader
// always seeks first (KvIterator's contract). Re-seeking near where it
// stood also finds its data blocks still held.
//
// States are write epochs. The store counts the writes it started and the
// writes it finished; a read (taking a snapshot, or making an iterator
// without one) between a load of `done` and a load of `started` that find
// the same count N saw exactly the first N writes: none was in flight and
// none began, so LevelDB's snapshot holds them all and no more. That read
// is tagged N; any other is untagged and never shares an iterator. An
// iterator goes into the pool only tagged with the current count, and a
// write empties the pool once it is done, so a taker's tag always names
// the very state the iterator reads. At most kMaxIdle are kept, each
// serves at most kMaxUses reads, and one left idle while kMaxAge others
// were given back ends: an idle iterator holds the files and memtable of
// the version it was made on, which LevelDB's compactions (run by reads
// too) may since have replaced, so a stream of reads soon lets them go. A
// write, or closing the store, lets them all go; until then a store no
// read uses keeps what its idle iterators hold, as an open iterator would.
//
// Thread-safe. Used by kv_store.cc only (it is LevelDB's).
#ifndef LEVELQL_ENGINE_STORAGE_ITERATOR_POOL_H_
#define LEVELQL_ENGINE_STORAGE_ITERATOR_POOL_H_

#include <leveldb/iterator.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace levelql {

class IteratorPool {
 public:
  static constexpr uint64_t kNoEpoch = UINT64_MAX;
  static constexpr size_t kMaxIdle = 32;  // a salted scan holds 17
  static constexpr int kMaxUses = 100;
  static constexpr uint64_t kMaxAge = 4 * kMaxIdle;

  IteratorPool() = default;
  IteratorPool(const IteratorPool&) = delete;
  IteratorPool& operator=(const IteratorPool&) = delete;
  ~IteratorPool() { Clear(); }

  // Brackets every write applied to the store (however it ends).
  class Writing {
   public:
    explicit Writing(IteratorPool* pool) : pool_(pool) {
      pool_->started_.fetch_add(1);
    }
    ~Writing() {
      pool_->done_.fetch_add(1);
      pool_->Clear();
    }
    Writing(const Writing&) = delete;
    Writing& operator=(const Writing&) = delete;

   private:
    IteratorPool* pool_;
  };

  // Runs `read` (taking a snapshot, or making an iterator) and returns the
  // epoch it saw, or kNoEpoch when a write may have been in flight.
  template <typename Read>
  uint64_t Tagged(Read&& read) {
    const uint64_t done = done_.load();
    read();
    return started_.load() == done ? done : kNoEpoch;
  }
  // The epoch a read now would see (kNoEpoch while a write is in flight).
  uint64_t Current() {
    return Tagged([] {});
  }

  // An idle iterator reading state `epoch`, or null; *uses: the reads it
  // served so far.
  leveldb::Iterator* Take(uint64_t epoch, int* uses);
  // Keeps `it` (reading state `epoch`, having served `uses` reads) for a
  // later Take, or deletes it.
  void Give(leveldb::Iterator* it, uint64_t epoch, int uses);
  // Deletes every idle iterator (before the database closes, and after
  // each write).
  void Clear();

  // Iterators handed out again, by every pool of the process (tests).
  static uint64_t Reused() { return reused_.load(std::memory_order_relaxed); }

 private:
  struct Idle {
    leveldb::Iterator* it;
    uint64_t epoch;
    int uses;
    uint64_t given;  // clock_ when given back
  };
  std::atomic<uint64_t> started_{0};
  std::atomic<uint64_t> done_{0};
  std::mutex mu_;
  std::vector<Idle> idle_;  // guarded by mu_; in the order given back
  uint64_t clock_ = 0;      // guarded by mu_: iterators given back
  static inline std::atomic<uint64_t> reused_{0};
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_ITERATOR_POOL_H_
