// Lexical helpers the shell needs around SQL text it does not parse: where
// one statement ends and the next begins, whether a line holds only
// comments, which `:name` parameters a statement mentions, and how to quote
// an identifier.
//
// They follow the dialect's lexical rules (DIALECT.md): 'strings' with ''
// escapes, "identifiers" with "" escapes, -- and /* */ comments; a `;`
// inside any of those does not end a statement. That is the same rule
// parser::IsComplete applies, so the statements SplitStatements() returns
// for a buffer IsComplete() accepted are exactly the ones the user ended.
// Pure functions; thread-safe.
#ifndef LEVELQL_TOOLS_REPL_SQL_TEXT_H_
#define LEVELQL_TOOLS_REPL_SQL_TEXT_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace levelql::repl {

// Splits `sql` at each `;` outside strings, quoted identifiers and comments.
// Each piece keeps its `;` and is trimmed of surrounding whitespace; pieces
// holding only whitespace and comments are dropped. An unterminated last
// piece (no `;`) is returned as well.
std::vector<std::string> SplitStatements(std::string_view sql);

// True when `sql` holds nothing but whitespace and comments. An unterminated
// /* comment counts as blank only when `allow_open_comment` is set.
bool IsBlankSql(std::string_view sql, bool allow_open_comment = false);

// The first word of the statement, upper-cased ("SELECT"), skipping
// whitespace and comments; empty when there is none.
std::string FirstKeyword(std::string_view sql);

// The names of the `:name` parameters `sql` mentions, without the colon.
std::set<std::string> NamedParameters(std::string_view sql);

// `name` as it may appear in SQL: unchanged when it is a plain identifier
// ([A-Za-z_][A-Za-z0-9_]*, matched case-insensitively by the engine),
// otherwise in double quotes with " doubled.
std::string QuoteIdentifier(std::string_view name);

}  // namespace levelql::repl

#endif  // LEVELQL_TOOLS_REPL_SQL_TEXT_H_
