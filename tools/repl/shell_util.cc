#include "tools/repl/shell_util.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace levelql::repl::shell_util {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() &&
         Lower(s.substr(0, prefix.size())) == Lower(prefix);
}

// Splits a dot-command line into words; '...' and "..." group words (a
// doubled quote inside stands for one).
std::vector<Token> Tokenize(std::string_view line) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < line.size()) {
    if (std::isspace(static_cast<unsigned char>(line[i]))) {
      ++i;
      continue;
    }
    Token t{"", i};
    if (line[i] == '\'' || line[i] == '"') {
      char q = line[i++];
      while (i < line.size()) {
        if (line[i] == q) {
          if (i + 1 < line.size() && line[i + 1] == q) {
            t.text += q;
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        t.text += line[i++];
      }
    } else {
      while (i < line.size() &&
             !std::isspace(static_cast<unsigned char>(line[i]))) {
        t.text += line[i++];
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

// SQL LIKE, case-insensitive for ASCII: % any run, _ one byte.
bool LikeMatch(std::string_view pattern, std::string_view text) {
  if (pattern.empty()) return text.empty();
  if (pattern[0] == '%') {
    for (size_t i = 0; i <= text.size(); ++i) {
      if (LikeMatch(pattern.substr(1), text.substr(i))) return true;
    }
    return false;
  }
  if (text.empty()) return false;
  if (pattern[0] != '_' &&
      std::tolower(static_cast<unsigned char>(pattern[0])) !=
          std::tolower(static_cast<unsigned char>(text[0]))) {
    return false;
  }
  return LikeMatch(pattern.substr(1), text.substr(1));
}

// A name `.param set` accepts: [A-Za-z_][A-Za-z0-9_]*, with or without the
// colon (stripped before).
bool IsParameterName(std::string_view name) {
  auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), word);
}

std::optional<bool> ParseBool(std::string_view s) {
  std::string l = Lower(s);
  if (l == "on" || l == "1" || l == "yes" || l == "true") return true;
  if (l == "off" || l == "0" || l == "no" || l == "false") return false;
  return std::nullopt;
}

std::string_view TrimView(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
    s.remove_prefix(1);
  }
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  return s;
}

// A .param VALUE as a Value: an SQL literal (integer, real, 'text', NULL,
// TRUE/FALSE, x'hex'), else the text itself.
Value ParseParamValue(std::string_view text) {
  text = TrimView(text);
  int64_t i;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
  if (!text.empty() && ec == std::errc() && ptr == text.data() + text.size()) {
    return Value::Int(i);
  }
  if (Lower(text) == "null") return Value::Null();
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
    std::string inner;
    bool literal = true;
    for (size_t k = 1; k + 1 < text.size(); ++k) {
      if (text[k] == '\'') {
        if (text[k + 1] != '\'' || k + 2 == text.size()) literal = false;
        ++k;
      }
      inner += text[k];
    }
    if (literal) return Value::Text(inner);
  }
  std::string l = Lower(text);
  if (l == "true" || l == "false") return Value::Bool(l == "true");
  if (l.size() >= 3 && l.starts_with("x'") && l.ends_with('\'') &&
      l.size() % 2 == 1 &&
      l.find_first_not_of("0123456789abcdef", 2) == l.size() - 1) {
    std::string bytes;
    for (size_t k = 2; k + 1 < l.size(); k += 2) {
      bytes += static_cast<char>(std::stoi(l.substr(k, 2), nullptr, 16));
    }
    return Value::Blob(bytes);
  }
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  double d = std::strtod(s.c_str(), &end);
  if (!s.empty() && end == s.c_str() + s.size() && errno == 0 &&
      s.find_first_of("0123456789") != std::string::npos &&
      s.find_first_of("xXpP") == std::string::npos) {
    return Value::Real(d);
  }
  return Value::Text(s);
}

}  // namespace levelql::repl::shell_util
