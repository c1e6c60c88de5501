// Crash consistency: a child process (crash_child) runs the workload of
// workload.h and is SIGKILLed, over and over, on the same database
// directory. Under ctest each kill comes at a seeded point of the child's
// work (it kills itself in its n-th append to LevelDB's log: before a
// statement's record, or between the fragments of a large one), so every
// run kills at the same points and prints the same counts;
// LEVELQL_CRASH_TIMED=1 (`make soak-reliability`) kills at random moments
// instead, also during opening and background compactions. After each kill the
// database is reopened and must
//   - open, and pass CHECK (no missing, dangling or stale index entries),
//   - equal the model after some prefix of the operation history,
//   - contain every operation the child acknowledged (a killed process loses
//     nothing it handed to the kernel; the synchronous ones are also on
//     disk), with the outcome (ok / ConstraintError) the model predicts.
// The next child resumes the history right after that prefix. Transactions
// are single operations of the history: after a kill, one is in the
// database whole or not at all. A second test runs a history of mostly large
// transactions (thousands of index entries per COMMIT) and counts the kills
// that landed during a COMMIT.
//
// LEVELQL_CRASH_KILLS sets the number of kills (default 50, shared by the
// fixed seeds; `make soak-reliability` 1000 from a fresh seed),
// LEVELQL_CRASH_TXN_KILLS those of the large-transaction test (default 30);
// LEVELQL_SEED replays one seed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "tests/crash/workload.h"
#include "tests/support/env.h"
#include "tests/support/report.h"
#include "tests/support/temp_dir.h"

