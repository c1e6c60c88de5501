// Budgets, seeds and scratch directories of the reliability tests
// (tests/crash, tests/faults, tests/concurrency, tests/limits).
//
//   LEVELQL_SEED=<n>          base seed; every test prints the one it used
//   LEVELQL_CRASH_KILLS       crash_test: SIGKILLs (default 50; soak 1000)
//   LEVELQL_POWER_LOSSES      power_loss_test: simulated power cuts (default
//   40) LEVELQL_CONCURRENCY_MS    concurrency_test: run time of each variant
//                             (default 2000)
//   LEVELQL_CORRUPTIONS       corruption_test: damaged copies opened
//                             (default 150)
//   LEVELQL_HOSTILE_INPUTS    hostile_input_test: mutated statements (default
//                             5000)
//
// Header-only; functions read the environment on every call. Thread-safe.
#ifndef LEVELQL_TESTS_RELIABILITY_RELIABILITY_UTIL_H_
#define LEVELQL_TESTS_RELIABILITY_RELIABILITY_UTIL_H_

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>

namespace levelql::reliability {

inline int64_t EnvInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  return std::strtoll(v, nullptr, 10);
}

// LEVELQL_SEED, else a fresh seed; printed so the run can be repeated.
inline uint64_t BaseSeed(const char* test) {
  uint64_t seed;
  if (const char* v = std::getenv("LEVELQL_SEED"); v != nullptr && *v) {
    seed = std::strtoull(v, nullptr, 10);
  } else {
    seed = (std::random_device()() ^
            static_cast<uint64_t>(
                std::chrono::steady_clock::now().time_since_epoch().count())) %
           1000000000000ULL;
  }
  std::printf("[%s] seed %llu (replay: LEVELQL_SEED=%llu)\n", test,
              static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  return seed;
}

// A fresh directory under the system temp dir, removed by the destructor
// unless keep() was called (to leave evidence of a failure behind).
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("levelql-" + tag + "-" + std::to_string(::getpid()) + "-" +
             std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!keep_) std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string path() const { return path_.string(); }
  void keep() { keep_ = true; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// The first lines where two multi-line texts differ (for failure messages
// that would otherwise print whole database dumps).
inline std::string DiffLines(const std::string& want, const std::string& got,
                             int max_lines = 8) {
  std::istringstream a(want), b(got);
  std::string la, lb, out;
  int shown = 0;
  for (int line = 1; shown < max_lines; ++line) {
    bool ha = static_cast<bool>(std::getline(a, la));
    bool hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) break;
    if (ha && hb && la == lb) continue;
    out += "  line " + std::to_string(line) + ": want " + (ha ? la : "<end>") +
           "\n           got  " + (hb ? lb : "<end>") + "\n";
    ++shown;
  }
  return out;
}

}  // namespace levelql::reliability

#endif  // LEVELQL_TESTS_RELIABILITY_RELIABILITY_UTIL_H_
