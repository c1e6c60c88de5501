// Quarantine and REINDEX: keys made by another collator version, or by
// format 1, are never read as if they were right. The database opens, every
// refusal names what to rebuild, and REINDEX rebuilds it all or nothing.
// The stored records are edited through the KvStore to play an ICU upgrade
// or an older database.
#include <gtest/gtest.h>

#include <string>

#include "engine/catalog/catalog.h"
#include "engine/storage/kv_store.h"
#include "indexes/row_format.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;

using testing::QueryText;
using testing::TempDir;

// Rewrites the third component (the collation versions) of a catalog
// record, as if another ICU had written it; or drops it (format 1 tables).
void RewriteVersions(const std::string& dir, const std::string& record_key,
                     const char* versions) {
  auto store = OpenLevelDbStore(dir, Options());
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  std::string value;
  ASSERT_TRUE((*store)->Get(nullptr, record_key, &value).ok());
  std::string_view in = value;
  Value id, sql;
  ASSERT_TRUE(keys::DecodeValue(&in, keys::Direction::kAsc, &id).ok());
  ASSERT_TRUE(keys::DecodeValue(&in, keys::Direction::kAsc, &sql).ok());
  std::string rewritten;
  keys::EncodeValue(id, keys::Direction::kAsc, &rewritten);
  keys::EncodeValue(sql, keys::Direction::kAsc, &rewritten);
  if (versions) {
    keys::EncodeValue(Value::Text(versions), keys::Direction::kAsc, &rewritten);
  }
  WriteBatch batch;
  batch.Put(record_key, rewritten);
  ASSERT_TRUE((*store)->Write(batch, true).ok());
}

TEST(Reindex, AnIndexOfAnotherCollatorVersionIsRebuiltByReindex) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db, "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)");
    Exec(**db, "CREATE INDEX by_s ON t (s COLLATE \"icu:de\")");
    Exec(**db, "INSERT INTO t VALUES (1, 'b'), (2, 'a'), (3, 'Ä')");
  }
  RewriteVersions(dir.path(), IndexRecordKey("by_s"), "icu-1.0 collator-0");
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  Status s = (*db)->Execute("INSERT INTO t VALUES (4, 'c')");
  ASSERT_EQ(s.code(), Status::Code::kNotSupported);
  EXPECT_NE(s.message().find("REINDEX by_s"), std::string::npos);

  Exec(**db, "REINDEX by_s");
  Exec(**db, "INSERT INTO t VALUES (4, 'c')");
  // CHECK reads the rebuilt index (a quarantined one it refuses): one
  // entry per row, each the row's, none of the old ones left.
  Exec(**db, "CHECK INDEX by_s");
  Exec(**db, "CHECK");
}

TEST(Reindex, ATableWithACollatedPrimaryKeyIsQuarantinedThenRebuilt) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db,
         "CREATE TABLE p (name TEXT COLLATE \"icu:de\" PRIMARY KEY, v "
         "INTEGER, tag TEXT COLLATE nocase)");
    Exec(**db, "CREATE INDEX p_tag ON p (tag)");
    Exec(**db,
         "INSERT INTO p VALUES ('Äpfel', 1, 'x'), ('Zebra', 2, 'Y'), "
         "('apfel', 3, 'y')");
  }
  RewriteVersions(dir.path(), TableRecordKey("p"), "icu-1.0 collator-0");
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  for (const char* sql :
       {"SELECT * FROM p", "INSERT INTO p VALUES ('Birne', 4, 'z')",
        "DELETE FROM p", "CREATE INDEX p_v ON p (v)", "CHECK TABLE p"}) {
    Status r = (*db)->Execute(sql);
    EXPECT_EQ(r.code(), Status::Code::kNotSupported) << sql;
    EXPECT_NE(r.message().find("REINDEX p"), std::string::npos)
        << sql << ": " << r.ToString();
  }
  // REINDEX alone rebuilds what needs it: the table and its index.
  Exec(**db, "REINDEX");
  EXPECT_EQ(QueryText(**db, "SELECT name, v FROM p ORDER BY name"),
            "(apfel, 3)(Äpfel, 1)(Zebra, 2)");
  EXPECT_EQ(QueryText(**db, "SELECT name FROM p WHERE tag = 'Y' ORDER BY v"),
            "(Zebra)(apfel)");
  Exec(**db, "INSERT INTO p VALUES ('Birne', 4, 'z')");
  Exec(**db, "CHECK");
  db->reset();
  // And it stays rebuilt.
  auto again = Database::Open(dir.path());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(QueryText(**again, "SELECT count(*) FROM p"), "(4)");
  Exec(**again, "CHECK");
}

