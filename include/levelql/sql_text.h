// SQL text helpers: lexical facts about levelql SQL that need no database.
//
// A program that reads SQL from people or files (a shell, an editor, a
// migration runner) needs to know where one statement ends and the next
// begins, whether the user has finished typing one, and how to put a name
// into SQL so that it reads back as itself. These functions answer with the
// dialect's own lexical rules (docs/DIALECT.md) - the ones the parser uses -
// so a `;` inside a 'string', a "quoted identifier", a `-- comment` or a
// `/* comment */` never ends a statement here either.
//
//   levelql::IsCompleteStatement("SELECT ';'")            // false
//   levelql::SplitStatements("SELECT 1; SELECT 2;")       // both, with `;`
//   levelql::QuoteIdentifier("order")                     // "\"order\""
//
// Pure functions; thread-safe. They never fail: text that does not lex
// (an unterminated string) is simply incomplete, or one last statement.
#ifndef LEVELQL_SQL_TEXT_H_
#define LEVELQL_SQL_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

namespace levelql {

// Splits `sql` at each `;` outside strings, quoted identifiers and
// comments. Each statement keeps its `;` and its comments (also the ones
// before it), trimmed of surrounding whitespace. Statements holding only
// whitespace and comments are dropped, and so are empty ones (`;;`). Text
// after the last `;` comes last, without a `;`, unless it is blank (an
// unterminated /* comment counts as blank there); an unterminated string
// makes the rest of `sql` one statement.
std::vector<std::string> SplitStatements(std::string_view sql);

// True when `sql` ends with a complete statement: a `;` outside strings,
// quoted identifiers and comments, followed by nothing but whitespace and
// closed comments. The rule of sqlite3_complete(): a shell keeps reading
// lines until this holds.
bool IsCompleteStatement(std::string_view sql);

// True when `sql` holds nothing but whitespace and closed comments: there
// is nothing to run and nothing left open. `;` is not blank.
bool IsBlankSql(std::string_view sql);

// The first word of `sql`'s first statement in upper case ("SELECT",
// "EXPLAIN"), after whitespace and comments; empty when the statement does
// not start with a word.
std::string FirstKeyword(std::string_view sql);

// `name` as SQL that reads back as exactly `name`: bare when it is a plain
// lower-case name ([a-z_][a-z0-9_]*) that is not a reserved word of the
// dialect, otherwise "double-quoted" with any `"` doubled. Unquoted names
// are case-insensitive (they fold to lower case), so a name with an
// upper-case letter is quoted: QuoteIdentifier("MyCol") is "\"MyCol\"".
std::string QuoteIdentifier(std::string_view name);

}  // namespace levelql

#endif  // LEVELQL_SQL_TEXT_H_
