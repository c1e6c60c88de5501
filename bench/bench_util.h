// Small helpers shared by levelql-bench: a seeded random generator, a clock,
// medians, human-readable units, a JSON writer and facts about the machine.
//
// Nothing here knows about the engines. Everything is single-threaded.
#ifndef LEVELQL_BENCH_BENCH_UTIL_H_
#define LEVELQL_BENCH_BENCH_UTIL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace levelql::bench {

// SplitMix64: tiny, fast and identical on every platform, so the data set and
// the query parameters depend on the seed alone (unlike std:: distributions).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  // Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Uniform(uint64_t n) { return Next() % n; }

 private:
  uint64_t state_;
};

// A stateless hash of (seed, i): the i-th value of a random sequence.
uint64_t Mix(uint64_t seed, uint64_t i);

// head + tail. (Spelled out: GCC 12 warns falsely, -Wrestrict, about
// "literal" + std::string temporaries.)
std::string Concat(std::string_view head, std::string_view tail);

// 64-bit FNV-1a.
uint64_t Fnv64(std::string_view s);

// Seconds on a monotonic clock.
double Now();

double Median(std::vector<double> v);

// "12.3 us", "4.56 ms", "7.89 s".
std::string FormatSeconds(double seconds);
// "1.23M", "45.6k", "789".
std::string FormatCount(double n);
std::string FormatMiB(double bytes);
std::string FormatRatio(double r);  // "0.42x"

// Prints "levelql-bench: <message>" to stderr and exits with status 1.
[[noreturn]] void Die(const std::string& message);

// Peak resident set size of this process (VmHWM), in bytes; 0 if unknown.
int64_t PeakRssSelf();

// The 1-, 5- and 15-minute load averages ("0.52 0.58 0.59"), or "".
std::string LoadAverage();

struct Machine {
  int cpus = 0;
  std::string cpu_model;
  std::string kernel;
  int64_t memory_bytes = 0;
};
Machine DescribeMachine();

// A minimal streaming JSON writer: the caller nests objects and arrays;
// commas are inserted automatically.
class JsonWriter {
 public:
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  void Key(std::string_view k);
  void String(std::string_view s);
  void Number(double d);  // NaN and infinities become null
  void Int(int64_t i);
  void Bool(bool b);
  void Null();
  const std::string& str() const { return out_; }

 private:
  void Separator();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

std::string JsonEscape(std::string_view s);

}  // namespace levelql::bench

#endif  // LEVELQL_BENCH_BENCH_UTIL_H_
