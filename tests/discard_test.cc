// Key ranges deleted whole (DROP TABLE, DROP INDEX, a CREATE INDEX that
// failed, REINDEX's old ranges), or filled with deletions by DELETE and
// UPDATE (engine/storage/deletion_tracker.h), are compacted away: the store
// keeps nothing of them, so a seek that lands there does not step over every
// deletion (before, a MAX() of the index before a dropped one took 100 ms,
// and the oldest rows after deleting the oldest 300,000 took 250 ms).
#include <gtest/gtest.h>

#include <string>

#include "engine/catalog/catalog.h"
#include "engine/storage/deletion_tracker.h"
#include "engine/storage/kv_store.h"
#include "indexes/key_codec.h"
#include "indexes/row_format.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;
using testing::QueryText;
using testing::TempDir;

// 30,000 rows in t, with indexes t_a and t_b, in a directory of their own;
// reopened, so they are in the store's files. The tests drop, rebuild or
// delete them, and measure what the files still hold.
class DiscardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Exec(**db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)");
    Exec(**db, "CREATE INDEX t_a ON t (a)");
    Exec(**db, "CREATE INDEX t_b ON t (b)");
    for (int batch = 0; batch < 30; ++batch) {
      std::string insert = "INSERT INTO t VALUES ";
      for (int i = 0; i < 1000; ++i) {
        const int id = batch * 1000 + i;
        insert += std::string(i ? ", " : "") + "(" + std::to_string(id) + ", " +
                  std::to_string(id % 7) + ", 'text " + std::to_string(id) +
                  "')";
      }
      Exec(**db, insert);
    }
  }

  // The database, opened again (each test closes it before measuring).
  std::unique_ptr<Database> Open() {
    auto db = Database::Open(dir_.path());
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return db.ok() ? std::move(db).value() : nullptr;
  }

  // The keyspace id of `index` of t ("": of t's rows).
  int64_t IdOf(const std::string& index = "") {
    auto store = OpenLevelDbStore(dir_.path(), Options());
    EXPECT_TRUE(store.ok());
    if (!store.ok()) return -1;
    auto catalog = LoadCatalog(store->get(), false);
    EXPECT_TRUE(catalog.ok());
    if (!catalog.ok()) return -1;
    const TableSchema* t = catalog->FindTable("t");
    EXPECT_NE(t, nullptr);
    if (t == nullptr) return -1;
    if (index.empty()) return t->id;
    for (const auto& i : t->indexes) {
      if (i->name == index) return i->id;
    }
    ADD_FAILURE() << "no index " << index;
    return -1;
  }

  // The bytes the store's files give [lo, hi).
  int64_t Bytes(const std::string& lo, const std::string& hi) {
    auto store = OpenLevelDbStore(dir_.path(), Options());
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    if (!store.ok()) return -1;
    return (*store)->ApproximateBytes(lo, hi);
  }
  // ... the keys under keyspace `id`.
  int64_t BytesOf(int64_t id) {
    const std::string prefix = rows::IdPrefix(id);
    return Bytes(prefix, keys::PrefixSuccessor(prefix));
  }
  // ... the rows of t with ids in [lo, hi).
  int64_t RowBytes(int64_t lo, int64_t hi) {
    const int64_t t = IdOf();
    auto key = [&](int64_t id) {
      std::string k = rows::IdPrefix(t);
      keys::EncodeValue(Value::Int(id), keys::Direction::kAsc, &k);
      return k;
    };
    return Bytes(key(lo), key(hi));
  }

 private:
  TempDir dir_;
};

TEST_F(DiscardTest, DroppedIndexesAndTablesLeaveNoBytes) {
  const int64_t t = IdOf(), t_a = IdOf("t_a"), t_b = IdOf("t_b");
  ASSERT_GT(BytesOf(t_a), 100000);
  ASSERT_GT(BytesOf(t), 100000);
  if (auto db = Open()) {
    Exec(*db, "DROP INDEX t_a");
    // The index before the dropped one still answers, and MAX is right.
    EXPECT_EQ(QueryText(*db, "SELECT max(b) FROM t"), "(text 9999)");
  }
  EXPECT_EQ(BytesOf(t_a), 0);
  EXPECT_GT(BytesOf(t_b), 100000);
  if (auto db = Open()) Exec(*db, "DROP TABLE t");
  EXPECT_EQ(BytesOf(t), 0);
  EXPECT_EQ(BytesOf(t_b), 0);
}

