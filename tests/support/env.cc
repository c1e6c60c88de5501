// Budgets and seeds from the environment (env.h).
#include "tests/support/env.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>

namespace levelql::testing {

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  return std::strtoll(v, nullptr, 10);
}

Options TestOptions() {
  Options options;
  options.default_salt_buckets =
      static_cast<int>(EnvInt("LEVELQL_SALT_BUCKETS", 0));
  return options;
}

std::string FreshDatabasePath() {
  const std::string dir = EnvText("LEVELQL_TEST_ON_ETCD");
  if (dir.empty()) return ":memory:";
  std::ifstream in(dir + "/endpoints");
  std::string endpoints;
  if (!std::getline(in, endpoints) || endpoints.empty()) {
    std::fprintf(stderr, "LEVELQL_TEST_ON_ETCD=%s: no etcd cluster there\n",
                 dir.c_str());
    std::abort();
  }
  static std::atomic<int> counter{0};
  return "etcd://" + endpoints + "/test-" + std::to_string(std::time(nullptr)) +
         "-" + std::to_string(getpid()) + "-" +
         std::to_string(counter.fetch_add(1));
}

std::string EnvText(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v == nullptr || *v == '\0' ? fallback : std::string(v);
}

std::vector<uint64_t> TestSeeds(const char* test,
                                std::initializer_list<uint64_t> fixed) {
  std::vector<uint64_t> seeds;
  const char* from;
  if (const char* v = std::getenv("LEVELQL_SEED"); v != nullptr && *v) {
    seeds.push_back(std::strtoull(v, nullptr, 10));
    from = "from LEVELQL_SEED";
  } else {
    seeds.assign(fixed.begin(), fixed.end());
    from = "fixed";
  }
  for (uint64_t s : seeds) {
    std::printf("[%s] seed %llu (%s; replay: LEVELQL_SEED=%llu)\n", test,
                static_cast<unsigned long long>(s), from,
                static_cast<unsigned long long>(s));
  }
  std::fflush(stdout);
  return seeds;
}

int64_t ShareOf(int64_t total, size_t n, size_t i) {
  const int64_t k = static_cast<int64_t>(n);
  const int64_t idx = static_cast<int64_t>(i);
  return total / k + (idx < total % k ? 1 : 0);
}

}  // namespace levelql::testing
