// Parsing SQL text of the levelql dialect into parser::Statement trees, and
// rendering trees back to SQL.
//
// The parser is four parts: the lexer (lexer.h: tokens, statement
// splitting, completeness, identifier quoting), the grammar (grammar.cc,
// the only file that compiles Boost.Spirit X3), the error messages
// (parse_error.h) and the driver behind this header (parser.cc). Errors come
// back as Status values: SyntaxError or NotSupported with "at LINE:COL: what
// was expected near \"found\"" and a caret line, LimitExceeded for the
// limits in ParseOptions. Thread-safe: the functions keep no state.
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

// Renders a statement back to SQL text that parses to an Equal tree.
std::string ToSql(const Statement& statement);
std::string ToSql(const Expr& expr);

}  // namespace levelql::parser

#endif  // LEVELQL_PARSER_PARSER_H_
