// Random walks of a KvIterator checked against the ordered map it should
// read as (overlay_test, merged_store_test): after each Seek, SeekBefore,
// SeekToFirst, SeekToLast, Next or Prev, the iterator must be on the entry
// the map's own iterator is on.
#ifndef LEVELQL_TESTS_SUPPORT_ITERATOR_WALK_H_
#define LEVELQL_TESTS_SUPPORT_ITERATOR_WALK_H_

#include <functional>
#include <random>
#include <string>

#include "engine/storage/kv_store.h"
#include "tests/support/map_store.h"

namespace levelql::testing {

// A key of a small space, so that walks meet the same keys often: a
// letter a-t, a third of the time followed by a byte 0-2.
std::string RandomKey(std::mt19937_64& rng);

// "key=value" where `it` is, or "(end)".
std::string RenderEntry(const KvIterator& it);
std::string RenderEntry(const Map& m, Map::const_iterator it);

// `steps` random moves of `it` (Seek and SeekBefore to keys `key` makes),
// each checked against `model`; a mismatch fails the current gtest test,
// naming `where`, the step and the move. Returns the Next and Prev moves
// made (-1 after a mismatch).
int RandomWalk(KvIterator* it, const Map& model, std::mt19937_64& rng,
               const std::function<std::string()>& key, int steps,
               const std::string& where);

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_SUPPORT_ITERATOR_WALK_H_
