// A sqllogictest script parsed into records (see shared/slt/about.wiki).
//
// ParseScript() splits a whole file held in memory into Records: statements,
// queries, hash-threshold, halt, and records the parser could not make sense
// of (kInvalid, reported as failures by the runner rather than aborting the
// file). Comment lines (`#` in column 0) are dropped wherever they appear;
// one or more blank lines end a record. A Script owns its text and records and
// is immutable after parsing, so any number of threads may read it.
//
// Our extension: `statement error <pattern>` - the error message must contain
// <pattern> as a substring or match it as a regular expression.
#ifndef LEVELQL_TOOLS_SLT_SLT_FILE_H_
#define LEVELQL_TOOLS_SLT_SLT_FILE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/status.h"

namespace levelql::slt {

enum class RecordKind {
  kStatementOk,
  kStatementError,
  kQuery,
  kHashThreshold,
  kHalt,
  kInvalid,  // unparseable; `error` says why
};

enum class SortMode { kNoSort, kRowSort, kValueSort };

// `skipif <engine>` (only_if == false) or `onlyif <engine>` (only_if == true).
struct Condition {
  bool only_if = false;
  std::string engine;
};

struct Record {
  RecordKind kind = RecordKind::kInvalid;
  int line = 0;  // 1-based line of the record's command (after conditions)
  std::vector<Condition> conditions;

  // kStatementOk, kStatementError, kQuery: lines joined with '\n', comments
  // removed.
  std::string sql;
  // kStatementError: text after `statement error`, empty if none.
  std::string error_pattern;

  // kQuery: type string ("III"), or "explain" for plan goldens.
  std::string types;
  SortMode sort = SortMode::kNoSort;
  std::string label;           // empty if none
  bool has_separator = false;  // a `----` line was present
  // Lines after `----`, as written (trailing '\r' removed).
  std::vector<std::string> expected;
  // Byte range in Script::text that --rewrite replaces for this record: the
  // lines after `----`, or (without `----`) the empty range at the record's
  // end where "----\n<lines>" is inserted.
  size_t result_begin = 0;
  size_t result_end = 0;

  // kHashThreshold.
  int hash_threshold = 0;

  // kInvalid: what was wrong, e.g. "unknown record type 'quer'".
  std::string error;

  bool is_explain() const {
    return kind == RecordKind::kQuery && types == "explain";
  }
};

struct Script {
  std::string path;  // as given, used in messages
  std::string text;  // the whole file
  std::vector<Record> records;
};

// Parses `text` (the contents of `path`). Never fails: malformed records
// become kInvalid.
Script ParseScript(std::string path, std::string text);

// Reads and parses a file. Fails only if the file cannot be read.
Result<Script> ReadScript(const std::string& path);

}  // namespace levelql::slt

#endif  // LEVELQL_TOOLS_SLT_SLT_FILE_H_
