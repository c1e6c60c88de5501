// The intended differences between levelql and SQLite that the differential
// test tolerates when they show up anyway (KNOWN_DIFFERENCES.md lists them
// all; the generator avoids most of them, these are the ones it cannot rule
// out statically). Pure functions; thread-safe.
#ifndef LEVELQL_TESTS_DIFFERENTIAL_KNOWN_DIFFERENCES_H_
#define LEVELQL_TESTS_DIFFERENTIAL_KNOWN_DIFFERENCES_H_

#include "tests/differential/engines.h"

namespace levelql::difftest {

// True when SQLite's outcome `expected` and levelql's `got` differ in a way
// the dialect intends.
bool IsKnownDifference(const Outcome& expected, const Outcome& got);

}  // namespace levelql::difftest

#endif  // LEVELQL_TESTS_DIFFERENTIAL_KNOWN_DIFFERENCES_H_
