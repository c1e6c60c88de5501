// ANALYZE's statistics (engine/catalog/stats.h) against a reference that
// holds every key in memory: entries, distinct prefixes of each length, the
// equi-depth samples of the first component and its most common values,
// for composite, DESC, collated, multi-valued and UNIQUE indexes and the
// rows. The statistics must not depend on how many threads read them.
#include "engine/catalog/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/storage/kv_store.h"
#include "indexes/key_codec.h"
#include "indexes/row_format.h"
#include "levelql/database.h"
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

}  // namespace
}  // namespace levelql
