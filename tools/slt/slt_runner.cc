#include "tools/slt/slt_runner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <regex>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "tools/slt/md5.h"

namespace levelql::slt {
namespace {

// ---- Value rendering -------------------------------------------------------

// sqlite3Isspace.
bool IsSqlSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
         c == '\r';
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// sqlite3_column_int on TEXT: the leading integer prefix (after whitespace and
// a sign), saturating at the int64 limits; 0 when there is none.
int64_t TextToInt(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && IsSqlSpace(s[i])) ++i;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  constexpr uint64_t kLimit = uint64_t{1} << 63;  // |INT64_MIN|
  uint64_t magnitude = 0;
  for (; i < s.size() && IsDigit(s[i]); ++i) {
    magnitude = magnitude * 10 + static_cast<uint64_t>(s[i] - '0');
    if (magnitude > kLimit) {
      return negative ? std::numeric_limits<int64_t>::min()
                      : std::numeric_limits<int64_t>::max();
    }
  }
  if (negative) {
    return magnitude == kLimit ? std::numeric_limits<int64_t>::min()
                               : -static_cast<int64_t>(magnitude);
  }
  return magnitude == kLimit ? std::numeric_limits<int64_t>::max()
                             : static_cast<int64_t>(magnitude);
}

// sqlite3_column_double on TEXT: the leading decimal number, 0.0 if none.
double TextToReal(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && IsSqlSpace(s[i])) ++i;
  size_t start = i;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  size_t digits = 0;
  for (; i < s.size() && IsDigit(s[i]); ++i) ++digits;
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && IsDigit(s[i]); ++i) ++digits;
  }
  if (digits == 0) return 0.0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    if (j < s.size() && IsDigit(s[j])) {
      while (j < s.size() && IsDigit(s[j])) ++j;
      i = j;
    }
  }
  std::string number(s.substr(start, i - start));
  return std::strtod(number.c_str(), nullptr);
}

// sqlite3_column_int on REAL: truncation toward zero, saturating.
int64_t RealToInt(double d) {
  if (std::isnan(d)) return 0;
  if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(d);
}

// SQLite's printf for a double, ported from sqlite3_str_vappendf (SQLite
// 3.8 - 3.42, the versions that computed the sqllogictest answers' kin): the
// value is normalized to [1, 10) in long double, rounded by adding half a unit
// in the last place kept (plus a 3e-16 relative nudge for %f), and at most
// 16 significant digits are produced - later ones print as '0'. `fixed`
// selects %.<precision>f, otherwise %!.<precision>g (always a '.' and a
// digit after it, trailing zeros removed).
std::string SqlitePrintf(double value, bool fixed, int precision) {
  using LongDouble = long double;
  static const double kRound[] = {5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05,
                                  5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10};
  if (std::isnan(value)) return "NaN";
  const bool alt_form2 = !fixed;  // the '!' flag of %!.15g
  LongDouble real = value;
  std::string out;
  if (real < 0.0) {  // so -0.0 prints without a sign
    real = -real;
    out += '-';
  }
  if (!fixed && precision > 0) --precision;
  int idx = precision & 0xfff;
  LongDouble rounder = kRound[idx % 10];
  for (; idx >= 10; idx -= 10) rounder *= 1.0e-10;
  if (fixed) {
    double rx = static_cast<double>(real);
    uint64_t bits;
    std::memcpy(&bits, &rx, sizeof(bits));
    int ex = -1023 + static_cast<int>((bits >> 52) & 0x7ff);
    if (precision + ex / 3 < 15) rounder += real * 3e-16;
    real += rounder;
  }
  int exp = 0;
  if (real > 0.0) {
    LongDouble scale = 1.0;
    while (real >= 1e100 * scale && exp <= 350) scale *= 1e100, exp += 100;
    while (real >= 1e10 * scale && exp <= 350) scale *= 1e10, exp += 10;
    while (real >= 10.0 * scale && exp <= 350) scale *= 10.0, exp++;
    real /= scale;
    while (real < 1e-8) real *= 1e8, exp -= 8;
    while (real < 1.0) real *= 10.0, exp--;
    if (exp > 350) return out + "Inf";
  }
  bool exponent_form = false;
  bool strip_zeros = alt_form2;
  if (!fixed) {
    real += rounder;
    if (real >= 10.0) {
      real *= 0.1;
      exp++;
    }
    strip_zeros = true;
    if (exp < -4 || exp > precision) {
      exponent_form = true;
    } else {
      precision -= exp;
    }
  }
  int e2 = exponent_form ? 0 : exp;
  int significant = 16 + (alt_form2 ? 10 : 0);
  auto next_digit = [&]() -> char {
    if (significant <= 0) return '0';
    --significant;
    int digit = static_cast<int>(real);
    real = (real - digit) * 10.0;
    return static_cast<char>('0' + digit);
  };
  const bool point = precision > 0 || alt_form2;
  if (e2 < 0) {
    out += '0';
  } else {
    for (; e2 >= 0; e2--) out += next_digit();
  }
  if (point) out += '.';
  for (e2++; e2 < 0; precision--, e2++) out += '0';
  while (precision-- > 0) out += next_digit();
  if (strip_zeros && point) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') {
      if (alt_form2) {
        out += '0';
      } else {
        out.pop_back();
      }
    }
  }
  if (exponent_form) {
    out += 'e';
    out += exp < 0 ? '-' : '+';
    exp = std::abs(exp);
    if (exp >= 100) {
      out += static_cast<char>('0' + exp / 100);
      exp %= 100;
    }
    out += static_cast<char>('0' + exp / 10);
    out += static_cast<char>('0' + exp % 10);
  }
  return out;
}

