// Database::Interrupt (issue 8): called from another thread, it stops a
// long statement promptly with Status::Interrupted and leaves the database
// as it was (an interrupted write changes nothing; CHECK stays clean). The
// latency from Interrupt() to the statement's return is measured per kind
// of statement and printed.
//
// The per-statement deadline (Options::statement_timeout_ms, changed per
// connection with `PRAGMA statement_timeout_ms = N`) must stop a long query
// the same way; that test skips on a build without the PRAGMA.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "levelql/database.h"
#include "tests/support/report.h"

namespace levelql::reliability {
namespace {

using testing::SecondsSince;

using Clock = std::chrono::steady_clock;

constexpr int kRows = 200000;

std::unique_ptr<Database> BigDatabase() {
  auto db = Database::Open(":memory:");
  EXPECT_TRUE(db.ok());
  EXPECT_TRUE((*db)
                  ->Execute("CREATE TABLE big (id INTEGER PRIMARY KEY, "
                            "g INTEGER, a INTEGER, pad TEXT);"
                            "CREATE INDEX big_g ON big (g)")
                  .ok());
  for (int base = 0; base < kRows; base += 1000) {
    std::string sql = "INSERT INTO big VALUES ";
    for (int i = base; i < base + 1000; ++i) {
      if (i > base) sql += ", ";
      sql += "(" + std::to_string(i) + ", " + std::to_string(i % 7) + ", " +
             std::to_string((i * 7919) % 100003) + ", 'pad" +
             std::to_string(i % 1009) + "')";
    }
    EXPECT_TRUE((*db)->Execute(sql).ok());
  }
  return std::move(db).value();
}

// Runs `sql` to completion (every row pulled), returning its status.
Status RunToEnd(Database& db, const std::string& sql) {
  auto cur = db.Query(sql);
  if (!cur.ok()) return cur.status();
  while ((*cur)->Next()) {
  }
  return (*cur)->status();
}

std::string Count(Database& db, const std::string& sql) {
  auto cur = db.Query(sql);
  if (!cur.ok() || !(*cur)->Next()) return "error";
  return (*cur)->row()[0].ToString();
}

class InterruptTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = BigDatabase().release(); }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }
  static Database* db_;
};
Database* InterruptTest::db_ = nullptr;

TEST_F(InterruptTest, StopsEveryKindOfLongStatementPromptly) {
  const char* const statements[] = {
      "SELECT count(*) FROM big WHERE +a = -1",
      "SELECT * FROM big ORDER BY pad DESC, id LIMIT 5",
      "SELECT id, a FROM big ORDER BY a, pad",
      "SELECT count(*) FROM big WHERE g >= 0 AND +a >= 0",
      "SELECT sum(a), avg(a), min(pad), max(pad) FROM big",
      "SELECT DISTINCT pad FROM big",
      "UPDATE big SET a = a + 1",
      "DELETE FROM big WHERE a >= 0",
      "CREATE INDEX big_a ON big (a, pad)",
  };
  Database& db = *db_;
  const std::string rows_before = Count(db, "SELECT count(*) FROM big");
  const std::string sum_before = Count(db, "SELECT sum(a) FROM big");
  double worst_ms = 0;
  for (const char* sql : statements) {
    SCOPED_TRACE(sql);
    // How long it runs undisturbed (for reads only: writes would change
    // the table).
    const bool write = std::string(sql).rfind("SELECT", 0) != 0;
    double full_ms = 0;
    if (!write) {
      const auto t0 = Clock::now();
      ASSERT_TRUE(RunToEnd(db, sql).ok());
      full_ms = SecondsSince(t0) * 1000;
    }
    std::atomic<bool> started{false};
    std::promise<std::pair<Status, Clock::time_point>> done;
    auto result = done.get_future();
    std::thread runner([&] {
      started = true;
      Status s = RunToEnd(db, sql);
      done.set_value({s, Clock::now()});
    });
    while (!started) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(15));
    // Interrupt() stops the statements running when it is called: while
    // the runner has not ended (on a loaded machine it may not have begun
    // its statement yet), it is called again, and the latency counts from
    // the last call.
    auto interrupted_at = Clock::now();
    db.Interrupt();
    while (result.wait_for(std::chrono::milliseconds(50)) !=
           std::future_status::ready) {
      interrupted_at = Clock::now();
      db.Interrupt();
    }
    auto [status, finished_at] = result.get();
    runner.join();
    const double latency_ms =
        std::chrono::duration<double, std::milli>(finished_at - interrupted_at)
            .count();
    if (status.ok() && finished_at <= interrupted_at) {
      ADD_FAILURE() << "finished before the interrupt; make the table bigger";
      continue;
    }
    EXPECT_EQ(status.code(), Status::Code::kInterrupted) << status.ToString();
    EXPECT_LT(latency_ms, 500) << "Interrupt took too long to take effect";
    worst_ms = std::max(worst_ms, latency_ms);
    std::printf(
        "[InterruptTest] %-52s stopped %.2f ms after Interrupt()%s\n", sql,
        latency_ms,
        write ? "" : (" (runs " + std::to_string(full_ms) + " ms)").c_str());
  }
  // Nothing changed, nothing half-built.
  EXPECT_EQ(Count(db, "SELECT count(*) FROM big"), rows_before);
  EXPECT_EQ(Count(db, "SELECT sum(a) FROM big"), sum_before);
  Status check = db.Execute("CHECK");
  EXPECT_TRUE(check.ok()) << check.ToString();
  for (const SchemaEntry& e : db.Schema()) EXPECT_NE(e.name, "big_a");
  std::printf("[InterruptTest] worst latency %.2f ms\n", worst_ms);
}

