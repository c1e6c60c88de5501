// The LevelDB store hands ended iterators to later reads of the same state
// (engine/storage/iterator_pool.h): a read must never get an iterator of
// another state, whatever writes and snapshots come between, and a reused
// iterator reports nothing until it is positioned.
#include "engine/storage/iterator_pool.h"

#include <gtest/gtest.h>
#include <leveldb/iterator.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "engine/storage/kv_store.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::TempDir;

void Put(KvStore* store, const std::string& key, const std::string& value) {
  WriteBatch batch;
  batch.Put(key, value);
  ASSERT_TRUE(store->Write(batch, false).ok());
}

// The keys starting with `prefix`, read through a new iterator.
std::vector<std::string> Keys(KvStore* store, const KvSnapshot* snapshot,
                              const std::string& prefix = "k") {
  std::vector<std::string> keys;
  auto it = store->NewIterator(snapshot);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
       it->Next()) {
    keys.emplace_back(it->key());
  }
  EXPECT_TRUE(it->status().ok());
  return keys;
}

// The pool alone, with LevelDB's empty iterators: what it keeps and for
// which state.
TEST(IteratorPool, KeepsOnlyIteratorsOfTheCurrentState) {
  IteratorPool pool;
  int uses = 0;
  const uint64_t zero = pool.Current();
  ASSERT_EQ(zero, 0u);
  pool.Give(leveldb::NewEmptyIterator(), zero, 1);
  EXPECT_EQ(pool.Take(zero + 1, &uses), nullptr);  // another state
  EXPECT_EQ(pool.Take(IteratorPool::kNoEpoch, &uses), nullptr);
  leveldb::Iterator* it = pool.Take(zero, &uses);
  ASSERT_NE(it, nullptr);
  EXPECT_EQ(uses, 1);
  {
    IteratorPool::Writing writing(&pool);
    // A write in flight: no state to tag, but the last one's iterators
    // still serve reads of it.
    EXPECT_EQ(pool.Current(), IteratorPool::kNoEpoch);
    pool.Give(it, zero, 1);
    it = pool.Take(zero, &uses);
    EXPECT_NE(it, nullptr);
    pool.Give(it, zero, 1);
  }
  // The write done: the pool was emptied, and an iterator of the state
  // before it is no longer kept.
  EXPECT_EQ(pool.Current(), zero + 1);
  EXPECT_EQ(pool.Take(zero, &uses), nullptr);
  pool.Give(leveldb::NewEmptyIterator(), zero, 1);
  EXPECT_EQ(pool.Take(zero, &uses), nullptr);
  // Neither one that served kMaxUses reads, nor one that failed.
  pool.Give(leveldb::NewEmptyIterator(), zero + 1, IteratorPool::kMaxUses);
  pool.Give(leveldb::NewErrorIterator(leveldb::Status::IOError("x")), zero + 1,
            1);
  EXPECT_EQ(pool.Take(zero + 1, &uses), nullptr);
}

TEST(IteratorPool, EndsAnIteratorLeftIdleTooLong) {
  IteratorPool pool;
  int uses = 0;
  pool.Give(leveldb::NewEmptyIterator(), 0, 1);  // left at the bottom
  pool.Give(leveldb::NewEmptyIterator(), 0, 1);
  // One iterator taken and given back, again and again: the other waits.
  for (uint64_t i = 0; i < IteratorPool::kMaxAge; ++i) {
    leveldb::Iterator* it = pool.Take(0, &uses);
    ASSERT_NE(it, nullptr);
    pool.Give(it, 0, 1);
  }
  leveldb::Iterator* first = pool.Take(0, &uses);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(pool.Take(0, &uses), nullptr);  // the idle one has ended
  delete first;
}

class IteratorPoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = OpenLevelDbStore(dir_.path(), Options());
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
  }

  TempDir dir_;
  std::unique_ptr<KvStore> store_;
};

TEST_F(IteratorPoolTest, ReusesAnIteratorWhileNothingIsWritten) {
  Put(store_.get(), "k1", "a");
  Keys(store_.get(), nullptr);
  const uint64_t before = IteratorPool::Reused();
  EXPECT_EQ(Keys(store_.get(), nullptr), std::vector<std::string>{"k1"});
  EXPECT_EQ(IteratorPool::Reused(), before + 1);
  auto snapshot = store_->GetSnapshot();
  EXPECT_EQ(Keys(store_.get(), snapshot.get()), std::vector<std::string>{"k1"});
  EXPECT_EQ(IteratorPool::Reused(), before + 2);
}

// An iterator holds the version it was made on: after kMaxUses reads it
// ends, and the next read makes a new one.
TEST_F(IteratorPoolTest, AnIteratorServesAtMostMaxUsesReads) {
  Put(store_.get(), "k1", "a");
  const uint64_t before = IteratorPool::Reused();
  for (int i = 0; i < 2 * IteratorPool::kMaxUses; ++i) {
    ASSERT_EQ(Keys(store_.get(), nullptr).size(), 1u);
  }
  // Made for the first read and for read kMaxUses + 1; reused otherwise.
  EXPECT_EQ(IteratorPool::Reused() - before,
            static_cast<uint64_t>(2 * IteratorPool::kMaxUses - 2));
}

