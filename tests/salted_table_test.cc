// Salted tables at the byte level (issue 16): every key of a salted table
// sits in its row's bucket, which CHECK verifies from the keys' bytes; a key
// moved to another bucket (the writer's bug CHECK exists to catch) is
// reported; and the format version moves on (3: salted tables, 4: views)
// without touching older data.
#include <gtest/gtest.h>

#include "engine/catalog/catalog.h"
#include "engine/storage/kv_store.h"
#include "indexes/row_format.h"
#include "indexes/salt.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/stored_format.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;

using testing::TempDir;

class SaltedTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Exec(**db,
         "CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER) "
         "WITH (salt_buckets = 4)");
    Exec(**db, "CREATE INDEX by_k ON t (k)");
    for (int i = 1; i <= 40; ++i) {
      Exec(**db, "INSERT INTO t VALUES (" + std::to_string(i) + ", " +
                     std::to_string(i % 7) + ")");
    }
    EXPECT_TRUE((*db)->Execute("CHECK").ok());
  }

  // Every key of range `id` in the closed database, physical.
  std::vector<std::pair<std::string, std::string>> Keys(KvStore* store,
                                                        int64_t id) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string prefix = rows::IdPrefix(id);
    auto it = store->NewIterator(nullptr);
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
         it->Next()) {
      out.emplace_back(std::string(it->key()), std::string(it->value()));
    }
    return out;
  }

  // Moves the first key of the range of the table (or of its index) to the
  // next bucket, then reopens and runs CHECK.
  Status CheckAfterMoving(bool index) {
    {
      auto store = OpenLevelDbStore(dir_.path(), Options());
      EXPECT_TRUE(store.ok());
      auto catalog = LoadCatalog(store->get(), false);
      EXPECT_TRUE(catalog.ok());
      const TableSchema* t = catalog->FindTable("t");
      const int64_t id = index ? t->indexes[0]->id : t->id;
      auto keys = Keys(store->get(), id);
      EXPECT_EQ(keys.size(), 40u);
      // Every key holds the bucket of its row's primary key (the last
      // component of both the row key and the entry key).
      const size_t p = rows::IdPrefix(id).size();
      for (const auto& [key, value] : keys) {
        const std::string pk = key.substr(key.size() - 2);  // 15 nn
        EXPECT_EQ(static_cast<uint8_t>(key[p]), rows::SaltBucket(pk, 4));
      }
      std::string moved = keys[0].first;
      moved[p] = static_cast<char>((moved[p] + 1) % 4);
      WriteBatch batch;
      batch.Delete(keys[0].first);
      batch.Put(moved, keys[0].second);
      EXPECT_TRUE((*store)->Write(batch, true).ok());
    }
    auto db = Database::Open(dir_.path());
    EXPECT_TRUE(db.ok());
    return (*db)->Execute("CHECK");
  }

  TempDir dir_{"salted"};
};

TEST_F(SaltedTableTest, ARowKeyInAnotherBucketIsReported) {
  Status s = CheckAfterMoving(false);
  EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
  EXPECT_NE(s.message().find("1 keys in a wrong bucket"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("table t: a key in bucket"), std::string::npos)
      << s.message();
}

TEST_F(SaltedTableTest, AnIndexEntryInAnotherBucketIsReported) {
  Status s = CheckAfterMoving(true);
  EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
  EXPECT_NE(s.message().find("index by_k: a key in bucket"), std::string::npos)
      << s.message();
}

TEST_F(SaltedTableTest, FormatTwoOpensAsFourAndALaterFormatIsRefused) {
  auto set_format = [&](const std::string& version) {
    testing::SetStoredFormat(dir_.path(), version);
  };
  auto format = [&] { return testing::StoredFormat(dir_.path()); };
  EXPECT_EQ(format(), "5");
  set_format("2");
  {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    EXPECT_TRUE((*db)->Execute("CHECK").ok());
  }
  EXPECT_EQ(format(), "5");
  set_format("6");
  auto db = Database::Open(dir_.path());
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().message(),
            "database format version 6 is not supported by this build (it "
            "reads versions 1 to 5)");
}

}  // namespace
}  // namespace levelql
