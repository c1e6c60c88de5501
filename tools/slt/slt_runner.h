// Runs a parsed sqllogictest Script against a levelql::Database and reports
// what differed, the way sqllogictest's verify mode does (about.wiki), plus
// levelql's extensions: `statement error <pattern>` and `query explain` plan
// goldens that --rewrite regenerates.
//
// RunScript() is a plain function of (script, database, options); it keeps
// its per-file state (hash-threshold, labels, halt) on its own stack, so
// several files may run at once in different threads as long as each has its
// own Database and output stream. The rendering helpers are pure functions.
#ifndef LEVELQL_TOOLS_SLT_SLT_RUNNER_H_
#define LEVELQL_TOOLS_SLT_SLT_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "levelql/database.h"
#include "levelql/value.h"
#include "tools/slt/slt_file.h"

namespace levelql::slt {

// The engine name `skipif` / `onlyif` test against.
inline constexpr const char* kEngineName = "levelql";

struct RunOptions {
  std::string engine = kEngineName;
  bool verbose = false;       // print each record before running it
  bool stop_on_fail = false;  // return at the first failing record
  bool rewrite = false;       // regenerate differing `query explain` blocks
  // Also replay every query one row at a time through continuation tokens
  // and require exactly the unpaged rows, in the same order.
  bool page = false;
  // Skip `query explain` records (counted as skipped): for runs whose
  // tables differ from the ones the plans were written for (salted).
  bool skip_explain = false;
  size_t max_lines_shown = 20;  // per expected/got block in a failure
  // When non-null and set, stops before the next record (no counts for the
  // rest). Used by --jobs with --stop-on-fail.
  const std::atomic<bool>* cancel = nullptr;
};

// Counts of statement and query records (and malformed ones, which fail).
struct RunStats {
  int64_t passed = 0;
  int64_t failed = 0;
  int64_t skipped = 0;  // skipif/onlyif, or after `halt`

  RunStats& operator+=(const RunStats& o) {
    passed += o.passed;
    failed += o.failed;
    skipped += o.skipped;
    return *this;
  }
};

struct RunResult {
  RunStats stats;
  bool stopped = false;  // stop_on_fail or cancel cut the file short
  int rewritten = 0;     // plan blocks replaced (options.rewrite)
  // With rewritten > 0: the script text with the new plan blocks, for the
  // caller to write back.
  std::string new_text;
};

// Runs every record of `script` in order against `db`, which should be fresh.
// Writes one block per failure (and with options.verbose a line per record)
// to `out`; never writes the summary line.
RunResult RunScript(const Script& script, Database& db,
                    const RunOptions& options, std::ostream& out);

// "12 passed, 1 failed, 3 skipped"
std::string SummaryLine(const RunStats& stats);

// How one value prints in a column of type `type` ('I', 'R' or 'T'),
// following sqllogictest's SQLite driver:
//   NULL            -> "NULL" for every type
//   'I'             -> integer: REAL truncated toward zero, TEXT/BLOB by their
//                      leading integer prefix ('12abc' -> 12, 'abc' -> 0),
//                      BOOLEAN 1/0, TIMESTAMP microseconds
//   'R'             -> "%.3f" as SQLite's printf computes it (halves round
//                      up, zeros past 16 significant digits); TEXT by its
//                      leading number
//   'T'             -> text as is, numbers as SQLite prints them (FormatReal),
//                      BOOLEAN 1/0; "" -> "(empty)"; bytes < 0x20 and 0x7f
//                      -> '@' (UTF-8 stays UTF-8)
// LIST values print as Value::ToString() under any type.
std::string RenderValue(const Value& value, char type);

// A REAL as SQLite's text conversion prints it ("%!.15g"): 1.0, 0.1,
// 1.0e+20, 1.5e-07, Inf.
std::string FormatReal(double d);

// A REAL with `decimals` digits after the point, as SQLite's "%.Nf". Uses
// long double like SQLite, so matches it bit for bit where long double is
// the x87 80-bit type (checked against SQLite 3.40 on 1.8M values).
std::string FormatFixed(double d, int decimals);

// "<n> values hashing to <md5>", the md5 taken over each value followed by
// "\n".
std::string HashLine(const std::vector<std::string>& values);

}  // namespace levelql::slt

#endif  // LEVELQL_TOOLS_SLT_SLT_RUNNER_H_
