// Parsing SQL text of the levelql dialect into parser::Statement trees.
//
// The grammar (Boost.Spirit X3) lives in parser.cc alone; nothing else
// includes Spirit. Errors come back as Status values: SyntaxError or
// NotSupported with "at LINE:COL: what was expected near \"found\"" and a
// caret line, LimitExceeded for the limits in ParseOptions. Thread-safe:
// the functions keep no state.
#ifndef LEVELQL_PARSER_PARSER_H_
#define LEVELQL_PARSER_PARSER_H_

#include <string>
#include <string_view>
#include <vector>

#include "levelql/status.h"
#include "parser/ast.h"

namespace levelql::parser {

struct ParseOptions {
  size_t max_statement_length = 1'000'000;  // bytes of one statement
  int max_expression_depth = 1000;          // nesting of expressions
  size_t max_in_list = 10'000;              // items of one IN list
};

// Parses a `;`-separated script. Empty statements are skipped.
Result<std::vector<Statement>> ParseScript(std::string_view sql,
                                           const ParseOptions& options = {});

// Parses exactly one statement (a trailing `;` is allowed).
Result<Statement> ParseStatement(std::string_view sql,
                                 const ParseOptions& options = {});

// True when `sql` ends with a complete statement: a `;` outside any string,
// quoted identifier or comment (sqlite3_complete's rule). The REPL uses it to
// decide between the prompt and the continuation prompt.
bool IsComplete(std::string_view sql);

// Renders a statement back to SQL text that parses to an Equal tree.
std::string ToSql(const Statement& statement);
std::string ToSql(const Expr& expr);

// True when `word` (in any case) is a reserved keyword of the dialect: it
// cannot be a bare identifier or alias and must be "quoted" to be used as one.
bool IsReservedWord(std::string_view word);

// `name` as SQL: bare when it parses back to itself, else "double-quoted".
std::string QuoteIdentifier(const std::string& name);

}  // namespace levelql::parser

#endif  // LEVELQL_PARSER_PARSER_H_
