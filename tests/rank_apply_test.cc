// ranks::Apply, the batched maintenance of a ranked index's counts, must
// leave exactly the nodes a bulk Build of the final entries writes, for any
// batch: scattered and clustered inserts and deletes, nodes of every level
// going and coming in one batch, a node split next to one that goes. The
// store is a sorted map, so batches of thousands over tens of thousands of
// entries reach the upper levels (a fixed seed; LEVELQL_SEED replays
// another).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/storage/rank_index.h"
#include "indexes/key_codec.h"
#include "tests/support/env.h"
#include "tests/support/map_store.h"

namespace levelql {
namespace {

using testing::Map;
using testing::MapIterator;

class MapSink : public ranks::Sink {
 public:
  explicit MapSink(Map* map) : map_(map) {}
  void Put(std::string key, std::string value) override {
    (*map_)[std::move(key)] = std::move(value);
  }
  void Delete(std::string key) override { map_->erase(key); }

 private:
  Map* map_;
};

const ranks::Space kSpace{std::string("\x01", 1), std::string("\x02", 1)};

std::string EntryKey(int64_t n) {
  std::string key = kSpace.entries;
  keys::EncodeValue(Value::Int(n), keys::Direction::kAsc, &key);
  return key;
}

// The nodes of `map` (keys from the rank prefix on).
Map Nodes(const Map& map) {
  return Map(map.lower_bound(kSpace.nodes), map.end());
}

// The nodes a bulk build writes for the entries of `map`.
Map Built(const Map& map) {
  Map entries(map.begin(), map.lower_bound(kSpace.nodes));
  Map out;
  MapIterator view(&entries);
  MapSink sink(&out);
  EXPECT_TRUE(ranks::Build(kSpace, &view, &sink).ok());
  return out;
}

std::string Printable(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    static const char kHex[] = "0123456789abcdef";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

// "" when equal, else the first node that differs.
std::string FirstDifference(const Map& got, const Map& want) {
  auto g = got.begin();
  auto w = want.begin();
  for (; g != got.end() && w != want.end(); ++g, ++w) {
    if (g->first != w->first) {
      return "node " + Printable(g->first) + " where the build has " +
             Printable(w->first);
    }
    if (g->second != w->second) {
      return "node " + Printable(g->first) + " counts " + Printable(g->second) +
             ", the build " + Printable(w->second);
    }
  }
  if (g != got.end()) return "extra node " + Printable(g->first);
  if (w != want.end()) return "missing node " + Printable(w->first);
  return "";
}

TEST(RankApply, EqualsABulkBuildAfterEveryBatch) {
  const auto seeds = testing::TestSeeds("rank_apply_test", {20261124});
  for (uint64_t seed : seeds) {
    SCOPED_TRACE("LEVELQL_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto pick = [&](int64_t n) { return static_cast<int64_t>(rng() % n); };
    constexpr int64_t kSpan = 120000;
    std::set<int64_t> present;
    Map store;
    for (int64_t i = 0; i < 40000; ++i) present.insert(pick(kSpan));
    for (int64_t n : present) store[EntryKey(n)] = "";
    store = [&] {
      Map with_nodes = store;
      Map nodes = Built(store);
      with_nodes.insert(nodes.begin(), nodes.end());
      return with_nodes;
    }();
    int high_removed = 0, high_added = 0;
    for (int batch = 0; batch < 120; ++batch) {
      std::map<std::string, int> changes;
      // Flipping an entry twice in a batch changes nothing.
      auto count = [&](const std::string& key, int delta) {
        if ((changes[key] += delta) == 0) changes.erase(key);
      };
      auto flip = [&](int64_t n) {
        if (present.erase(n)) {
          store.erase(EntryKey(n));
          count(EntryKey(n), -1);
          high_removed += ranks::LevelOf(EntryKey(n).substr(1)) >= 2;
        } else {
          present.insert(n);
          store[EntryKey(n)] = "";
          count(EntryKey(n), +1);
          high_added += ranks::LevelOf(EntryKey(n).substr(1)) >= 2;
        }
      };
      switch (pick(3)) {
        case 0:  // scattered
          for (int64_t k = pick(3000) + 1; k > 0; --k) flip(pick(kSpan));
          break;
        case 1: {  // one dense range flipped: runs of adjacent nodes go
          const int64_t from = pick(kSpan);
          for (int64_t n = from; n < std::min(kSpan, from + pick(6000)); ++n) {
            flip(n);
          }
          break;
        }
        default:  // a few entries
          for (int64_t k = pick(4) + 1; k > 0; --k) flip(pick(kSpan));
          break;
      }
      std::vector<std::pair<std::string, int>> sorted(changes.begin(),
                                                      changes.end());
      MapSink sink(&store);
      ASSERT_TRUE(ranks::Apply(
                      kSpace, sorted,
                      [&] { return std::make_unique<MapIterator>(&store); },
                      &sink)
                      .ok());
      ASSERT_EQ(FirstDifference(Nodes(store), Built(store)), "")
          << "batch " << batch << " of " << changes.size() << " changes";
    }
    // The batches reached the upper levels both ways.
    EXPECT_GT(high_removed, 10);
    EXPECT_GT(high_added, 10);
  }
}

TEST(RankApply, ReportsCountsThatDisagreeWithTheEntries) {
  Map store;
  for (int64_t n = 0; n < 100; ++n) store[EntryKey(n)] = "";
  Map nodes = Built(store);
  store.insert(nodes.begin(), nodes.end());
  // Entry 5 is said to be removed, but its count was never there: remove it
  // twice.
  std::vector<std::pair<std::string, int>> changes = {{EntryKey(5), -1}};
  store.erase(EntryKey(5));
  MapSink sink(&store);
  auto view = [&] { return std::make_unique<MapIterator>(&store); };
  ASSERT_TRUE(ranks::Apply(kSpace, changes, view, &sink).ok());
  for (int k = 0; k < 200; ++k) {
    Status s = ranks::Apply(kSpace, changes, view, &sink);
    if (!s.ok()) {
      EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
      return;
    }
  }
  FAIL() << "removing the same entry again and again never disagreed";
}

// ranks::CountBetween equals the number of entries in [lo, hi) counted
// directly, for ranges from empty to the whole index, bounds on entries and
// between them, outside the index's range, and lo >= hi; and Rank(hi) -
// Rank(lo).
TEST(RankCount, CountBetweenEqualsTheEntriesInTheRange) {
  std::mt19937_64 rng(20261125);
  constexpr int64_t kSpan = 200000;
  std::set<int64_t> present;
  for (int i = 0; i < 60000; ++i) present.insert(rng() % kSpan);
  Map store;
  for (int64_t n : present) store[EntryKey(n)] = "";
  Map nodes = Built(store);
  store.insert(nodes.begin(), nodes.end());
  MapIterator view(&store);
  auto direct = [&](int64_t lo, int64_t hi) {
    return static_cast<int64_t>(
        std::distance(present.lower_bound(lo), present.lower_bound(hi)));
  };
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    const int64_t lo = static_cast<int64_t>(rng() % kSpan);
    // Widths from 0 to the whole span, most of them short.
    const int64_t width = static_cast<int64_t>(
        rng() % (i % 4 == 0 ? kSpan : (i % 4 == 1 ? 5000 : 40)));
    const int64_t hi = lo + width;
    Result<int64_t> got =
        ranks::CountBetween(kSpace, EntryKey(lo), EntryKey(hi), &view);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_EQ(*got, hi >= kSpan ? direct(lo, kSpan) : direct(lo, hi))
        << "[" << lo << ", " << hi << ")";
    Result<int64_t> r_lo = ranks::Rank(kSpace, EntryKey(lo), &view);
    Result<int64_t> r_hi = ranks::Rank(kSpace, EntryKey(hi), &view);
    ASSERT_TRUE(r_lo.ok() && r_hi.ok());
    ASSERT_EQ(*got, *r_hi - *r_lo);
    ++checked;
  }
  // Bounds outside the entries: the index id itself, past its range, and
  // reversed.
  const std::string below = kSpace.entries;
  const std::string above = kSpace.nodes;
  const auto total = static_cast<int64_t>(present.size());
  EXPECT_EQ(*ranks::CountBetween(kSpace, below, above, &view), total);
  EXPECT_EQ(*ranks::CountBetween(kSpace, EntryKey(100), above, &view),
            direct(100, kSpan));
  EXPECT_EQ(*ranks::CountBetween(kSpace, below, EntryKey(100), &view),
            direct(0, 100));
  EXPECT_EQ(*ranks::CountBetween(kSpace, EntryKey(900), EntryKey(100), &view),
            0);
  EXPECT_EQ(checked, 400);
}

}  // namespace
}  // namespace levelql
