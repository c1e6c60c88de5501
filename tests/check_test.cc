// CHECK against entries damaged directly through the KvStore (issue 12):
// each kind of damage is counted and named, whatever the writer would have
// written. Keys are built here from KEY_FORMAT.md with the codec, not with
// the writer's IndexEntriesForRow.
#include <gtest/gtest.h>

#include <functional>

#include "engine/catalog/catalog.h"
#include "engine/storage/kv_store.h"
#include "indexes/row_format.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;

using keys::Direction;
using testing::TempDir;

std::string Enc(const Value& v, Direction dir = Direction::kAsc) {
  std::string out;
  keys::EncodeValue(v, dir, &out);
  return out;
}
std::string Int(int64_t v) { return Enc(Value::Int(v)); }
std::string Text(const char* s) { return Enc(Value::Text(s)); }
std::string Varint(uint32_t v) {  // < 128 here
  return std::string(1, static_cast<char>(v));
}

// t (id, k, tags, note) with by_k (k) INCLUDE (note) and UNIQUE u_tags
// (tags); rows (1, 10, ['A', NULL], 'one'), (2, 20, ['B'], 'two'),
// (3, 20, NULL, 'three').
class CheckTest : public ::testing::Test {
 protected:
  struct Ids {
    int64_t table = 0, by_k = 0, u_tags = 0;
  };
  using Damage =
      std::function<void(const Ids&, const TableSchema&, WriteBatch*)>;

  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Exec(**db,
         "CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, tags TEXT[], "
         "note TEXT)");
    Exec(**db, "CREATE INDEX by_k ON t (k) INCLUDE (note)");
    Exec(**db, "CREATE UNIQUE INDEX u_tags ON t (tags)");
    Exec(**db,
         "INSERT INTO t VALUES (1, 10, ARRAY['A', NULL], 'one'), (2, 20, "
         "ARRAY['B'], 'two'), (3, 20, NULL, 'three')");
    EXPECT_TRUE((*db)->Execute("CHECK").ok());
  }

  // Applies `damage` through the KvStore of the closed database, reopens
  // it and runs `check`.
  Status CheckAfter(const Damage& damage, const std::string& check = "CHECK") {
    {
      auto store = OpenLevelDbStore(dir_.path(), Options());
      EXPECT_TRUE(store.ok());
      auto catalog = LoadCatalog(store->get(), false);
      EXPECT_TRUE(catalog.ok());
      const TableSchema* t = catalog->FindTable("t");
      Ids ids;
      ids.table = t->id;
      for (const auto& index : t->indexes) {
        (index->name == "by_k" ? ids.by_k : ids.u_tags) = index->id;
      }
      WriteBatch batch;
      damage(ids, *t, &batch);
      EXPECT_TRUE((*store)->Write(batch, true).ok());
    }
    auto db = Database::Open(dir_.path());
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return (*db)->Execute(check);
  }

  TempDir dir_;
};

#define EXPECT_HAS(status, text)                              \
  EXPECT_NE((status).message().find(text), std::string::npos) \
      << (status).ToString()

