// Concurrent readers and writers on one Database (issue 8). 8 reader threads
// run pairs of queries while 1 writer (or 2 writers on the same rows)
// changes the table. Under ctest each writer runs a fixed number of
// statements (LEVELQL_CONCURRENCY_WRITES, default 1500) and each reader a
// fixed number of query pairs (LEVELQL_CONCURRENCY_READS, default 300), from
// fixed seeds; LEVELQL_CONCURRENCY_MS=<ms> runs each variant for that long
// instead (`make soak-reliability`, `make tsan`). Thread interleavings still
// differ from run to run, and with them how many pairs met a quiet moment
// (printed as timing-dependent); the statements and queries do not. Checks:
//   - each pair is an indexed query and the same query with `+col`, which
//     cannot use an index and runs as TableScan + Filter (checked with
//     EXPLAIN up front). When no write started or was in flight while the
//     pair ran, both read the same state and must return the same rows;
//   - every result must be internally sane (ordered, no duplicate ids);
//   - with 2 writers incrementing the same counters, no increment is lost;
//   - at the end CHECK is clean (index entry counts equal row counts).
// `make tsan` runs this binary under ThreadSanitizer.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <optional>
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

constexpr int kRows = 2000;

// How long the threads run: each writer `writes` statements, or, when
// `deadline` is set, every thread until then. Readers stop when the writers
// are done.
struct RunLength {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  int64_t writes = 0;
  int64_t reads = 0;  // query pairs per reader

  bool WriterGoesOn(int64_t done) const {
    return deadline ? std::chrono::steady_clock::now() < *deadline
                    : done < writes;
  }
  bool ReaderGoesOn(int64_t done) const {
    return deadline ? std::chrono::steady_clock::now() < *deadline
                    : done < reads;
  }
};

std::string Rows(Database& db, const std::string& sql, const Params& p,
                 Status* status) {
  *status = Status::OK();
  auto cur = db.Query(sql, p);
  if (!cur.ok()) {
    *status = cur.status();
    return {};
  }
  std::string out;
  while ((*cur)->Next()) {
    out += "(";
    for (const Value& v : (*cur)->row()) out += v.ToString() + ",";
    out += ")";
  }
  *status = (*cur)->status();
  return out;
}

struct QueryPair {
  const char* indexed;
  const char* scan;  // the same with +col: no index can serve it
  int params;        // how many integer parameters
  bool g_first;      // the first parameter is a g (0-9), else an a (0-99)
};

const QueryPair kPairs[] = {
    {"SELECT id, a FROM c WHERE g = ? ORDER BY id",
     "SELECT id, a FROM c WHERE +g = ? ORDER BY id", 1, true},
    {"SELECT id FROM c WHERE g = ? AND a BETWEEN ? AND ? ORDER BY id",
     "SELECT id FROM c WHERE +g = ? AND +a BETWEEN ? AND ? ORDER BY id", 3,
     true},
    {"SELECT id, a FROM c WHERE a > ? ORDER BY a DESC, id LIMIT 20",
     // (+a in ORDER BY too: the index on a DESC, whose entries end with
     // the id, would give this order.)
     "SELECT id, a FROM c WHERE +a > ? ORDER BY +a DESC, id LIMIT 20", 1,
     false},
    {"SELECT id FROM c WHERE g = ? OR a = ? ORDER BY id",
     "SELECT id FROM c WHERE +g = ? OR +a = ? ORDER BY id", 2, true},
    {"SELECT count(*), sum(n) FROM c WHERE g IN (1, 3, 5)",
     "SELECT count(*), sum(n) FROM c WHERE +g IN (1, 3, 5)", 0, false},
    {"SELECT id, b FROM c WHERE b = 'k7' ORDER BY id",
     "SELECT id, b FROM c WHERE +b = 'k7' ORDER BY id", 0, false},
};

// Counts writes that began and writes that finished; a reader whose pair ran
// entirely inside a quiet window (no write began or was in flight) knows
// both queries saw the same committed state.
struct WriteClock {
  std::atomic<int64_t> begun{0};
  std::atomic<int64_t> finished{0};
  // Readers that found no quiet window several times in a row ask the
  // writers to hold off (each writer waits at most 1 s per statement),
  // so pairs get compared even under slow sanitizer builds.
  std::atomic<int> quiet_requests{0};
};

struct Stats {
  std::atomic<int64_t> pairs{0}, compared{0}, queries{0}, writes{0};
  std::atomic<int64_t> mismatches{0}, errors{0};
  std::mutex mu;
  std::string first_problem;
  void Problem(const std::string& p) {
    std::lock_guard<std::mutex> lock(mu);
    if (first_problem.empty()) first_problem = p;
  }
};

