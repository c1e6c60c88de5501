// Simulated power loss: the crash workload (tests/crash/workload.h) runs on
// an in-memory file system behind a FaultEnv; at a seeded moment - between
// statements, or in the middle of one (in the n-th append to LevelDB's log,
// the same moment on every run) - the power is cut (every later write,
// sync, rename and remove is lost; LEVELQL_POWER_TIMED=1 cuts it from a
// second thread after a random delay instead), the database object
// is torn down, and every file is cut back to what was synced. After the
// power comes back the database must open, pass CHECK, equal the model after
// a prefix of the history, and hold every statement whose synchronous write
// completed before the cut. Transactions of the workload commit whole or
// not at all across a cut. Then the workload goes on from that prefix, and
// the power fails again, several times per file system.
//
// LEVELQL_POWER_LOSSES sets the number of cuts (default 40, shared by the
// fixed seeds); LEVELQL_SEED replays one seed.
#include <gtest/gtest.h>
#include <leveldb/helpers/memenv.h>

#include <random>
#include <thread>

#include "engine/database_impl.h"
#include "engine/storage/leveldb_store.h"
#include "tests/crash/workload.h"
#include "tests/faults/fault_env.h"
#include "tests/support/env.h"
#include "tests/support/report.h"

namespace levelql::reliability {
namespace {

using testing::DiffLines;
using testing::SecondsSince;

// `cuts` power cuts over the histories of `seed`, `seed` + 1, ...
void CutPower(uint64_t seed, int64_t cuts) {
  std::mt19937_64 rng(seed);
  int64_t done = 0, synced_total = 0, lost_unsynced = 0;
  const auto started = std::chrono::steady_clock::now();
  while (done < cuts) {
    // A fresh file system; the history of seed+done goes on across cuts.
    const uint64_t history = seed + static_cast<uint64_t>(done);
    std::unique_ptr<leveldb::Env> mem(
        leveldb::NewMemEnv(leveldb::Env::Default()));
    FaultEnv env(mem.get());
    Model model;
    int64_t prefix = 0;
    for (int round = 0; round < 4 && done < cuts; ++round, ++done) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " cut " +
                   std::to_string(done));
      Options options;
      options.sync_writes = rng() % 5 == 0;
      auto kv = OpenLevelDbStoreWithEnv("/db", options, &env);
      ASSERT_TRUE(kv.ok()) << kv.status().ToString();
      auto* store = new SyncSwitchStore(std::move(kv).value());
      auto db = OpenDatabaseOnStore(std::unique_ptr<KvStore>(store), options);
      ASSERT_TRUE(db.ok()) << db.status().ToString();

      // Cut the power after a random number of statements, or in the
      // middle of one.
      const int64_t count = 20 + static_cast<int64_t>(rng() % 300);
      const bool mid_statement =
          rng() % 2 == 0 && !std::getenv("LEVELQL_POWER_NO_THREAD");
      std::thread cutter;
      if (mid_statement) {
        const uint64_t r = rng();
        if (std::getenv("LEVELQL_POWER_TIMED")) {
          const auto delay = std::chrono::microseconds(r % 60000);
          cutter = std::thread([&env, delay] {
            std::this_thread::sleep_for(delay);
            env.SetFilesystemActive(false);
          });
        } else {
          env.CutPowerAtLogAppend(1 + static_cast<int64_t>(r % 300));
        }
      }
      int64_t max_synced = -1, last_begun = prefix - 1;
      for (int64_t i = prefix; i < prefix + count; ++i) {
        if (!env.filesystem_active()) break;
        Op op = MakeOp(history, i);
        last_begun = i;
        store->force_sync = op.sync;
        const int64_t synced_before = store->synced_writes.load();
        std::string outcome = RunOp(**db, op);
        // Once the power is off, files written since hold nothing, and the
        // dying process may fail to read them: any outcome goes.
        if (!env.filesystem_active()) break;
        ASSERT_TRUE(IsExpectedOutcome(outcome)) << op.sql << ": " << outcome;
        // Synced and acknowledged while the power was still on (a
        // statement that wrote nothing synced nothing).
        if (store->synced_writes.load() > synced_before &&
            env.filesystem_active()) {
          max_synced = i;
          ++synced_total;
        }
      }
      if (cutter.joinable()) cutter.join();
      env.CutPowerAtLogAppend(0);
      env.SetFilesystemActive(false);
      db->reset();
      ASSERT_TRUE(env.DropUnsyncedData().ok());
      env.SetFilesystemActive(true);

      auto reopened = OpenLevelDbStoreWithEnv("/db", Options(), &env);
      ASSERT_TRUE(reopened.ok())
          << "open after power loss: " << reopened.status().ToString();
      auto db2 = OpenDatabaseOnStore(std::move(reopened).value(), Options());
      ASSERT_TRUE(db2.ok()) << db2.status().ToString();
      Status check = (*db2)->Execute("CHECK");
      ASSERT_TRUE(check.ok()) << check.ToString();
      std::string error;
      const std::string dump = DumpDatabase(**db2, &error);
      ASSERT_TRUE(error.empty()) << error;
      while (prefix <= max_synced) model.Apply(MakeOp(history, prefix++));
      std::string want = model.Dump();
      while (want != dump && prefix <= last_begun) {
        model.Apply(MakeOp(history, prefix++));
        want = model.Dump();
      }
      if (want != dump) {
        // Diagnosis: which prefix, if any, does the database hold?
        Model probe;
        int64_t match = -1;
        for (int64_t k = 0; k <= last_begun + 1; ++k) {
          if (probe.Dump() == dump) match = k;
          if (k <= last_begun) probe.Apply(MakeOp(history, k));
        }
        std::printf(
            "[PowerLossTest] the database equals the prefix of %lld "
            "operations (-1: none); history %llu\n",
            static_cast<long long>(match),
            static_cast<unsigned long long>(history));
        if (std::getenv("LEVELQL_DEBUG_DUMP")) {
          std::printf("%s\n", dump.c_str());
        }
      }
      ASSERT_TRUE(want == dump)
          << "not a prefix of the history (synced through " << max_synced
          << ", begun through " << last_begun << ", model at " << prefix
          << "):\n"
          << DiffLines(want, dump);
      lost_unsynced += last_begun + 1 - prefix;
    }
  }
  std::printf(
      "[PowerLossTest] seed %llu: %lld power cuts survived, %lld synchronous "
      "statements all kept, %lld unsynced statements lost (allowed), 0 "
      "inconsistencies, %.1f s\n",
      static_cast<unsigned long long>(seed), static_cast<long long>(done),
      static_cast<long long>(synced_total),
      static_cast<long long>(lost_unsynced), SecondsSince(started));
}

TEST(PowerLossTest, SyncedStatementsSurviveAndTheRestIsAPrefix) {
  const int64_t cuts = testing::EnvInt("LEVELQL_POWER_LOSSES", 40);
  const std::vector<uint64_t> seeds =
      testing::TestSeeds("PowerLossTest", {8201, 9201});
  for (size_t i = 0; i < seeds.size(); ++i) {
    SCOPED_TRACE("LEVELQL_SEED=" + std::to_string(seeds[i]));
    CutPower(seeds[i], testing::ShareOf(cuts, seeds.size(), i));
  }
}

}  // namespace
}  // namespace levelql::reliability
