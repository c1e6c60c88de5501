// Transactions (issue 15): BEGIN ... COMMIT | ROLLBACK in SQL and through
// Database::Begin(). Each test pins one promise of database.h and
// docs/DIALECT.md: read-your-writes through every access path, isolation
// from other sessions, statement atomicity, UNIQUE against the snapshot plus
// the transaction's writes, writer serialization with a busy timeout, one
// atomic batch per COMMIT, the pending-writes limit, tokens that stay inside
// their transaction, and DDL refused inside one.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "engine/database_impl.h"
#include "engine/storage/kv_store.h"
#include "levelql/database.h"
#include "tests/support/forwarding_store.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;

using testing::CursorText;
using testing::OpenMemory;
using testing::QueryText;
using Code = Status::Code;

std::unique_ptr<Transaction> Begin(
    Database& db, TransactionMode mode = TransactionMode::kDeferred) {
  auto txn = db.Begin(mode);
  EXPECT_TRUE(txn.ok()) << txn.status().ToString();
  return txn.ok() ? std::move(txn).value() : nullptr;
}

// The plan of `sql` inside `txn`, one line per node.
std::string Plan(Transaction& txn, const std::string& sql) {
  auto cur = txn.Query("EXPLAIN " + sql);
  if (!cur.ok()) return cur.status().ToString();
  std::string out;
  while ((*cur)->Next()) out += (*cur)->row()[0].text() + "\n";
  return out;
}

// t(id, a, b) with indexes on a and b, ids 1..6.
std::unique_ptr<Database> TwoIndexTable() {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);"
       "CREATE INDEX t_a ON t (a); CREATE INDEX t_b ON t (b);"
       "INSERT INTO t VALUES (1, 1, 1), (2, 1, 2), (3, 2, 1), (4, 2, 2),"
       " (5, 3, 3), (6, 1, 1)");
  return db;
}

TEST(Transaction, ReadsItsOwnWritesThroughAnIndexScan) {
  auto db = TwoIndexTable();
  auto txn = Begin(*db);
  Exec(*txn,
       "INSERT INTO t VALUES (7, 1, 9); UPDATE t SET a = 9 WHERE id = 2;"
       "DELETE FROM t WHERE id = 6");
  const std::string q = "SELECT id FROM t WHERE a = 1";
  EXPECT_NE(Plan(*txn, q).find("IndexScan t.t_a"), std::string::npos)
      << Plan(*txn, q);
  EXPECT_EQ(QueryText(*txn, q), "(1)(7)");
  EXPECT_EQ(QueryText(*txn, "SELECT id FROM t WHERE a = 9"), "(2)");
  // Nobody else sees any of it.
  EXPECT_EQ(QueryText(*db, q), "(1)(2)(6)");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(QueryText(*db, q), "(1)(7)");
  Exec(*db, "CHECK");
}

TEST(Transaction, ReadsItsOwnWritesThroughAnIntersectionAndAUnion) {
  auto db = TwoIndexTable();
  auto txn = Begin(*db);
  Exec(*txn,
       "INSERT INTO t VALUES (7, 1, 1), (8, 5, 1);"
       "UPDATE t SET b = 7 WHERE id = 1; DELETE FROM t WHERE id = 4");
  const std::string both = "SELECT id FROM t WHERE a = 1 AND b = 1";
  const std::string either = "SELECT id FROM t WHERE a = 2 OR b = 1";
  Exec(*txn, "PRAGMA disable_rules = 'union'");
  EXPECT_NE(Plan(*txn, both).find("Intersect"), std::string::npos)
      << Plan(*txn, both);
  EXPECT_EQ(QueryText(*txn, both), "(6)(7)");
  Exec(*txn, "PRAGMA disable_rules = ''");
  EXPECT_NE(Plan(*txn, either).find("Union"), std::string::npos)
      << Plan(*txn, either);
  EXPECT_EQ(QueryText(*txn, either), "(3)(6)(7)(8)");
  EXPECT_EQ(QueryText(*db, either), "(1)(3)(4)(6)");
}

