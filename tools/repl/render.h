// Output modes of the levelql shell: how a result (column names, then rows)
// becomes text.
//
//   table     +----+-------+   ASCII grid; numbers right-aligned
//   box       ┌────┬───────┐   the same grid in Unicode box drawing
//   markdown  | id | name  |   a GitHub pipe table (| escaped as \|)
//   csv       RFC 4180: fields with , " CR or LF are quoted, " doubled;
//             NULL is an empty field, the empty string is ""
//   tsv       tab-separated; \t \n \r \\ in values written as escapes,
//             NULL empty
//   json      one array of objects per result: [{"id":1,"name":"a"},...]
//   line      one "name = value" line per column, a blank line between rows
//
// The grid modes (table, box, markdown) hold every row until End() to size
// the columns by display width (DisplayWidth: East Asian wide characters
// count 2, combining marks 0); a value spanning several lines becomes a
// multi-line cell. Nothing is ever truncated. The other modes stream.
// With zero rows, every mode but json prints nothing (json prints []).
// `headers` applies to table, box, csv and tsv; markdown always has its
// header row and json/line always name the columns.
//
// A Renderer writes to a borrowed std::ostream that must outlive it. Not
// thread-safe; one result at a time.
#ifndef LEVELQL_TOOLS_REPL_RENDER_H_
#define LEVELQL_TOOLS_REPL_RENDER_H_

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/value.h"

namespace levelql::repl {

enum class OutputMode { kTable, kBox, kCsv, kTsv, kJson, kLine, kMarkdown };

// Accepts the names listed above ("table", "box", ...), case-insensitively.
std::optional<OutputMode> ParseOutputMode(std::string_view name);
std::string_view OutputModeName(OutputMode mode);
// "table|box|csv|tsv|json|line|markdown", for help and error messages.
std::string_view OutputModeNames();

// Columns a code point occupies on a terminal: 0 for combining marks and
// zero-width characters, 2 for East Asian wide and fullwidth ones (CJK,
// Hangul, kana, fullwidth forms, most emoji), 1 otherwise.
int CodePointWidth(char32_t cp);
// Sum of CodePointWidth over the UTF-8 text; an invalid byte counts 1.
size_t DisplayWidth(std::string_view utf8);

// RFC 4180 field: quoted when it holds , " CR or LF (or is empty, so that
// "" stays distinct from NULL's empty field).
std::string CsvField(std::string_view text);
// A JSON string literal with the required escapes.
std::string JsonString(std::string_view text);
// A value as JSON: numbers bare, booleans true/false, NULL null, lists as
// arrays, everything else as the string of Value::ToString().
std::string JsonValue(const Value& value);

class Renderer {
 public:
  virtual ~Renderer() = default;
  // Starts a result with these columns. Called once, before any AddRow.
  virtual void Begin(const std::vector<std::string>& names) = 0;
  virtual void AddRow(const Row& row) = 0;
  // Finishes the result (the grid modes print everything here).
  virtual void End() = 0;
};

std::unique_ptr<Renderer> MakeRenderer(OutputMode mode, bool headers,
                                       std::ostream& out);

}  // namespace levelql::repl

#endif  // LEVELQL_TOOLS_REPL_RENDER_H_
