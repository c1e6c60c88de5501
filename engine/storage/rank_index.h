// Ranked indexes (CREATE INDEX ... WITH (ranked)): entry counts kept in a
// persisted skip list beside the index, so that OFFSET n seeks to the n-th
// entry and COUNT(*) over a key range costs O(log n) instead of a walk.
// FoundationDB's RankedSet is the model.
//
// Every entry has a level from a hash of its key: level >= l with
// probability 64^-l, up to kMaxLevel. At level l (1..kMaxLevel) each entry
// of level >= l is a node, plus a sentinel after all entries; a node's
// count is the number of entries in (previous node at its level, itself].
// Node keys: [rank id][level byte][entry key without the index id]; the
// sentinel's suffix is the single byte ff (no component starts with it).
// Values: the count as an ascending INTEGER component. Specified in
// indexes/KEY_FORMAT.md.
//
// Every operation reads forward only (Seek, Next) through a Cursor over one
// consistent view (a snapshot, or a statement's writes over its snapshot)
// and writes through a Sink, so the counts change in the same batch as the
// entries. Stateless functions; the cursor is used by one thread.
#ifndef LEVELQL_ENGINE_STORAGE_RANK_INDEX_H_
#define LEVELQL_ENGINE_STORAGE_RANK_INDEX_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/storage/kv_store.h"

namespace levelql::ranks {

// Stored on disk - do not change.
inline constexpr int kMaxLevel = 5;
inline constexpr int kLevelBits = 4;  // P(level >= l) = 16^-l

// The key ranges of one ranked index.
struct Space {
  std::string entries;  // the index id prefix
  std::string nodes;    // the rank id prefix
};

// Where writes go (a WriteTxn, or a batch being built).
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void Put(std::string key, std::string value) = 0;
  virtual void Delete(std::string key) = 0;
};

// The level of an entry (its key without the index id prefix).
int LevelOf(std::string_view suffix);

// Counts a statement's changed entries all at once: `changes` are full
// entry keys in ascending order, each +1 (now present, was absent) or -1
// (now absent, was present), and the entries are already written. Each
// level is one forward walk in key order instead of a seek per entry;
// `make_view` opens a view of the entries and the nodes written so far
// (the levels below are final when a level starts).
Status Apply(const Space& space,
             const std::vector<std::pair<std::string, int>>& changes,
             const std::function<std::unique_ptr<KvIterator>()>& make_view,
             Sink* sink);

// The number of entries whose key is below `key` (any bytes in or at the
// bounds of the index's range).
Result<int64_t> Rank(const Space& space, std::string_view key,
                     KvIterator* view);
// Rank(hi) - Rank(lo): the entries with lo <= key < hi (0 when hi <= lo),
// in one descent while both targets pass the same nodes (the top levels),
// so a range costs little more than one Rank.
Result<int64_t> CountBetween(const Space& space, std::string_view lo,
                             std::string_view hi, KvIterator* view);
// The key of the entry at 0-based position `target`; NotFound past the end.
Result<std::string> EntryAt(const Space& space, int64_t target,
                            KvIterator* view);

// Writes every node of the entries in view (a new or rebuilt index whose
// node range is empty).
Status Build(const Space& space, KvIterator* view, Sink* sink);

// CHECK: compares the stored nodes with those the entries imply; OK, or
// Corruption naming the first difference. Memory O(kMaxLevel).
Status Verify(const Space& space, KvStore* store, const KvSnapshot* snapshot);

}  // namespace levelql::ranks

#endif  // LEVELQL_ENGINE_STORAGE_RANK_INDEX_H_