TEST(Transaction, ReadsItsOwnWritesBackwardAndCounts) {
  auto db = TwoIndexTable();
  auto txn = Begin(*db);
  Exec(*txn,
       "INSERT INTO t VALUES (0, 4, 0), (9, 0, 0);"
       "DELETE FROM t WHERE id IN (3, 5); UPDATE t SET a = 7 WHERE id = 1");
  EXPECT_EQ(QueryText(*txn, "SELECT id FROM t ORDER BY id DESC"),
            "(9)(6)(4)(2)(1)(0)");
  EXPECT_EQ(QueryText(*txn, "SELECT id FROM t ORDER BY a DESC, id DESC"),
            "(1)(0)(4)(6)(2)(9)");
  EXPECT_EQ(QueryText(*txn, "SELECT count(*) FROM t"), "(6)");
  EXPECT_EQ(QueryText(*txn, "SELECT count(*) FROM t WHERE a = 1"), "(2)");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t"), "(6)");
  // CHECK inside the transaction reads its view: consistent too.
  Exec(*txn, "CHECK");
}

TEST(Transaction, RankedIndexCountsIncludeItsOwnWrites) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE r (id INTEGER PRIMARY KEY, g INTEGER);"
       "CREATE INDEX r_g ON r (g) WITH (ranked)");
  std::string values;
  for (int i = 1; i <= 200; ++i) {
    values += (i > 1 ? ", (" : "(") + std::to_string(i) + ", " +
              std::to_string(i % 4) + ")";
  }
  Exec(*db, "INSERT INTO r VALUES " + values);
  auto txn = Begin(*db);
  Exec(*txn, "DELETE FROM r WHERE id <= 40; INSERT INTO r VALUES (500, 1)");
  EXPECT_EQ(QueryText(*txn, "SELECT count(*) FROM r WHERE g = 1"), "(41)");
  EXPECT_EQ(QueryText(*txn,
                      "SELECT id FROM r WHERE g = 1 ORDER BY g "
                      "LIMIT 2 OFFSET 39"),
            "(197)(500)");
  Exec(*txn, "CHECK");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM r WHERE g = 1"), "(50)");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM r WHERE g = 1"), "(41)");
  Exec(*db, "CHECK");
}

TEST(Transaction, TokensPageThroughItsOwnWritesAndStayInside) {
  auto db = TwoIndexTable();
  auto txn = Begin(*db);
  Exec(*txn,
       "INSERT INTO t VALUES (7, 1, 0), (8, 1, 0); DELETE FROM t "
       "WHERE id = 2");
  auto stmt = txn->Prepare("SELECT id FROM t WHERE a = 1");
  ASSERT_TRUE(stmt.ok());
  auto page1 = (*stmt)->Query();
  ASSERT_TRUE(page1.ok());
  ASSERT_TRUE((*page1)->Next());
  ASSERT_TRUE((*page1)->Next());
  const std::string token = (*page1)->ContinuationToken();
  EXPECT_EQ(CursorText((*stmt)->Resume(token)), "(7)(8)");
  // A previous page, read backwards through the transaction's view.
  auto page2 = (*stmt)->Resume(token);
  ASSERT_TRUE(page2.ok());
  auto back = (*page2)->PreviousPageToken(2);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(CursorText((*stmt)->Resume(*back)), "(1)(6)(7)(8)");

  // Outside the transaction, the token is refused, before and after commit.
  auto outside = db->Prepare("SELECT id FROM t WHERE a = 1");
  ASSERT_TRUE(outside.ok());
  auto refused = (*outside)->Resume(token);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Code::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("inside a transaction"),
            std::string::npos)
      << refused.status().ToString();
  auto other = Begin(*db);
  auto in_other = other->Prepare("SELECT id FROM t WHERE a = 1");
  EXPECT_EQ((*in_other)->Resume(token).status().code(), Code::kInvalidArgument);
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ((*outside)->Resume(token).status().code(), Code::kInvalidArgument);
  // A token taken outside a transaction resumes inside one (whose snapshot,
  // taken at its first read above, predates the commit).
  auto cur = (*outside)->Query();
  ASSERT_TRUE((*cur)->Next());
  EXPECT_EQ(CursorText((*in_other)->Resume((*cur)->ContinuationToken())),
            "(2)(6)");
}

