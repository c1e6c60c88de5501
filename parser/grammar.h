// The X3 grammar of the dialect, behind a plain function.
//
// grammar.cc is the only translation unit that compiles Boost.Spirit; this
// header keeps Spirit out of everything else. The driver (parser.cc) cuts a
// script into statements with the lexer and hands each one here.
// Thread-safe: each call has its own state.
#ifndef LEVELQL_PARSER_GRAMMAR_H_
#define LEVELQL_PARSER_GRAMMAR_H_

#include "levelql/status.h"
#include "parser/ast.h"
#include "parser/lexer.h"
#include "parser/parse_error.h"
#include "parser/parser.h"

namespace levelql::parser {

// Parses the one statement in [begin, end), a span of the script `map`
// covers (without its `;`). Positions in the tree and in errors are those
// in the whole script. Errors: SyntaxError, NotSupported, LimitExceeded.
Result<Statement> ParseOneStatement(const SourceMap& map, Iter begin, Iter end,
                                    const ParseOptions& options);

}  // namespace levelql::parser

#endif  // LEVELQL_PARSER_GRAMMAR_H_
