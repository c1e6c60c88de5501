// A store read as the union of two stores that hold no key in common.
//
// MergedStore reads a `base` store (at the snapshot the reader gives) and a
// `side` store (always at its latest state, never at the base's snapshot)
// as one: Get looks in the side store first, an iterator merges the two in
// key order, both ways. It is how a statement reads the rows its views and
// subqueries in FROM made past its memory budget (ExecContext::
// derived_spill): those live in a temporary database of their own, under
// table ids no stored table has. Read-only: Write is refused.
//
// Thread safety: as thread-safe as the two stores; an iterator is used by
// one thread.
#ifndef LEVELQL_ENGINE_STORAGE_MERGED_STORE_H_
#define LEVELQL_ENGINE_STORAGE_MERGED_STORE_H_

#include <memory>
#include <string>

#include "engine/storage/kv_store.h"
#include "engine/storage/read_only_view.h"

namespace levelql {

// The keys of `a` and `b` (which share none) in one order. The views key()
// and value() live until the iterator next moves.
std::unique_ptr<KvIterator> NewMergedIterator(std::unique_ptr<KvIterator> a,
                                              std::unique_ptr<KvIterator> b);

class MergedStore : public ReadOnlyView {
 public:
  // Both borrowed: they must outlive this store and its iterators.
  MergedStore(KvStore* base, KvStore* side)
      : ReadOnlyView(base,
                     "the rows a statement made for its views and "
                     "subqueries are read-only"),
        side_(side) {}

  Status Get(const KvSnapshot* snapshot, std::string_view key,
             std::string* value) override;
  std::unique_ptr<KvIterator> NewIterator(const KvSnapshot* snapshot) override;

 private:
  KvStore* side_;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_MERGED_STORE_H_
