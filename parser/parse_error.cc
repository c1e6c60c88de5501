#include "parser/parse_error.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace levelql::parser {
namespace {

// The token at `p`, for "near ...".
std::string Near(Iter p, Iter end) {
  if (p == end) return "end of input";
  Iter q = p;
  if ((*p == 'x' || *p == 'X') && end - p > 1 && p[1] == '\'') {
    q = ScanQuoted(p + 1, end, nullptr);
    if (q == nullptr) q = end;
  } else if (IsIdentChar(*p) || *p == '.' || *p == '?' || *p == ':') {
    do {
      ++q;
    } while (q != end && (IsIdentChar(*q) || *q == '.'));
  } else if (*p == '\'' || *p == '"') {
    q = ScanQuoted(p, end, nullptr);
    if (q == nullptr) q = end;
  } else {
    static constexpr std::string_view kTwo[] = {"<=", ">=", "<>",
                                                "!=", "==", "||"};
    q = p + 1;
    for (std::string_view t : kTwo) {
      if (end - p >= 2 && std::string_view(p, 2) == t) q = p + 2;
    }
  }
  std::string tok;
  for (Iter r = p; r != q && r != p + 40; ++r) {
    if (static_cast<unsigned char>(*r) < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      tok += {'\\', 'x', kHex[*r >> 4], kHex[*r & 15]};
    } else {
      tok += *r;
    }
  }
  if (q - p > 40) tok += "...";
  return "\"" + tok + "\"";
}

// "\n<source line>\n<caret under p>", a window of the line when it is long.
std::string Excerpt(const SourceMap& map, Iter p) {
  std::string_view line = map.LineOf(p);
  size_t col = std::min<size_t>(p - line.data(), line.size());
  size_t from = col > 60 ? col - 60 : 0;
  size_t to = std::min(line.size(), col + 60);
  std::string out = "\n";
  if (from > 0) out += "...";
  for (char c : line.substr(from, to - from)) {
    out += static_cast<unsigned char>(c) < 0x20 && c != '\t' ? ' ' : c;
  }
  if (to < line.size()) out += "...";
  out += '\n';
  if (from > 0) out += "   ";
  for (size_t i = from; i < col; ++i) {
    char c = line[i];
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) continue;  // UTF-8
    out += c == '\t' ? '\t' : ' ';
  }
  out += '^';
  return out;
}

// "a or b or c" -> "a, b or c".
std::string Tidy(std::string what) {
  for (size_t i = what.find(" or ");
       i != std::string::npos && what.find(" or ", i + 4) != std::string::npos;
       i = what.find(" or ", i)) {
    what.replace(i, 4, ", ");
  }
  return what;
}

// Keywords that start constructs outside the dialect, for syntax errors at
// places the grammar does not check explicitly.
const char* UnsupportedAt(Iter p, Iter end) {
  Iter q = ScanWord(p, end);
  std::string w(q - p, ' ');
  for (size_t i = 0; i < w.size(); ++i) w[i] = Upper(p[i]);
  static constexpr std::pair<std::string_view, const char*> kWords[] = {
      {"JOIN", "JOIN"},
      {"INNER", "JOIN"},
      {"LEFT", "JOIN"},
      {"RIGHT", "JOIN"},
      {"FULL", "JOIN"},
      {"CROSS", "JOIN"},
      {"NATURAL", "JOIN"},
      {"OUTER", "JOIN"},
      {"WINDOW", "window function"},
      {"OVER", "window function"},
      {"RETURNING", "RETURNING"},
      {"EXISTS", "EXISTS"},
      {"GLOB", "GLOB"},
      {"REGEXP", "REGEXP"},
      {"MATCH", "MATCH"},
  };
  for (const auto& [word, construct] : kWords) {
    if (w != word) continue;
    Iter next = SkipBlanks(q, end);
    if (w == "OVER" && (next == end || *next != '(')) return nullptr;
    return construct;
  }
  return nullptr;
}

}  // namespace

SourceMap::SourceMap(std::string_view text)
    : begin_(text.data()), end_(text.data() + text.size()) {
  line_starts_.push_back(0);
  for (Iter p = begin_;;) {
    p = static_cast<Iter>(std::memchr(p, '\n', end_ - p));
    if (p == nullptr) break;
    ++p;
    line_starts_.push_back(p - begin_);
  }
}

Position SourceMap::At(Iter p) const {
  size_t offset = p - begin_;
  size_t line =
      std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) -
      line_starts_.begin();
  return Position{static_cast<int>(line),
                  static_cast<int>(offset - line_starts_[line - 1] + 1)};
}

std::string_view SourceMap::LineOf(Iter p) const {
  size_t line = At(p).line;
  Iter b = begin_ + line_starts_[line - 1];
  Iter e = end_;
  if (line < line_starts_.size()) {
    e = begin_ + line_starts_[line] - 1;  // the \n
    if (e != b && e[-1] == '\r') --e;
  }
  return std::string_view(b, e - b);
}

std::string Place(Position pos) {
  return "at " + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

Status ExpectationStatus(const SourceMap& map, Iter where, Iter end,
                         const std::string& expected) {
  Iter p = SkipBlanks(where, end);
  std::string place = Place(map.At(p));
  if (const char* construct = UnsupportedAt(p, end)) {
    return Status::NotSupported(place + ": " + construct);
  }
  return Status::SyntaxError(place + ": expected " + Tidy(expected) + " near " +
                             Near(p, end) + Excerpt(map, p));
}

Status ParseErrorStatus(const SourceMap& map, const ParseError& error,
                        Iter end) {
  Iter p = error.where ? SkipBlanks(error.where, end) : nullptr;
  std::string place = Place(p ? map.At(p) : error.pos);
  switch (error.code) {
    case Status::Code::kSyntaxError:
      return Status::SyntaxError(place + ": expected " + error.message +
                                 " near " + Near(p, end) + Excerpt(map, p));
    case Status::Code::kNotSupported:
      return Status::NotSupported(place + ": " + error.message);
    default:
      return Status::LimitExceeded(place + ": " + error.message);
  }
}

Status LexErrorStatus(const SourceMap& map, LexError error, Iter at) {
  const char* what = error == LexError::kUnterminatedComment
                         ? ": unterminated block comment"
                     : error == LexError::kUnterminatedString
                         ? ": unterminated string literal"
                         : ": unterminated quoted identifier";
  return Status::SyntaxError(Place(map.At(at)) + what + Excerpt(map, at));
}

Status ExtraStatementStatus(const SourceMap& map, Iter at) {
  return Status::SyntaxError(Place(map.At(at)) +
                             ": expected one statement near " +
                             Near(at, map.end()) + Excerpt(map, at));
}

}  // namespace levelql::parser