// ---- Results ---------------------------------------------------------------

bool IsBlankChar(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsBlankChar(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsBlankChar(s.back())) s.remove_suffix(1);
  return s;
}

// Whitespace-separated tokens of `s` joined by single spaces.
std::string NormalizeSpaces(std::string_view s) {
  std::string out;
  size_t i = 0;
  while (true) {
    while (i < s.size() && IsBlankChar(s[i])) ++i;
    if (i == s.size()) break;
    if (!out.empty()) out += ' ';
    while (i < s.size() && !IsBlankChar(s[i])) out += s[i++];
  }
  return out;
}

size_t CountTokens(std::string_view s) {
  size_t n = 0;
  bool in_token = false;
  for (char c : s) {
    bool blank = IsBlankChar(c);
    if (!blank && !in_token) ++n;
    in_token = !blank;
  }
  return n;
}

// "<n> values hashing to <32 hex digits>"
bool IsHashLine(std::string_view line) {
  line = Trim(line);
  size_t n = 0;
  while (n < line.size() && IsDigit(line[n])) ++n;
  constexpr std::string_view kMiddle = " values hashing to ";
  if (n == 0 || line.substr(n, kMiddle.size()) != kMiddle) return false;
  std::string_view hex = line.substr(n + kMiddle.size());
  if (hex.size() != 32) return false;
  return std::all_of(hex.begin(), hex.end(), [](char c) {
    return IsDigit(c) || (c >= 'a' && c <= 'f');
  });
}

std::string ValuesHash(const std::vector<std::string>& values) {
  Md5 md5;
  for (const std::string& v : values) {
    md5.Update(v);
    md5.Update("\n");
  }
  return md5.FinishHex();
}

// Sorts rendered values as sqllogictest does: rows (groups of `columns`
// values) compared column by column with strcmp, or every value on its own.
void SortValues(std::vector<std::string>* values, size_t columns,
                SortMode mode) {
  if (mode == SortMode::kNoSort || values->size() < 2) return;
  if (mode == SortMode::kValueSort || columns <= 1) {
    std::sort(values->begin(), values->end());
    return;
  }
  size_t rows = values->size() / columns;
  std::vector<size_t> order(rows);
  for (size_t r = 0; r < rows; ++r) order[r] = r;
  const std::vector<std::string>& v = *values;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    for (size_t c = 0; c < columns; ++c) {
      int cmp = v[a * columns + c].compare(v[b * columns + c]);
      if (cmp != 0) return cmp < 0;
    }
    return false;
  });
  std::vector<std::string> sorted;
  sorted.reserve(values->size());
  for (size_t r : order) {
    for (size_t c = 0; c < columns; ++c) {
      sorted.push_back(std::move((*values)[r * columns + c]));
    }
  }
  *values = std::move(sorted);
}

std::string OneLine(std::string_view sql, size_t max) {
  std::string out;
  for (char c : sql) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (out.size() > max) {
    out.resize(max);
    out += "...";
  }
  return out;
}

