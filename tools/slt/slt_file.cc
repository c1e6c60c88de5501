#include "tools/slt/slt_file.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <utility>

namespace levelql::slt {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool IsBlank(std::string_view s) {
  for (char c : s) {
    if (!IsSpace(c)) return false;
  }
  return true;
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  return s;
}

// Splits off the first whitespace-separated token of `*rest`.
std::string_view NextToken(std::string_view* rest) {
  std::string_view s = TrimLeft(*rest);
  size_t n = 0;
  while (n < s.size() && !IsSpace(s[n])) ++n;
  *rest = s.substr(n);
  return s.substr(0, n);
}

// One non-comment line of a record.
struct Line {
  std::string_view text;  // without the newline and a trailing '\r'
  int number = 0;         // 1-based
  size_t begin = 0;       // offset of the first byte
  size_t next = 0;        // offset just past the newline (or end of text)
};

// Interprets the lines of one record; lines[0] is its first line.
Record ParseRecord(const std::vector<Line>& lines) {
  Record rec;
  size_t i = 0;
  // Conditions prefix the command.
  for (; i < lines.size(); ++i) {
    std::string_view rest = lines[i].text;
    std::string_view word = NextToken(&rest);
    if (word != "skipif" && word != "onlyif") break;
    std::string_view engine = NextToken(&rest);
    if (engine.empty()) {
      rec.line = lines[i].number;
      rec.error = std::string(word) + " without an engine name";
      return rec;
    }
    rec.conditions.push_back({word == "onlyif", std::string(engine)});
  }
  if (i == lines.size()) {
    rec.line = lines.back().number;
    rec.error = "condition not followed by a record";
    return rec;
  }

  rec.line = lines[i].number;
  std::string_view rest = lines[i].text;
  std::string_view word = NextToken(&rest);
  ++i;

  // The SQL of statements and queries: lines up to the end or `----`.
  auto take_sql = [&](bool stop_at_separator) {
    for (; i < lines.size(); ++i) {
      if (stop_at_separator && TrimRight(lines[i].text) == "----") break;
      if (!rec.sql.empty()) rec.sql += '\n';
      rec.sql += lines[i].text;
    }
    return !rec.sql.empty();
  };

  if (word == "statement") {
    std::string_view mode = NextToken(&rest);
    if (mode == "ok") {
      rec.kind = RecordKind::kStatementOk;
      if (!NextToken(&rest).empty()) {
        rec.kind = RecordKind::kInvalid;
        rec.error = "unexpected text after 'statement ok'";
        return rec;
      }
    } else if (mode == "error") {
      rec.kind = RecordKind::kStatementError;
      rec.error_pattern = std::string(TrimRight(TrimLeft(rest)));
    } else {
      rec.error = "expected 'statement ok' or 'statement error'";
      return rec;
    }
    if (!take_sql(false)) {
      rec.kind = RecordKind::kInvalid;
      rec.error = "statement without SQL";
    }
    return rec;
  }

  if (word == "query") {
    std::string_view types = NextToken(&rest);
    if (types.empty()) {
      rec.error = "query without a type string";
      return rec;
    }
    if (types != "explain") {
      for (char c : types) {
        if (c != 'I' && c != 'R' && c != 'T') {
          rec.error = "unknown column type '" + std::string(1, c) +
                      "' in type string '" + std::string(types) + "'";
          return rec;
        }
      }
    }
    rec.types = std::string(types);
    for (std::string_view tok = NextToken(&rest); !tok.empty();
         tok = NextToken(&rest)) {
      if (tok == "nosort") {
        rec.sort = SortMode::kNoSort;
      } else if (tok == "rowsort") {
        rec.sort = SortMode::kRowSort;
      } else if (tok == "valuesort") {
        rec.sort = SortMode::kValueSort;
      } else if (rec.label.empty()) {
        rec.label = std::string(tok);
      } else {
        rec.error = "unexpected '" + std::string(tok) + "' after the label";
        return rec;
      }
    }
    if (!take_sql(true)) {
      rec.error = "query without SQL";
      return rec;
    }
    rec.kind = RecordKind::kQuery;
    if (i < lines.size()) {  // at `----`
      rec.has_separator = true;
      rec.result_begin = lines[i].next;
      rec.result_end = lines.back().next;
      for (++i; i < lines.size(); ++i) {
        rec.expected.emplace_back(lines[i].text);
      }
    } else {
      rec.result_begin = rec.result_end = lines.back().next;
    }
    return rec;
  }

  if (word == "hash-threshold") {
    std::string_view num = NextToken(&rest);
    int value = 0;
    auto [end, ec] =
        std::from_chars(num.data(), num.data() + num.size(), value);
    if (num.empty() || ec != std::errc() || end != num.data() + num.size() ||
        value < 0 || !NextToken(&rest).empty()) {
      rec.error = "hash-threshold needs a non-negative integer";
      return rec;
    }
    rec.kind = RecordKind::kHashThreshold;
    rec.hash_threshold = value;
    return rec;
  }

  if (word == "halt") {
    rec.kind = RecordKind::kHalt;
    return rec;
  }

  rec.error = "unknown record type '" + std::string(word) + "'";
  return rec;
}

}  // namespace

Script ParseScript(std::string path, std::string text) {
  Script script;
  script.path = std::move(path);
  script.text = std::move(text);
  const std::string_view all = script.text;

  std::vector<Line> lines;  // of the current record
  size_t pos = 0;
  int number = 0;
  auto flush = [&] {
    if (!lines.empty()) script.records.push_back(ParseRecord(lines));
    lines.clear();
  };
  while (pos < all.size()) {
    size_t nl = all.find('\n', pos);
    size_t end = nl == std::string_view::npos ? all.size() : nl;
    Line line;
    line.number = ++number;
    line.begin = pos;
    line.next = nl == std::string_view::npos ? all.size() : nl + 1;
    line.text = all.substr(pos, end - pos);
    if (!line.text.empty() && line.text.back() == '\r') {
      line.text.remove_suffix(1);
    }
    pos = line.next;

    if (!line.text.empty() && line.text[0] == '#') continue;
    if (IsBlank(line.text)) {
      flush();
      continue;
    }
    lines.push_back(line);
  }
  flush();
  return script;
}

Result<Script> ReadScript(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status::IOError(path + ": " + std::strerror(errno));
  }
  std::string text;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) text.append(buf, n);
  bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return Status::IOError(path + ": read error");
  return ParseScript(path, std::move(text));
}

}  // namespace levelql::slt
