#include "tests/differential/known_differences.h"

namespace levelql::difftest {

bool IsKnownDifference(const Outcome& expected, const Outcome& got) {
  // Integer overflow is an error in levelql; SQLite switches to REAL.
  if (expected.ok && !got.ok &&
      got.error.find("overflow") != std::string::npos) {
    return true;
  }
  // The values of an IN (SELECT ...) are held in memory, bounded by
  // sort_memory_bytes; SQLite has no such bound. (The rows a FROM item is
  // read as spill to a temporary database instead: no difference.)
  if (expected.ok && !got.ok &&
      got.error.find("LimitExceeded") != std::string::npos &&
      got.error.find("the values of an IN") != std::string::npos) {
    return true;
  }
  return false;
}

}  // namespace levelql::difftest
