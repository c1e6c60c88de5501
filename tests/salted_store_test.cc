// The salted view (engine/storage/salted_store.h) must read a store whose
// salted ranges hold a bucket byte after the id exactly as a store holding
// the same keys without it: every Seek, SeekBefore, SeekToFirst/Last, Next
// and Prev in
// any order (direction changes, walks across range boundaries, empty salted
// ranges, unsalted ranges and metadata between them), and every Get. The
// reference is the logical keys in a sorted map; a fixed seed
// (LEVELQL_SEED replays another).
#include "engine/storage/salted_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "indexes/key_codec.h"
#include "indexes/row_format.h"
#include "indexes/salt.h"
#include "tests/key_codec_test_util.h"
#include "tests/support/env.h"
#include "tests/support/map_store.h"

namespace levelql {
namespace {

using keys::test_util::Hex;
using testing::Map;
using testing::MapIterator;
using testing::MapStore;

struct RangeSpec {
  int64_t id;
  int buckets;  // 0: unsalted
  bool is_table;
  int keys;
};

// Salted tables and indexes, an empty salted range, a one-bucket range and
// unsalted ranges between them.
const std::vector<RangeSpec> kRanges = {
    {2, 0, true, 30},  {3, 5, true, 200}, {4, 5, false, 200},
    {5, 0, false, 20}, {6, 3, true, 0},   {7, 2, false, 50},
    {8, 0, true, 0},   {9, 1, true, 40},  {300, 16, true, 100},
};

std::string Suffix(std::mt19937_64& rng) {
  std::string s;
  int n = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < n; ++i) {
    keys::EncodeValue(Value::Int(static_cast<int64_t>(rng() % 50) - 10),
                      keys::Direction::kAsc, &s);
  }
  return s;
}

struct Fixture {
  Map logical;
  Map physical;
  std::shared_ptr<SaltLayout> layout = std::make_shared<SaltLayout>();
  std::vector<std::string> keys;  // every logical key, for targets

  explicit Fixture(std::mt19937_64& rng) {
    logical[std::string("\0format", 7)] = physical[std::string("\0format", 7)] =
        "3";
    logical[std::string("\0z", 2)] = physical[std::string("\0z", 2)] = "m";
    for (const RangeSpec& r : kRanges) {
      if (r.buckets > 0) layout->Add(r.id, {r.buckets, r.is_table});
      const std::string prefix = rows::IdPrefix(r.id);
      for (int i = 0; i < r.keys; ++i) {
        std::string suffix = Suffix(rng);
        std::string key = prefix + suffix;
        if (logical.count(key)) continue;
        std::string value = "v" + std::to_string(rng() % 1000);
        logical[key] = value;
        keys.push_back(key);
        if (r.buckets == 0) {
          physical[key] = value;
          continue;
        }
        // A row's bucket comes from its key; an entry's from its row, which
        // the view cannot tell: any bucket.
        uint8_t bucket = r.is_table ? rows::SaltBucket(suffix, r.buckets)
                                    : static_cast<uint8_t>(rng() % r.buckets);
        physical[rows::SaltedKey(key, prefix.size(), bucket)] = value;
      }
    }
  }

