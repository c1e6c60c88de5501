#include "engine/statement_cache.h"

#include <utility>

namespace levelql {

bool StatementCache::Find(std::string_view text, Entry* out) {
  if (capacity_ == 0 || text.size() > kMaxText) return false;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(text);
  if (it == index_.end()) return false;
  lru_.splice(lru_.begin(), lru_, it->second);
  *out = it->second->second;
  return true;
}

void StatementCache::Store(std::string_view text, Entry entry) {
  if (capacity_ == 0 || text.size() > kMaxText) return;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(text);
  if (it != index_.end()) {
    it->second->second = std::move(entry);
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  lru_.emplace_front(std::string(text), std::move(entry));
  // The key views the list node's string, which never moves.
  index_.emplace(lru_.front().first, lru_.begin());
  while (lru_.size() > capacity_) {
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
}

}  // namespace levelql