TEST_F(IteratorPoolTest, AReadAfterAWriteSeesIt) {
  Put(store_.get(), "k1", "a");
  EXPECT_EQ(Keys(store_.get(), nullptr).size(), 1u);
  auto snapshot = store_->GetSnapshot();
  EXPECT_EQ(Keys(store_.get(), snapshot.get()).size(), 1u);
  const uint64_t before = IteratorPool::Reused();
  Put(store_.get(), "k2", "b");
  EXPECT_EQ(Keys(store_.get(), nullptr),
            (std::vector<std::string>{"k1", "k2"}));
  EXPECT_EQ(Keys(store_.get(), store_->GetSnapshot().get()),
            (std::vector<std::string>{"k1", "k2"}));
  // The write emptied the pool: those two iterators were new.
  EXPECT_EQ(IteratorPool::Reused(), before + 1);
}

TEST_F(IteratorPoolTest, AnOlderSnapshotNeverGetsANewerIterator) {
  Put(store_.get(), "k1", "a");
  auto old = store_->GetSnapshot();
  Put(store_.get(), "k2", "b");
  // Iterators of the newer state end, and wait in the pool.
  EXPECT_EQ(Keys(store_.get(), nullptr).size(), 2u);
  EXPECT_EQ(Keys(store_.get(), store_->GetSnapshot().get()).size(), 2u);
  EXPECT_EQ(Keys(store_.get(), old.get()), std::vector<std::string>{"k1"});
  // And an iterator of the older state, ended after the write, is not
  // kept for a read of the newer one.
  EXPECT_EQ(Keys(store_.get(), nullptr).size(), 2u);
  EXPECT_EQ(Keys(store_.get(), old.get()), std::vector<std::string>{"k1"});
  EXPECT_EQ(Keys(store_.get(), nullptr).size(), 2u);
}

TEST_F(IteratorPoolTest, AReusedIteratorReportsNothingUntilPositioned) {
  Put(store_.get(), "k1", "a");
  {
    auto it = store_->NewIterator(nullptr);
    it->Seek("k1");
    ASSERT_TRUE(it->Valid());
  }
  const uint64_t before = IteratorPool::Reused();
  auto it = store_->NewIterator(nullptr);
  ASSERT_EQ(IteratorPool::Reused(), before + 1);
  EXPECT_FALSE(it->Valid());
  it->SeekToFirst();
  EXPECT_TRUE(it->Valid());
}

// Readers running while a writer writes: each batch adds two keys and the
// count of pairs, so every read of one state finds twice the count it
// reads, and a read without a snapshot finds at least the pairs written
// before it began and at most those begun before it ended; an iterator of
// another state would not.
TEST_F(IteratorPoolTest, ReadsOfEveryStateWhileAWriterWrites) {
  constexpr int kBatches = 1500;
  constexpr int kReads = 1500;
  std::atomic<int> wrong{0};
  std::atomic<int> begun{0}, written{0};  // batches
  std::thread writer([&] {
    for (int i = 1; i <= kBatches; ++i) {
      WriteBatch batch;
      char key[32];
      std::snprintf(key, sizeof(key), "p%06d-a", i);
      batch.Put(key, "");
      std::snprintf(key, sizeof(key), "p%06d-b", i);
      batch.Put(key, "");
      batch.Put("n", std::to_string(i));
      begun.store(i);
      if (!store_->Write(batch, false).ok()) ++wrong;
      written.store(i);
    }
  });
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&, r] {
      // From the writer's first batch to its last, and kReads at least.
      while (begun.load() == 0) std::this_thread::yield();
      for (int i = 0; i < kReads || written.load() < kBatches; ++i) {
        if (r == 0 || i % 2) {
          auto snapshot = store_->GetSnapshot();
          std::string n = "0";
          Status s = store_->Get(snapshot.get(), "n", &n);
          if (!s.ok() && s.code() != Status::Code::kNotFound) ++wrong;
          if (!s.ok()) n = "0";
          const size_t keys = Keys(store_.get(), snapshot.get(), "p").size();
          if (keys != 2 * std::stoul(n)) ++wrong;
        } else {
          const size_t low = 2 * static_cast<size_t>(written.load());
          const size_t keys = Keys(store_.get(), nullptr, "p").size();
          const size_t high = 2 * static_cast<size_t>(begun.load());
          if (keys < low || keys > high || keys % 2 != 0) ++wrong;
        }
      }
    });
  }
  writer.join();
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(Keys(store_.get(), nullptr, "p").size(), 2u * kBatches);
}

}  // namespace
}  // namespace levelql