TEST(Transaction, AFailingStatementLeavesTheTransactionAsItWas) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE u (id INTEGER PRIMARY KEY, email TEXT UNIQUE, n "
       "INTEGER NOT NULL); INSERT INTO u VALUES (1, 'a', 1)");
  auto txn = Begin(*db);
  Exec(*txn, "INSERT INTO u VALUES (2, 'b', 2)");
  Status s = txn->Execute("INSERT INTO u VALUES (3, 'c', 3), (4, 'b', 4)");
  EXPECT_EQ(s.code(), Code::kConstraintError) << s.ToString();
  s = txn->Execute("UPDATE u SET n = NULL WHERE id = 2");
  EXPECT_EQ(s.code(), Code::kConstraintError) << s.ToString();
  EXPECT_EQ(QueryText(*txn, "SELECT * FROM u"), "(1, a, 1)(2, b, 2)");
  Exec(*txn, "INSERT INTO u VALUES (3, 'c', 3)");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(QueryText(*db, "SELECT * FROM u"), "(1, a, 1)(2, b, 2)(3, c, 3)");
  Exec(*db, "CHECK");
}

TEST(Transaction, UniqueIsCheckedAgainstTheSnapshotAndItsOwnWrites) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE u (id INTEGER PRIMARY KEY, email TEXT UNIQUE);"
       "INSERT INTO u VALUES (1, 'a'), (2, 'b')");
  auto txn = Begin(*db);
  // Against the snapshot.
  EXPECT_EQ(txn->Execute("INSERT INTO u VALUES (3, 'a')").code(),
            Code::kConstraintError);
  // A value the transaction freed is free inside it...
  Exec(*txn, "DELETE FROM u WHERE id = 1; INSERT INTO u VALUES (3, 'a')");
  // ...and one it took is taken, by another statement of it.
  EXPECT_EQ(txn->Execute("INSERT INTO u VALUES (4, 'a')").code(),
            Code::kConstraintError);
  EXPECT_EQ(txn->Execute("UPDATE u SET email = 'a' WHERE id = 2").code(),
            Code::kConstraintError);
  EXPECT_EQ(txn->Execute("INSERT INTO u VALUES (3, 'z')").code(),
            Code::kConstraintError);  // the primary key, too
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(QueryText(*db, "SELECT * FROM u"), "(2, b)(3, a)");
  Exec(*db, "CHECK");
}

TEST(Transaction, RollbackDropsEverythingAndFreesRowids) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE h (v TEXT); INSERT INTO h VALUES ('x')");
  Exec(*db, "BEGIN");
  EXPECT_TRUE(db->InTransaction());
  Exec(*db, "INSERT INTO h VALUES ('y'), ('z'); DELETE FROM h WHERE v = 'x'");
  EXPECT_EQ(QueryText(*db, "SELECT rowid, v FROM h"), "(2, y)(3, z)");
  Exec(*db, "ROLLBACK");
  EXPECT_FALSE(db->InTransaction());
  EXPECT_EQ(QueryText(*db, "SELECT rowid, v FROM h"), "(1, x)");
  // As SQLite: the rowids the rolled-back rows had are handed out again.
  Exec(*db, "INSERT INTO h VALUES ('w')");
  EXPECT_EQ(QueryText(*db, "SELECT rowid, v FROM h"), "(1, x)(2, w)");
  Exec(*db, "CHECK");
}

