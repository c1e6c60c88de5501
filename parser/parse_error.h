// The parser's error messages: where (line:column) and what went wrong, as
// a Status.
//
//   SyntaxError at 1:10: expected FROM near "FORM"
//   SELECT * FORM files;
//            ^
//   NotSupported at 1:31: GROUP BY
//   LimitExceeded at 1:5: expression nesting exceeds the limit of 1000
//
// A syntax error names what the grammar expected ("expected X near Y"),
// followed by the source line and a caret under the offending token. When
// that token starts recognizable SQL outside the dialect (GROUP BY, JOIN,
// UNION, ...), the error is NotSupported naming the construct instead.
// The grammar (grammar.cc) reports problems as ParseError values or X3
// expectation failures; this file turns them into Status values without
// knowing anything about Spirit. Thread-safe: pure functions; a SourceMap is
// immutable after construction.
#ifndef LEVELQL_PARSER_PARSE_ERROR_H_
#define LEVELQL_PARSER_PARSE_ERROR_H_

#include <string>
#include <string_view>
#include <vector>

#include "levelql/status.h"
#include "parser/ast.h"
#include "parser/lexer.h"

namespace levelql::parser {

// Maps a pointer into a script to its 1-based line and column (in bytes).
// Borrows the script, which must outlive the map.
class SourceMap {
 public:
  explicit SourceMap(std::string_view text);
  Iter begin() const { return begin_; }
  Iter end() const { return end_; }

  // REQUIRES: begin() <= p <= end()
  Position At(Iter p) const;
  // The line holding `p`, without its line break (\n or \r\n).
  std::string_view LineOf(Iter p) const;

 private:
  Iter begin_;
  Iter end_;
  std::vector<size_t> line_starts_;  // offset of each line's first byte
};

// A failure the grammar found, before it is put into words.
struct ParseError {
  Status::Code code;     // kSyntaxError, kNotSupported or kLimitExceeded
  Iter where = nullptr;  // the offending token, or null when `pos` is set
  Position pos;
  // SyntaxError: what was expected there ("FROM", "parameter number
  // between 1 and 32766"); NotSupported: the construct ("GROUP BY");
  // LimitExceeded: which limit.
  std::string message;
};

// "at 3:14"
std::string Place(Position pos);

// An X3 expectation failure at `where`: what the grammar `expected` there
// ("FROM or WHERE"), or NotSupported when the token at `where` starts a
// construct outside the dialect. `end` is the end of the statement.
Status ExpectationStatus(const SourceMap& map, Iter where, Iter end,
                         const std::string& expected);

// A ParseError thrown inside the statement that ends at `end`.
Status ParseErrorStatus(const SourceMap& map, const ParseError& error,
                        Iter end);

// An unterminated comment, string or quoted identifier starting at `at`.
// REQUIRES: error != LexError::kNone
Status LexErrorStatus(const SourceMap& map, LexError error, Iter at);

// ParseStatement given a second statement, which starts at `at`.
Status ExtraStatementStatus(const SourceMap& map, Iter at);

}  // namespace levelql::parser

#endif  // LEVELQL_PARSER_PARSE_ERROR_H_
