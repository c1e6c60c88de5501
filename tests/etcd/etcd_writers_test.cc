// Several processes writing one database on etcd at once (issue 17): two
// writer processes update the same rows, claim the same UNIQUE keys, insert
// rows with hidden rowids and, halfway, one of them creates an index while
// the other goes on writing. Every statement a writer saw succeed is
// logged; afterwards the database must hold exactly what was acknowledged
// (no increment, claim or row lost or doubled) and CHECK must be clean
// (every index agrees with its table).
//
// Then two handles in one process, step by step: schema changes seen at
// the next statement, the first commit winning, a dead lock holder.
//
// The two writers also run while the cluster's leader is killed.
//
// `make soak` runs the same with more of everything, from a fresh seed:
// LEVELQL_WRITERS processes (default 2), LEVELQL_WRITER_STATEMENTS each
// (default 160), LEVELQL_LEADER_KILLS leaders killed at random moments
// (default 1, in the second test), LEVELQL_SEED the writers' seed.
//
// The writers are this test binary run again (a child's only test is
// WriterProcess, selected by --gtest_filter, with its role in the
// environment): fork() would copy the parent's gRPC threads.
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "engine/catalog/schema_lock.h"
#include "engine/storage/etcd/etcd_store.h"
#include "levelql/database.h"
#include "tests/etcd/etcd_cluster.h"
#include "tests/support/env.h"
#include "tests/support/sql_text.h"

extern char** environ;