TEST(Transaction, SqlBeginCommitAndTheirErrors) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
  EXPECT_EQ(db->Execute("COMMIT").code(), Code::kInvalidArgument);
  EXPECT_EQ(db->Execute("ROLLBACK").code(), Code::kInvalidArgument);
  Exec(*db, "BEGIN IMMEDIATE TRANSACTION");
  EXPECT_EQ(db->Execute("BEGIN").code(), Code::kInvalidArgument);
  Exec(*db, "INSERT INTO t VALUES (1)");
  Exec(*db, "END");  // COMMIT's other name
  EXPECT_EQ(QueryText(*db, "SELECT id FROM t"), "(1)");
  // A script that stops at an error leaves its transaction open.
  EXPECT_FALSE(
      db->Execute("BEGIN; INSERT INTO t VALUES (2); INSERT INTO t VALUES (1)")
          .ok());
  EXPECT_TRUE(db->InTransaction());
  Exec(*db, "COMMIT");
  EXPECT_EQ(QueryText(*db, "SELECT id FROM t"), "(1)(2)");
}

TEST(Transaction, DdlAnalyzeAndReindexAreRefusedInside) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)");
  auto txn = Begin(*db);
  Exec(*txn, "INSERT INTO t VALUES (1, 1)");
  for (const char* sql :
       {"CREATE TABLE u (x INTEGER)", "CREATE INDEX t_a ON t (a)",
        "DROP TABLE t", "DROP INDEX IF EXISTS nope", "ANALYZE", "REINDEX t"}) {
    Status s = txn->Execute(sql);
    EXPECT_EQ(s.code(), Code::kNotSupported) << sql << ": " << s.ToString();
    EXPECT_NE(s.message().find("inside a transaction"), std::string::npos)
        << s.ToString();
  }
  // The transaction goes on.
  EXPECT_EQ(QueryText(*txn, "SELECT * FROM t"), "(1, 1)");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(db->Schema().size(), 1u);
}