TEST(Reindex, AFormatOneDatabaseIsUpgradedAndMarksWhatItMustRebuild) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db,
         "CREATE TABLE u (id INTEGER PRIMARY KEY, tags TEXT[], n TEXT "
         "COLLATE nocase)");
    Exec(**db, "CREATE UNIQUE INDEX u_tags ON u (tags)");
    Exec(**db, "CREATE INDEX u_n ON u (n)");
    Exec(**db, "CREATE INDEX u_id ON u (id)");
    Exec(**db, "INSERT INTO u VALUES (1, ARRAY['A', NULL], 'x')");
  }
  {
    // Format 1: no token secret, table records without versions.
    auto store = OpenLevelDbStore(dir.path(), Options());
    ASSERT_TRUE(store.ok());
    WriteBatch batch;
    batch.Put(std::string(kFormatKey), "1");
    batch.Delete(std::string(kTokenKeyKey));
    ASSERT_TRUE((*store)->Write(batch, true).ok());
  }
  RewriteVersions(dir.path(), TableRecordKey("u"), nullptr);
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  Status s = (*db)->Execute("INSERT INTO u VALUES (2, ARRAY['B'], 'y')");
  ASSERT_EQ(s.code(), Status::Code::kNotSupported);
  EXPECT_NE(s.message().find("format 1"), std::string::npos) << s.ToString();
  // Reads still work, without the marked indexes; u_id was fine.
  EXPECT_EQ(QueryText(**db, "SELECT id FROM u WHERE n = 'X'"), "(1)");
  Exec(**db, "REINDEX");
  Exec(**db, "INSERT INTO u VALUES (2, ARRAY['B'], 'y')");
  EXPECT_EQ((*db)->Execute("INSERT INTO u VALUES (3, ARRAY['A'], 'z')").code(),
            Status::Code::kConstraintError);
  Exec(**db, "CHECK");
  db->reset();
  auto store = OpenLevelDbStore(dir.path(), Options());
  ASSERT_TRUE(store.ok());
  std::string format;
  ASSERT_TRUE((*store)->Get(nullptr, kFormatKey, &format).ok());
  EXPECT_EQ(format, std::string(kFormatVersion));
}

TEST(Reindex, AnInterruptedRebuildIsUndoneOnOpen) {
  TempDir dir;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok());
    Exec(**db, "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT)");
    Exec(**db, "INSERT INTO t VALUES (1, 'a')");
  }
  {
    // A crash after REINDEX wrote part of a new range under id 99.
    auto store = OpenLevelDbStore(dir.path(), Options());
    ASSERT_TRUE(store.ok());
    std::string ids;
    keys::EncodeValue(Value::Int(99), keys::Direction::kAsc, &ids);
    WriteBatch batch;
    batch.Put(RebuildingKey("t"), ids);
    batch.Put(rows::IdPrefix(99) + "half", "built");
    batch.Put(GarbageKey(98), "");
    batch.Put(rows::IdPrefix(98) + "old", "range");
    ASSERT_TRUE((*store)->Write(batch, true).ok());
  }
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    EXPECT_EQ(QueryText(**db, "SELECT s FROM t"), "(a)");
  }
  auto store = OpenLevelDbStore(dir.path(), Options());
  ASSERT_TRUE(store.ok());
  std::string value;
  for (const std::string& key :
       {RebuildingKey("t"), rows::IdPrefix(99) + "half", GarbageKey(98),
        rows::IdPrefix(98) + "old"}) {
    EXPECT_EQ((*store)->Get(nullptr, key, &value).code(),
              Status::Code::kNotFound);
  }
}

TEST(Reindex, ReindexOfAnUnknownNameSaysSo) {
  auto db = testing::OpenMemory();
  EXPECT_EQ(db->Execute("REINDEX nothing").code(), Status::Code::kNotFound);
  Exec(*db, "CREATE TABLE t (a INTEGER); REINDEX t; REINDEX");
}

}  // namespace
}  // namespace levelql