namespace levelql {
namespace {

using testing::Exec;
using testing::QueryText;
using testing::UniqueEtcdName;

constexpr int kAccounts = 8;  // rows every writer increments
constexpr int kTags = 24;     // UNIQUE keys every writer claims

int Writers() {
  return static_cast<int>(testing::EnvInt("LEVELQL_WRITERS", 2));
}
int Statements() {
  return static_cast<int>(testing::EnvInt("LEVELQL_WRITER_STATEMENTS", 160));
}
uint64_t WriterSeed() {
  return testing::TestSeeds("EtcdWritersTest", {20261125})[0];
}

// One writer's statements, from its seed; what succeeded goes to `log`:
// "inc ID", "claim TAG", "unclaim TAG", "event SEQ", "index".
int RunWriter(const std::string& url, int writer, const std::string& log) {
  const int statements = Statements();
  auto db = Database::Open(url);
  if (!db.ok()) {
    fprintf(stderr, "writer %d: %s\n", writer, db.status().ToString().c_str());
    return 1;
  }
  std::ofstream out(log);
  std::mt19937 rng(static_cast<uint32_t>(WriterSeed()) + writer);
  std::set<int> mine;  // tags this writer holds
  int busy = 0;
  for (int i = 0; i < statements; ++i) {
    if (writer == 0 && i == statements / 2) {
      Status st = (*db)->Execute("CREATE INDEX claims_by ON claims (writer)");
      if (!st.ok()) {
        fprintf(stderr, "writer 0: %s\n", st.ToString().c_str());
        return 1;
      }
      out << "index\n" << std::flush;
      continue;
    }
    const int pick = rng() % 10;
    Result<ExecResult> r = Status::OK();
    std::string effect;
    if (pick < 5) {
      const int id = rng() % kAccounts;
      r = (*db)->Execute("UPDATE accounts SET n = n + 1 WHERE id = ?",
                         {Value::Int(id)});
      effect = "inc " + std::to_string(id);
    } else if (pick < 7) {
      const int tag = rng() % kTags;
      r = (*db)->Execute("INSERT INTO claims (tag, writer) VALUES (?, ?)",
                         {Value::Int(tag), Value::Int(writer)});
      effect = "claim " + std::to_string(tag);
    } else if (pick < 8 && !mine.empty()) {
      auto it = mine.begin();
      std::advance(it, rng() % mine.size());
      r = (*db)->Execute("DELETE FROM claims WHERE tag = ? AND writer = ?",
                         {Value::Int(*it), Value::Int(writer)});
      effect = "unclaim " + std::to_string(*it);
    } else {
      r = (*db)->Execute("INSERT INTO events (writer, seq) VALUES (?, ?)",
                         {Value::Int(writer), Value::Int(i)});
      effect = "event " + std::to_string(i);
    }
    if (r.ok()) {
      if (r->rows_affected != 1) {
        fprintf(stderr, "writer %d: '%s' changed %lld rows\n", writer,
                effect.c_str(), static_cast<long long>(r->rows_affected));
        return 1;
      }
      if (effect.rfind("claim", 0) == 0)
        mine.insert(std::stoi(effect.substr(6)));
      if (effect.rfind("unclaim", 0) == 0) {
        mine.erase(std::stoi(effect.substr(8)));
      }
      out << effect << "\n" << std::flush;
    } else if (r.status().code() == Status::Code::kBusy) {
      ++busy;  // not acknowledged: allowed, but it must be rare
    } else if (r.status().code() != Status::Code::kConstraintError ||
               effect.rfind("claim", 0) != 0) {
      fprintf(stderr, "writer %d: '%s': %s\n", writer, effect.c_str(),
              r.status().ToString().c_str());
      return 1;
    }
  }
  out << "busy " << busy << "\n";
  return 0;
}

TEST(EtcdWritersTest, WriterProcess) {
  const char* url = getenv("LEVELQL_WRITER_URL");
  if (!url) GTEST_SKIP() << "run by TwoProcessesWriteOneDatabase";
  const int writer = atoi(getenv("LEVELQL_WRITER_ID"));
  ASSERT_EQ(RunWriter(url, writer, getenv("LEVELQL_WRITER_LOG")), 0);
}

pid_t SpawnWriter(const std::string& url, int writer, const std::string& log) {
  std::vector<std::string> env = {"LEVELQL_WRITER_URL=" + url,
                                  "LEVELQL_WRITER_ID=" + std::to_string(writer),
                                  "LEVELQL_WRITER_LOG=" + log};
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string self = "/proc/self/exe";
  std::string filter = "--gtest_filter=EtcdWritersTest.WriterProcess";
  char* argv[] = {self.data(), filter.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv, envp.data()) !=
      0) {
    return -1;
  }
  return pid;
}

// Two writer processes on the database at `url`; `midway` runs while they
// write. Then the database must hold exactly what they were told.
void RunTwoWriters(const std::string& url,
                   const std::function<void()>& midway) {
  auto setup = Database::Open(url);
  ASSERT_TRUE(setup.ok()) << setup.status().ToString();
  Exec(**setup,
       "CREATE TABLE accounts (id INTEGER PRIMARY KEY, n INTEGER);"
       "CREATE INDEX accounts_n ON accounts (n);"
       "CREATE TABLE claims (tag INTEGER UNIQUE, writer INTEGER);"
       "CREATE TABLE events (writer INTEGER, seq INTEGER)");
  for (int id = 0; id < kAccounts; ++id) {
    Exec(**setup,
         "INSERT INTO accounts VALUES (" + std::to_string(id) + ", 0)");
  }
  setup->reset();

  const std::string dir = ::testing::TempDir();
  std::vector<std::string> logs;
  std::vector<pid_t> pids;
  const int writers = Writers();
  for (int w = 0; w < writers; ++w) {
    logs.push_back(dir + "/levelql-writer-" + std::to_string(getpid()) + "-" +
                   std::to_string(w) + ".log");
    pids.push_back(SpawnWriter(url, w, logs.back()));
    ASSERT_GT(pids.back(), 0);
  }
  midway();
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "a writer process failed (its messages are above)";
  }

