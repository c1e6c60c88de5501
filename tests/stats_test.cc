// ANALYZE's statistics (engine/catalog/stats.h) against a reference that
// holds every key in memory: entries, distinct prefixes of each length, the
// equi-depth samples of the first component and its most common values,
// for composite, DESC, collated, multi-valued and UNIQUE indexes and the
// rows. The statistics must not depend on how many threads read them.
#include "engine/catalog/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/catalog/stats_sample.h"
#include "engine/storage/kv_store.h"
#include "indexes/key_codec.h"
#include "indexes/row_format.h"
#include "levelql/database.h"
#include "tests/support/forwarding_store.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;
using testing::TempDir;

// The statistics of the keys under `prefix` computed the plain way: every
// key in a vector, its prefixes in sets, its runs counted and stably sorted.
IndexStats Reference(KvStore* store, const std::string& prefix,
                     const std::vector<KeyColumn>& columns) {
  std::vector<std::string> keys;
  auto it = store->NewIterator(nullptr);
  for (SeekPrefix(it.get(), prefix);
       it->Valid() && it->key().substr(0, prefix.size()) == prefix;
       it->Next()) {
    keys.emplace_back(it->key());
  }
  IndexStats s;
  s.entries = static_cast<int64_t>(keys.size());
  std::vector<std::set<std::string>> prefixes(columns.size());
  std::vector<std::string> firsts;
  for (const std::string& key : keys) {
    std::string_view rest = std::string_view(key).substr(prefix.size());
    for (size_t i = 0; i < columns.size(); ++i) {
      EXPECT_TRUE(keys::SkipComponent(&rest, columns[i].direction).ok());
      const size_t end = key.size() - rest.size();
      prefixes[i].insert(key.substr(0, end));
      if (i == 0)
        firsts.push_back(key.substr(prefix.size(), end - prefix.size()));
    }
  }
  for (const auto& p : prefixes) {
    s.distinct.push_back(static_cast<int64_t>(p.size()));
  }
  // The smallest power of two that leaves at most 256 samples, and the
  // first component of every entry at a multiple of it.
  s.sample_step = 1;
  while ((s.entries + s.sample_step - 1) / s.sample_step > 256) {
    s.sample_step *= 2;
  }
  for (size_t i = 0; i < firsts.size(); i += s.sample_step) {
    s.samples.push_back(firsts[i]);
  }
  std::vector<std::pair<std::string, int64_t>> runs;
  for (const std::string& f : firsts) {
    if (runs.empty() || runs.back().first != f) runs.emplace_back(f, 0);
    ++runs.back().second;
  }
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
    return a.second > b.second;
  });
  if (runs.size() > 8) runs.resize(8);
  s.common = runs;
  if (columns.empty()) s.sample_step = 1;
  return s;
}

void ExpectSame(const IndexStats& want, const IndexStats& got,
                const std::string& what) {
  EXPECT_EQ(want.entries, got.entries) << what;
  EXPECT_EQ(want.distinct, got.distinct) << what;
  EXPECT_EQ(want.sample_step, got.sample_step) << what;
  EXPECT_EQ(want.samples, got.samples) << what;
  EXPECT_EQ(want.common, got.common) << what;
}

TEST(StatsTest, MatchesAReferenceOnEveryKindOfIndex) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Exec(**db,
         "CREATE TABLE t (id INTEGER, sub INTEGER, a INTEGER, b TEXT COLLATE "
         "nocase, c REAL, tags TEXT[], u INTEGER, PRIMARY KEY (id, sub))");
    Exec(**db, "CREATE INDEX t_ab ON t (a, b DESC, c)");
    Exec(**db, "CREATE INDEX t_b ON t (b)");
    Exec(**db, "CREATE INDEX t_tags ON t (tags, a)");
    Exec(**db, "CREATE UNIQUE INDEX t_u ON t (u)");
    Exec(**db, "CREATE INDEX t_c ON t (c DESC)");
    // Skewed values (a few frequent ones, ties among the counts), NULLs,
    // mixed case and enough rows for the sample step to double 4 times.
    std::string insert;
    for (int i = 0; i < 3000; ++i) {
      if (insert.empty())
        insert = "INSERT INTO t VALUES ";
      else
        insert += ", ";
      const int a = i % 7 == 0 ? 3 : (i * 31) % 23;
      const std::string b = i % 11 == 0
                                ? "NULL"
                                : std::string("'") + (i % 2 ? "K" : "k") +
                                      std::to_string((i * 17) % 40) + "'";
      const std::string c =
          i % 13 == 0 ? "NULL" : std::to_string((i % 9) * 0.5);
      const std::string tags = i % 5 == 0
                                   ? "NULL"
                                   : "ARRAY['t" + std::to_string(i % 4) +
                                         "', 'x" + std::to_string(i % 6) + "']";
      const std::string u = i % 3 == 0 ? "NULL" : std::to_string(i);
      insert += "(" + std::to_string(i / 2) + ", " + std::to_string(i % 2) +
                ", " + std::to_string(a) + ", " + b + ", " + c + ", " + tags +
                ", " + u + ")";
      if (i % 500 == 499) {
        Exec(**db, insert);
        insert.clear();
      }
    }
  }
  auto store = OpenLevelDbStore(dir.path(), Options());
  ASSERT_TRUE(store.ok());
  auto catalog = LoadCatalog(store->get(), false);
  ASSERT_TRUE(catalog.ok());
  const TableSchema* t = catalog->FindTable("t");
  ASSERT_NE(t, nullptr);

  for (size_t threads : {1, 2, 4}) {
    auto stats = ComputeStats(store->get(), nullptr, *t, threads);
    ASSERT_TRUE(stats.ok()) << stats.status().ToString();
    const std::string when = std::to_string(threads) + " threads";
    // The primary key has two columns: the rows are read.
    ExpectSame(Reference(store->get(), rows::IdPrefix(t->id), t->primary_key),
               stats->indexes.at(""), "rows, " + when);
    EXPECT_EQ(stats->rows, 3000) << when;
    for (const auto& index : t->indexes) {
      ExpectSame(
          Reference(store->get(), rows::IdPrefix(index->id), index->columns),
          stats->indexes.at(index->name), index->name + ", " + when);
    }
    // The skew is seen: 3 is t_ab's most common first value, and the
    // sample step doubled past 8.
    const IndexStats& ab = stats->indexes.at("t_ab");
    std::string three;
    keys::EncodeValue(Value::Int(3), keys::Direction::kAsc, &three);
    ASSERT_FALSE(ab.common.empty());
    EXPECT_EQ(ab.common[0].first, three) << when;
    EXPECT_GT(ab.sample_step, 8) << when;
  }
}