TEST(Transaction, ATransactionObjectEndsOnceAndRollsBackWhenDropped) {
  auto db = OpenMemory();
  Exec(*db, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
  {
    auto txn = Begin(*db);
    Exec(*txn, "INSERT INTO t VALUES (1)");
    EXPECT_TRUE(txn->active());
    EXPECT_EQ(txn->Execute("BEGIN").code(), Code::kInvalidArgument);
  }  // dropped: rolled back, and the writer slot is free again
  EXPECT_EQ(QueryText(*db, "SELECT id FROM t"), "");
  Exec(*db, "INSERT INTO t VALUES (2)");

  auto txn = Begin(*db);
  auto stmt = txn->Prepare("INSERT INTO t VALUES (?)");
  ASSERT_TRUE(stmt.ok());
  ASSERT_TRUE((*stmt)->Execute({Value::Int(3)}).ok());
  Exec(*txn, "COMMIT");  // SQL COMMIT ends the object's transaction
  EXPECT_FALSE(txn->active());
  EXPECT_EQ(QueryText(*db, "SELECT id FROM t"), "(2)(3)");
  EXPECT_EQ(txn->Execute("SELECT * FROM t").code(), Code::kInvalidArgument);
  EXPECT_EQ((*stmt)->Execute({Value::Int(4)}).status().code(),
            Code::kInvalidArgument);
  EXPECT_EQ(txn->Commit().code(), Code::kInvalidArgument);
  EXPECT_EQ(txn->Rollback().code(), Code::kInvalidArgument);
}

TEST(Transaction, ACursorKeepsTheViewItStartedWith) {
  auto db = TwoIndexTable();
  auto txn = Begin(*db);
  Exec(*txn, "INSERT INTO t VALUES (7, 1, 1)");
  auto cur = txn->Query("SELECT id FROM t WHERE a = 1");
  ASSERT_TRUE(cur.ok());
  ASSERT_TRUE((*cur)->Next());
  Exec(*txn, "DELETE FROM t WHERE a = 1; INSERT INTO t VALUES (8, 1, 1)");
  std::string rest;
  while ((*cur)->Next()) rest += (*cur)->row()[0].ToString() + " ";
  EXPECT_EQ(rest, "2 6 7 ");
  EXPECT_EQ(QueryText(*txn, "SELECT id FROM t WHERE a = 1"), "(8)");
}

TEST(Transaction, ReadersNeverSeeUncommittedWritesNorWait) {
  auto db = TwoIndexTable();
  auto txn = Begin(*db, TransactionMode::kImmediate);
  Exec(*txn, "UPDATE t SET a = a + 10; INSERT INTO t VALUES (7, 1, 1)");
  std::atomic<bool> done{false};
  std::string seen;
  std::thread reader([&] {
    seen = QueryText(*db, "SELECT id, a FROM t WHERE a < 10 ORDER BY id");
    done = true;
  });
  reader.join();
  EXPECT_TRUE(done.load());
  EXPECT_EQ(seen, "(1, 1)(2, 1)(3, 2)(4, 2)(5, 3)(6, 1)");
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(QueryText(*db, "SELECT id FROM t WHERE a < 10"), "(7)");
}

// Interrupt() stops a writer that waits for the slot, too, at once rather
// than at the end of its busy timeout; a later writer waits as before.
TEST(Transaction, InterruptStopsAWriterWaitingForTheSlot) {
  auto db = TwoIndexTable();
  Exec(*db, "PRAGMA busy_timeout = 10000");
  auto first = Begin(*db);
  Exec(*first, "INSERT INTO t VALUES (7, 1, 1)");  // takes the writer slot
  Status waiting;
  std::chrono::milliseconds waited{};
  std::thread second([&] {
    auto start = std::chrono::steady_clock::now();
    waiting = db->Execute("INSERT INTO t VALUES (8, 1, 1)");
    waited = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  db->Interrupt();
  second.join();
  EXPECT_EQ(waiting.code(), Code::kInterrupted) << waiting.ToString();
  EXPECT_LT(waited.count(), 5000);
  ASSERT_TRUE(first->Commit().ok());
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t WHERE id >= 7"), "(1)");
  Exec(*db, "INSERT INTO t VALUES (8, 1, 1)");
}

TEST(Transaction, ASecondWriterFailsWithBusyAfterTheTimeout) {
  auto db = TwoIndexTable();
  Exec(*db, "PRAGMA busy_timeout = 100");
  auto first = Begin(*db);
  Exec(*first, "INSERT INTO t VALUES (7, 1, 1)");  // takes the writer slot
  Status busy;
  std::chrono::milliseconds waited{};
  std::thread second([&] {
    auto start = std::chrono::steady_clock::now();
    busy = db->Execute("INSERT INTO t VALUES (8, 1, 1)");
    waited = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
  });
  second.join();
  EXPECT_EQ(busy.code(), Code::kBusy) << busy.ToString();
  EXPECT_GE(waited.count(), 90);
  EXPECT_NE(busy.message().find("busy timeout"), std::string::npos);
  // DDL and another transaction's first write wait for it too.
  EXPECT_EQ(db->Execute("CREATE TABLE x (a INTEGER)").code(), Code::kBusy);
  auto other = Begin(*db);
  EXPECT_EQ(other->Execute("DELETE FROM t").code(), Code::kBusy);
  EXPECT_EQ(QueryText(*other, "SELECT count(*) FROM t"), "(6)");
  EXPECT_EQ(db->Begin(TransactionMode::kImmediate).status().code(),
            Code::kBusy);
  ASSERT_TRUE(first->Commit().ok());
  // The other transaction read before the commit: its snapshot is stale,
  // so it may not write (SQLite's BUSY_SNAPSHOT); a new one may.
  Status stale = other->Execute("DELETE FROM t");
  EXPECT_EQ(stale.code(), Code::kBusy) << stale.ToString();
  ASSERT_TRUE(other->Rollback().ok());
  Exec(*db, "INSERT INTO t VALUES (8, 1, 1)");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t"), "(8)");
}

TEST(Transaction, TwoWriterThreadsTakeTurns) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER);"
       "INSERT INTO acct VALUES (1, 1000), (2, 1000)");
  constexpr int kTransfers = 200;
  auto transfer = [&](int from, int to, int* busy) {
    for (int i = 0; i < kTransfers; ++i) {
      while (true) {
        auto txn = db->Begin(TransactionMode::kImmediate);
        if (!txn.ok()) {
          ASSERT_EQ(txn.status().code(), Code::kBusy);
          ++*busy;
          continue;
        }
        auto bal = QueryText(
            **txn, "SELECT bal FROM acct WHERE id = " + std::to_string(from));
        int64_t b = std::stoll(bal.substr(1));
        Exec(**txn, "UPDATE acct SET bal = " + std::to_string(b - 1) +
                        " WHERE id = " + std::to_string(from));
        Exec(**txn,
             "UPDATE acct SET bal = bal + 1 WHERE id = " + std::to_string(to));
        ASSERT_TRUE((*txn)->Commit().ok());
        break;
      }
    }
  };
  int busy1 = 0, busy2 = 0;
  std::thread a([&] { transfer(1, 2, &busy1); });
  std::thread b([&] { transfer(2, 1, &busy2); });
  // Readers always see a total of 2000.
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(QueryText(*db, "SELECT sum(bal) FROM acct"), "(2000)");
  }
  a.join();
  b.join();
  EXPECT_EQ(QueryText(*db, "SELECT bal FROM acct ORDER BY id"), "(1000)(1000)");
  EXPECT_EQ(busy1 + busy2, 0);  // the 5 s default timeout was never reached
}