  std::string Target(std::mt19937_64& rng) const {
    switch (rng() % 7) {
      case 0:
      case 1:
        return keys[rng() % keys.size()];
      case 2:
        return rows::IdPrefix(kRanges[rng() % kRanges.size()].id);
      case 3:
        return keys::PrefixSuccessor(
            rows::IdPrefix(kRanges[rng() % kRanges.size()].id));
      case 4:
        return rows::IdPrefix(kRanges[rng() % kRanges.size()].id) + Suffix(rng);
      case 5:
        return std::string(rng() % 2 ? "" : "\xff");
      default:
        return std::string("\0", 1);
    }
  }
};

std::string Describe(const KvIterator& it) {
  return it.Valid() ? Hex(it.key()) : "(end)";
}

TEST(SaltedStoreTest, IteratesEverySaltedRangeInLogicalOrder) {
  for (uint64_t seed : testing::TestSeeds("salted_store", {1, 2, 3})) {
    std::mt19937_64 rng(seed);
    Fixture f(rng);
    MapIterator model(&f.logical);
    const Map* physical = &f.physical;
    auto salted = NewSaltedIterator(f.layout, [physical] {
      return std::make_unique<MapIterator>(physical);
    });
    std::string trace;
    for (int step = 0; step < 20000; ++step) {
      switch (rng() % 11) {
        case 0: {
          std::string t = f.Target(rng);
          trace = "Seek " + Hex(t);
          model.Seek(t);
          salted->Seek(t);
          break;
        }
        case 9: {
          std::string t = f.Target(rng);
          trace = "SeekBefore " + Hex(t);
          model.SeekBefore(t);
          salted->SeekBefore(t);
          break;
        }
        case 1:
          trace = "SeekToFirst";
          model.SeekToFirst();
          salted->SeekToFirst();
          break;
        case 2:
          trace = "SeekToLast";
          model.SeekToLast();
          salted->SeekToLast();
          break;
        case 3:
        case 4:
        case 5:
          if (!model.Valid()) continue;
          trace = "Prev";
          model.Prev();
          salted->Prev();
          break;
        default:
          if (!model.Valid()) continue;
          trace = "Next";
          model.Next();
          salted->Next();
          break;
      }
      ASSERT_EQ(model.Valid(), salted->Valid())
          << "seed " << seed << " step " << step << " " << trace
          << ": expected " << Describe(model) << ", got " << Describe(*salted);
      if (!model.Valid()) continue;
      ASSERT_EQ(Hex(model.key()), Hex(salted->key()))
          << "seed " << seed << " step " << step << " " << trace;
      ASSERT_EQ(model.value(), salted->value());
      ASSERT_TRUE(salted->status().ok());
    }
  }
}

TEST(SaltedStoreTest, GetFindsEveryKeyInItsBucket) {
  std::mt19937_64 rng(7);
  Fixture f(rng);
  MapStore physical(&f.physical);
  SaltedStore view(&physical, f.layout);
  int found = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string key = i % 2 ? f.keys[rng() % f.keys.size()] : f.Target(rng);
    std::string got;
    Status s = view.Get(nullptr, key, &got);
    auto want = f.logical.find(key);
    if (want == f.logical.end()) {
      EXPECT_EQ(s.code(), Status::Code::kNotFound) << Hex(key);
    } else {
      ASSERT_TRUE(s.ok()) << Hex(key) << ": " << s.ToString();
      EXPECT_EQ(got, want->second);
      ++found;
    }
  }
  EXPECT_GT(found, 1000);
}

TEST(SaltedStoreTest, BucketsAreStableAndSpread) {
  // Test vectors of indexes/KEY_FORMAT.md ("Salted tables"), computed
  // there by an independent implementation (Python).
  EXPECT_EQ(rows::StableKeyHash(""), 0xd725c98e9509182eull);
  EXPECT_EQ(rows::StableKeyHash(std::string("\x15\x01", 2)),
            0x742883bcd96a20e8ull);
  EXPECT_EQ(rows::SaltBucket(std::string("\x15\x01", 2), 16), 8);
  EXPECT_EQ(rows::SaltBucket(std::string("\x40"
                                         "a\x00\x01",
                                         4),
                             7),
            6);
  std::string pk;  // (stamp 1600000000, id 7)
  keys::EncodeValue(Value::Int(1600000000), keys::Direction::kAsc, &pk);
  keys::EncodeValue(Value::Int(7), keys::Direction::kAsc, &pk);
  EXPECT_EQ(Hex(pk), "18 5f 5e 10 00 15 07");
  EXPECT_EQ(rows::SaltBucket(pk, 16), 13);
  // Time-ordered keys spread evenly: max/mean <= 1.1 over 16 buckets.
  std::vector<int> counts(16);
  for (int64_t stamp = 1'600'000'000; stamp < 1'600'160'000; ++stamp) {
    pk.clear();
    keys::EncodeValue(Value::Int(stamp), keys::Direction::kAsc, &pk);
    ++counts[rows::SaltBucket(pk, 16)];
  }
  int max = *std::max_element(counts.begin(), counts.end());
  EXPECT_LE(max, 10000 * 1.1);
}

}  // namespace
}  // namespace levelql