namespace levelql::reliability {
namespace {

using testing::DiffLines;
using testing::EnvInt;
using testing::SecondsSince;
using testing::TempDir;

struct SideFile {
  int64_t last_begun = -1;
  int64_t last_commit = -1;  // the last "C" line: a COMMIT began
  int64_t max_acked = -1;
  int64_t max_synced = -1;
  int64_t synced = 0;
  std::map<int64_t, std::string> outcomes;
  std::string error;  // an "E" line
};

SideFile ReadSideFile(const std::string& path) {
  SideFile f;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tag;
    int64_t i = -1;
    ls >> tag >> i;
    if (tag == "B") {
      f.last_begun = std::max(f.last_begun, i);
    } else if (tag == "C") {
      f.last_commit = std::max(f.last_commit, i);
    } else if (tag == "A") {
      std::string outcome;
      ls >> outcome;
      if (outcome.empty()) continue;  // torn last line
      f.max_acked = std::max(f.max_acked, i);
      f.outcomes[i] = outcome;
    } else if (tag == "S") {
      f.max_synced = std::max(f.max_synced, i);
      ++f.synced;
    } else if (tag == "E") {
      f.error = line;
    }
  }
  return f;
}

// `kill_at` > 0: the child kills itself in its kill_at-th log append.
pid_t StartChild(const std::string& dir, uint64_t seed, int64_t start,
                 const std::string& side, bool sync_all, bool large_txns,
                 int64_t kill_at) {
  pid_t pid = fork();
  if (pid == 0) {
    std::string s = std::to_string(seed), p = std::to_string(start),
                k = std::to_string(kill_at);
    execl(LEVELQL_CRASH_CHILD, LEVELQL_CRASH_CHILD, dir.c_str(), s.c_str(),
          p.c_str(), side.c_str(), sync_all ? "1" : "0", "100000000",
          large_txns ? "1" : "0", k.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// `kills` cycles of start, SIGKILL, reopen and check on one database, with
// the operation history of `seed` (mostly large transactions with
// `large_txns`). Adds the kills that landed during a COMMIT to *in_commit.
void KillAndCheck(uint64_t seed, int64_t kills, bool large_txns = false,
                  int64_t* in_commit_total = nullptr) {
  TempDir scratch("crash");
  struct KeepOnFailure {
    TempDir* dir;
    ~KeepOnFailure() {
      if (::testing::Test::HasFailure()) dir->keep();
    }
  } keep_on_failure{&scratch};
  const std::string db_dir = scratch.path() + "/db";
  std::mt19937_64 rng(seed);
  Model model;
  int64_t prefix = 0;  // operations applied so far (model.applied())
  int64_t killed = 0, exited = 0, acked = 0, synced = 0, constraint = 0;
  int64_t in_commit = 0, txns = 0;
  const auto started = std::chrono::steady_clock::now();
  const bool timed = EnvInt("LEVELQL_CRASH_TIMED", 0) != 0;

  for (int64_t cycle = 0; cycle < kills; ++cycle) {
    const std::string side =
        scratch.path() + "/side-" + std::to_string(cycle) + ".txt";
    const bool sync_all = rng() % 4 == 0;
    // Large transactions append many log fragments per COMMIT.
    const int64_t kill_at =
        timed ? 0 : 1 + static_cast<int64_t>(rng() % (large_txns ? 150 : 600));
    pid_t pid =
        StartChild(db_dir, seed, prefix, side, sync_all, large_txns, kill_at);
    ASSERT_GT(pid, 0);
    if (timed) {
      // Mostly mid-workload; sometimes while the child is still opening
      // (and recovering) the database.
      int64_t delay_us = rng() % 10 == 0 ? static_cast<int64_t>(rng() % 20000)
                                         : 20000 + rng() % 280000;
      std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
      kill(pid, SIGKILL);
    }
    int wstatus = 0;
    ASSERT_EQ(waitpid(pid, &wstatus, 0), pid);
    SideFile f = ReadSideFile(side);
    ASSERT_TRUE(f.error.empty()) << "cycle " << cycle << " seed " << seed
                                 << ": the child failed: " << f.error;
    if (WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL) {
      ++killed;
      // Killed after a COMMIT began and before it was acknowledged.
      in_commit += f.last_commit > f.max_acked;
    } else {
      ++exited;
      ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
          << "cycle " << cycle << ": child status " << wstatus;
    }

    auto db = Database::Open(db_dir);
    ASSERT_TRUE(db.ok()) << "cycle " << cycle << " seed " << seed
                         << ": reopening after SIGKILL failed: "
                         << db.status().ToString();
    Status check = (*db)->Execute("CHECK");
    ASSERT_TRUE(check.ok())
        << "cycle " << cycle << " seed " << seed << ": " << check.ToString();
    std::string error;
    const std::string dump = DumpDatabase(**db, &error);
    ASSERT_TRUE(error.empty()) << error;

    // Every acknowledged operation must be in; then find the prefix.
    auto apply = [&](int64_t i) {
      Op op = MakeOp(seed, i, large_txns);
      const std::string outcome = model.ApplyOutcome(op);
      txns += op.kind == Op::Kind::kTxn;
      auto it = f.outcomes.find(i);
      if (it != f.outcomes.end()) {
        EXPECT_EQ(it->second, outcome)
            << "operation " << i << " (seed " << seed << "): " << op.sql;
        constraint += outcome == "constraint";
      }
    };
    while (prefix <= f.max_acked) apply(prefix++);
    std::string want = model.Dump();
    while (want != dump && prefix <= f.last_begun) {
      apply(prefix++);
      want = model.Dump();
    }
    ASSERT_TRUE(want == dump)
        << "cycle " << cycle << " seed " << seed
        << ": the database is no prefix of the history; acknowledged through "
        << f.max_acked << ", begun through " << f.last_begun
        << ", synced through " << f.max_synced << "; the model is at " << prefix
        << "\n"
        << DiffLines(want, dump);
    ASSERT_GT(prefix, f.max_synced);
    acked += static_cast<int64_t>(f.outcomes.size());
    synced += f.synced;
  }
  std::printf(
      "[CrashTest] seed %llu: %lld kills survived (%lld children finished "
      "first, %lld killed during a COMMIT), "
      "%lld operations in the history (%lld transactions), %lld "
      "acknowledged (%lld synchronous, "
      "%lld constraint failures), 0 inconsistencies (%s kills), %.1f s\n",
      static_cast<unsigned long long>(seed), static_cast<long long>(killed),
      static_cast<long long>(exited), static_cast<long long>(in_commit),
      static_cast<long long>(prefix), static_cast<long long>(txns),
      static_cast<long long>(acked), static_cast<long long>(synced),
      static_cast<long long>(constraint), timed ? "timed" : "seeded",
      SecondsSince(started));
  if (in_commit_total) *in_commit_total += in_commit;
}

TEST(CrashTest, SigkillKeepsAPrefixOfHistoryAndEveryAcknowledgedStatement) {
  const int64_t kills = EnvInt("LEVELQL_CRASH_KILLS", 50);
  const std::vector<uint64_t> seeds =
      testing::TestSeeds("CrashTest", {8101, 8102});
  for (size_t i = 0; i < seeds.size(); ++i) {
    SCOPED_TRACE("LEVELQL_SEED=" + std::to_string(seeds[i]));
    KillAndCheck(seeds[i], testing::ShareOf(kills, seeds.size(), i));
  }
}

TEST(CrashTest, SigkillDuringCommitsOfLargeTransactionsKeepsAllOrNothing) {
  const int64_t kills = EnvInt("LEVELQL_CRASH_TXN_KILLS", 30);
  const std::vector<uint64_t> seeds =
      testing::TestSeeds("CrashTest.LargeTransactions", {8301, 8302});
  int64_t in_commit = 0;
  for (size_t i = 0; i < seeds.size(); ++i) {
    SCOPED_TRACE("LEVELQL_SEED=" + std::to_string(seeds[i]));
    KillAndCheck(seeds[i], testing::ShareOf(kills, seeds.size(), i),
                 /*large_txns=*/true, &in_commit);
  }
  std::printf("[CrashTest] %lld kills landed during a COMMIT\n",
              static_cast<long long>(in_commit));
}

}  // namespace
}  // namespace levelql::reliability
