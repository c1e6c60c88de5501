// The lexical layer of the levelql dialect (docs/DIALECT.md): character
// classes, blanks and comments, 'strings' and "identifiers", numbers and
// other literals, keywords, reserved words and operators; cutting a script
// into statements; statement completeness; identifier quoting.
//
// Everything that needs to know where a token, comment or statement ends
// asks this file: the X3 grammar (grammar.cc) builds its token parsers on
// the Scan* functions, the error messages (parse_error.h) use them to name
// the token "near" an error, and the public SQL text helpers
// (levelql/sql_text.h) are thin wrappers around ScanScript and
// QuoteIdentifier. No Spirit here.
//
// Scanners take a position `p` and the end of the text and return the end
// of what they recognized, or null when `p` does not start it; they never
// read past `end`. Pure functions over borrowed text; thread-safe.
#ifndef LEVELQL_PARSER_LEXER_H_
#define LEVELQL_PARSER_LEXER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/value.h"
#include "parser/ast.h"

namespace levelql::parser {

using Iter = const char*;

// --- Characters

inline bool IsSpace(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' ||
         c == '\v';
}
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsHex(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// Bytes >= 0x80 belong to identifiers, as in SQLite (UTF-8 names).
inline bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
inline bool IsIdentChar(char c) {
  return IsIdentStart(c) || IsDigit(c) || c == '$';
}
// REQUIRES: IsHex(c)
inline int Nibble(char c) {
  return IsDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
}
inline char Lower(char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
inline char Upper(char c) { return c >= 'a' && c <= 'z' ? c - 32 : c; }

// --- Blanks, comments, quoted tokens, words

// Skips whitespace, `-- comments` and `/* comments */`. An unterminated
// block comment runs to `end` (ScanScript reports it before any grammar
// runs). Pure, and declared so: X3 skips after every rule for a result the
// grammar never uses, and the compiler may drop those calls only when it
// knows they have no side effects.
[[gnu::pure]] Iter SkipBlanksSlow(Iter p, Iter end);
// Most calls start at a token already; keep that case inline (the grammar
// calls this before every token attempt).
[[gnu::always_inline]] inline Iter SkipBlanks(Iter p, Iter end) {
  if (p != end && !IsSpace(*p) && *p != '-' && *p != '/') return p;
  return SkipBlanksSlow(p, end);
}

// A quoted token starting at `p` (the opening ' or "), with the quote
// doubled inside. Returns the position after the closing quote, or null
// when it is missing. Appends the unescaped contents to `out` when given.
Iter ScanQuoted(Iter p, Iter end, std::string* out);

// The end of the run of identifier characters starting at `p`.
inline Iter ScanWord(Iter p, Iter end) {
  while (p != end && IsIdentChar(*p)) ++p;
  return p;
}

// `upper` (an upper-case keyword) at `p` in any case, not followed by an
// identifier character: returns its end, else null. Inline: the grammar
// tries several keywords at most positions.
[[gnu::always_inline]] inline Iter ScanKeyword(Iter p, Iter end,
                                               std::string_view upper) {
  if (static_cast<size_t>(end - p) < upper.size()) return nullptr;
  for (size_t i = 0; i < upper.size(); ++i) {
    if (Upper(p[i]) != upper[i]) return nullptr;
  }
  Iter q = p + upper.size();
  return q != end && IsIdentChar(*q) ? nullptr : q;
}

// --- Tokens

// An identifier at `p`: a bare word (folded to ASCII lower case into
// `text`) that is not reserved unless `any_word`, or a non-empty "quoted"
// one (verbatim). Returns its end, else null.
Iter ScanIdentifier(Iter p, Iter end, bool any_word, std::string* text);

// A literal at `p`: an integer or real number, 'text', x'blob', NULL, TRUE
// or FALSE. Returns its end and sets `value`, or returns null when `p`
// starts none. `big` reports the bare integer 9223372036854775808 (stored
// as REAL; the grammar makes its negation INT64_MIN). A malformed literal
// that cannot be anything else (a 17-digit hexadecimal number, odd blob
// digits) returns null with `error` set to what was expected there.
// Numbers followed by an identifier character (`12abc`) are malformed and
// return null, as in SQLite; integers beyond int64 become REAL.
Iter ScanLiteral(Iter p, Iter end, Value* value, bool* big, const char** error);

// Binary operators, one scanner per precedence level.
enum class OpLevel { kEquality, kCompare, kBit, kAdd, kMultiply, kConcat };
// The operator of `level` at `p`: returns its end and sets `op`, else null.
// Inline, so that the grammar's constant `level` selects one case.
[[gnu::always_inline]] inline Iter ScanBinaryOp(OpLevel level, Iter p, Iter end,
                                                BinaryOp* op) {
  if (p == end) return nullptr;
  char c = p[0];
  char d = end - p > 1 ? p[1] : '\0';
  int n = 1;
  switch (level) {
    case OpLevel::kEquality:
      if (c == '=') {
        *op = BinaryOp::kEq;
        n = d == '=' ? 2 : 1;
      } else if ((c == '<' && d == '>') || (c == '!' && d == '=')) {
        *op = BinaryOp::kNe;
        n = 2;
      } else {
        return nullptr;
      }
      break;
    case OpLevel::kCompare:
      if (c != '<' && c != '>') return nullptr;
      if (d == '>' || d == '<') return nullptr;  // <> << >>
      n = d == '=' ? 2 : 1;
      *op = c == '<' ? (n == 2 ? BinaryOp::kLe : BinaryOp::kLt)
                     : (n == 2 ? BinaryOp::kGe : BinaryOp::kGt);
      break;
    case OpLevel::kBit:
      if ((c == '<' || c == '>') && d == c) {
        *op = c == '<' ? BinaryOp::kShiftLeft : BinaryOp::kShiftRight;
        n = 2;
      } else if (c == '&') {
        *op = BinaryOp::kBitAnd;
      } else if (c == '|' && d != '|') {
        *op = BinaryOp::kBitOr;
      } else {
        return nullptr;
      }
      break;
    case OpLevel::kAdd:
      if (c != '+' && c != '-') return nullptr;
      *op = c == '+' ? BinaryOp::kAdd : BinaryOp::kSub;
      break;
    case OpLevel::kMultiply:
      if (c == '*') {
        *op = BinaryOp::kMul;
      } else if (c == '/') {
        *op = BinaryOp::kDiv;
      } else if (c == '%') {
        *op = BinaryOp::kMod;
      } else {
        return nullptr;
      }
      break;
    case OpLevel::kConcat:
      if (c != '|' || d != '|') return nullptr;
      *op = BinaryOp::kConcat;
      n = 2;
      break;
  }
  return p + n;
}

// The scalar type named by an upper-case word ("INTEGER", "VARCHAR", ...);
// nullopt when the dialect has no such type.
std::optional<Type> TypeFromWord(std::string_view upper);

// True when `word` (in any case) is a reserved word: it cannot be a bare
// identifier or alias and must be "quoted" to be used as one.
bool IsReservedWord(std::string_view word);

// --- Statements

// What ScanScript found wrong: a construct still open at the end.
enum class LexError {
  kNone,
  kUnterminatedComment,     // /* without */
  kUnterminatedString,      // ' without its closing '
  kUnterminatedIdentifier,  // " without its closing "
};

// One statement of a script: the text after the previous `;` (or the
// start) up to and including its own `;`.
struct StatementSpan {
  Iter start = nullptr;      // just after the previous `;`, or the start
  Iter first = nullptr;      // its first token; null when it has none
  Iter last = nullptr;       // the end of its last token (when `first`)
  Iter semicolon = nullptr;  // its `;`; null for the text after the last
};

struct ScriptScan {
  // Every `;`-terminated statement, including empty ones (`;;`), then the
  // text after the last `;` (possibly empty) with semicolon == null.
  std::vector<StatementSpan> statements;
  LexError error = LexError::kNone;
  Iter error_at = nullptr;  // where the unterminated construct starts
};

// Cuts `sql` at each `;` outside strings, quoted identifiers and comments.
// Scanning stops at the first unterminated construct: the last span then
// runs to the end of `sql` (its `first` is the unterminated string or
// identifier, or the last token before an open comment).
ScriptScan ScanScript(std::string_view sql);

// True when `sql` ends with a complete statement: a `;` outside strings,
// quoted identifiers and comments, followed by nothing but blanks and
// closed comments (sqlite3_complete's rule).
bool IsComplete(std::string_view sql);

// --- Identifiers

// `name` as SQL that reads back as exactly `name`: bare when it is a plain
// lower-case name ([a-z_][a-z0-9_]*) and not reserved, otherwise in double
// quotes with `"` doubled. Unquoted identifiers fold to lower case, so any
// upper-case letter needs the quotes.
std::string QuoteIdentifier(std::string_view name);

}  // namespace levelql::parser

#endif  // LEVELQL_PARSER_LEXER_H_