TEST_F(CheckTest, CleanDatabasePasses) {
  Status s = CheckAfter([](const Ids&, const TableSchema&, WriteBatch*) {});
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST_F(CheckTest, WrongLayoutIsStaleAndItsRowsEntryMissing) {
  // 'A' of row 1 written the v1 way: the pk in the key, although the
  // entry's own component is not NULL.
  Status s = CheckAfter([](const Ids& ids, const TableSchema&, WriteBatch* b) {
    b->Delete(Int(ids.u_tags) + Text("A"));
    b->Put(Int(ids.u_tags) + Text("A") + Int(1), "");
  });
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_HAS(s,
             "CHECK found 1 missing, 0 dangling, 1 stale index entries "
             "and 0 UNIQUE violations");
  EXPECT_HAS(s, "index u_tags: stale entry ('A') of row (1): wrong layout");
  EXPECT_HAS(s, "index u_tags: missing entry ('A') of row (1)");
}

TEST_F(CheckTest, UniqueLayoutOnANullEntryIsAWrongLayout) {
  Status s = CheckAfter([](const Ids& ids, const TableSchema&, WriteBatch* b) {
    b->Delete(Int(ids.u_tags) + Enc(Value()) + Int(3));
    b->Put(Int(ids.u_tags) + Enc(Value()), Varint(2) + Int(3));
  });
  EXPECT_HAS(s, "CHECK found 1 missing, 0 dangling, 1 stale");
  EXPECT_HAS(s,
             "stale entry (NULL) of row (3): wrong layout: primary key in "
             "the value");
}

TEST_F(CheckTest, DanglingEntryNamesTheAbsentRow) {
  Status s = CheckAfter([](const Ids& ids, const TableSchema&, WriteBatch* b) {
    b->Put(Int(ids.by_k) + Int(30) + Int(99), Text("ghost"));
    b->Put(Int(ids.u_tags) + Text("Z"), Varint(2) + Int(98));
  });
  EXPECT_HAS(s, "CHECK found 0 missing, 2 dangling, 0 stale");
  EXPECT_HAS(s, "index by_k: dangling entry (30): no row (99)");
  EXPECT_HAS(s, "index u_tags: dangling entry ('Z'): no row (98)");
}

TEST_F(CheckTest, UndecodableEntryIsDangling) {
  Status s = CheckAfter([](const Ids& ids, const TableSchema&, WriteBatch* b) {
    b->Put(Int(ids.by_k) + Int(30) + "\x02", "");
  });
  EXPECT_HAS(s, "0 missing, 1 dangling, 0 stale");
  EXPECT_HAS(s, "undecodable primary key");
}

TEST_F(CheckTest, StaleEntryNamesWhatTheRowHolds) {
  Status s = CheckAfter([](const Ids& ids, const TableSchema&, WriteBatch* b) {
    b->Put(Int(ids.by_k) + Int(30) + Int(1), Text("one"));
    b->Put(Int(ids.u_tags) + Text("C"), Varint(2) + Int(2));
  });
  EXPECT_HAS(s, "CHECK found 0 missing, 0 dangling, 2 stale");
  EXPECT_HAS(s,
             "index by_k: stale entry (30) of row (1): the entry's k is "
             "30, the row's k is 10");
  EXPECT_HAS(s,
             "index u_tags: stale entry ('C') of row (2): the entry's tags "
             "element is 'C', the row's tags is ARRAY['B']");
}

TEST_F(CheckTest, MissingEntryNamesItsRow) {
  Status s = CheckAfter([](const Ids& ids, const TableSchema&, WriteBatch* b) {
    b->Delete(Int(ids.by_k) + Int(20) + Int(2));
    b->Delete(Int(ids.u_tags) + Enc(Value()) + Int(1));  // row 1's NULL
  });
  EXPECT_HAS(s, "CHECK found 2 missing, 0 dangling, 0 stale");
  EXPECT_HAS(s, "index by_k: missing entry (20) of row (2)");
  EXPECT_HAS(s, "index u_tags: missing entry (NULL) of row (1)");
}

TEST_F(CheckTest, TwoRowsClaimingOneUniqueKeyAreAViolation) {
  // Row 2's list becomes ['B', 'A'] behind the index's back and gets the
  // entry 'B' only: 'A' stays row 1's.
  Status s = CheckAfter([](const Ids&, const TableSchema& t, WriteBatch* b) {
    Row row = {Value::Int(2), Value::Int(20),
               Value::List({Value::Text("B"), Value::Text("A")}),
               Value::Text("two")};
    b->Put(rows::RowKey(t, row), rows::RowValue(t, row));
  });
  EXPECT_HAS(s,
             "CHECK found 0 missing, 0 dangling, 0 stale index entries "
             "and 1 UNIQUE violations");
  EXPECT_HAS(s, "index u_tags: UNIQUE key ('A') held by rows (1) and (2)");
}

TEST_F(CheckTest, WrongIncludeValueIsStale) {
  Status s = CheckAfter([](const Ids& ids, const TableSchema&, WriteBatch* b) {
    b->Put(Int(ids.by_k) + Int(10) + Int(1), Text("uno"));
  });
  EXPECT_HAS(s, "CHECK found 0 missing, 0 dangling, 1 stale");
  EXPECT_HAS(s,
             "index by_k: stale entry (10) of row (1): wrong INCLUDE "
             "value: note is 'uno', the row's is 'one'");
}

TEST_F(CheckTest, CheckIndexLooksAtThatIndexOnly) {
  Damage damage = [](const Ids& ids, const TableSchema&, WriteBatch* b) {
    b->Delete(Int(ids.by_k) + Int(20) + Int(2));
  };
  Status s = CheckAfter(damage, "CHECK INDEX u_tags");
  EXPECT_TRUE(s.ok()) << s.ToString();
  s = CheckAfter([](const Ids&, const TableSchema&, WriteBatch*) {},
                 "CHECK INDEX by_k");
  EXPECT_HAS(s, "CHECK found 1 missing");
  s = CheckAfter([](const Ids&, const TableSchema&, WriteBatch*) {},
                 "CHECK TABLE t");
  EXPECT_HAS(s, "CHECK found 1 missing");
}

TEST_F(CheckTest, UndecodableRowIsReportedOnceNotPerEntry) {
  Status s = CheckAfter([](const Ids& ids, const TableSchema&, WriteBatch* b) {
    b->Put(Int(ids.table) + Int(2), "\x07");
  });
  EXPECT_HAS(s,
             "CHECK found 0 missing, 0 dangling, 1 stale index entries "
             "and 0 UNIQUE violations");
  EXPECT_HAS(s, "table t: undecodable row");
}

}  // namespace
}  // namespace levelql
