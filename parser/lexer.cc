#include "parser/lexer.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace levelql::parser {
namespace {

// Reserved words: cannot be bare identifiers or aliases. Sorted.
constexpr std::string_view kReserved[] = {
    "ALL",     "ALTER",   "AND",     "ARRAY",     "AS",         "BETWEEN",
    "CASE",    "CAST",    "CHECK",   "COLLATE",   "CONSTRAINT", "CREATE",
    "CROSS",   "DEFAULT", "DELETE",  "DISTINCT",  "DROP",       "ELSE",
    "ESCAPE",  "EXCEPT",  "EXISTS",  "FALSE",     "FOREIGN",    "FROM",
    "FULL",    "GLOB",    "GROUP",   "HAVING",    "IF",         "IN",
    "INDEX",   "INNER",   "INSERT",  "INTERSECT", "INTO",       "IS",
    "ISNULL",  "JOIN",    "LEFT",    "LIKE",      "LIMIT",      "MATCH",
    "NATURAL", "NOT",     "NOTNULL", "NULL",      "OFFSET",     "ON",
    "OR",      "ORDER",   "OUTER",   "PRIMARY",   "REFERENCES", "REGEXP",
    "RIGHT",   "SELECT",  "SET",     "TABLE",     "THEN",       "TRUE",
    "UNION",   "UNIQUE",  "UPDATE",  "USING",     "VALUES",     "WHEN",
    "WHERE",   "WINDOW",  "WITH",
};

bool IsReservedSpan(Iter p, size_t n) {
  char buf[12];
  if (n > sizeof(buf) || n < 2) return false;
  for (size_t i = 0; i < n; ++i) buf[i] = Upper(p[i]);
  return std::binary_search(std::begin(kReserved), std::end(kReserved),
                            std::string_view(buf, n));
}

// A number at `p` (a digit, or `.` and a digit). See ScanLiteral.
Iter ScanNumber(Iter p, Iter end, Value* out, bool* big, const char** error) {
  Iter q = p;
  if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
      IsHex(p[2])) {
    q = p + 2;
    uint64_t v = 0;
    int digits = 0;
    for (; q != end && IsHex(*q); ++q) {
      int d = Nibble(*q);
      if (v != 0 || d != 0) ++digits;
      v = v << 4 | d;
    }
    if (q != end && IsIdentChar(*q)) return nullptr;
    if (digits > 16) {
      *error = "hexadecimal literal of at most 16 digits";
      return nullptr;
    }
    *out = Value::Int(static_cast<int64_t>(v));  // two's complement
    return q;
  }
  bool integer = true;
  while (q != end && IsDigit(*q)) ++q;
  if (q != end && *q == '.') {
    integer = false;
    ++q;
    while (q != end && IsDigit(*q)) ++q;
  }
  if (q != end && (*q == 'e' || *q == 'E')) {
    Iter r = q + 1;
    if (r != end && (*r == '+' || *r == '-')) ++r;
    if (r == end || !IsDigit(*r)) return nullptr;
    while (r != end && IsDigit(*r)) ++r;
    integer = false;
    q = r;
  }
  if (q != end && IsIdentChar(*q)) return nullptr;
  if (integer) {
    uint64_t v = 0;
    bool overflow = false;
    for (Iter r = p; r != q; ++r) {
      unsigned d = *r - '0';
      if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) {
        overflow = true;
        break;
      }
      v = v * 10 + d;
    }
    if (!overflow && v <= static_cast<uint64_t>(INT64_MAX)) {
      *out = Value::Int(static_cast<int64_t>(v));
      return q;
    }
    *big = !overflow && v == static_cast<uint64_t>(INT64_MAX) + 1;
  }
  double d = 0;
  auto [ptr, ec] = std::from_chars(p, q, d);
  if (ec != std::errc() || ptr != q) {
    // Out of range: strtod gives +-HUGE_VAL or 0 like SQLite.
    d = std::strtod(std::string(p, q).c_str(), nullptr);
  }
  *out = Value::Real(d);
  return q;
}

// x'..' at `p` (the x). See ScanLiteral.
Iter ScanBlob(Iter p, Iter end, Value* out, const char** error) {
  std::string hex;
  Iter q = ScanQuoted(p + 1, end, &hex);
  if (q == nullptr) return nullptr;
  std::string bytes;
  bool ok = hex.size() % 2 == 0;
  for (size_t i = 0; ok && i < hex.size(); i += 2) {
    ok = IsHex(hex[i]) && IsHex(hex[i + 1]);
    bytes.push_back(
        static_cast<char>(Nibble(hex[i]) << 4 | Nibble(hex[i + 1])));
  }
  if (!ok) {
    *error = "blob literal of hexadecimal digit pairs";
    return nullptr;
  }
  *out = Value::Blob(std::move(bytes));
  return q;
}

}  // namespace

Iter SkipBlanksSlow(Iter p, Iter end) {
  for (;;) {
    while (p != end && IsSpace(*p)) ++p;
    if (end - p < 2) return p;
    if (p[0] == '-' && p[1] == '-') {
      p = static_cast<Iter>(std::memchr(p, '\n', end - p));
      if (p == nullptr) return end;
    } else if (p[0] == '/' && p[1] == '*') {
      Iter q = p + 2;
      while (end - q >= 2 && !(q[0] == '*' && q[1] == '/')) ++q;
      p = end - q >= 2 ? q + 2 : end;
    } else {
      return p;
    }
  }
}