// A store that cannot tell sizes: a sample cannot be placed in it.
class NoSizes : public testing::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
};

void ExpectWithin(double want, double got, double share,
                  const std::string& what) {
  EXPECT_LE(std::abs(got - want), share * want)
      << what << ": want " << want << ", got " << got;
}

// Three key ranges of 400,000 entries each, written as an index's entries
// are (the components, then the primary key), in a store reopened so they
// lie in its files: sampled statistics land near the exact ones.
TEST(StatsTest, SamplesEstimateLargeKeyRanges) {
  TempDir dir;
  constexpr int kEntries = 400000;
  struct Range {
    std::string name;
    std::string prefix;
    std::vector<KeyColumn> columns;
  };
  const KeyColumn asc{0, keys::Direction::kAsc};
  const KeyColumn desc{1, keys::Direction::kDesc};
  // 30% 'hot' and 97 other values, in descending order (its values are
  // counted by seeking past each); 5,000 users with stamps (newest first);
  // unique names.
  std::vector<Range> ranges = {{"cat", rows::IdPrefix(901), {desc}},
                               {"user", rows::IdPrefix(902), {asc, desc}},
                               {"name", rows::IdPrefix(903), {asc}}};
  auto key_of = [&](size_t r, int i) {
    std::string key = ranges[r].prefix;
    const uint64_t h = static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ULL;
    if (r == 0) {
      keys::EncodeValue(
          Value::Text(i % 10 < 3 ? "hot" : "c" + std::to_string(i % 97)),
          keys::Direction::kDesc, &key);
    } else if (r == 1) {
      keys::EncodeValue(Value::Int(static_cast<int64_t>(h % 5000)),
                        keys::Direction::kAsc, &key);
      keys::EncodeValue(Value::Int(i), keys::Direction::kDesc, &key);
    } else {
      std::string name;
      for (int k = 0; k < 10; ++k) name.push_back('a' + (h >> (5 * k)) % 26);
      keys::EncodeValue(Value::Text(name), keys::Direction::kAsc, &key);
    }
    keys::EncodeValue(Value::Int(i), keys::Direction::kAsc, &key);  // the pk
    return key;
  };
  {
    auto store = OpenLevelDbStore(dir.path(), Options());
    ASSERT_TRUE(store.ok());
    for (size_t r = 0; r < ranges.size(); ++r) {
      WriteBatch batch;
      for (int i = 0; i < kEntries; ++i) {
        batch.Put(key_of(r, i), "");
        if (i % 10000 == 9999) {
          ASSERT_TRUE((*store)->Write(batch, false).ok());
          batch = WriteBatch();
        }
      }
    }
    // Two more ranges the sample declines: 2,000 entries (under
    // kMinSampleBytes), and 400,000 texts of which 40% are URLs sharing
    // their first 27 bytes (the cuts cannot tell them apart: one part would
    // hold 40% of the range).
    WriteBatch batch;
    for (int i = 0; i < 2000; ++i) {
      std::string key = rows::IdPrefix(904);
      keys::EncodeValue(Value::Int(i), keys::Direction::kAsc, &key);
      batch.Put(key, "");
    }
    for (int i = 0; i < kEntries; ++i) {
      std::string key = rows::IdPrefix(905);
      const std::string url =
          i % 10 >= 4 ? std::string(1, static_cast<char>('a' + i % 26)) +
                            std::to_string(i)
                      : "https://example.com/items/" + std::to_string(i);
      keys::EncodeValue(Value::Text(url), keys::Direction::kAsc, &key);
      keys::EncodeValue(Value::Int(i), keys::Direction::kAsc, &key);
      batch.Put(key, "");
      if (i % 10000 == 9999) {
        ASSERT_TRUE((*store)->Write(batch, false).ok());
        batch = WriteBatch();
      }
    }
    ASSERT_TRUE((*store)->Write(batch, false).ok());
  }
  auto store = OpenLevelDbStore(dir.path(), Options());
  ASSERT_TRUE(store.ok());
  for (const Range& r : ranges) {
    const IndexStats want = Reference(store->get(), r.prefix, r.columns);
    ASSERT_EQ(want.entries, kEntries);
    IndexStats got;
    auto sampled = SampleKeys(store->get(), nullptr, r.prefix, r.columns, &got);
    ASSERT_TRUE(sampled.ok()) << sampled.status().ToString();
    ASSERT_TRUE(*sampled) << r.name << " was not sampled";
    ExpectWithin(want.entries, got.entries, 0.05, r.name + " entries");
    ASSERT_EQ(got.distinct.size(), want.distinct.size());
    for (size_t i = 0; i < want.distinct.size(); ++i) {
      ExpectWithin(want.distinct[i], got.distinct[i], 0.1,
                   r.name + " distinct " + std::to_string(i));
    }
    EXPECT_TRUE(std::is_sorted(got.samples.begin(), got.samples.end()))
        << r.name;
    EXPECT_GE(got.samples.size(), kHistogramSamples / 2) << r.name;
    EXPECT_LE(got.samples.size(), kHistogramSamples) << r.name;
    // About as many entries below the exact histogram's middle sample.
    const std::string& middle = want.samples[want.samples.size() / 2];
    ExpectWithin(want.EntriesBetween("", middle),
                 got.EntriesBetween("", middle), 0.05, r.name + " lower half");
    if (r.name == "cat") {
      // 98 values: found one by one, exactly; 'hot' the most common.
      EXPECT_EQ(got.distinct[0], 98);
      ASSERT_FALSE(got.common.empty());
      EXPECT_EQ(got.common[0].first, want.common[0].first);
      ExpectWithin(want.common[0].second, got.common[0].second, 0.1,
                   "hot's count");
    }
  }
  // A store that cannot tell sizes gets no sample; nor does a range
  // smaller than kMinSampleBytes.
  NoSizes blind(store->get());
  IndexStats unchanged;
  auto refused = SampleKeys(&blind, nullptr, ranges[0].prefix,
                            ranges[0].columns, &unchanged);
  ASSERT_TRUE(refused.ok());
  EXPECT_FALSE(*refused);
  EXPECT_EQ(unchanged.entries, 0);
  auto small = SampleKeys(store->get(), nullptr, rows::IdPrefix(904),
                          ranges[0].columns, &unchanged);
  ASSERT_TRUE(small.ok());
  EXPECT_FALSE(*small);
  const std::string urls = rows::IdPrefix(905);
  ASSERT_GE((*store)->ApproximateBytes(urls, keys::PrefixSuccessor(urls)),
            kMinSampleBytes);
  auto crowded =
      SampleKeys(store->get(), nullptr, urls, ranges[2].columns, &unchanged);
  ASSERT_TRUE(crowded.ok());
  EXPECT_FALSE(*crowded);
  EXPECT_EQ(unchanged.entries, 0);
}