TEST_F(InterruptTest, OneInterruptStopsEveryRunningStatement) {
  Database& db = *db_;
  std::vector<std::future<Status>> runs;
  std::atomic<int> started{0};
  for (int i = 0; i < 4; ++i) {
    runs.push_back(std::async(std::launch::async, [&db, &started] {
      // Counted once the statement has started (Query() returned): a
      // thread still on its way there when Interrupt() came (a loaded
      // machine) would run a statement that began after it, which
      // rightly runs to its end.
      auto cur = db.Query("SELECT id FROM big ORDER BY pad, a");
      ++started;
      if (!cur.ok()) return cur.status();
      while ((*cur)->Next()) {
      }
      return (*cur)->status();
    }));
  }
  while (started < 4) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(15));
  db.Interrupt();
  for (auto& r : runs) {
    Status s = r.get();
    EXPECT_EQ(s.code(), Status::Code::kInterrupted) << s.ToString();
  }
}

TEST_F(InterruptTest, AnInterruptWithNothingRunningDoesNotStopTheNext) {
  Database& db = *db_;
  db.Interrupt();
  EXPECT_EQ(Count(db, "SELECT count(*) FROM big WHERE +a >= 0"),
            std::to_string(kRows));
}

// Options::statement_timeout_ms (0 = none) is the default deadline and
// `PRAGMA statement_timeout_ms = N` changes it per connection; a statement
// running longer fails with Interrupted.
TEST_F(InterruptTest, StatementTimeoutStopsALongQuery) {
  Database& db = *db_;
  Status set = db.Execute("PRAGMA statement_timeout_ms = 20");
  if (set.code() == Status::Code::kNotSupported) {
    GTEST_SKIP() << "this build has no statement deadline: " << set.ToString();
  }
  ASSERT_TRUE(set.ok()) << set.ToString();
  const auto t0 = Clock::now();
  Status s = RunToEnd(db, "SELECT id FROM big ORDER BY pad, a");
  const double ms = SecondsSince(t0) * 1000;
  EXPECT_EQ(s.code(), Status::Code::kInterrupted) << s.ToString();
  EXPECT_LT(ms, 520);
  ASSERT_TRUE(db.Execute("PRAGMA statement_timeout_ms = 0").ok());
  EXPECT_TRUE(RunToEnd(db, "SELECT count(*) FROM big").ok());
}

}  // namespace
}  // namespace levelql::reliability