std::string Header(const Record& rec) {
  switch (rec.kind) {
    case RecordKind::kStatementOk:
      return "statement ok";
    case RecordKind::kStatementError:
      return rec.error_pattern.empty() ? "statement error"
                                       : "statement error " + rec.error_pattern;
    case RecordKind::kQuery: {
      std::string h = "query " + rec.types;
      if (rec.sort == SortMode::kRowSort) h += " rowsort";
      if (rec.sort == SortMode::kValueSort) h += " valuesort";
      if (!rec.label.empty()) h += " " + rec.label;
      return h;
    }
    case RecordKind::kHashThreshold:
      return "hash-threshold " + std::to_string(rec.hash_threshold);
    case RecordKind::kHalt:
      return "halt";
    case RecordKind::kInvalid:
      return "invalid record";
  }
  return "";
}

// ---- The runner ------------------------------------------------------------

class FileRunner {
 public:
  FileRunner(const Script& script, Database& db, const RunOptions& options,
             std::ostream& out)
      : script_(script), db_(db), options_(options), out_(out) {}

  RunResult Run();

 private:
  bool SkippedByCondition(const Record& rec) const;
  void RunStatement(const Record& rec);
  void RunQuery(const Record& rec);
  Status PageOneRowAtATime(const Record& rec, std::vector<std::string>* values);
  void RunExplain(const Record& rec);
  bool ErrorMatches(const std::string& pattern, const std::string& message);

  void Pass() { ++result_.stats.passed; }
  // Reports one failing record; the expected/got blocks are left out when
  // null.
  void Fail(const Record& rec, std::string_view what,
            const std::vector<std::string>* expected = nullptr,
            const std::vector<std::string>* got = nullptr);
  void Fail(const Record& rec, std::string_view what,
            const std::vector<std::string>& expected,
            const std::vector<std::string>& got) {
    Fail(rec, what, &expected, &got);
  }
  void PrintBlock(std::string_view title,
                  const std::vector<std::string>& lines);

  const Script& script_;
  Database& db_;
  const RunOptions& options_;
  std::ostream& out_;

  size_t hash_threshold_ = 0;  // 0: never hash
  bool halted_ = false;
  bool failed_ = false;
  struct LabelResult {
    std::string hash;
    int line;
  };
  std::unordered_map<std::string, LabelResult> labels_;
  // Compiled `statement error` patterns; nullopt if not a valid regex.
  std::unordered_map<std::string, std::optional<std::regex>> patterns_;
  struct Edit {
    size_t begin, end;
    std::string text;
  };
  std::vector<Edit> edits_;
  RunResult result_;
};

RunResult FileRunner::Run() {
  for (const Record& rec : script_.records) {
    if (options_.cancel != nullptr &&
        options_.cancel->load(std::memory_order_relaxed)) {
      result_.stopped = true;
      break;
    }
    bool counted = rec.kind == RecordKind::kStatementOk ||
                   rec.kind == RecordKind::kStatementError ||
                   rec.kind == RecordKind::kQuery ||
                   rec.kind == RecordKind::kInvalid;
    if (halted_ || SkippedByCondition(rec)) {
      if (counted) ++result_.stats.skipped;
      continue;
    }
    if (options_.verbose) {
      out_ << script_.path << ":" << rec.line << ": " << Header(rec);
      if (!rec.sql.empty()) out_ << ": " << OneLine(rec.sql, 200);
      out_ << std::endl;
    }
    switch (rec.kind) {
      case RecordKind::kStatementOk:
      case RecordKind::kStatementError:
        RunStatement(rec);
        break;
      case RecordKind::kQuery:
        if (rec.is_explain() && options_.skip_explain) {
          ++result_.stats.skipped;
        } else if (rec.is_explain()) {
          RunExplain(rec);
        } else {
          RunQuery(rec);
        }
        break;
      case RecordKind::kHashThreshold:
        hash_threshold_ = static_cast<size_t>(rec.hash_threshold);
        break;
      case RecordKind::kHalt:
        halted_ = true;
        break;
      case RecordKind::kInvalid:
        Fail(rec, rec.error);
        break;
    }
    if (failed_ && options_.stop_on_fail) {
      result_.stopped = true;
      break;
    }
  }

  if (!edits_.empty()) {
    const std::string& text = script_.text;
    std::string& out = result_.new_text;
    size_t pos = 0;
    for (const Edit& e : edits_) {
      out.append(text, pos, e.begin - pos);
      if (e.begin == text.size() && !text.empty() && text.back() != '\n') {
        out += '\n';
      }
      out += e.text;
      pos = e.end;
    }
    out.append(text, pos, std::string::npos);
    result_.rewritten = static_cast<int>(edits_.size());
  }
  return std::move(result_);
}

