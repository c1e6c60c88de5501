// Budgets and seeds of the randomized tests, from the environment.
//
//   LEVELQL_SEED=<n>        base seed; round r of a test uses seed n + r, and
//                           every failure prints its round's seed, so
//                           LEVELQL_SEED=<that seed> replays it as round 0
//   LEVELQL_DIFF_QUERIES    differential queries (default 20000)
//   LEVELQL_ORACLE_CHECKS   checks per no-second-engine oracle (default 5000)
//   LEVELQL_MODEL_STEPS     steps of the model-based test (default 20000)
//   LEVELQL_MAX_FAILURES    stop a test after this many failures (default 5)
//   LEVELQL_REGRESSION_DIR  where shrunk failures go (default
//                           tests/sql/regressions in the source tree)
//
// Header-only; the functions read the environment on every call.
#ifndef LEVELQL_TESTS_DIFFERENTIAL_TEST_ENV_H_
#define LEVELQL_TESTS_DIFFERENTIAL_TEST_ENV_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace levelql::difftest {

inline int64_t EnvInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  return std::strtoll(v, nullptr, 10);
}

// The base seed of a test run: LEVELQL_SEED, else fresh. Printed so any run
// can be repeated.
inline uint64_t BaseSeed(const char* test) {
  uint64_t seed;
  if (const char* v = std::getenv("LEVELQL_SEED"); v != nullptr && *v) {
    seed = std::strtoull(v, nullptr, 10);
  } else {
    seed = std::random_device()() ^
           static_cast<uint64_t>(
               std::chrono::steady_clock::now().time_since_epoch().count());
    seed %= 1000000000000ULL;
  }
  std::printf("[%s] base seed %llu (replay: LEVELQL_SEED=%llu)\n", test,
              static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  return seed;
}

inline std::string RegressionDir() {
  if (const char* v = std::getenv("LEVELQL_REGRESSION_DIR"); v && *v) return v;
#ifdef LEVELQL_SOURCE_DIR
  return std::string(LEVELQL_SOURCE_DIR) + "/tests/sql/regressions";
#else
  return "regressions";
#endif
}

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace levelql::difftest

#endif  // LEVELQL_TESTS_DIFFERENTIAL_TEST_ENV_H_
