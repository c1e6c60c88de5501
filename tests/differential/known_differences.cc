#include "tests/differential/known_differences.h"

namespace levelql::difftest {

bool IsKnownDifference(const Outcome& expected, const Outcome& got) {
  // Integer overflow is an error in levelql; SQLite switches to REAL.
  if (expected.ok && !got.ok &&
      got.error.find("overflow") != std::string::npos) {
    return true;
  }
  return false;
}

}  // namespace levelql::difftest
