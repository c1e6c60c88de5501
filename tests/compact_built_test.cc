// A large index just built (CREATE INDEX, REINDEX) is compacted once over
// its key range (DatabaseImpl::CompactBuilt), so that LevelDB does not keep
// it spread over every level; a small one is not (a compaction would only
// flush the memtable early). Checked on the store's calls: the compactions
// asked for, and the ranges they name.
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "engine/database_impl.h"
#include "tests/support/forwarding_store.h"
#include "tests/support/sql_text.h"

namespace levelql {
namespace {

using testing::Exec;
using testing::QueryText;

// kCompactBuiltBytes: an index range smaller is left alone.
constexpr int64_t kCompactBuiltBytes = int64_t{4} << 20;

// Forwards everything (compactions too) and records the ranges compacted.
class RecordingStore : public testing::ForwardingStore {
 public:
  explicit RecordingStore(std::unique_ptr<KvStore> base)
      : ForwardingStore(base.get()), base_(std::move(base)) {}
  Status Write(const WriteBatch& batch, bool sync) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (const WriteBatch::Op& op : batch.ops()) keys_.push_back(op.key);
    }
    return ForwardingStore::Write(batch, sync);
  }
  void CompactRange(std::string_view lo, std::string_view hi) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      ranges_.push_back({std::string(lo), std::string(hi)});
    }
    base_->CompactRange(lo, hi);
  }
  // The ranges compacted since the last call (and the keys written since
  // then).
  std::vector<std::pair<std::string, std::string>> Take() {
    std::lock_guard<std::mutex> lock(mu_);
    written_ = std::move(keys_);
    return std::move(ranges_);
  }
  // How many of the keys written before the last Take start with `prefix`.
  int WrittenUnder(std::string_view prefix) {
    std::lock_guard<std::mutex> lock(mu_);
    int n = 0;
    for (const std::string& k : written_) n += k.starts_with(prefix);
    return n;
  }

 private:
  std::unique_ptr<KvStore> base_;
  std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> ranges_;
  std::vector<std::string> keys_, written_;
};

void Fill(Database& db, const std::string& table, int rows) {
  Exec(db, "CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, s TEXT)");
  for (int start = 0; start < rows; start += 1000) {
    std::string sql = "INSERT INTO " + table + " VALUES ";
    for (int i = start; i < start + 1000 && i < rows; ++i) {
      sql += (i > start ? ",(" : "(") + std::to_string(i) + ",'" +
             std::string(90, static_cast<char>('a' + i % 26)) +
             std::to_string(i) + "')";
    }
    Exec(db, sql);
  }
}

TEST(CompactBuilt, ALargeIndexIsCompactedOnceOverItsRangeASmallOneNot) {
  Options options;
  auto kv = OpenLevelDbStore(":memory:", options);
  ASSERT_TRUE(kv.ok());
  auto* store = new RecordingStore(std::move(kv).value());
  auto db = OpenDatabaseOnStore(std::unique_ptr<KvStore>(store), options);
  ASSERT_TRUE(db.ok());
  Fill(**db, "small", 100);
  // Its index on s: about 6 MB of entries written, past
  // DatabaseImpl::kCompactBuiltBytes (4 MiB).
  Fill(**db, "big", 60000);
  store->Take();

  Exec(**db, "CREATE INDEX small_s ON small (s)");
  EXPECT_TRUE(store->Take().empty());

  Exec(**db, "CREATE INDEX big_s ON big (s)");
  auto ranges = store->Take();
  ASSERT_EQ(ranges.size(), 1u);
  // One index's whole range: [prefix, successor of the prefix).
  const auto& [lo, hi] = ranges[0];
  EXPECT_EQ(hi, keys::PrefixSuccessor(lo));
  EXPECT_EQ(store->WrittenUnder(lo), 60000);  // the index's entries
  EXPECT_EQ(QueryText(**db, "SELECT id FROM big WHERE s = '" +
                                std::string(90, 'a' + 12345 % 26) + "12345'"),
            "(12345)");

  // REINDEX makes the index anew, under a new id: compacted again there.
  Exec(**db, "REINDEX big_s");
  auto again = store->Take();
  ASSERT_EQ(again.size(), 2u);  // the old range, deleted; the new one
  bool new_range = false;
  for (const auto& [l, h] : again) {
    new_range = new_range || (l != lo && h == keys::PrefixSuccessor(l) &&
                              store->WrittenUnder(l) == 60000);
  }
  EXPECT_TRUE(new_range);
  EXPECT_EQ(QueryText(**db, "SELECT count(*) FROM big WHERE s > 'z'"),
            "(2307)");
}

}  // namespace
}  // namespace levelql