  // What the writers were told succeeded.
  std::map<int, int> increments;
  std::vector<std::set<int>> held(writers);  // each writer's tags at its end
  std::set<std::pair<int, int>> events;
  int busy = 0;
  for (int w = 0; w < writers; ++w) {
    std::ifstream in(logs[w]);
    std::string what;
    int arg = 0;
    bool indexed = false;
    while (in >> what) {
      if (what == "index") {
        indexed = true;
        continue;
      }
      in >> arg;
      if (what == "inc") {
        increments[arg]++;
      } else if (what == "claim") {
        held[w].insert(arg);
      } else if (what == "unclaim") {
        held[w].erase(arg);
      } else if (what == "event") {
        events.insert({w, arg});
      } else if (what == "busy") {
        busy += arg;
      }
    }
    EXPECT_EQ(indexed, w == 0);
    std::remove(logs[w].c_str());
  }
  // A UNIQUE key both writers were told they hold is a lost write.
  std::map<int, int> owner;  // tag -> writer
  for (int w = 0; w < writers; ++w) {
    for (int tag : held[w]) {
      EXPECT_TRUE(owner.emplace(tag, w).second)
          << "tag " << tag << " acknowledged to both writers";
    }
  }
  EXPECT_LE(busy, writers * Statements() / 40) << "statements that gave up";
  EXPECT_GT(increments.size(), 0u);

  auto db = Database::Open(url);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  std::string want;
  for (int id = 0; id < kAccounts; ++id) {
    want +=
        "(" + std::to_string(id) + ", " + std::to_string(increments[id]) + ")";
  }
  EXPECT_EQ(QueryText(**db, "SELECT id, n FROM accounts ORDER BY id"), want);
  // The index on n agrees with the rows (read through it).
  int total = 0;
  for (auto& [id, n] : increments) total += n;
  EXPECT_EQ(QueryText(**db, "SELECT SUM(n) FROM accounts WHERE n >= 0"),
            "(" + std::to_string(total) + ")");
  // Claims: exactly the ones held, by their holders; through the index
  // the first writer created while the second was writing, too.
  want.clear();
  for (auto& [tag, w] : owner) {
    want += "(" + std::to_string(tag) + ", " + std::to_string(w) + ")";
  }
  EXPECT_EQ(QueryText(**db, "SELECT tag, writer FROM claims ORDER BY tag"),
            want);
  for (int w = 0; w < writers; ++w) {
    int held = 0;
    for (auto& [tag, holder] : owner) held += holder == w;
    EXPECT_EQ(QueryText(**db, "SELECT COUNT(*) FROM claims WHERE writer = " +
                                  std::to_string(w)),
              "(" + std::to_string(held) + ")");
  }
  // Events: every acknowledged insert, once (hidden rowids never shared).
  want.clear();
  for (auto& [w, seq] : events) {
    want += "(" + std::to_string(w) + ", " + std::to_string(seq) + ")";
  }
  EXPECT_EQ(QueryText(**db,
                      "SELECT writer, seq FROM events ORDER BY writer, "
                      "seq"),
            want);
  EXPECT_TRUE((*db)->Execute("CHECK").ok());
}

TEST(EtcdWritersTest, TwoProcessesWriteOneDatabase) {
  auto endpoints = testing::SharedEtcdEndpoints();
  ASSERT_TRUE(endpoints.ok()) << endpoints.status().ToString();
  RunTwoWriters("etcd://" + *endpoints + "/" + UniqueEtcdName("writers"),
                [] {});
}

