// Summary lines and failure texts of randomized tests (report.h).
#include "tests/support/report.h"

#include <cstdio>
#include <sstream>

namespace levelql::testing {

void PrintSummary(const char* test, int64_t count, const char* unit,
                  int64_t failures) {
  std::printf("[%s] %lld %s, %lld failures\n", test,
              static_cast<long long>(count), unit,
              static_cast<long long>(failures));
  std::fflush(stdout);
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

std::string DiffLines(const std::string& want, const std::string& got,
                      int max_lines) {
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

}  // namespace levelql::testing
