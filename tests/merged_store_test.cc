// The merged iterator and store (engine/storage/merged_store.h) against a
// model: random disjoint key sets split between two iterators, then random
// walks of Seek / SeekBefore / SeekToFirst / SeekToLast / Next / Prev must
// visit exactly the keys of their union, in order; and MergedStore's point
// reads: the side store first, the base at the reader's snapshot.
#include "engine/storage/merged_store.h"

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <random>

#include "levelql/database.h"
#include "tests/support/env.h"
#include "tests/support/iterator_walk.h"
#include "tests/support/map_store.h"

namespace levelql {
namespace {

using testing::Map;
using testing::MapIterator;

TEST(MergedIterator, RandomWalksAgreeWithTheUnion) {
  const auto seeds = testing::TestSeeds("merged_store_test", {20261128});
  int moves = 0;
  for (uint64_t seed : seeds) {
    std::mt19937_64 rng(seed);
    for (int round = 0; round < 300; ++round) {
      auto key = [&] { return testing::RandomKey(rng); };
      Map a, b, both;
      for (int i = static_cast<int>(rng() % 25); i > 0; --i) {
        const std::string k = key();
        if (both.contains(k)) continue;  // no key on both sides
        both[k] = std::to_string(rng() % 100);
        (rng() % 2 ? a : b)[k] = both[k];
      }
      auto it = NewMergedIterator(std::make_unique<MapIterator>(&a),
                                  std::make_unique<MapIterator>(&b));
      const int made = testing::RandomWalk(
          it.get(), both, rng, key, 40,
          "seed " + std::to_string(seed) + " round " + std::to_string(round));
      ASSERT_GE(made, 0);
      moves += made;
    }
  }
  EXPECT_GT(moves, 1000);
}

TEST(MergedStore, GetReadsTheSideThenTheBaseAtItsSnapshot) {
  Options options;
  auto base = OpenLevelDbStore(":memory:", options);
  auto side = OpenLevelDbStore(":memory:", options);
  ASSERT_TRUE(base.ok() && side.ok());
  WriteBatch b1, s1;
  b1.Put("a", "base-a");
  s1.Put("s", "side-s");
  ASSERT_TRUE((*base)->Write(b1, false).ok());
  ASSERT_TRUE((*side)->Write(s1, false).ok());
  MergedStore merged(base->get(), side->get());
  auto snapshot = merged.GetSnapshot();
  WriteBatch b2;
  b2.Put("b", "base-b");  // after the snapshot
  ASSERT_TRUE((*base)->Write(b2, false).ok());
  std::string v;
  ASSERT_TRUE(merged.Get(snapshot.get(), "a", &v).ok());
  EXPECT_EQ(v, "base-a");
  ASSERT_TRUE(merged.Get(snapshot.get(), "s", &v).ok());
  EXPECT_EQ(v, "side-s");
  EXPECT_EQ(merged.Get(snapshot.get(), "b", &v).code(),
            Status::Code::kNotFound);
  ASSERT_TRUE(merged.Get(nullptr, "b", &v).ok());
  EXPECT_EQ(v, "base-b");
  EXPECT_EQ(merged.Get(nullptr, "z", &v).code(), Status::Code::kNotFound);
  EXPECT_EQ(merged.Write(b2, false).code(), Status::Code::kNotSupported);
  std::string keys;
  auto it = merged.NewIterator(snapshot.get());
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys += it->key();
  EXPECT_EQ(keys, "as");  // "b" came after the snapshot
}

}  // namespace
}  // namespace levelql
