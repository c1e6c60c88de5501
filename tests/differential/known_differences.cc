#include "tests/differential/known_differences.h"

namespace levelql::difftest {

bool IsKnownDifference(const Outcome& expected, const Outcome& got) {
  // Integer overflow is an error in levelql; SQLite switches to REAL.
  if (expected.ok && !got.ok &&
      got.error.find("overflow") != std::string::npos) {
    return true;
  }
  // The rows a FROM item is read as (a FULL JOIN, a view or subquery that
  // makes rows of its own) are held in memory, bounded by
  // sort_memory_bytes; SQLite has no such bound.
  if (expected.ok && !got.ok &&
      got.error.find("LimitExceeded") != std::string::npos &&
      got.error.find("exceed sort_memory_bytes") != std::string::npos) {
    return true;
  }
  return false;
}

}  // namespace levelql::difftest
