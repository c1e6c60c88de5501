// levelql on etcd end to end (issue 17): SQL through Database::Open with an
// etcd:// URL, surviving the loss of the cluster's leader mid-scan and
// mid-write, and a clear error when the revision a read needs has been
// compacted. The tests that disturb a cluster start their own.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "engine/storage/etcd/etcd_store.h"
#include "levelql/database.h"
#include "tests/etcd/etcd_cluster.h"
#include "tests/support/sql_text.h"

namespace levelql {
namespace {

using testing::EtcdCluster;
using testing::Exec;
using testing::QueryText;
using testing::UniqueEtcdName;

std::unique_ptr<Database> OpenOrDie(const std::string& url) {
  auto db = Database::Open(url);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? std::move(*db) : nullptr;
}

void Load(Database& db, int rows) {
  Exec(db,
       "CREATE TABLE t (id INTEGER PRIMARY KEY, grp INTEGER, name TEXT);"
       "CREATE INDEX t_grp ON t (grp, name)");
  for (int i = 0; i < rows; i += 500) {
    std::string sql = "INSERT INTO t VALUES ";
    for (int j = i; j < std::min(rows, i + 500); ++j) {
      sql += (j == i ? "(" : ",(") + std::to_string(j) + "," +
             std::to_string(j % 7) + ",'n" + std::to_string(j) + "')";
    }
    Exec(db, sql);
  }
}

TEST(EtcdDatabaseTest, SqlPersistsAcrossOpens) {
  auto endpoints = testing::SharedEtcdEndpoints();
  ASSERT_TRUE(endpoints.ok()) << endpoints.status().ToString();
  const std::string url = "etcd://" + *endpoints + "/" + UniqueEtcdName("sql");
  {
    auto db = OpenOrDie(url);
    ASSERT_NE(db, nullptr);
    Load(*db, 1000);
    Exec(*db,
         "UPDATE t SET name = 'x' WHERE id = 3; DELETE FROM t WHERE id = 4");
  }
  auto db = OpenOrDie(url);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(QueryText(*db, "SELECT COUNT(*) FROM t WHERE grp = 3"), "(143)");
  EXPECT_EQ(QueryText(*db, "SELECT name FROM t WHERE id = 3"), "(x)");
  EXPECT_EQ(QueryText(*db, "SELECT COUNT(*) FROM t"), "(999)");
  EXPECT_TRUE(db->Execute("CHECK").ok());
}

TEST(EtcdDatabaseTest, ScanContinuesWhenTheLeaderIsKilled) {
  auto cluster = EtcdCluster::Start(3);
  ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
  auto db = OpenOrDie((*cluster)->Url("scan"));
  ASSERT_NE(db, nullptr);
  Load(*db, 3000);
  auto cursor = db->Query("SELECT id FROM t ORDER BY id");
  ASSERT_TRUE(cursor.ok());
  int64_t expect = 0;
  for (; expect < 100; ++expect) {
    ASSERT_TRUE((*cursor)->Next());
    ASSERT_EQ((*cursor)->row()[0].int_value(), expect);
  }
  auto killed = (*cluster)->KillLeader();
  ASSERT_TRUE(killed.ok()) << killed.status().ToString();
  while ((*cursor)->Next()) {
    ASSERT_EQ((*cursor)->row()[0].int_value(), expect);
    ++expect;
  }
  ASSERT_TRUE((*cursor)->status().ok()) << (*cursor)->status().ToString();
  EXPECT_EQ(expect, 3000);
  EXPECT_EQ(QueryText(*db, "SELECT COUNT(*) FROM t WHERE grp = 0"), "(429)");
}

TEST(EtcdDatabaseTest, AcknowledgedWritesSurviveTheLeadersLoss) {
  auto cluster = EtcdCluster::Start(3);
  ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
  auto db = OpenOrDie((*cluster)->Url("write"));
  ASSERT_NE(db, nullptr);
  Load(*db, 0);
  std::set<int> acknowledged;  // the writer's until it is joined
  std::atomic<int> acknowledged_count{0};
  std::atomic<bool> killed{false};
  int after_kill = 0;
  std::thread writer([&] {
    for (int id = 0; id < 400 || (killed && after_kill < 50); ++id) {
      auto r = db->Execute("INSERT INTO t VALUES (?, ?, ?)",
                           Params{Value::Int(id), Value::Int(id % 7),
                                  Value::Text("w" + std::to_string(id))});
      if (r.ok()) {
        acknowledged.insert(id);
        ++acknowledged_count;
        if (killed) ++after_kill;
      }
      if (id > 5000) break;
    }
  });
  while (acknowledged_count < 100) std::this_thread::yield();
  auto leader = (*cluster)->KillLeader();
  killed = true;
  writer.join();
  ASSERT_TRUE(leader.ok()) << leader.status().ToString();
  EXPECT_GE(after_kill, 50);  // writes go on with the new leader
  std::set<int> present;
  auto cursor = db->Query("SELECT id FROM t");
  ASSERT_TRUE(cursor.ok());
  while ((*cursor)->Next()) present.insert((*cursor)->row()[0].int_value());
  ASSERT_TRUE((*cursor)->status().ok());
  for (int id : acknowledged) EXPECT_TRUE(present.count(id)) << id;
  Status check = db->Execute("CHECK");
  EXPECT_TRUE(check.ok()) << check.ToString();
}

TEST(EtcdDatabaseTest, AReadOfACompactedRevisionFailsClearly) {
  auto cluster = EtcdCluster::Start(1);
  ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
  const std::string url = (*cluster)->Url("compact");
  auto db = OpenOrDie(url);
  ASSERT_NE(db, nullptr);
  Load(*db, 2000);
  // The cursor reads at the revision of its start, page by page.
  auto cursor = db->Query("SELECT id FROM t ORDER BY id");
  ASSERT_TRUE(cursor.ok());
  ASSERT_TRUE((*cursor)->Next());
  Exec(*db, "DELETE FROM t WHERE id >= 1000");
  auto parsed = ParseEtcdUrl(url);
  ASSERT_TRUE(parsed.ok());
  ASSERT_TRUE(CompactEtcd(*parsed).ok());
  int rows = 1;
  while ((*cursor)->Next()) ++rows;
  Status st = (*cursor)->status();
  EXPECT_EQ(st.code(), Status::Code::kBusy) << st.ToString();
  EXPECT_NE(st.message().find("compacted"), std::string::npos);
  EXPECT_LT(rows, 2000);  // it stopped: no rows of another revision
  EXPECT_EQ(QueryText(*db, "SELECT COUNT(*) FROM t"), "(1000)");
}

}  // namespace
}  // namespace levelql
