// A deterministic write workload and its model, shared by the crash test
// (tests/crash) and the power-loss test (tests/faults).
//
// Operation `i` of the history of `seed` is MakeOp(seed, i): it depends on
// the seed and the index only, never on the database, so a child process
// that starts at operation P and the parent that checks it agree on every
// statement without talking to each other. The first kSetupOps operations
// create the two tables and their fixed indexes; after that come random
// multi-row INSERTs (some of which must fail on a PRIMARY KEY or UNIQUE
// conflict), UPDATEs and DELETEs with predicates the model can evaluate,
// CREATE/DROP of optional indexes, and transactions: 2-6 such statements
// (no DDL) between BEGIN [IMMEDIATE] - in SQL or through Database::Begin() -
// and COMMIT or ROLLBACK; with `large_txns`, most operations are large
// transactions (thousands of index entries in one COMMIT). Every row an
// INSERT or UPDATE writes carries the operation's index in its `op` column.
//
// Model applies operations in order and says what each must answer: "ok",
// "constraint" (ConstraintError, nothing changed), or for a transaction
// "txn:<o or c per statement>:commit|rollback"; Dump() renders the model and
// DumpDatabase() a real database to the same canonical text, so "the database
// equals a prefix of the history" is a string comparison. Not thread-safe.
#ifndef LEVELQL_TESTS_CRASH_WORKLOAD_H_
#define LEVELQL_TESTS_CRASH_WORKLOAD_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/storage/kv_store.h"
#include "levelql/database.h"
#include "tests/support/forwarding_store.h"

namespace levelql::reliability {

// Operations 0 .. kSetupOps-1 create the schema.
constexpr int64_t kSetupOps = 12;

struct Op {
  int64_t index = 0;
  std::string sql;
  bool sync = false;  // run with a synchronous (fsync'd) write

  // What the model needs; see workload.cc.
  enum class Kind {
    kSetup,
    kInsert1,
    kUpdate1,
    kDelete1,
    kInsert2,
    kUpdate2,
    kDelete2,
    kCreateIndex,
    kDropIndex,
    kTxn,  // `subs` in one transaction
  };
  Kind kind = Kind::kSetup;
  std::vector<Row> rows;  // INSERT: the rows
  int pred = 0;           // UPDATE/DELETE: which predicate
  int64_t x = 0, y = 0, z = 0;
  std::string s;
  std::vector<int64_t> list;
  int assign = 0;  // UPDATE: which SET list
  Value v1, v2;
  std::string name;  // DDL: the index (or table) name
  // kTxn: its statements, and how it runs and ends.
  std::vector<Op> subs;
  bool rollback = false;
  bool via_sql = false;  // BEGIN/COMMIT in SQL, else Database::Begin()
  bool immediate = false;
};

// Operation `index` of the history of `seed`, with its SQL. DDL uses
// `CREATE INDEX IF NOT EXISTS` and `DROP INDEX IF EXISTS`, so the SQL does
// not depend on the state either.
Op MakeOp(uint64_t seed, int64_t index, bool large_txns = false);

class Model {
 public:
  // True if `op` must succeed, false if it must fail with ConstraintError
  // (and change nothing). Applies it when it succeeds.
  bool Apply(const Op& op);
  // Applies `op` and returns what RunOp must answer for it.
  std::string ApplyOutcome(const Op& op);
  bool HasIndex(const std::string& name) const {
    return indexes_.count(name) > 0;
  }
  int64_t applied() const { return applied_; }
  // Canonical text of the state: schema, then every row, sorted.
  std::string Dump() const;

 private:
  bool UniqueOk(const std::map<int64_t, Row>& t1) const;
  // Applies one statement; false (and no change) on a constraint failure.
  bool Change(const Op& op);

  int64_t applied_ = 0;
  std::set<std::string> tables_;
  std::set<std::string> indexes_;  // every index, fixed and optional
  std::map<int64_t, Row> t1_;      // id -> (id, op, a, b, c, u, tags)
  std::map<std::string, Row> t2_;  // encoded pk -> (g, s, k, op, v, w)
};

// The same canonical text as Model::Dump, read from a database. Empty with
// *error set when a query fails.
std::string DumpDatabase(Database& db, std::string* error);

// A KvStore that forwards to another and makes writes synchronous while
// force_sync is set: the crash child and the power-loss test use it to make
// single statements durable without reopening the database.
class SyncSwitchStore : public testing::ForwardingStore {
 public:
  explicit SyncSwitchStore(std::unique_ptr<KvStore> base)
      : ForwardingStore(std::move(base)) {}
  std::atomic<bool> force_sync{false};
  // Successful synchronous writes so far. A statement that changes nothing
  // (a DELETE matching no row) writes nothing, so it syncs nothing either.
  std::atomic<int64_t> synced_writes{0};

  Status Write(const WriteBatch& batch, bool sync) override {
    const bool s = sync || force_sync.load();
    Status status = ForwardingStore::Write(batch, s);
    if (status.ok() && s) ++synced_writes;
    return status;
  }
};

// Runs `op` and classifies the outcome: "ok", "constraint", "txn:..." (as
// Model::ApplyOutcome), or "error: <status>". For a transaction that
// commits, `before_commit` runs just before COMMIT.
std::string RunOp(Database& db, const Op& op,
                  const std::function<void()>& before_commit = {});
// Whether RunOp's answer is one the model can predict (not an error).
bool IsExpectedOutcome(const std::string& outcome);

}  // namespace levelql::reliability

#endif  // LEVELQL_TESTS_CRASH_WORKLOAD_H_