bool FileRunner::SkippedByCondition(const Record& rec) const {
  for (const Condition& c : rec.conditions) {
    if (c.only_if != (c.engine == options_.engine)) return true;
  }
  return false;
}

void FileRunner::RunStatement(const Record& rec) {
  Status s = db_.Execute(rec.sql);
  if (rec.kind == RecordKind::kStatementOk) {
    if (s.ok()) return Pass();
    return Fail(rec, "statement failed", {"ok"}, {s.ToString()});
  }
  std::string want = rec.error_pattern.empty()
                         ? "an error"
                         : "an error matching '" + rec.error_pattern + "'";
  if (s.ok()) return Fail(rec, "statement succeeded", {want}, {"ok"});
  std::string message = s.ToString();
  if (rec.error_pattern.empty() || ErrorMatches(rec.error_pattern, message)) {
    return Pass();
  }
  Fail(rec, "wrong error", {want}, {message});
}

bool FileRunner::ErrorMatches(const std::string& pattern,
                              const std::string& message) {
  if (message.find(pattern) != std::string::npos) return true;
  auto it = patterns_.find(pattern);
  if (it == patterns_.end()) {
    std::optional<std::regex> re;
    try {
      re.emplace(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      // Not a regex: the substring test above was the whole check.
    }
    it = patterns_.emplace(pattern, std::move(re)).first;
  }
  return it->second.has_value() && std::regex_search(message, *it->second);
}

Status FileRunner::PageOneRowAtATime(const Record& rec,
                                     std::vector<std::string>* values) {
  auto stmt = db_.Prepare(rec.sql);
  if (!stmt.ok()) return stmt.status();
  auto cursor = (*stmt)->Query();
  if (!cursor.ok()) return cursor.status();
  std::unique_ptr<Cursor> cur = std::move(cursor).value();
  const size_t width = rec.types.size();
  for (size_t guard = 0; guard < 1000000; ++guard) {
    if (!cur->Next()) return cur->status();
    const Row& row = cur->row();
    const size_t before = values->size();
    for (size_t c = 0; c < width && c < row.size(); ++c) {
      values->push_back(RenderValue(row[c], rec.types[c]));
    }
    if (guard > 0) {
      // The page of one row before this cursor's first row is the row the
      // previous page returned: read back through a previous-page token.
      auto back_token = cur->PreviousPageToken(1);
      if (!back_token.ok()) return back_token.status();
      auto back = (*stmt)->Resume(*back_token);
      if (!back.ok()) return back.status();
      if (!(*back)->Next()) {
        return (*back)->status().ok()
                   ? Status::InvalidArgument("previous page is empty")
                   : (*back)->status();
      }
      for (size_t c = 0; c < width && c < (*back)->row().size(); ++c) {
        if (RenderValue((*back)->row()[c], rec.types[c]) !=
            (*values)[before - width + c]) {
          return Status::InvalidArgument(
              "previous page returned another row than the page before");
        }
      }
    }
    std::string token = cur->ContinuationToken();
    if (token.empty()) return Status::InvalidArgument("no continuation token");
    auto next = (*stmt)->Resume(token);
    if (!next.ok()) return next.status();
    cur = std::move(next).value();
  }
  return Status::LimitExceeded("more than 1000000 pages");
}

void FileRunner::RunQuery(const Record& rec) {
  const size_t columns = rec.types.size();
  auto cursor = db_.Query(rec.sql);
  if (!cursor.ok()) {
    return Fail(rec, "query failed", rec.expected,
                {cursor.status().ToString()});
  }
  Cursor& cur = **cursor;
  auto column_mismatch = [&](size_t got, std::string shown) {
    Fail(rec,
         "expected " + std::to_string(columns) + " columns, got " +
             std::to_string(got),
         {rec.types}, {std::move(shown)});
  };
  const std::vector<std::string>& names = cur.column_names();
  if (!names.empty() && names.size() != columns) {
    std::string shown;
    for (const std::string& name : names) {
      shown += shown.empty() ? name : ", " + name;
    }
    return column_mismatch(names.size(), std::move(shown));
  }

  std::vector<std::string> values;
  while (cur.Next()) {
    const Row& row = cur.row();
    if (row.size() != columns) {
      std::string shown;
      for (const Value& v : row) {
        shown += (shown.empty() ? "" : ", ") + v.ToString();
      }
      return column_mismatch(row.size(), std::move(shown));
    }
    for (size_t c = 0; c < columns; ++c) {
      values.push_back(RenderValue(row[c], rec.types[c]));
    }
  }
  if (!cur.status().ok()) {
    return Fail(rec, "query failed", rec.expected, {cur.status().ToString()});
  }
  if (options_.page) {
    std::vector<std::string> paged;
    Status s = PageOneRowAtATime(rec, &paged);
    if (!s.ok()) return Fail(rec, "paging failed", values, {s.ToString()});
    if (paged != values) {
      return Fail(rec, "paging one row at a time differs", values, paged);
    }
  }
  SortValues(&values, columns, rec.sort);

  // Compare in whatever form the file wrote the result: a hash line, one
  // value per line, or (when columns > 1) one row per line. Each is exact, so
  // the form need not follow hash-threshold; the threshold only decides how
  // "got" is shown.
  const std::vector<std::string>& expected = rec.expected;
  const bool hash_expected = expected.size() == 1 && IsHashLine(expected[0]);
  std::optional<std::string> hash;  // md5 of the values, computed once
  auto values_hash = [&]() -> const std::string& {
    if (!hash) hash = ValuesHash(values);
    return *hash;
  };
  bool match;
  if (hash_expected) {
    match = Trim(expected[0]) == std::to_string(values.size()) +
                                     " values hashing to " + values_hash();
  } else if (expected.size() == values.size()) {
    match = std::equal(expected.begin(), expected.end(), values.begin());
  } else if (columns > 1 && expected.size() * columns == values.size()) {
    match = true;
    for (size_t r = 0; match && r < expected.size(); ++r) {
      std::string row;
      for (size_t c = 0; c < columns; ++c) {
        if (c > 0) row += ' ';
        row += values[r * columns + c];
      }
      match = NormalizeSpaces(expected[r]) == NormalizeSpaces(row);
    }
  } else {
    match = false;
  }

  if (!match) {
    std::vector<std::string> got;
    if (hash_expected ||
        (hash_threshold_ > 0 && values.size() > hash_threshold_)) {
      got.push_back(std::to_string(values.size()) + " values hashing to " +
                    values_hash());
    }
    // Show "got" one row per line when the file seems to write rows.
    bool rows = columns > 1 && !hash_expected && !expected.empty() &&
                expected.size() != values.size() &&
                CountTokens(expected[0]) >= 2;
    if (rows) {
      for (size_t r = 0; r * columns < values.size(); ++r) {
        std::string row;
        for (size_t c = 0; c < columns; ++c) {
          if (c > 0) row += ' ';
          row += values[r * columns + c];
        }
        got.push_back(std::move(row));
      }
    } else {
      got.insert(got.end(), values.begin(), values.end());
    }
    std::string what = "wrong result";
    if (!hash_expected && expected.size() != values.size() &&
        !(rows && expected.size() * columns == values.size())) {
      what += rows ? ": expected " + std::to_string(expected.size()) +
                         " rows, got " + std::to_string(values.size() / columns)
                   : ": expected " + std::to_string(expected.size()) +
                         " values, got " + std::to_string(values.size());
    }
    return Fail(rec, what, expected, got);
  }

  // Labels: every query under one label must give the same result. The first
  // result that matched its expected block is the reference; a query that
  // already failed above is not reported twice.
  if (!rec.label.empty()) {
    auto [it, inserted] =
        labels_.try_emplace(rec.label, LabelResult{values_hash(), rec.line});
    if (!inserted && it->second.hash != values_hash()) {
      return Fail(rec,
                  "result differs from " + rec.label + " at line " +
                      std::to_string(it->second.line),
                  nullptr, &values);
    }
  }
  Pass();
}

void FileRunner::RunExplain(const Record& rec) {
  auto plan = db_.Explain(rec.sql);
  if (!plan.ok()) {
    return Fail(rec, "explain failed", rec.expected,
                {plan.status().ToString()});
  }
  // Plan lines; blank ones are dropped since a blank line would end the
  // record when written back.
  std::vector<std::string> got;
  std::string_view text = *plan;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text =
        nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    while (!line.empty() && IsBlankChar(line.back())) line.remove_suffix(1);
    if (!line.empty()) got.emplace_back(line);
  }
  bool match = got.size() == rec.expected.size();
  for (size_t i = 0; match && i < got.size(); ++i) {
    std::string_view want = rec.expected[i];
    while (!want.empty() && IsBlankChar(want.back())) want.remove_suffix(1);
    match = want == got[i];
  }
  if (match) return Pass();
  if (!options_.rewrite) return Fail(rec, "plan differs", rec.expected, got);

  std::string block = rec.has_separator ? "" : "----\n";
  for (const std::string& line : got) block += line + "\n";
  edits_.push_back({rec.result_begin, rec.result_end, std::move(block)});
  if (options_.verbose) {
    out_ << script_.path << ":" << rec.line << ": plan rewritten" << std::endl;
  }
  Pass();
}

