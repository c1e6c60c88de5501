// Overlays: pending writes read as if they were applied to a snapshot.
//
// PendingWrites maps a key to its new value, or to nullopt when the key is
// deleted. An overlay iterator merges a base iterator with a PendingWrites:
// a pending write shadows the base's value of the same key, a pending delete
// hides it, and every other key comes from whichever side holds it. It moves
// in both directions (Seek, SeekToFirst, SeekToLast, Next, Prev), so reverse
// scans and previous-page tokens read through it like through LevelDB.
//
// OverlayStore is a read-only KvStore made of a base store and one
// PendingWrites: a transaction's view, which statements read through
// ExecContext::store, so every access path (scans, point reads, ranked
// counts, CHECK) sees the transaction's own writes without knowing about
// transactions. Write() on it is refused: writes go to a WriteTxn, whose own
// overlay (write_txn.h) sits on top of this one.
//
// Thread safety: an OverlayStore is thread-safe as long as its PendingWrites
// does not change, which its owner guarantees by sharing it as const (a
// transaction copies its map before changing it while a view holds it). An
// iterator is used by one thread.
#ifndef LEVELQL_ENGINE_STORAGE_OVERLAY_H_
#define LEVELQL_ENGINE_STORAGE_OVERLAY_H_

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/storage/kv_store.h"
#include "engine/storage/read_only_view.h"

namespace levelql {

// Ordered like the store (bytewise); std::less<> looks keys up by
// string_view without copying them.
using PendingWrites =
    std::map<std::string, std::optional<std::string>, std::less<>>;

// `base` overlaid with `writes` (borrowed: must outlive the iterator). The
// views key() and value() return live until the iterator next moves, and
// while `writes` keeps the entry. When `writes` gains keys while the
// iterator is open, they are seen after its next Seek; keys it gains next to
// the current position may or may not be seen by Next/Prev.
std::unique_ptr<KvIterator> NewOverlayIterator(std::unique_ptr<KvIterator> base,
                                               const PendingWrites* writes);

class OverlayStore : public ReadOnlyView {
 public:
  // `base` is borrowed and must outlive this store and its iterators.
  OverlayStore(KvStore* base, std::shared_ptr<const PendingWrites> writes)
      : ReadOnlyView(base,
                     "a transaction's view is read-only: its writes go "
                     "through a statement"),
        writes_(std::move(writes)) {}

  Status Get(const KvSnapshot* snapshot, std::string_view key,
             std::string* value) override;
  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot* snapshot) override;

 private:
  std::shared_ptr<const PendingWrites> writes_;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_OVERLAY_H_
