// The overlay iterator (engine/storage/overlay.h) against a model: random
// base contents and random pending writes (puts, deletes of present and
// absent keys), then random walks of Seek / SeekBefore / SeekToFirst /
// SeekToLast / Next / Prev must visit exactly the keys of the merged map, in
// order, with the pending values.
#include "engine/storage/overlay.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tests/support/env.h"
#include "tests/support/iterator_walk.h"
#include "tests/support/map_store.h"

namespace levelql {
namespace {

// A KvIterator over a std::map, like LevelDB's (both directions).
using testing::Map;
using testing::MapIterator;

using testing::RandomWalk;

std::string Render(const KvIterator& it) { return testing::RenderEntry(it); }

TEST(Overlay, PendingWritesShadowHideAndAddInBothDirections) {
  Map base = {{"a", "1"}, {"c", "3"}, {"e", "5"}, {"g", "7"}};
  PendingWrites writes;
  writes["a"] = std::nullopt;  // deleted
  writes["b"] = "20";          // added
  writes["e"] = "50";          // shadowed
  writes["g"] = std::nullopt;
  writes["h"] = std::nullopt;  // deleting what is not there
  auto it = NewOverlayIterator(std::make_unique<MapIterator>(&base), &writes);
  std::string forward, backward;
  for (it->SeekToFirst(); it->Valid(); it->Next()) forward += Render(*it) + " ";
  for (it->SeekToLast(); it->Valid(); it->Prev()) backward += Render(*it) + " ";
  EXPECT_EQ(forward, "b=20 c=3 e=50 ");
  EXPECT_EQ(backward, "e=50 c=3 b=20 ");
  it->Seek("c");
  it->Prev();
  EXPECT_EQ(Render(*it), "b=20");
  it->Next();
  it->Next();
  EXPECT_EQ(Render(*it), "e=50");
  it->Prev();
  EXPECT_EQ(Render(*it), "c=3");
}

TEST(Overlay, RandomWalksAgreeWithTheMergedMap) {
  const auto seeds = testing::TestSeeds("overlay_test", {15015});
  for (uint64_t seed : seeds) {
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 300; ++round) {
      auto key = [&] { return testing::RandomKey(rng); };
      Map base, merged;
      PendingWrites writes;
      for (int i = static_cast<int>(rng() % 15); i > 0; --i) {
        base[key()] = std::to_string(rng() % 100);
      }
      for (int i = static_cast<int>(rng() % 15); i > 0; --i) {
        if (rng() % 3 == 0) {
          writes[key()] = std::nullopt;
        } else {
          writes[key()] = "p" + std::to_string(rng() % 100);
        }
      }
      merged = base;
      for (const auto& [k, v] : writes) {
        if (v) {
          merged[k] = *v;
        } else {
          merged.erase(k);
        }
      }
      auto it =
          NewOverlayIterator(std::make_unique<MapIterator>(&base), &writes);
      ASSERT_GE(RandomWalk(it.get(), merged, rng, key, 40,
                           "seed " + std::to_string(seed) + " round " +
                               std::to_string(round)),
                0);
    }
  }
}

}  // namespace
}  // namespace levelql
