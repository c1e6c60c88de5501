// What a randomized test prints at the end, and short failure texts.
//
// PrintSummary() writes the one line `make soak` requires from each test
// program ("[differential] 20000 queries, 0 failures"): soak.sh decides by
// the exit status of each program and by finding this line with the budget
// it asked for, never by searching logs for words. Thread-safe.
#ifndef LEVELQL_TESTS_SUPPORT_REPORT_H_
#define LEVELQL_TESTS_SUPPORT_REPORT_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace levelql::testing {

// Prints "[<test>] <count> <unit>, <failures> failures" and flushes.
void PrintSummary(const char* test, int64_t count, const char* unit,
                  int64_t failures);

double SecondsSince(std::chrono::steady_clock::time_point start);

// The first lines where two multi-line texts differ (for failure messages
// that would otherwise print whole database dumps).
std::string DiffLines(const std::string& want, const std::string& got,
                      int max_lines = 8);

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_SUPPORT_REPORT_H_
