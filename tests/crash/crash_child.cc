// crash_child: runs operations of the workload (workload.h) against a
// database until it is killed. Launched by crash_test, which SIGKILLs it at
// a random moment and then checks what survived.
//
//   crash_child DIR SEED START SIDE_FILE SYNC_ALL MAX_OPS [LARGE_TXNS
//               [KILL_AT]]
//
// Runs operations START, START+1, ... of the history of SEED on the
// database in DIR. SYNC_ALL=1 opens it with Options::sync_writes; otherwise
// only operations whose Op::sync is set are written synchronously. Before an
// operation it appends "B <i>" to SIDE_FILE, after it "A <i> ok" or
// "A <i> constraint" (or "A <i> txn:..."); after a synchronous one also
// "S <i>", and fsyncs the side file before going on. Just before the COMMIT
// of a transaction it appends "C <i>". LARGE_TXNS=1 runs the workload of
// large transactions (workload.h). Any other error appends "E <i> <status>" and
// exits with status 3.
//
// KILL_AT=n > 0 makes the child SIGKILL itself in its n-th append to a
// LevelDB log file, before the bytes of that append reach the file: the
// fragments of a record already flushed stay, so a large batch can be cut
// in the middle (a torn record). Log appends happen on the writing thread
// only, so the moment of the kill, and everything the child did before it,
// is the same on every run (crash_test's deterministic mode).
#include <fcntl.h>
#include <leveldb/env.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/database_impl.h"
#include "engine/storage/kv_store.h"
#include "engine/storage/leveldb_store.h"
#include "tests/crash/workload.h"
#include "tests/faults/fault_env.h"

namespace {

void Append(int fd, const std::string& line) {
  std::string l = line + "\n";
  if (write(fd, l.data(), l.size()) != static_cast<ssize_t>(l.size())) {
    std::perror("crash_child: write side file");
    std::exit(4);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace levelql;
  using namespace levelql::reliability;
  if (argc < 7 || argc > 9) {
    std::fprintf(stderr,
                 "usage: crash_child DIR SEED START SIDE_FILE SYNC_ALL "
                 "MAX_OPS [LARGE_TXNS [KILL_AT]]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  const int64_t start = std::strtoll(argv[3], nullptr, 10);
  const bool sync_all = std::string(argv[5]) == "1";
  const int64_t max_ops = std::strtoll(argv[6], nullptr, 10);
  const bool large_txns = argc >= 8 && std::string(argv[7]) == "1";
  const int64_t kill_at = argc == 9 ? std::strtoll(argv[8], nullptr, 10) : 0;
  int fd = open(argv[4], O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) {
    std::perror("crash_child: open side file");
    return 4;
  }
  Options options;
  options.sync_writes = sync_all;
  // As crash_test's environment says (tests/support/env.h).
  if (const char* salt = std::getenv("LEVELQL_SALT_BUCKETS")) {
    options.default_salt_buckets = std::atoi(salt);
  }
  // Outlives the store (the process ends without destroying either).
  auto* env = new FaultEnv(leveldb::Env::Default());
  if (kill_at > 0) env->AtLogAppend(kill_at, [] { raise(SIGKILL); });
  auto kv = kill_at > 0 ? OpenLevelDbStoreWithEnv(dir, options, env)
                        : OpenLevelDbStore(dir, options);
  if (!kv.ok()) {
    Append(fd, "E -1 open: " + kv.status().ToString());
    return 3;
  }
  auto* store = new SyncSwitchStore(std::move(kv).value());
  auto db = OpenDatabaseOnStore(std::unique_ptr<KvStore>(store), options);
  if (!db.ok()) {
    Append(fd, "E -1 open: " + db.status().ToString());
    return 3;
  }
  for (int64_t i = start; i < start + max_ops; ++i) {
    Op op = MakeOp(seed, i, large_txns);
    const bool sync = sync_all || op.sync;
    Append(fd, "B " + std::to_string(i));
    store->force_sync = op.sync;
    std::string outcome =
        RunOp(**db, op, [&] { Append(fd, "C " + std::to_string(i)); });
    if (!IsExpectedOutcome(outcome)) {
      Append(fd, "E " + std::to_string(i) + " " + outcome);
      return 3;
    }
    Append(fd, "A " + std::to_string(i) + " " + outcome);
    if (sync) {
      Append(fd, "S " + std::to_string(i));
      fdatasync(fd);
    }
  }
  return 0;
}