TEST(Transaction, AWaitingWriterGoesOnWhenTheFirstCommits) {
  auto db = TwoIndexTable();
  auto first = Begin(*db, TransactionMode::kImmediate);
  std::atomic<bool> committed{false};
  Status second;
  std::thread t([&] { second = db->Execute("DELETE FROM t WHERE id = 7"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  Exec(*first, "INSERT INTO t VALUES (7, 1, 1)");
  ASSERT_TRUE(first->Commit().ok());
  t.join();
  EXPECT_TRUE(second.ok()) << second.ToString();
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM t"), "(6)");
}

TEST(Transaction, PendingWritesAreBounded) {
  Options options;
  options.max_transaction_bytes = 64 << 10;
  auto opened = Database::Open(":memory:", options);
  ASSERT_TRUE(opened.ok());
  auto& db = *opened;
  Exec(*db,
       "CREATE TABLE big (id INTEGER PRIMARY KEY, s TEXT); CREATE INDEX "
       "big_s ON big (s)");
  auto txn = Begin(*db);
  const std::string text(1000, 'x');
  int inserted = 0;
  Status s;
  for (int i = 0; i < 200; ++i) {
    s = txn->Execute("INSERT INTO big VALUES (?, ?)",
                     {Value::Int(i), Value::Text(text + std::to_string(i))})
            .status();
    if (!s.ok()) break;
    ++inserted;
  }
  EXPECT_EQ(s.code(), Code::kLimitExceeded) << s.ToString();
  EXPECT_NE(s.message().find("max_transaction_bytes"), std::string::npos);
  EXPECT_GT(inserted, 20);
  EXPECT_LT(inserted, 40);
  // Nothing lost: what the transaction held is still there, and commits.
  // (Any write past the limit fails, a DELETE too: it writes.)
  const std::string count = "(" + std::to_string(inserted) + ")";
  EXPECT_EQ(QueryText(*txn, "SELECT count(*) FROM big"), count);
  EXPECT_EQ(txn->Execute("DELETE FROM big WHERE id = 0").code(),
            Code::kLimitExceeded);
  ASSERT_TRUE(txn->Commit().ok());
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM big"), count);
  Exec(*db, "CHECK");
}

// A statement outside a transaction is one: the same bound, the same
// nothing-written on failure.
TEST(Transaction, AStatementOutsideATransactionIsBoundedToo) {
  Options options;
  options.max_transaction_bytes = 64 << 10;
  auto opened = Database::Open(":memory:", options);
  ASSERT_TRUE(opened.ok());
  auto& db = *opened;
  Exec(*db, "CREATE TABLE big (id INTEGER PRIMARY KEY, s TEXT)");
  Exec(*db, "CREATE TABLE copy (id INTEGER PRIMARY KEY, s TEXT)");
  const std::string text(1000, 'x');
  for (int i = 0; i < 100; ++i) {  // 100 KiB: more than the bound
    ASSERT_TRUE(db->Execute("INSERT INTO big VALUES (?, ?)",
                            {Value::Int(i), Value::Text(text)})
                    .ok());
  }
  Status s = db->Execute("INSERT INTO copy SELECT * FROM big");
  EXPECT_EQ(s.code(), Code::kLimitExceeded) << s.ToString();
  EXPECT_NE(s.message().find("write in smaller statements"), std::string::npos)
      << s.ToString();
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM copy"), "(0)");
  Exec(*db, "INSERT INTO copy SELECT * FROM big WHERE id < 20");
  EXPECT_EQ(QueryText(*db, "SELECT count(*) FROM copy"), "(20)");
}

// Counts the batches written and how.
class CountingStore : public testing::ForwardingStore {
 public:
  explicit CountingStore(std::unique_ptr<KvStore> base)
      : ForwardingStore(std::move(base)) {}
  std::atomic<int> writes{0};
  std::atomic<bool> last_sync{false};
  std::atomic<size_t> last_ops{0};

  Status Write(const WriteBatch& batch, bool sync) override {
    ++writes;
    last_sync = sync;
    last_ops = batch.ops().size();
    return ForwardingStore::Write(batch, sync);
  }
};

TEST(Transaction, CommitWritesOneBatchSyncedAsOptionsSay) {
  for (bool sync : {false, true}) {
    Options options;
    options.sync_writes = sync;
    auto kv = OpenLevelDbStore(":memory:", options);
    ASSERT_TRUE(kv.ok());
    auto* store = new CountingStore(std::move(kv).value());
    auto db = OpenDatabaseOnStore(std::unique_ptr<KvStore>(store), options);
    ASSERT_TRUE(db.ok());
    Exec(**db,
         "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER); CREATE INDEX "
         "t_a ON t (a)");
    const int before = store->writes.load();
    auto txn = Begin(**db);
    for (int i = 0; i < 50; ++i) {
      Exec(*txn, "INSERT INTO t VALUES (" + std::to_string(i) + ", 1)");
    }
    Exec(*txn, "UPDATE t SET a = 2 WHERE id < 10");
    EXPECT_EQ(store->writes.load(), before);  // nothing before COMMIT
    ASSERT_TRUE(txn->Commit().ok());
    EXPECT_EQ(store->writes.load(), before + 1);
    // 50 rows and 50 index entries; the 10 entries the UPDATE moved are
    // deleted at their old keys too (keys the store never held).
    EXPECT_EQ(store->last_ops.load(), 110u);
    EXPECT_EQ(store->last_sync.load(), sync);
    // A transaction that only read writes nothing.
    auto reader = Begin(**db);
    EXPECT_EQ(QueryText(*reader, "SELECT count(*) FROM t WHERE a = 2"), "(10)");
    ASSERT_TRUE(reader->Commit().ok());
    EXPECT_EQ(store->writes.load(), before + 1);
  }
}

TEST(Transaction, CommittedWritesSurviveAReopenAndRolledBackOnesDoNot) {
  testing::TempDir dir("txn");
  const std::string path = dir.path() + "/db";
  {
    auto db = Database::Open(path);
    ASSERT_TRUE(db.ok());
    Exec(**db, "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER UNIQUE)");
    auto txn = Begin(**db);
    Exec(*txn, "INSERT INTO t VALUES (1, 10), (2, 20)");
    ASSERT_TRUE(txn->Commit().ok());
    Exec(**db, "BEGIN; INSERT INTO t VALUES (3, 30)");  // never committed
  }
  auto db = Database::Open(path);
  ASSERT_TRUE(db.ok());
  EXPECT_FALSE((*db)->InTransaction());
  EXPECT_EQ(QueryText(**db, "SELECT * FROM t"), "(1, 10)(2, 20)");
  Exec(**db, "CHECK");
}

}  // namespace
}  // namespace levelql
