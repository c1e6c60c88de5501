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
// quoted one ("") the empty string.
//
// A bad record - wrong field count, invalid UTF-8, malformed quoting, or a
// value the engine rejects (TypeError, ConstraintError, ...) - stops the
// import at its line. The import is not all-or-nothing: the engine commits
// each statement on its own (BEGIN/COMMIT are NotSupported) and one
// statement is limited to 1 MB of SQL, so a file cannot go in as one batch.
// Instead it keeps exactly a prefix: every row before the bad line is
// imported and none from it on (when the engine rejects a batch, its rows
// are re-sent one at a time to find the line, so the ones before it still
// land). The result says where it stopped and the `--skip` count that
// resumes there once the line is fixed. With `skip_bad`, bad records are
// reported through `on_skip` and skipped instead, and the import goes on;
// it still stops on errors that are not the row's fault (an I/O error,
// Ctrl-C) and on an unterminated quoted field, which runs to the end of
// the file. Not thread-safe; `interrupted` may be set from another thread
// to stop between records.
#ifndef LEVELQL_TOOLS_REPL_CSV_IMPORT_H_
#define LEVELQL_TOOLS_REPL_CSV_IMPORT_H_

#include <atomic>
#include <cstdint>
#include <functional>
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
  std::string error() const;
  int64_t error_line() const { return error_line_; }
  const std::string& error_reason() const { return error_reason_; }
  // After a malformed record: drops the rest of its line so that Next()
  // reads the record after it. False when that is impossible (an
  // unterminated quoted field has consumed the rest of the input).
  bool SkipBadRecord();
  // Bytes consumed so far, for progress reporting.
  uint64_t bytes_read() const { return consumed_; }

 private:
  int Get();   // next byte, or -1 at the end
  int Peek();  // next byte without consuming it, or -1
  bool Fill();
  bool Fail(int64_t line, std::string reason);

  std::istream& in_;
  std::string buf_;
  size_t pos_ = 0;
  bool started_ = false;
  uint64_t consumed_ = 0;
  int64_t line_ = 1;
  int64_t error_line_ = 0;  // 0: no error
  std::string error_reason_;
  bool recoverable_ = false;
};

struct ImportRequest {
  std::string path;
  std::string table;  // the table's exact name, as TableNames() lists it
  int64_t skip = 0;   // records to skip first (e.g. a header line)
  // Report bad records through on_skip and go on, instead of stopping.
  bool skip_bad = false;
  std::function<void(int64_t line, const std::string& reason)> on_skip;
  size_t batch_rows = 1000;  // rows per INSERT statement
  // Draw a progress bar on `progress` (the shell passes stderr when it is a
  // terminal); null for none.
  std::ostream* progress = nullptr;
  const std::atomic<bool>* interrupted = nullptr;  // optional
};

struct ImportResult {
  int64_t rows = 0;     // rows inserted
  int64_t skipped = 0;  // bad records skipped (skip_bad)
  double seconds = 0;
  // Empty when the whole file was read; otherwise why the import stopped:
  // "line 7: expected 3 fields, found 2", "interrupted at line 7",
  // "cannot open ...".
  std::string error;
  // When it stopped at a record: that record's line. Every good row before
  // it was imported, none from it on.
  int64_t stop_line = 0;
  // The `--skip` count that resumes the import at stop_line.
  int64_t resume_skip = 0;
};

ImportResult ImportCsv(Database& db, const ImportRequest& request);

// What happened, for the shell to print after the error (if any): one line
//   imported 1200 rows in 0.042 s (28571 rows/s)
// with "; skipped 2 bad lines" when some were; when the import stopped at a
// line, with ": every row before line 1202, none from it on" and a second
// line
//   fix line 1202, then resume with: .import --skip 1201 FILE TABLE
// where FILE and TABLE are `file` and `table` as the user typed them.
std::string ImportSummary(const ImportResult& result,
                          const ImportRequest& request, std::string_view file,
                          std::string_view table);

}  // namespace levelql::repl

#endif  // LEVELQL_TOOLS_REPL_CSV_IMPORT_H_