Iter ScanQuoted(Iter p, Iter end, std::string* out) {
  const char quote = *p++;
  for (;;) {
    Iter q = static_cast<Iter>(std::memchr(p, quote, end - p));
    if (q == nullptr) return nullptr;
    if (out) out->append(p, q);
    if (q + 1 != end && q[1] == quote) {
      if (out) out->push_back(quote);
      p = q + 2;
      continue;
    }
    return q + 1;
  }
}

Iter ScanIdentifier(Iter p, Iter end, bool any_word, std::string* text) {
  if (p == end) return nullptr;
  if (*p == '"') {
    Iter q = ScanQuoted(p, end, text);
    return q == nullptr || text->empty() ? nullptr : q;
  }
  if (!IsIdentStart(*p)) return nullptr;
  Iter q = ScanWord(p + 1, end);
  if (!any_word && IsReservedSpan(p, q - p)) return nullptr;
  text->resize(q - p);
  for (size_t i = 0; i < text->size(); ++i) (*text)[i] = Lower(p[i]);
  return q;
}

Iter ScanLiteral(Iter p, Iter end, Value* value, bool* big,
                 const char** error) {
  *big = false;
  if (p == end) return nullptr;
  char c = *p;
  if (IsDigit(c) || (c == '.' && end - p > 1 && IsDigit(p[1]))) {
    return ScanNumber(p, end, value, big, error);
  }
  if (c == '\'') {
    std::string text;
    Iter q = ScanQuoted(p, end, &text);
    if (q != nullptr) *value = Value::Text(std::move(text));
    return q;
  }
  if ((c == 'x' || c == 'X') && end - p > 1 && p[1] == '\'') {
    return ScanBlob(p, end, value, error);
  }
  if (!IsIdentStart(c)) return nullptr;
  Iter q = ScanWord(p, end);
  if (ScanKeyword(p, q, "NULL") == q) {
    *value = Value::Null();
  } else if (ScanKeyword(p, q, "TRUE") == q) {
    *value = Value::Bool(true);
  } else if (ScanKeyword(p, q, "FALSE") == q) {
    *value = Value::Bool(false);
  } else {
    return nullptr;
  }
  return q;
}

std::optional<Type> TypeFromWord(std::string_view w) {
  if (w == "INTEGER" || w == "INT" || w == "BIGINT") return Type::kInteger;
  if (w == "REAL" || w == "FLOAT" || w == "DOUBLE") return Type::kReal;
  if (w == "TEXT" || w == "VARCHAR") return Type::kText;
  if (w == "BLOB") return Type::kBlob;
  if (w == "BOOLEAN") return Type::kBoolean;
  if (w == "TIMESTAMP") return Type::kTimestamp;
  return std::nullopt;
}

bool IsReservedWord(std::string_view word) {
  return IsReservedSpan(word.data(), word.size());
}

ScriptScan ScanScript(std::string_view sql) {
  ScriptScan scan;
  Iter p = sql.data();
  Iter end = p + sql.size();
  StatementSpan span;
  span.start = p;
  auto fail = [&](LexError error, Iter at) {
    scan.error = error;
    scan.error_at = at;
    scan.statements.push_back(span);
    return scan;
  };
  for (;;) {
    // Blanks and comments (SkipBlanks would run an unterminated one out).
    while (p != end) {
      if (IsSpace(*p)) {
        ++p;
      } else if (*p == '-' && end - p >= 2 && p[1] == '-') {
        p = static_cast<Iter>(std::memchr(p, '\n', end - p));
        if (p == nullptr) p = end;
      } else if (*p == '/' && end - p >= 2 && p[1] == '*') {
        Iter q = p + 2;
        while (end - q >= 2 && !(q[0] == '*' && q[1] == '/')) ++q;
        if (end - q < 2) return fail(LexError::kUnterminatedComment, p);
        p = q + 2;
      } else {
        break;
      }
    }
    if (p == end) break;
    char c = *p;
    if (c == ';') {
      span.semicolon = p;
      scan.statements.push_back(span);
      span = StatementSpan();
      span.start = ++p;
      continue;
    }
    if (span.first == nullptr) span.first = p;
    if (c == '\'' || c == '"') {
      Iter q = ScanQuoted(p, end, nullptr);
      if (q == nullptr) {
        span.last = end;
        return fail(c == '\'' ? LexError::kUnterminatedString
                              : LexError::kUnterminatedIdentifier,
                    p);
      }
      p = span.last = q;
      continue;
    }
    do {
      ++p;
    } while (p != end && IsIdentChar(*p) && IsIdentChar(p[-1]));
    span.last = p;
  }
  scan.statements.push_back(span);
  return scan;
}

bool IsComplete(std::string_view sql) {
  ScriptScan scan = ScanScript(sql);
  return scan.error == LexError::kNone && scan.statements.size() > 1 &&
         scan.statements.back().first == nullptr;
}

std::string QuoteIdentifier(std::string_view name) {
  bool plain = !name.empty() && !IsDigit(name[0]) && !IsReservedWord(name);
  for (char c : name) {
    plain = plain && ((c >= 'a' && c <= 'z') || IsDigit(c) || c == '_');
  }
  if (plain) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace levelql::parser
