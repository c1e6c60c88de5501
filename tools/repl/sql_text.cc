#include "tools/repl/sql_text.h"

#include <cctype>

namespace levelql::repl {
namespace {

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Walks SQL text token-boundary by token-boundary. For every position in
// "code" (outside strings, quoted identifiers and comments) it calls
// on_code(i); it reports whether the text ended inside an open construct.
class Scanner {
 public:
  explicit Scanner(std::string_view sql) : sql_(sql) {}

  // Calls f(i) for each byte index i that is code. Returns the kind of
  // construct still open at the end ('\0' when none).
  template <typename F>
  char Scan(F&& f) const {
    size_t i = 0;
    const size_t n = sql_.size();
    while (i < n) {
      char c = sql_[i];
      if (c == '\'' || c == '"') {
        size_t j = i + 1;
        for (;;) {
          if (j >= n) return c;
          if (sql_[j] == c) {
            if (j + 1 < n && sql_[j + 1] == c) {
              j += 2;
              continue;
            }
            break;
          }
          ++j;
        }
        i = j + 1;
        continue;
      }
      if (c == '-' && i + 1 < n && sql_[i + 1] == '-') {
        size_t j = sql_.find('\n', i);
        if (j == std::string_view::npos) return '\0';
        i = j + 1;
        continue;
      }
      if (c == '/' && i + 1 < n && sql_[i + 1] == '*') {
        size_t j = sql_.find("*/", i + 2);
        if (j == std::string_view::npos) return '*';
        i = j + 2;
        continue;
      }
      if (!f(i)) return '\0';
      ++i;
    }
    return '\0';
  }

 private:
  std::string_view sql_;
};

std::string_view Trim(std::string_view s) {
  size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  size_t e = s.size();
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

}  // namespace

std::vector<std::string> SplitStatements(std::string_view sql) {
  std::vector<std::string> out;
  size_t start = 0;
  auto emit = [&](size_t end) {
    std::string_view piece = Trim(sql.substr(start, end - start));
    std::string_view body = piece;
    if (body.ends_with(';')) body.remove_suffix(1);
    if (!IsBlankSql(body)) out.emplace_back(piece);
    start = end;
  };
  Scanner(sql).Scan([&](size_t i) {
    if (sql[i] == ';') emit(i + 1);
    return true;
  });
  if (start < sql.size()) {
    std::string_view rest = Trim(sql.substr(start));
    if (!rest.empty() && !IsBlankSql(rest, /*allow_open_comment=*/true)) {
      out.emplace_back(rest);
    }
  }
  return out;
}

bool IsBlankSql(std::string_view sql, bool allow_open_comment) {
  bool blank = true;
  char open = Scanner(sql).Scan([&](size_t i) {
    if (!std::isspace(static_cast<unsigned char>(sql[i]))) {
      blank = false;
      return false;
    }
    return true;
  });
  if (open == '\'' || open == '"') return false;
  if (open == '*' && !allow_open_comment) return false;
  return blank;
}

std::string FirstKeyword(std::string_view sql) {
  std::string word;
  Scanner(sql).Scan([&](size_t i) {
    char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c)) && word.empty()) {
      return true;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) return false;
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return true;
  });
  return word;
}

std::set<std::string> NamedParameters(std::string_view sql) {
  std::set<std::string> names;
  size_t skip_until = 0;
  Scanner(sql).Scan([&](size_t i) {
    if (i < skip_until || sql[i] != ':') return true;
    size_t j = i + 1;
    if (j >= sql.size() || !IsIdentStart(sql[j])) return true;
    while (j < sql.size() && IsIdentChar(sql[j])) ++j;
    names.emplace(sql.substr(i + 1, j - i - 1));
    skip_until = j;
    return true;
  });
  return names;
}

std::string QuoteIdentifier(std::string_view name) {
  bool plain = !name.empty() && IsIdentStart(name[0]);
  for (char c : name) plain = plain && IsIdentChar(c);
  if (plain) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace levelql::repl
