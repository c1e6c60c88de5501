// The overlay iterator (engine/storage/overlay.h) against a model: random
// base contents and random pending writes (puts, deletes of present and
// absent keys), then random walks of Seek / SeekToFirst / SeekToLast / Next
// / Prev must visit exactly the keys of the merged map, in order, with the
// pending values.
#include "engine/storage/overlay.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tests/support/env.h"
#include "tests/support/map_store.h"

namespace levelql {
namespace {

// A KvIterator over a std::map, like LevelDB's (both directions).
using testing::Map;
using testing::MapIterator;

std::string Render(const KvIterator& it) {
  return it.Valid() ? std::string(it.key()) + "=" + std::string(it.value())
                    : "(end)";
}

std::string Render(const Map& m, Map::const_iterator it) {
  return it == m.end() ? "(end)" : it->first + "=" + it->second;
}

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
      auto key = [&] {
        return std::string(1, static_cast<char>('a' + rng() % 20)) +
               (rng() % 3 ? "" : std::string(1, static_cast<char>(rng() % 3)));
      };
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
      auto want = merged.cend();
      for (int step = 0; step < 40; ++step) {
        const int op = static_cast<int>(rng() % 6);
        const bool valid = want != merged.end();
        std::string target;
        if (op == 0) {
          target = key();
          it->Seek(target);
          want = merged.lower_bound(target);
        } else if (op == 1) {
          it->SeekToFirst();
          want = merged.begin();
        } else if (op == 2) {
          it->SeekToLast();
          want = merged.empty() ? merged.end() : std::prev(merged.end());
        } else if (op == 3 && valid) {
          it->Next();
          ++want;
        } else if (op >= 4 && valid) {
          it->Prev();
          want = want == merged.begin() ? merged.end() : std::prev(want);
        } else {
          continue;
        }
        ASSERT_EQ(Render(*it), Render(merged, want))
            << "seed " << seed << " round " << round << " step " << step
            << " op " << op << " target " << target;
      }
    }
  }
}

}  // namespace
}  // namespace levelql
