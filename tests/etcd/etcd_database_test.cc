// levelql on etcd end to end (issue 17): SQL through Database::Open with an
// etcd:// URL, surviving the loss of the cluster's leader mid-scan and
// mid-write, and a clear error when the revision a read needs has been
// compacted, for a statement or for the pages of a continuation token. The
// tests that disturb a cluster start their own.
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

// A salted table on etcd positions its buckets concurrently (a thread
// each): the same rows, in the same order, as the unsalted table.
TEST(EtcdDatabaseTest, SaltedTablesReadTheirBucketsConcurrently) {
  auto endpoints = testing::SharedEtcdEndpoints();
  ASSERT_TRUE(endpoints.ok()) << endpoints.status().ToString();
  auto db = OpenOrDie("etcd://" + *endpoints + "/" + UniqueEtcdName("salt"));
  ASSERT_NE(db, nullptr);
  Exec(*db,
       "CREATE TABLE ev (stamp INTEGER, id INTEGER, who TEXT, PRIMARY KEY "
       "(stamp, id)) WITH (salt_buckets = 8);"
       "CREATE INDEX ev_who ON ev (who, stamp DESC);"
       "CREATE TABLE plain (stamp INTEGER, id INTEGER, who TEXT, PRIMARY KEY "
       "(stamp, id));"
       "CREATE INDEX plain_who ON plain (who, stamp DESC)");
  std::string rows;
  for (int i = 0; i < 400; ++i) {
    rows += (i ? ",(" : "(") + std::to_string(i / 3) + "," +
            std::to_string(i % 3) + ",'u" + std::to_string(i % 7) + "')";
  }
  Exec(*db, "INSERT INTO ev VALUES " + rows);
  Exec(*db, "INSERT INTO plain VALUES " + rows);
  for (const char* where :
       {"ORDER BY stamp DESC, id DESC LIMIT 10",
        "WHERE stamp BETWEEN 20 AND 40 ORDER BY stamp, id",
        "WHERE who = 'u3' ORDER BY stamp DESC LIMIT 7 OFFSET 5",
        "WHERE who >= 'u5' ORDER BY who, stamp DESC"}) {
    const std::string salted =
        QueryText(*db, std::string("SELECT stamp, id, who FROM ev ") + where);
    EXPECT_EQ(salted, QueryText(*db, std::string("SELECT stamp, id, who FROM "
                                                 "plain ") +
                                         where))
        << where;
    EXPECT_EQ(salted.find("error"), std::string::npos) << salted;
  }
  EXPECT_TRUE(db->Execute("CHECK").ok());
}

// Every page resumed from a token reads the revision the first page read,
// until the cluster compacts it: then a clear error, not rows of another
// revision.
TEST(EtcdDatabaseTest, PagesFromATokenReadTheFirstPagesRevision) {
  auto cluster = EtcdCluster::Start(1);
  ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
  const std::string url = (*cluster)->Url("tokens");
  auto db = OpenOrDie(url);
  ASSERT_NE(db, nullptr);
  Load(*db, 100);
  auto stmt = db->Prepare("SELECT id FROM t WHERE grp >= 0 ORDER BY id");
  ASSERT_TRUE(stmt.ok()) << stmt.status().ToString();
  auto page = [](Cursor& cursor, int rows, std::string* ids) {
    for (int i = 0; i < rows && cursor.Next(); ++i) {
      *ids += std::to_string(cursor.row()[0].int_value()) + " ";
    }
    return cursor.status();
  };
  auto cursor = (*stmt)->Query();
  ASSERT_TRUE(cursor.ok());
  std::string first;
  ASSERT_TRUE(page(**cursor, 10, &first).ok());
  const std::string token = (*cursor)->ContinuationToken();
  // Changes after the first page: not seen by the pages that follow.
  Exec(*db, "DELETE FROM t WHERE id < 50; INSERT INTO t VALUES (500, 1, 'z')");
  auto resumed = (*stmt)->Resume(token);
  ASSERT_TRUE(resumed.ok()) << resumed.status().ToString();
  std::string rest;
  ASSERT_TRUE(page(**resumed, 1000, &rest).ok());
  std::string want;
  for (int id = 10; id < 100; ++id) want += std::to_string(id) + " ";
  EXPECT_EQ(rest, want);
  // A new query reads the latest revision.
  EXPECT_EQ(QueryText(*db, "SELECT COUNT(*) FROM t WHERE grp >= 0"), "(51)");

  // A token whose revision was compacted away.
  auto again = (*stmt)->Query();
  ASSERT_TRUE(again.ok());
  std::string ids;
  ASSERT_TRUE(page(**again, 5, &ids).ok());
  const std::string old_token = (*again)->ContinuationToken();
  Exec(*db, "DELETE FROM t WHERE id > 90");
  auto parsed = ParseEtcdUrl(url);
  ASSERT_TRUE(parsed.ok());
  ASSERT_TRUE(CompactEtcd(*parsed).ok());
  auto late = (*stmt)->Resume(old_token);
  Status st = late.ok() ? Status::OK() : late.status();
  if (late.ok()) {
    EXPECT_FALSE((*late)->Next());
    st = (*late)->status();
  }
  EXPECT_EQ(st.code(), Status::Code::kBusy) << st.ToString();
  EXPECT_NE(st.message().find("compacted"), std::string::npos);
}

}  // namespace
}  // namespace levelql