void Setup(Database& db) {
  ASSERT_TRUE(db.Execute("CREATE TABLE c (id INTEGER PRIMARY KEY, g INTEGER, "
                         "a INTEGER, b TEXT, n INTEGER, tags TEXT[]);"
                         "CREATE INDEX c_g ON c (g);"
                         "CREATE INDEX c_a ON c (a DESC);"
                         "CREATE INDEX c_ga ON c (g, a);"
                         "CREATE INDEX c_b ON c (b);"
                         "CREATE INDEX c_tags ON c (tags)")
                  .ok());
  for (int base = 0; base < kRows; base += 500) {
    std::string sql = "INSERT INTO c VALUES ";
    for (int i = base; i < base + 500; ++i) {
      if (i > base) sql += ", ";
      sql += "(" + std::to_string(i) + ", " + std::to_string(i % 10) + ", " +
             std::to_string(i % 100) + ", 'k" + std::to_string(i % 13) +
             "', 0, ARRAY['t" + std::to_string(i % 4) + "'])";
    }
    ASSERT_TRUE(db.Execute(sql).ok());
  }
}

void Reader(Database* db, WriteClock* clock, Stats* stats,
            const RunLength* length, uint64_t seed) {
  std::mt19937_64 rng(seed);
  int missed = 0;  // pairs in a row that could not be compared
  for (int64_t done = 0; length->ReaderGoesOn(done); ++done) {
    const QueryPair& q = kPairs[rng() % std::size(kPairs)];
    const bool ask_quiet = missed >= 5;
    if (ask_quiet) ++clock->quiet_requests;
    Params p;
    for (int i = 0; i < q.params; ++i) {
      int64_t v = static_cast<int64_t>(rng() % 100);
      if (i == 0 && q.g_first) v %= 10;
      if (i == 2) {
        v = p.positional[1].int_value() + static_cast<int64_t>(rng() % 30);
      }
      p.positional.push_back(Value::Int(v));
    }
    const int64_t begun = clock->begun.load();
    const int64_t finished = clock->finished.load();
    Status s1, s2;
    std::string r1 = Rows(*db, q.indexed, p, &s1);
    std::string r2 = Rows(*db, q.scan, p, &s2);
    const int64_t begun_after = clock->begun.load();
    if (ask_quiet) --clock->quiet_requests;
    stats->queries += 2;
    ++stats->pairs;
    if (!s1.ok() || !s2.ok()) {
      ++stats->errors;
      stats->Problem(std::string(q.indexed) + ": " + s1.ToString() + " / " +
                     s2.ToString());
      continue;
    }
    missed = begun == finished && begun_after == begun ? 0 : missed + 1;
    if (begun == finished && begun_after == begun) {
      ++stats->compared;
      if (r1 != r2) {
        ++stats->mismatches;
        stats->Problem(std::string(q.indexed) + " with " +
                       p.positional[0].ToString() + ":\n  index " + r1 +
                       "\n  scan  " + r2);
      }
    }
  }
}