void FileRunner::PrintBlock(std::string_view title,
                            const std::vector<std::string>& lines) {
  out_ << title << ":\n";
  if (lines.empty()) out_ << "  (nothing)\n";
  size_t shown = std::min(lines.size(), options_.max_lines_shown);
  for (size_t i = 0; i < shown; ++i) out_ << "  " << lines[i] << "\n";
  if (lines.size() > shown) {
    out_ << "  ... " << (lines.size() - shown) << " more lines\n";
  }
}

void FileRunner::Fail(const Record& rec, std::string_view what,
                      const std::vector<std::string>* expected,
                      const std::vector<std::string>* got) {
  ++result_.stats.failed;
  failed_ = true;
  out_ << script_.path << ":" << rec.line << ": " << what << "\n";
  if (!rec.sql.empty()) {
    std::string_view sql = rec.sql;
    while (!sql.empty()) {
      size_t nl = sql.find('\n');
      out_ << "  " << sql.substr(0, nl) << "\n";
      sql = nl == std::string_view::npos ? std::string_view()
                                         : sql.substr(nl + 1);
    }
  }
  if (expected != nullptr) PrintBlock("expected", *expected);
  if (got != nullptr) PrintBlock("got", *got);
  out_ << std::endl;
}

}  // namespace

RunResult RunScript(const Script& script, Database& db,
                    const RunOptions& options, std::ostream& out) {
  return FileRunner(script, db, options, out).Run();
}