TEST_F(DiscardTest, AFailedUniqueIndexLeavesNoBytes) {
  const int64_t t_b = IdOf("t_b");
  if (auto db = Open()) {
    // b is unique but for the last row: the backfill writes the entries of
    // the rows before it (in three batches), then fails.
    Exec(*db, "INSERT INTO t VALUES (30000, 0, 'text 5')");
    Status s = db->Execute("CREATE UNIQUE INDEX t_dup ON t (b)");
    EXPECT_EQ(s.code(), Status::Code::kConstraintError) << s.ToString();
  }
  // t_dup had the next id (t_b's was the last).
  EXPECT_EQ(BytesOf(t_b + 1), 0);
  EXPECT_GT(BytesOf(t_b), 100000);
}

TEST_F(DiscardTest, ReindexLeavesNoBytesInTheOldRanges) {
  const int64_t t_a = IdOf("t_a");
  if (auto db = Open()) {
    Exec(*db, "REINDEX t_a");
    EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t WHERE a = 3"), "(4286)");
  }
  const int64_t t_a2 = IdOf("t_a");
  ASSERT_NE(t_a2, t_a);  // rebuilt under a new id
  EXPECT_EQ(BytesOf(t_a), 0);
  EXPECT_GT(BytesOf(t_a2), 100000);
}

TEST_F(DiscardTest, DeletingTheOldestRowsCompactsThem) {
  ASSERT_GT(RowBytes(0, 20000), 100000);
  if (auto db = Open()) {
    Exec(*db, "DELETE FROM t WHERE id < 20000");
    EXPECT_EQ(QueryText(*db, "SELECT min(id), count(*) FROM t"),
              "(20000, 10000)");
  }
  EXPECT_EQ(RowBytes(0, 20000), 0);
  EXPECT_GT(RowBytes(20000, 30000), 100000);
}

TEST_F(DiscardTest, ATransactionsDeletionsAreCompactedAfterItsCommit) {
  if (auto db = Open()) {
    Exec(*db, "BEGIN");
    Exec(*db, "DELETE FROM t WHERE id >= 5000 AND id < 12000");
    Exec(*db, "DELETE FROM t WHERE id >= 12000 AND id < 18000");
    Exec(*db, "COMMIT");
  }
  EXPECT_EQ(RowBytes(5000, 18000), 0);
  EXPECT_GT(RowBytes(0, 5000), 50000);
}

// Deletions spread thinly over a large range are left to the store; a dense
// run of them is compacted.
TEST(DeletionTrackerTest, CompactsDenseDeletionsOnly) {
  TempDir dir;
  auto key = [](int64_t i) {
    std::string k = rows::IdPrefix(7);
    keys::EncodeValue(Value::Int(i), keys::Direction::kAsc, &k);
    return k;
  };
  constexpr int64_t kKeys = 400000;
  {
    auto store = OpenLevelDbStore(dir.path(), Options());
    ASSERT_TRUE(store.ok());
    WriteBatch batch;
    for (int64_t i = 0; i < kKeys; ++i) {
      batch.Put(key(i), std::string(20, 'v'));
      if (i % 10000 == 9999) {
        ASSERT_TRUE((*store)->Write(batch, false).ok());
        batch = WriteBatch();
      }
    }
  }
  auto store = OpenLevelDbStore(dir.path(), Options());
  ASSERT_TRUE(store.ok());
  DeletionTracker tracker;
  // Every 40th key: 10,000 deletions over the whole range.
  WriteBatch sparse;
  for (int64_t i = 0; i < kKeys; i += 40) sparse.Delete(key(i));
  ASSERT_TRUE((*store)->Write(sparse, false).ok());
  EXPECT_TRUE(tracker.Note(sparse, store->get()).empty());
  // 9,999 in a run: not yet enough of them (the sparse window was judged
  // and ended).
  WriteBatch run;
  for (int64_t i = 1; i < 10000; ++i) run.Delete(key(kKeys - i));
  ASSERT_TRUE((*store)->Write(run, false).ok());
  EXPECT_TRUE(tracker.Note(run, store->get()).empty());
  // One more: the run is dense.
  WriteBatch one;
  one.Delete(key(kKeys - 10000));
  auto ranges = tracker.Note(one, store->get());
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].first, key(kKeys - 10000));
  EXPECT_EQ(ranges[0].second, key(kKeys - 1) + '\0');
}

}  // namespace
}  // namespace levelql
