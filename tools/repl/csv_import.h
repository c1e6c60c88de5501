// `.import`: streams an RFC 4180 CSV file into an existing table.
//
// CsvReader splits a byte stream into records: fields separated by `,`,
// records by LF or CRLF; a field starting with `"` is quoted, may hold `,`,
// CR, LF and `""` (one quote), and must be followed by `,` or the end of the
// record. A UTF-8 byte order mark at the start is skipped.
//
// ImportCsv() sends the rows as multi-row `INSERT INTO t VALUES (?, ...),
// ...` statements of up to 1000 rows each (fewer for very wide tables), each
// batch one atomic statement. Every field is bound as TEXT and the engine
// converts it to the column's type; an unquoted empty field is NULL, a
// quoted one ("") the empty string. The import stops at the first bad
// record - wrong field count, invalid UTF-8, malformed quoting, or a value
// the engine rejects - and reports `line N: reason`. Every row before that
// record is imported and none from it on: when the engine rejects a batch,
// its rows are re-sent one at a time to find the line, so the ones before
// it still land. Not thread-safe; `interrupted` may be set from another
// thread to stop between records.
#ifndef LEVELQL_TOOLS_REPL_CSV_IMPORT_H_
#define LEVELQL_TOOLS_REPL_CSV_IMPORT_H_

#include <atomic>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/database.h"

namespace levelql::repl {

// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or code
// points past U+10FFFF).
bool IsValidUtf8(std::string_view s);

struct CsvRecord {
  std::vector<std::string> fields;
  std::vector<bool> quoted;  // per field: it was written in "quotes"
  int64_t line = 0;          // 1-based line the record starts on
};

class CsvReader {
 public:
  // `in` is borrowed and must outlive the reader.
  explicit CsvReader(std::istream& in);

  // Reads the next record. Returns false at the end of input or on a
  // malformed record; error() is non-empty in the latter case.
  bool Next(CsvRecord* record);
  // "line 7: unterminated quoted field", or empty.
  const std::string& error() const { return error_; }
  // Bytes consumed so far, for progress reporting.
  uint64_t bytes_read() const { return consumed_; }

 private:
  int Get();   // next byte, or -1 at the end
  int Peek();  // next byte without consuming it, or -1
  bool Fill();

  std::istream& in_;
  std::string buf_;
  size_t pos_ = 0;
  bool started_ = false;
  uint64_t consumed_ = 0;
  int64_t line_ = 1;
  std::string error_;
};

struct ImportRequest {
  std::string path;
  std::string table;
  int64_t skip = 0;          // records to skip first (e.g. a header line)
  size_t batch_rows = 1000;  // rows per INSERT statement
  // Draw a progress bar on `progress` (the shell passes stderr when it is a
  // terminal); null for none.
  std::ostream* progress = nullptr;
  const std::atomic<bool>* interrupted = nullptr;  // optional
};

struct ImportResult {
  int64_t rows = 0;       // rows inserted
  int64_t last_line = 0;  // line of the last inserted row's record
  double seconds = 0;
  std::string error;  // empty on success: "line 7: ..." otherwise
};

ImportResult ImportCsv(Database& db, const ImportRequest& request);

// "imported 1200 rows in 0.042 s (28571 rows/s)"; after an error,
// "imported 1200 rows through line 1201 in ...".
std::string ImportSummary(const ImportResult& result);

}  // namespace levelql::repl

#endif  // LEVELQL_TOOLS_REPL_CSV_IMPORT_H_
