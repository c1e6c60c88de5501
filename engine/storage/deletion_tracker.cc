#include "engine/storage/deletion_tracker.h"

#include <string_view>

#include "indexes/key_codec.h"

namespace levelql {

std::vector<std::pair<std::string, std::string>> DeletionTracker::Note(
    const WriteBatch& batch, KvStore* store) {
  std::vector<std::pair<std::string, std::string>> ranges;
  std::lock_guard<std::mutex> lock(mu_);
  std::string_view last_prefix;
  Span* span = nullptr;
  std::vector<std::string> full;  // keyspaces whose window filled
  for (const WriteBatch::Op& op : batch.ops()) {
    // Metadata keys start with 0; a row or an entry with its keyspace id.
    if (!op.is_delete || op.key.empty() || op.key[0] == '\0') continue;
    std::string_view rest = op.key;
    if (!keys::SkipComponent(&rest, keys::Direction::kAsc).ok()) continue;
    const std::string_view prefix =
        std::string_view(op.key).substr(0, op.key.size() - rest.size());
    if (span == nullptr || prefix != last_prefix) {
      span = &spans_[std::string(prefix)];
      last_prefix = prefix;
    }
    if (span->count == 0 || op.key < span->lo) span->lo = op.key;
    if (span->count == 0 || op.key > span->hi) span->hi = op.key;
    span->key_bytes += static_cast<int64_t>(op.key.size());
    if (++span->count == kDeletesBeforeCompaction) {
      full.emplace_back(prefix);
    }
  }
  for (const std::string& prefix : full) {
    auto it = spans_.find(prefix);
    Span& s = it->second;
    std::string hi = s.hi + '\0';
    const int64_t bytes = store->ApproximateBytes(s.lo, hi);
    // (A store that cannot tell sizes has no compaction to ask for.)
    if (bytes >= 0 && static_cast<double>(s.key_bytes) >=
                          kDenseShare * static_cast<double>(bytes)) {
      ranges.emplace_back(std::move(s.lo), std::move(hi));
    }
    spans_.erase(it);  // a new window
  }
  return ranges;
}

void DeletionTracker::Forget(const std::string& prefix) {
  std::lock_guard<std::mutex> lock(mu_);
  spans_.erase(prefix);
}

}  // namespace levelql
