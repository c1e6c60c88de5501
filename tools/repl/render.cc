#include "tools/repl/render.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace levelql::repl {
namespace {

// Decodes one UTF-8 sequence at s[*i]; advances *i. Returns U+FFFD-like
// sentinel (-1) for an invalid byte, consuming just that byte.
int32_t DecodeUtf8(std::string_view s, size_t* i) {
  unsigned char c = s[*i];
  int len = c < 0x80         ? 1
            : (c >> 5) == 6  ? 2
            : (c >> 4) == 14 ? 3
            : (c >> 3) == 30 ? 4
                             : 0;
  if (len == 0 || *i + len > s.size()) {
    ++*i;
    return -1;
  }
  int32_t cp = len == 1 ? c : c & (0x7f >> len);
  for (int k = 1; k < len; ++k) {
    unsigned char cc = s[*i + k];
    if ((cc >> 6) != 2) {
      ++*i;
      return -1;
    }
    cp = (cp << 6) | (cc & 0x3f);
  }
  *i += len;
  return cp;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xc0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xe0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    *out += static_cast<char>(0xf0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

struct Range {
  char32_t first, last;
};

// Zero-width: combining marks, zero-width space/joiners, variation
// selectors.
constexpr Range kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
    {0x064B, 0x065F}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x2028, 0x202E},
    {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0x302A, 0x302D}, {0x3099, 0x309A},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

// East Asian Wide (W) and Fullwidth (F).
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},
    {0x23E9, 0x23EC},   {0x23F0, 0x23F0},   {0x23F3, 0x23F3},
    {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},
    {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},
    {0x26CE, 0x26CE},   {0x26D4, 0x26D4},   {0x26EA, 0x26EA},
    {0x26F2, 0x26F3},   {0x26F5, 0x26F5},   {0x26FA, 0x26FA},
    {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},
    {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
    {0x27B0, 0x27B0},   {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},
    {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x3029},
    {0x302E, 0x303E},   {0x3041, 0x3098},   {0x309B, 0x33FF},
    {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
    {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},
    {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF},
    {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251},
    {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB},
    {0x1F90C, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD},
    {0x30000, 0x3FFFD},
};

template <size_t N>
bool InRanges(const Range (&ranges)[N], char32_t cp) {
  auto it =
      std::upper_bound(std::begin(ranges), std::end(ranges), cp,
                       [](char32_t c, const Range& r) { return c < r.first; });
  if (it == std::begin(ranges)) return false;
  --it;
  return cp <= it->last;
}

bool IsNumeric(const Value& v) {
  return v.type() == Type::kInteger || v.type() == Type::kReal;
}

// One line of a grid cell: control characters become their Unicode
// "control pictures" (U+2400..) so they keep the grid aligned.
std::string VisibleLine(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (char c : line) {
    unsigned char u = c;
    if (u < 0x20) {
      AppendUtf8(0x2400 + u, &out);
    } else if (u == 0x7f) {
      AppendUtf8(0x2421, &out);
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> CellLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (;;) {
    size_t nl = text.find('\n', start);
    std::string_view line = std::string_view(text).substr(
        start, nl == std::string::npos ? std::string::npos : nl - start);
    if (nl != std::string::npos && line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(VisibleLine(line));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return lines;
}

std::string Repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

void Pad(std::ostream& out, std::string_view text, size_t width, bool right) {
  size_t w = DisplayWidth(text);
  size_t fill = width > w ? width - w : 0;
  if (right) out << std::string(fill, ' ') << text;
  if (!right) out << text << std::string(fill, ' ');
}

// table, box and markdown: everything is held until End().
class GridRenderer : public Renderer {
 public:
  GridRenderer(OutputMode mode, bool headers, std::ostream& out)
      : mode_(mode),
        headers_(headers || mode == OutputMode::kMarkdown),
        out_(out) {}

  void Begin(const std::vector<std::string>& names) override {
    names_ = names;
    numeric_.assign(names.size(), 0);
  }

  void AddRow(const Row& row) override {
    std::vector<std::vector<std::string>> cells;
    cells.reserve(names_.size());
    for (size_t i = 0; i < names_.size(); ++i) {
      const Value& v = i < row.size() ? row[i] : Value();
      if (!v.is_null()) numeric_[i] = numeric_[i] >= 0 && IsNumeric(v) ? 1 : -1;
      std::string text = v.ToString();
      if (mode_ == OutputMode::kMarkdown) {
        std::string md;
        for (const std::string& line : CellLines(text)) {
          if (!md.empty()) md += "<br>";
          for (char c : line) {
            if (c == '|') md += '\\';
            md += c;
          }
        }
        cells.push_back({md});
      } else {
        cells.push_back(CellLines(text));
      }
    }
    rows_.push_back(std::move(cells));
  }

  void End() override {
    if (rows_.empty()) return;
    std::vector<std::vector<std::string>> header;
    for (const std::string& n : names_) header.push_back(CellLines(n));
    std::vector<size_t> widths(names_.size(), 0);
    auto measure = [&](const std::vector<std::vector<std::string>>& cells) {
      for (size_t i = 0; i < cells.size(); ++i) {
        for (const std::string& line : cells[i]) {
          widths[i] = std::max(widths[i], DisplayWidth(line));
        }
      }
    };
    if (headers_) measure(header);
    for (const auto& r : rows_) measure(r);
    widths_ = widths;
    if (mode_ == OutputMode::kMarkdown) {
      PrintRow(header, "| ", " | ", " |");
      out_ << "|";
      for (size_t i = 0; i < widths.size(); ++i) {
        out_ << Repeat("-", widths[i] + 1) << (numeric_[i] > 0 ? ":" : "-")
             << "|";
      }
      out_ << "\n";
      for (const auto& r : rows_) PrintRow(r, "| ", " | ", " |");
    } else {
      bool box = mode_ == OutputMode::kBox;
      std::string_view h = box ? "─" : "-";
      std::string_view left = box ? "│ " : "| ";
      std::string_view mid = box ? " │ " : " | ";
      std::string_view right = box ? " │" : " |";
      Rule(widths, h, box ? "┌" : "+", box ? "┬" : "+", box ? "┐" : "+");
      if (headers_) {
        PrintRow(header, left, mid, right);
        Rule(widths, h, box ? "├" : "+", box ? "┼" : "+", box ? "┤" : "+");
      }
      for (const auto& r : rows_) PrintRow(r, left, mid, right);
      Rule(widths, h, box ? "└" : "+", box ? "┴" : "+", box ? "┘" : "+");
    }
    rows_.clear();
  }

 private:
  void Rule(const std::vector<size_t>& widths, std::string_view h,
            std::string_view left, std::string_view mid,
            std::string_view right) {
    out_ << left;
    for (size_t i = 0; i < widths.size(); ++i) {
      if (i) out_ << mid;
      out_ << Repeat(h, widths[i] + 2);
    }
    out_ << right << "\n";
  }

  void PrintRow(const std::vector<std::vector<std::string>>& cells,
                std::string_view left, std::string_view mid,
                std::string_view right) {
    size_t height = 1;
    for (const auto& c : cells) height = std::max(height, c.size());
    const std::vector<size_t>& widths = widths_;
    for (size_t line = 0; line < height; ++line) {
      out_ << left;
      for (size_t i = 0; i < cells.size(); ++i) {
        if (i) out_ << mid;
        std::string_view text =
            line < cells[i].size() ? std::string_view(cells[i][line]) : "";
        Pad(out_, text, widths[i], numeric_[i] > 0);
      }
      out_ << right << "\n";
    }
  }

  OutputMode mode_;
  bool headers_;
  std::ostream& out_;
  std::vector<std::string> names_;
  // Per column: 1 when every non-NULL value so far is a number, -1 when
  // some is not, 0 when all were NULL. Numeric columns align right.
  std::vector<int> numeric_;
  std::vector<std::vector<std::vector<std::string>>> rows_;
  std::vector<size_t> widths_;
};

std::string TsvField(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// csv and tsv.
class DelimitedRenderer : public Renderer {
 public:
  DelimitedRenderer(bool csv, bool headers, std::ostream& out)
      : csv_(csv), headers_(headers), out_(out) {}

  void Begin(const std::vector<std::string>& names) override { names_ = names; }
  void AddRow(const Row& row) override {
    if (headers_ && !header_done_) {
      for (size_t i = 0; i < names_.size(); ++i) {
        if (i) out_ << (csv_ ? ',' : '\t');
        out_ << (csv_ ? CsvField(names_[i]) : TsvField(names_[i]));
      }
      out_ << "\n";
    }
    header_done_ = true;
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) out_ << (csv_ ? ',' : '\t');
      if (row[i].is_null()) continue;
      std::string text = row[i].ToString();
      out_ << (csv_ ? CsvField(text) : TsvField(text));
    }
    out_ << "\n";
  }
  void End() override {}

 private:
  bool csv_;
  bool headers_;
  bool header_done_ = false;
  std::ostream& out_;
  std::vector<std::string> names_;
};

class JsonRenderer : public Renderer {
 public:
  explicit JsonRenderer(std::ostream& out) : out_(out) {}
  void Begin(const std::vector<std::string>& names) override {
    for (const std::string& n : names) keys_.push_back(JsonString(n) + ":");
  }
  void AddRow(const Row& row) override {
    out_ << (rows_++ == 0 ? "[{" : ",\n{");
    for (size_t i = 0; i < row.size() && i < keys_.size(); ++i) {
      if (i) out_ << ",";
      out_ << keys_[i] << JsonValue(row[i]);
    }
    out_ << "}";
  }
  void End() override { out_ << (rows_ == 0 ? "[]\n" : "]\n"); }

 private:
  std::ostream& out_;
  std::vector<std::string> keys_;
  size_t rows_ = 0;
};

class LineRenderer : public Renderer {
 public:
  explicit LineRenderer(std::ostream& out) : out_(out) {}
  void Begin(const std::vector<std::string>& names) override {
    names_ = names;
    for (const std::string& n : names)
      width_ = std::max(width_, DisplayWidth(n));
  }
  void AddRow(const Row& row) override {
    if (rows_++ > 0) out_ << "\n";
    for (size_t i = 0; i < row.size() && i < names_.size(); ++i) {
      Pad(out_, names_[i], width_, /*right=*/true);
      out_ << " = " << row[i].ToString() << "\n";
    }
  }
  void End() override {}

 private:
  std::ostream& out_;
  std::vector<std::string> names_;
  size_t width_ = 0;
  size_t rows_ = 0;
};

}  // namespace

std::optional<OutputMode> ParseOutputMode(std::string_view name) {
  std::string lower;
  for (char c : name) {
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (OutputMode m : {OutputMode::kTable, OutputMode::kBox, OutputMode::kCsv,
                       OutputMode::kTsv, OutputMode::kJson, OutputMode::kLine,
                       OutputMode::kMarkdown}) {
    if (OutputModeName(m) == lower) return m;
  }
  return std::nullopt;
}

std::string_view OutputModeName(OutputMode mode) {
  switch (mode) {
    case OutputMode::kTable:
      return "table";
    case OutputMode::kBox:
      return "box";
    case OutputMode::kCsv:
      return "csv";
    case OutputMode::kTsv:
      return "tsv";
    case OutputMode::kJson:
      return "json";
    case OutputMode::kLine:
      return "line";
    case OutputMode::kMarkdown:
      return "markdown";
  }
  return "?";
}

std::string_view OutputModeNames() {
  return "table|box|csv|tsv|json|line|markdown";
}

int CodePointWidth(char32_t cp) {
  if (cp == 0) return 0;
  if (cp < 0x300) return 1;
  if (InRanges(kZeroWidth, cp)) return 0;
  if (InRanges(kWide, cp)) return 2;
  return 1;
}

size_t DisplayWidth(std::string_view utf8) {
  size_t width = 0;
  size_t i = 0;
  while (i < utf8.size()) {
    if (static_cast<unsigned char>(utf8[i]) < 0x80) {
      ++width;
      ++i;
      continue;
    }
    int32_t cp = DecodeUtf8(utf8, &i);
    width += cp < 0 ? 1 : CodePointWidth(static_cast<char32_t>(cp));
  }
  return width;
}

std::string CsvField(std::string_view text) {
  if (!text.empty() && text.find_first_of(",\"\r\n") == std::string::npos) {
    return std::string(text);
  }
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    unsigned char u = c;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", u);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string JsonValue(const Value& value) {
  switch (value.type()) {
    case Type::kNull:
      return "null";
    case Type::kInteger:
      return std::to_string(value.int_value());
    case Type::kReal:
      if (std::isinf(value.real_value())) {
        return value.real_value() > 0 ? "1e999" : "-1e999";
      }
      return value.ToString();
    case Type::kBoolean:
      return value.bool_value() ? "true" : "false";
    case Type::kList: {
      std::string out = "[";
      for (size_t i = 0; i < value.list().size(); ++i) {
        if (i) out += ",";
        out += JsonValue(value.list()[i]);
      }
      return out + "]";
    }
    default:
      return JsonString(value.ToString());
  }
}

std::unique_ptr<Renderer> MakeRenderer(OutputMode mode, bool headers,
                                       std::ostream& out) {
  switch (mode) {
    case OutputMode::kTable:
    case OutputMode::kBox:
    case OutputMode::kMarkdown:
      return std::make_unique<GridRenderer>(mode, headers, out);
    case OutputMode::kCsv:
    case OutputMode::kTsv:
      return std::make_unique<DelimitedRenderer>(mode == OutputMode::kCsv,
                                                 headers, out);
    case OutputMode::kJson:
      return std::make_unique<JsonRenderer>(out);
    case OutputMode::kLine:
      return std::make_unique<LineRenderer>(out);
  }
  return nullptr;
}

}  // namespace levelql::repl
