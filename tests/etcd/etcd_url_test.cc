#include "engine/storage/etcd/etcd_url.h"

#include <gtest/gtest.h>

#include "levelql/database.h"

namespace levelql {
namespace {

TEST(EtcdUrlTest, ParsesHostsAndName) {
  auto url = ParseEtcdUrl("etcd://10.0.0.1:2379,h2:2380,[::1]:2381/app/db/");
  ASSERT_TRUE(url.ok()) << url.status().ToString();
  EXPECT_EQ(url->endpoints, (std::vector<std::string>{
                                "10.0.0.1:2379", "h2:2380", "[::1]:2381"}));
  EXPECT_EQ(url->prefix, "app/db");
}

TEST(EtcdUrlTest, RejectsWhatItCannotUseAndSaysWhy) {
  const std::pair<const char*, const char*> cases[] = {
      {"etcd://h:2379", "no database name"},
      {"etcd://h:2379/", "no database name"},
      {"etcd://h/db", "needs a port"},
      {"etcd://h:0/db", "needs a port"},
      {"etcd://h:65536/db", "needs a port"},
      {"etcd://h:2379,,h:2380/db", "empty host at character 15"},
      {"etcd:///db", "empty host"},
      {"etcd://h:1/a b", "character 2 of the database name"},
      {"etcd://h:1/a//b", "empty path segment"},
  };
  for (const auto& [text, why] : cases) {
    auto url = ParseEtcdUrl(text);
    ASSERT_FALSE(url.ok()) << text;
    EXPECT_EQ(url.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(url.status().message().find(why), std::string::npos)
        << text << ": " << url.status().message();
  }
}

TEST(EtcdUrlTest, DatabaseOpenGivesTheUrlError) {
  auto db = Database::Open("etcd://nohost/db");
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(db.status().message().find("needs a port"), std::string::npos);
}

}  // namespace
}  // namespace levelql