// ANALYZE with Options::analyze_sample_bytes below an index's size plans
// from a sample: the estimate of cat = 'hot' stays near its rows.
TEST(StatsTest, AnalyzeSamplesAboveTheOption) {
  TempDir dir;
  Options options;
  options.analyze_sample_bytes = kMinSampleBytes;
  {
    auto db = Database::Open(dir.path(), options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Exec(**db, "CREATE TABLE s (id INTEGER PRIMARY KEY, cat TEXT)");
    Exec(**db, "CREATE INDEX s_cat ON s (cat)");
    std::string insert = "INSERT INTO s VALUES ";
    for (int i = 0; i < 1000; ++i) {
      insert +=
          std::string(i ? ", " : "") + "(" + std::to_string(i) + ", '" +
          (i % 10 < 3 ? std::string("hot") : "c" + std::to_string(i % 97)) +
          "')";
    }
    Exec(**db, insert);
    // 512,000 rows: the index takes about 5 MiB.
    for (int k = 0; k < 9; ++k) {
      Exec(**db, "INSERT INTO s SELECT id + " + std::to_string(1000 << k) +
                     ", cat FROM s");
    }
  }
  auto db = Database::Open(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  const uint64_t sampled = SampledRanges();
  Exec(**db, "ANALYZE s");
  EXPECT_EQ(SampledRanges(), sampled + 1);  // s_cat (the rows are not read)
  const std::string plan =
      testing::QueryText(**db, "EXPLAIN SELECT id FROM s WHERE cat = 'hot'");
  const size_t est = plan.find("(est ", plan.find("IndexScan"));
  ASSERT_NE(est, std::string::npos) << plan;
  ExpectWithin(153600, std::atof(plan.c_str() + est + 5), 0.1,
               "estimate of 'hot': " + plan);
}

}  // namespace
}  // namespace levelql