std::string SummaryLine(const RunStats& stats) {
  return std::to_string(stats.passed) + " passed, " +
         std::to_string(stats.failed) + " failed, " +
         std::to_string(stats.skipped) + " skipped";
}

std::string FormatFixed(double d, int decimals) {
  return SqlitePrintf(d, /*fixed=*/true, decimals);
}

std::string FormatReal(double d) {
  return SqlitePrintf(d, /*fixed=*/false, 15);
}

std::string HashLine(const std::vector<std::string>& values) {
  return std::to_string(values.size()) + " values hashing to " +
         ValuesHash(values);
}

std::string RenderValue(const Value& value, char type) {
  switch (value.type()) {
    case Type::kNull:
      return "NULL";
    case Type::kList:
      return value.ToString();
    default:
      break;
  }
  if (type == 'I') {
    int64_t i;
    if (value.is_int_like()) {
      i = value.int_value();
    } else if (value.type() == Type::kReal) {
      i = RealToInt(value.real_value());
    } else {
      i = TextToInt(value.text());
    }
    return std::to_string(i);
  }
  if (type == 'R') {
    double d;
    if (value.is_numeric()) {
      d = value.AsDouble();
    } else {
      d = TextToReal(value.text());
    }
    return FormatFixed(d, 3);
  }
  // 'T'
  std::string s;
  switch (value.type()) {
    case Type::kInteger:
    case Type::kBoolean:
      s = std::to_string(value.int_value());
      break;
    case Type::kReal:
      s = FormatReal(value.real_value());
      break;
    case Type::kText:
    case Type::kBlob:
      s = value.text();
      break;
    default:  // TIMESTAMP: its ISO text
      s = value.ToString();
      break;
  }
  if (s.empty()) return "(empty)";
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '@';
  }
  return s;
}

}  // namespace levelql::slt
