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

// The bytes the store's files give the keys under keyspace `id`.
int64_t BytesOf(const std::string& dir, int64_t id) {
  auto store = OpenLevelDbStore(dir, Options());
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  if (!store.ok()) return -1;
  const std::string prefix = rows::IdPrefix(id);
  return (*store)->ApproximateBytes(prefix, keys::PrefixSuccessor(prefix));
}

// The keyspace ids of `table` and of its index `index`.
void IdsOf(const std::string& dir, const std::string& table,
           const std::string& index, int64_t* table_id, int64_t* index_id) {
  auto store = OpenLevelDbStore(dir, Options());
  ASSERT_TRUE(store.ok());
  auto catalog = LoadCatalog(store->get(), false);
  ASSERT_TRUE(catalog.ok());
  const TableSchema* t = catalog->FindTable(table);
  ASSERT_NE(t, nullptr);
  *table_id = t->id;
  for (const auto& i : t->indexes) {
    if (i->name == index) *index_id = i->id;
  }
}

// 30,000 rows in t, whose index t_a the test drops; reopened, so they are in
// the store's files.
void Fill(const std::string& dir) {
  auto db = Database::Open(dir);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  Exec(**db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)");
  Exec(**db, "CREATE INDEX t_a ON t (a)");
  Exec(**db, "CREATE INDEX t_b ON t (b)");
  for (int batch = 0; batch < 30; ++batch) {
    std::string insert = "INSERT INTO t VALUES ";
    for (int i = 0; i < 1000; ++i) {
      const int id = batch * 1000 + i;
      insert += std::string(i ? ", " : "") + "(" + std::to_string(id) + ", " +
                std::to_string(id % 7) + ", 'text " + std::to_string(id) + "')";
    }
    Exec(**db, insert);
  }
}

TEST(Discard, DroppedIndexesAndTablesLeaveNoBytes) {
  TempDir dir;
  Fill(dir.path());
  int64_t t = 0, t_a = 0, t_b = 0;
  IdsOf(dir.path(), "t", "t_a", &t, &t_a);
  IdsOf(dir.path(), "t", "t_b", &t, &t_b);
  ASSERT_GT(BytesOf(dir.path(), t_a), 100000);
  ASSERT_GT(BytesOf(dir.path(), t), 100000);
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db, "DROP INDEX t_a");
    // The index before the dropped one still answers, and MAX is right.
    EXPECT_EQ(QueryText(**db, "SELECT max(b) FROM t"), "(text 9999)");
  }
  EXPECT_EQ(BytesOf(dir.path(), t_a), 0);
  EXPECT_GT(BytesOf(dir.path(), t_b), 100000);
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db, "DROP TABLE t");
  }
  EXPECT_EQ(BytesOf(dir.path(), t), 0);
  EXPECT_EQ(BytesOf(dir.path(), t_b), 0);
}

TEST(Discard, AFailedUniqueIndexLeavesNoBytes) {
  TempDir dir;
  Fill(dir.path());
  int64_t t = 0, t_b = 0;
  IdsOf(dir.path(), "t", "t_b", &t, &t_b);
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    // b is unique but for the last row: the backfill writes the entries of
    // the rows before it (in three batches), then fails.
    Exec(**db, "INSERT INTO t VALUES (30000, 0, 'text 5')");
    Status s = (*db)->Execute("CREATE UNIQUE INDEX t_dup ON t (b)");
    EXPECT_EQ(s.code(), Status::Code::kConstraintError) << s.ToString();
  }
  // t_dup had the next id (t_b's was the last).
  EXPECT_EQ(BytesOf(dir.path(), t_b + 1), 0);
  EXPECT_GT(BytesOf(dir.path(), t_b), 100000);
}

TEST(Discard, ReindexLeavesNoBytesInTheOldRanges) {
  TempDir dir;
  Fill(dir.path());
  int64_t t = 0, t_a = 0;
  IdsOf(dir.path(), "t", "t_a", &t, &t_a);
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db, "REINDEX t_a");
    EXPECT_EQ(QueryText(**db, "SELECT count(*) FROM t WHERE a = 3"), "(4286)");
  }
  int64_t t2 = 0, t_a2 = 0;
  IdsOf(dir.path(), "t", "t_a", &t2, &t_a2);
  ASSERT_NE(t_a2, t_a);  // rebuilt under a new id
  EXPECT_EQ(BytesOf(dir.path(), t_a), 0);
  EXPECT_GT(BytesOf(dir.path(), t_a2), 100000);
}

// The bytes the store's files give the rows of t with ids in [lo, hi).
int64_t RowBytes(const std::string& dir, int64_t t, int64_t lo, int64_t hi) {
  auto store = OpenLevelDbStore(dir, Options());
  EXPECT_TRUE(store.ok());
  if (!store.ok()) return -1;
  auto key = [&](int64_t id) {
    std::string k = rows::IdPrefix(t);
    keys::EncodeValue(Value::Int(id), keys::Direction::kAsc, &k);
    return k;
  };
  return (*store)->ApproximateBytes(key(lo), key(hi));
}

TEST(Discard, DeletingTheOldestRowsCompactsThem) {
  TempDir dir;
  Fill(dir.path());
  int64_t t = 0, t_a = 0;
  IdsOf(dir.path(), "t", "t_a", &t, &t_a);
  ASSERT_GT(RowBytes(dir.path(), t, 0, 20000), 100000);
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db, "DELETE FROM t WHERE id < 20000");
    EXPECT_EQ(QueryText(**db, "SELECT min(id), count(*) FROM t"),
              "(20000, 10000)");
  }
  EXPECT_EQ(RowBytes(dir.path(), t, 0, 20000), 0);
  EXPECT_GT(RowBytes(dir.path(), t, 20000, 30000), 100000);
}

TEST(Discard, ATransactionsDeletionsAreCompactedAfterItsCommit) {
  TempDir dir;
  Fill(dir.path());
  int64_t t = 0, t_a = 0;
  IdsOf(dir.path(), "t", "t_a", &t, &t_a);
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db, "BEGIN");
    Exec(**db, "DELETE FROM t WHERE id >= 5000 AND id < 12000");
    Exec(**db, "DELETE FROM t WHERE id >= 12000 AND id < 18000");
    Exec(**db, "COMMIT");
  }
  EXPECT_EQ(RowBytes(dir.path(), t, 5000, 18000), 0);
  EXPECT_GT(RowBytes(dir.path(), t, 0, 5000), 50000);
}

// Deletions spread thinly over a large range are left to the store; a dense
// run of them is compacted.
TEST(Discard, TheTrackerCompactsDenseDeletionsOnly) {
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
