// Transactions under concurrency (issue 15), also run under ThreadSanitizer
// by `make tsan`:
//   - readers running while a long write transaction moves money between
//     accounts (a debit and its credit are separate statements, and rows
//     arrive five at a time) never see any of it: every read, through the
//     table or an index, finds the committed total and a committed row
//     count, and none waits for the writer;
//   - two writer threads serialize: read-modify-write transactions
//     (IMMEDIATE ones, and DEFERRED ones that retry on Busy) lose no
//     increment.
// LEVELQL_CONCURRENCY_TXNS sets the transactions per writer (default 40);
// LEVELQL_CONCURRENCY_MS=<ms> runs each for that long instead.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

#include "levelql/database.h"
#include "tests/support/env.h"
#include "tests/support/report.h"
#include "tests/support/temp_dir.h"

namespace levelql::reliability {
namespace {

using testing::EnvInt;
using testing::SecondsSince;
using testing::TempDir;

constexpr int kAccounts = 200;
constexpr int64_t kTotal = kAccounts * 100;

struct Problems {
  std::mutex mu;
  std::string first;
  std::atomic<int64_t> count{0};
  void Add(const std::string& p) {
    ++count;
    std::lock_guard<std::mutex> lock(mu);
    if (first.empty()) first = p;
  }
};

// Runs `sql` and returns its one row's integers, or an empty vector.
std::vector<int64_t> Ints(Database& db, const std::string& sql,
                          Problems* problems) {
  auto cur = db.Query(sql);
  std::vector<int64_t> out;
  if (!cur.ok()) {
    problems->Add(sql + ": " + cur.status().ToString());
    return out;
  }
  if ((*cur)->Next()) {
    for (const Value& v : (*cur)->row()) {
      out.push_back(v.is_null() ? 0 : v.int_value());
    }
  }
  if (!(*cur)->status().ok()) {
    problems->Add(sql + ": " + (*cur)->status().ToString());
    out.clear();
  }
  return out;
}

bool Goes(const std::chrono::steady_clock::time_point* deadline, int64_t done,
          int64_t budget) {
  return deadline ? std::chrono::steady_clock::now() < *deadline
                  : done < budget;
}

TEST(TransactionConcurrency, ReadersNeverSeeALongWriteTransaction) {
  const uint64_t seed =
      testing::TestSeeds("TransactionConcurrency.Readers", {8601})[0];
  TempDir dir("txn-concurrency");
  auto opened = Database::Open(dir.path() + "/db");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  Database& db = **opened;
  std::string sql =
      "CREATE TABLE acct (id INTEGER PRIMARY KEY, g INTEGER, bal INTEGER);"
      "CREATE INDEX acct_g ON acct (g); CREATE INDEX acct_bal ON acct (bal);"
      "INSERT INTO acct VALUES ";
  for (int i = 0; i < kAccounts; ++i) {
    sql += (i ? ", (" : "(") + std::to_string(i) + ", " +
           std::to_string(i % 10) + ", 100)";
  }
  ASSERT_TRUE(db.Execute(sql).ok());

  const int64_t budget = EnvInt("LEVELQL_CONCURRENCY_TXNS", 40);
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (const int64_t ms = EnvInt("LEVELQL_CONCURRENCY_MS", 0); ms > 0) {
    deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  }
  std::atomic<bool> writing{true};
  std::atomic<bool> inside{false};  // the writer has uncommitted writes
  std::atomic<int64_t> reads{0}, reads_inside{0}, committed{0};
  Problems problems;
  const auto start = std::chrono::steady_clock::now();

  std::thread writer([&] {
    std::mt19937_64 rng(seed);
    int64_t next_id = 100000;
    for (int64_t t = 0; Goes(deadline ? &*deadline : nullptr, t, budget); ++t) {
      auto txn = db.Begin();
      if (!txn.ok()) {
        problems.Add("Begin: " + txn.status().ToString());
        break;
      }
      for (int step = 0; step < 10; ++step) {
        const int64_t from = static_cast<int64_t>(rng() % kAccounts);
        const int64_t to = static_cast<int64_t>(rng() % kAccounts);
        const int64_t amount = static_cast<int64_t>(rng() % 20);
        for (const std::string& w :
             {"UPDATE acct SET bal = bal - " + std::to_string(amount) +
                  " WHERE id = " + std::to_string(from),
              "INSERT INTO acct VALUES (" + std::to_string(next_id++) +
                  ", 99, 0)",
              "UPDATE acct SET bal = bal + " + std::to_string(amount) +
                  ", g = " + std::to_string(rng() % 10) +
                  " WHERE id = " + std::to_string(to)}) {
          Status s = (*txn)->Execute(w);
          if (!s.ok()) problems.Add(w + ": " + s.ToString());
          inside = true;
          std::this_thread::sleep_for(std::chrono::microseconds(300));
        }
      }
      // Ten rows so far: five more keep committed counts at multiples of 5
      // past kAccounts; a rollback drops all fifteen.
      for (int i = 0; i < 5; ++i) {
        (*txn)->Execute("INSERT INTO acct VALUES (" +
                        std::to_string(next_id++) + ", 99, 0)");
      }
      Status end = rng() % 4 == 0 ? (*txn)->Rollback() : (*txn)->Commit();
      inside = false;
      if (!end.ok()) problems.Add("end: " + end.ToString());
      ++committed;
    }
    writing = false;
  });

  std::vector<std::thread> readers;
  for (int r = 0; r < 4; ++r) {
    readers.emplace_back([&, r] {
      const char* kQueries[] = {
          "SELECT count(*), sum(bal) FROM acct",
          "SELECT count(*), sum(bal) FROM acct WHERE g >= 0",  // index on g
          "SELECT count(*), sum(bal) FROM acct WHERE bal >= -100000",
          "SELECT count(*), sum(bal) FROM acct WHERE +g >= 0",  // scan
      };
      int i = r;
      while (writing.load()) {
        const bool during = inside.load();
        const std::string q = kQueries[i++ % 4];
        std::vector<int64_t> got = Ints(db, q, &problems);
        ++reads;
        if (during && inside.load()) ++reads_inside;
        if (got.size() != 2) continue;
        if (got[1] != kTotal || (got[0] - kAccounts) % 15 != 0) {
          problems.Add(q + ": " + std::to_string(got[0]) + " rows, total " +
                       std::to_string(got[1]) + " (uncommitted writes seen)");
        }
      }
    });
  }
  writer.join();
  for (std::thread& t : readers) t.join();

  EXPECT_EQ(problems.count.load(), 0) << problems.first;
  EXPECT_GT(reads_inside.load(), 0) << "no read ran during a transaction";
  std::vector<int64_t> end =
      Ints(db, "SELECT count(*), sum(bal) FROM acct", &problems);
  ASSERT_EQ(end.size(), 2u);
  EXPECT_EQ(end[1], kTotal);
  EXPECT_TRUE(db.Execute("CHECK").ok());
  std::printf(
      "[TransactionConcurrency.Readers] seed %llu: %lld transactions, %lld "
      "reads (%lld while one was open), 0 saw uncommitted writes, %.1f s\n",
      static_cast<unsigned long long>(seed),
      static_cast<long long>(committed.load()),
      static_cast<long long>(reads.load()),
      static_cast<long long>(reads_inside.load()), SecondsSince(start));
}

TEST(TransactionConcurrency, TwoWriterThreadsSerializeAndLoseNoIncrement) {
  TempDir dir("txn-concurrency");
  auto opened = Database::Open(dir.path() + "/db");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  Database& db = **opened;
  ASSERT_TRUE(db.Execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, n "
                         "INTEGER); INSERT INTO counter VALUES (1, 0)")
                  .ok());
  const int64_t budget = EnvInt("LEVELQL_CONCURRENCY_TXNS", 40) * 5;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (const int64_t ms = EnvInt("LEVELQL_CONCURRENCY_MS", 0); ms > 0) {
    deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  }
  Problems problems;
  std::atomic<int64_t> done{0}, retries{0};
  const auto start = std::chrono::steady_clock::now();
  auto writer = [&](TransactionMode mode) {
    for (int64_t i = 0; Goes(deadline ? &*deadline : nullptr, i, budget); ++i) {
      while (true) {
        auto txn = db.Begin(mode);
        if (!txn.ok()) {
          problems.Add("Begin: " + txn.status().ToString());
          return;
        }
        // Read, then write what was read plus one: without serialization
        // two of these would lose an increment.
        auto cur = (*txn)->Query("SELECT n FROM counter WHERE id = 1");
        int64_t n = -1;
        if (cur.ok() && (*cur)->Next()) n = (*cur)->row()[0].int_value();
        cur = Status::NotFound("closed");
        auto w = (*txn)->Execute(
            "UPDATE counter SET n = " + std::to_string(n + 1) + " WHERE id = 1",
            Params());
        if (!w.ok() && w.status().code() == Status::Code::kBusy &&
            mode == TransactionMode::kDeferred) {
          ++retries;  // read before the other committed: retry
          continue;
        }
        if (!w.ok()) {
          problems.Add("UPDATE: " + w.status().ToString());
          return;
        }
        Status c = (*txn)->Commit();
        if (!c.ok()) problems.Add("Commit: " + c.ToString());
        ++done;
        break;
      }
    }
  };
  std::thread a(writer, TransactionMode::kImmediate);
  std::thread b(writer, TransactionMode::kDeferred);
  a.join();
  b.join();
  EXPECT_EQ(problems.count.load(), 0) << problems.first;
  auto cur = db.Query("SELECT n FROM counter");
  ASSERT_TRUE(cur.ok() && (*cur)->Next());
  EXPECT_EQ((*cur)->row()[0].int_value(), done.load());
  std::printf(
      "[TransactionConcurrency.Writers] %lld read-modify-write transactions "
      "from 2 threads, %lld retried after Busy, 0 lost, %.1f s\n",
      static_cast<long long>(done.load()),
      static_cast<long long>(retries.load()), SecondsSince(start));
}

}  // namespace
}  // namespace levelql::reliability
