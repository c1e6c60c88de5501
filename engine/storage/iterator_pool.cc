#include "engine/storage/iterator_pool.h"

namespace levelql {

leveldb::Iterator* IteratorPool::Take(uint64_t epoch, int* uses) {
  if (epoch == kNoEpoch) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = idle_.size(); i-- > 0;) {
    if (idle_[i].epoch != epoch) continue;
    leveldb::Iterator* it = idle_[i].it;
    *uses = idle_[i].uses;
    idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(i));
    reused_.fetch_add(1, std::memory_order_relaxed);
    return it;
  }
  return nullptr;
}

void IteratorPool::Give(leveldb::Iterator* it, uint64_t epoch, int uses) {
  if (it == nullptr) return;
  std::vector<leveldb::Iterator*> ended;  // deleted outside the lock
  if (epoch != kNoEpoch && uses < kMaxUses && it->status().ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    // Iterators left idle through kMaxAge gives end: the reads that took
    // them stopped coming, and they hold an old version.
    ++clock_;
    while (!idle_.empty() && clock_ - idle_.front().given > kMaxAge) {
      ended.push_back(idle_.front().it);
      idle_.erase(idle_.begin());
    }
    // Only the current state: a write done since has emptied the pool (or
    // will, once it is done), and no later read asks for an older state
    // through a new snapshot.
    if (epoch == done_.load() && idle_.size() < kMaxIdle) {
      idle_.push_back({it, epoch, uses, clock_});
      it = nullptr;
    }
  }
  delete it;
  for (leveldb::Iterator* e : ended) delete e;
}

void IteratorPool::Clear() {
  std::vector<Idle> idle;
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle.swap(idle_);
  }
  for (const Idle& i : idle) delete i.it;
}

}  // namespace levelql