// The same while the cluster loses its leader: statements in flight are
// retried on the other members, an outcome the failure hid is settled by
// each writer's process key, and nothing acknowledged is lost or doubled.
TEST(EtcdWritersTest, TwoProcessesWriteWhileTheLeaderIsKilled) {
  auto cluster = testing::EtcdCluster::Start(3);
  ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
  const int64_t kills = testing::EnvInt("LEVELQL_LEADER_KILLS", 1);
  std::mt19937 rng(static_cast<uint32_t>(WriterSeed()));
  RunTwoWriters((*cluster)->Url("writers"), [&] {
    for (int64_t k = 0; k < kills; ++k) {
      // The first after 400 ms (the writers are under way); later ones at
      // random moments, each after the killed member came back (a cluster
      // of 3 loses its quorum with 2 down).
      if (k > 0) {
        std::this_thread::sleep_for(
            std::chrono::milliseconds(200 + rng() % 1500));
        Status back = (*cluster)->RestartKilled();
        ASSERT_TRUE(back.ok()) << back.ToString();
      }
      std::this_thread::sleep_for(
          std::chrono::milliseconds(k == 0 ? 400 : 200 + rng() % 1500));
      auto killed = (*cluster)->KillLeader();
      EXPECT_TRUE(killed.ok()) << killed.status().ToString();
    }
  });
}

// Two handles in one process are two writers to etcd (each its own store,
// lease and process key): the same races as two processes, step by step.
class TwoHandlesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto endpoints = testing::SharedEtcdEndpoints();
    ASSERT_TRUE(endpoints.ok()) << endpoints.status().ToString();
    endpoints_ = *endpoints;
    url_ = "etcd://" + endpoints_ + "/" + UniqueEtcdName("handles");
    a_ = Open();
    b_ = Open();
    ASSERT_NE(a_, nullptr);
    ASSERT_NE(b_, nullptr);
  }
  std::unique_ptr<Database> Open() {
    auto db = Database::Open(url_);
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return db.ok() ? std::move(*db) : nullptr;
  }
  std::string endpoints_;
  std::string url_;
  std::unique_ptr<Database> a_, b_;
};

