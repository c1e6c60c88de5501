#include "tests/support/stored_format.h"

#include <gtest/gtest.h>

#include "engine/catalog/catalog.h"
#include "engine/storage/kv_store.h"

namespace levelql::testing {

std::string StoredFormat(const std::string& path) {
  auto store = OpenLevelDbStore(path, Options());
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  if (!store.ok()) return "";
  std::string v;
  Status s = (*store)->Get(nullptr, kFormatKey, &v);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return v;
}

void SetStoredFormat(const std::string& path, const std::string& version) {
  auto store = OpenLevelDbStore(path, Options());
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  WriteBatch batch;
  batch.Put(std::string(kFormatKey), version);
  Status s = (*store)->Write(batch, true);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

}  // namespace levelql::testing