// One writer: inserts, updates (moving rows between index keys) and
// deletes; ids >= kRows only, so the counter rows stay put.
void Writer(Database* db, WriteClock* clock, Stats* stats, RunLength* length,
            uint64_t seed, std::atomic<int64_t>* increments) {
  std::mt19937_64 rng(seed);
  for (int64_t done = 0; length->WriterGoesOn(done); ++done) {
    std::string sql;
    const int64_t id = static_cast<int64_t>(rng() % kRows);
    const int64_t g = static_cast<int64_t>(rng() % 10);
    const int64_t a = static_cast<int64_t>(rng() % 100);
    bool counts = false;
    switch (rng() % 5) {
      case 0:
        sql = "UPDATE c SET n = n + 1 WHERE id BETWEEN " + std::to_string(id) +
              " AND " + std::to_string(id + 9);
        counts = true;
        break;
      case 1:
        sql = "UPDATE c SET g = " + std::to_string(g) +
              ", a = " + std::to_string(a) + ", b = 'k" +
              std::to_string(a % 13) + "' WHERE id = " + std::to_string(id);
        break;
      case 2:
        sql = "UPDATE c SET a = a + 1, tags = ARRAY['t" + std::to_string(g) +
              "', 'u'] WHERE g = " + std::to_string(g) + " AND a < 5";
        break;
      case 3:
        sql = "INSERT INTO c VALUES (" + std::to_string(kRows + 1000 + id) +
              ", " + std::to_string(g) + ", " + std::to_string(a) +
              ", 'k7', 0, NULL)";
        break;
      default:
        sql = "DELETE FROM c WHERE id BETWEEN " +
              std::to_string(kRows + 1000 + id) + " AND " +
              std::to_string(kRows + 1000 + id + 20);
        break;
    }
    const auto hold_until =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(1000);
    while (clock->quiet_requests.load() > 0 &&
           std::chrono::steady_clock::now() < hold_until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ++clock->begun;
    auto r = db->Execute(sql, Params());
    ++clock->finished;
    ++stats->writes;
    if (!r.ok() && r.status().code() != Status::Code::kConstraintError) {
      ++stats->errors;
      stats->Problem(sql + ": " + r.status().ToString());
    }
    if (r.ok() && counts) *increments += r->rows_affected;
    // Leave quiet windows so readers can compare: short pauses, and now
    // and then a longer one that the other writer's pauses can overlap.
    std::this_thread::sleep_for(std::chrono::microseconds(
        rng() % 20 == 0 ? 5000 + rng() % 5000 : rng() % 800));
  }
}

void RunVariant(int writers, const char* name, uint64_t seed) {
  TempDir dir("concurrency");
  auto opened = Database::Open(dir.path() + "/db");
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  Database& db = **opened;
  Setup(db);
  for (const QueryPair& q : kPairs) {
    Params p;
    for (int i = 0; i < q.params; ++i) p.positional.push_back(Value::Int(1));
    auto plan = db.Explain(q.indexed, p);
    auto scan = db.Explain(q.scan, p);
    ASSERT_TRUE(plan.ok() && scan.ok());
    EXPECT_NE(plan->find("IndexScan"), std::string::npos) << *plan;
    EXPECT_EQ(scan->find("IndexScan"), std::string::npos) << *scan;
    EXPECT_NE(scan->find("TableScan"), std::string::npos) << *scan;
  }
  WriteClock clock;
  Stats stats;
  std::atomic<int64_t> increments{0};
  const auto start = std::chrono::steady_clock::now();
  RunLength length;
  if (const int64_t ms = EnvInt("LEVELQL_CONCURRENCY_MS", 0); ms > 0) {
    length.deadline = start + std::chrono::milliseconds(ms);
  }
  length.writes = EnvInt("LEVELQL_CONCURRENCY_WRITES", 1500);
  length.reads = EnvInt("LEVELQL_CONCURRENCY_READS", 300);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back(Reader, &db, &clock, &stats, &length, seed + i);
  }
  for (int i = 0; i < writers; ++i) {
    threads.emplace_back(Writer, &db, &clock, &stats, &length, seed + 100 + i,
                         &increments);
  }
  for (std::thread& t : threads) t.join();
  const double seconds = SecondsSince(start);

  EXPECT_EQ(stats.mismatches.load(), 0) << stats.first_problem;
  EXPECT_EQ(stats.errors.load(), 0) << stats.first_problem;
  if (writers == 1) {
    EXPECT_GT(stats.compared.load(), 0) << "no quiet window to compare in";
  }
  Status check = db.Execute("CHECK");
  EXPECT_TRUE(check.ok()) << check.ToString();
  Status s;
  EXPECT_EQ(Rows(db, "SELECT sum(n) FROM c", {}, &s),
            "(" + std::to_string(increments.load()) + ",)")
      << "lost increments";
  std::printf(
      "[%s] seed %llu: %d writers + 8 readers for %.1f s (%.2f "
      "thread-minutes): %lld writes, %lld queries, 0 mismatches (%lld pairs "
      "met a quiet moment and were compared: timing-dependent)\n",
      name, static_cast<unsigned long long>(seed), writers, seconds,
      seconds * (8 + writers) / 60.0,
      static_cast<long long>(stats.writes.load()),
      static_cast<long long>(stats.queries.load()),
      static_cast<long long>(stats.compared.load()));
}

TEST(ConcurrencyTest, EightReadersOneWriterAgreeWithFullScans) {
  const char* name = "ConcurrencyTest.OneWriter";
  for (uint64_t seed : testing::TestSeeds(name, {8501})) {
    RunVariant(1, name, seed);
  }
}

TEST(ConcurrencyTest, TwoWritersOnTheSameRowsLoseNoUpdate) {
  const char* name = "ConcurrencyTest.TwoWriters";
  for (uint64_t seed : testing::TestSeeds(name, {8502})) {
    RunVariant(2, name, seed);
  }
}

}  // namespace
}  // namespace levelql::reliability
