#include "bench/dataset.h"

#include <algorithm>
#include <cstdio>

#include "bench/bench_util.h"

namespace levelql::bench {

DataSpec DataSpec::Make(int64_t rows) {
  DataSpec spec;
  spec.rows = rows;
  spec.users = std::clamp<int64_t>(rows / 100, 10, 10000);
  return spec;
}

int64_t StampOf(const DataSpec& spec, int64_t id) {
  return kStampBase + id * 16 +
         static_cast<int64_t>(Mix(spec.seed ^ 0x5354414d50ULL, id) % 16);
}

std::string CategoryName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "cat%02d", i);
  return buf;
}

std::string CountryName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "c%03d", i);
  return buf;
}

Action MakeAction(const DataSpec& spec, int64_t id) {
  Rng r(Mix(spec.seed, static_cast<uint64_t>(id)));
  Action a;
  a.id = id;
  a.userid = 1 + static_cast<int64_t>(r.Uniform(spec.users));
  a.stamp = StampOf(spec, id);
  int len = 5 + static_cast<int>(r.Uniform(8));
  int style = static_cast<int>(r.Uniform(10));  // 0: UPPER, 1-4: Capital
  a.name.resize(len);
  for (int i = 0; i < len; ++i) {
    char c = static_cast<char>('a' + r.Uniform(26));
    if (style == 0 || (style <= 4 && i == 0)) c = static_cast<char>(c - 32);
    a.name[i] = c;
  }
  a.category = CategoryName(static_cast<int>(r.Uniform(spec.categories)));
  a.country = CountryName(static_cast<int>(r.Uniform(spec.countries)));
  a.score = static_cast<double>(r.Uniform(100000)) / 100.0;
  return a;
}

}  // namespace levelql::bench