TEST_F(TwoHandlesTest, EachSeesTheOthersSchemaChangesAtItsNextStatement) {
  Exec(*a_, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  Exec(*b_, "INSERT INTO t VALUES (1, 'x'), (2, 'y')");  // b learns of t
  Exec(*a_, "CREATE INDEX t_v ON t (v)");
  Exec(*b_, "INSERT INTO t VALUES (3, 'x')");  // b maintains t_v
  EXPECT_EQ(QueryText(*a_, "SELECT id FROM t WHERE v = 'x' ORDER BY id"),
            "(1)(3)");
  EXPECT_NE(a_->Explain("SELECT id FROM t WHERE v = 'x'", {})->find("t_v"),
            std::string::npos);
  EXPECT_TRUE(b_->Execute("CHECK").ok());
  Exec(*b_, "DROP INDEX t_v");
  Exec(*a_, "INSERT INTO t VALUES (4, 'x')");
  Exec(*b_, "DROP TABLE t");
  Status st = a_->Execute("INSERT INTO t VALUES (5, 'z')");
  EXPECT_EQ(st.code(), Status::Code::kNotFound) << st.ToString();
  // Two CREATE TABLEs of the same name: the second sees the first's.
  Exec(*a_, "CREATE TABLE u (id INTEGER PRIMARY KEY)");
  st = b_->Execute("CREATE TABLE u (id INTEGER PRIMARY KEY)");
  EXPECT_NE(st.message().find("already exists"), std::string::npos)
      << st.ToString();
  EXPECT_TRUE(a_->Execute("CHECK").ok());
}

TEST_F(TwoHandlesTest, TheFirstToCommitWinsAndTheOtherWritesNothing) {
  Exec(*a_,
       "CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER, tag TEXT "
       "UNIQUE); INSERT INTO acct VALUES (1, 10, NULL), (2, 10, NULL)");
  // Both update row 1 in a transaction; b commits first.
  Exec(*a_, "BEGIN");
  Exec(*a_, "UPDATE acct SET bal = bal - 5 WHERE id = 1");
  Exec(*a_, "UPDATE acct SET bal = bal + 5 WHERE id = 2");
  Exec(*b_, "UPDATE acct SET bal = 100 WHERE id = 1");
  Status st = a_->Execute("COMMIT");
  EXPECT_EQ(st.code(), Status::Code::kBusy) << st.ToString();
  Exec(*a_, "ROLLBACK");
  EXPECT_EQ(QueryText(*b_, "SELECT id, bal FROM acct ORDER BY id"),
            "(1, 100)(2, 10)");  // nothing of a's transaction
  // A UNIQUE key claimed by both: b's claim commits first.
  Exec(*a_, "BEGIN");
  Exec(*a_, "UPDATE acct SET tag = 'gold' WHERE id = 1");
  Exec(*b_, "UPDATE acct SET tag = 'gold' WHERE id = 2");
  EXPECT_EQ(a_->Execute("COMMIT").code(), Status::Code::kBusy);
  Exec(*a_, "ROLLBACK");
  st = a_->Execute("UPDATE acct SET tag = 'gold' WHERE id = 1");
  EXPECT_EQ(st.code(), Status::Code::kConstraintError) << st.ToString();
  // A row deleted by one is not brought back by the other's update.
  Exec(*a_, "BEGIN");
  Exec(*a_, "UPDATE acct SET bal = 0 WHERE id = 2");
  Exec(*b_, "DELETE FROM acct WHERE id = 2");
  EXPECT_EQ(a_->Execute("COMMIT").code(), Status::Code::kBusy);
  Exec(*a_, "ROLLBACK");
  EXPECT_EQ(QueryText(*a_, "SELECT id FROM acct"), "(1)");
  EXPECT_TRUE(a_->Execute("CHECK").ok());
}

TEST_F(TwoHandlesTest, HiddenRowidsAreCountedAgainAtEachStatement) {
  Exec(*a_, "CREATE TABLE log (msg TEXT)");
  Exec(*a_, "INSERT INTO log VALUES ('a1')");  // a counts rowid 1
  Exec(*b_, "INSERT INTO log VALUES ('b1'), ('b2')");
  Exec(*a_, "INSERT INTO log VALUES ('a2')");  // not rowid 2: b has it
  Exec(*a_, "BEGIN");
  Exec(*b_, "INSERT INTO log VALUES ('b3')");
  Exec(*a_, "INSERT INTO log VALUES ('a3')");  // after b3, in the txn too
  Exec(*a_, "COMMIT");
  EXPECT_EQ(QueryText(*b_, "SELECT msg FROM log"),  // in rowid order
            "(a1)(b1)(b2)(a2)(b3)(a3)");
  EXPECT_TRUE(a_->Execute("CHECK").ok());
}

TEST_F(TwoHandlesTest, StatementsWaitForAnotherProcesssSchemaLock) {
  Exec(*a_,
       "CREATE TABLE t (id INTEGER PRIMARY KEY); PRAGMA busy_timeout = 300");
  // Another process holds the schema lock (as a CREATE INDEX does while it
  // backfills): its ephemeral epoch key, conditional on the epoch it saw.
  auto url = ParseEtcdUrl(url_);
  ASSERT_TRUE(url.ok());
  auto holder = OpenEtcdStore(*url, Options());
  ASSERT_TRUE(holder.ok()) << holder.status().ToString();
  auto lock = LockSchema(holder->get(), 0);
  ASSERT_TRUE(lock.ok()) << lock.status().ToString();
  Status st = a_->Execute("INSERT INTO t VALUES (1)");
  EXPECT_EQ(st.code(), Status::Code::kBusy) << st.ToString();
  EXPECT_NE(st.message().find("being changed by process"), std::string::npos)
      << st.ToString();
  st = a_->Execute("CREATE INDEX t_id ON t (id)");
  EXPECT_EQ(st.code(), Status::Code::kBusy) << st.ToString();
  // The holder dies: its lease takes the lock with it.
  holder->reset();
  Exec(*a_, "INSERT INTO t VALUES (1)");
  EXPECT_EQ(QueryText(*b_, "SELECT id FROM t"), "(1)");
}

}  // namespace
}  // namespace levelql
