#include "tools/repl/shell.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>

#include "levelql/sql_text.h"
#include "tools/repl/csv_import.h"

namespace levelql::repl {
namespace {

namespace fs = std::filesystem;

constexpr const char* kHelp =
    ".bail on|off             Stop after the first error\n"
    ".check [TABLE t|INDEX i] Check rows against index entries (CHECK)\n"
    ".echo on|off             Print each command before running it\n"
    ".exit [CODE]             Exit with status CODE (default 0)\n"
    ".explain on|off          Show the plan of every SELECT before its rows\n"
    ".headers on|off          Column names in table, box, csv, tsv output\n"
    ".help                    This list\n"
    ".import [--csv] [--skip N] [--skip-bad] FILE TABLE\n"
    "                         Insert the rows of a CSV file into TABLE after\n"
    "                         skipping N records (a header). A bad line stops\n"
    "                         it: the rows before it stay, none from it on.\n"
    "                         --skip-bad reports and skips bad lines instead\n"
    ".indexes [TABLE]         List the indexes (of tables matching TABLE)\n"
    ".mode [MODE]             Output mode: table|box|csv|tsv|json|line|"
    "markdown\n"
    ".next                    The next page of the query being paged\n"
    ".open FILE               Close this database and open FILE\n"
    "                         (\":memory:\" for an in-memory one)\n"
    ".output [FILE]           Write results to FILE (no FILE: stdout)\n"
    ".page [N|off]            Show SELECT results N rows at a time; .next\n"
    "                         and .prev move by pages (continuation tokens)\n"
    ".param set :NAME VALUE   Bind VALUE to :NAME in every statement\n"
    ".param unset :NAME       Forget one binding\n"
    ".param list|clear        Show or forget the bindings\n"
    ".prev                    The page before, read backwards from this one\n"
    ".quit                    Exit\n"
    ".read FILE               Run the SQL and commands in FILE\n"
    ".schema [TABLE]          Show the CREATE statements of tables and "
    "indexes\n"
    ".stats                   Row count of each table\n"
    ".tables [PATTERN]        List tables (LIKE pattern)\n"
    ".timer on|off            Print the run time of each statement\n";

constexpr const char* kDotCommands[] = {
    ".bail",   ".check",  ".echo",    ".exit",  ".explain", ".headers",
    ".help",   ".import", ".indexes", ".mode",  ".next",    ".open",
    ".output", ".page",   ".param",   ".prev",  ".quit",    ".read",
    ".schema", ".stats",  ".tables",  ".timer",
};

constexpr const char* kKeywords[] = {
    "ABS",      "ALL",       "AND",    "ANALYZE", "ARRAY",    "AS",
    "ASC",      "AVG",       "BEGIN",  "BETWEEN", "BIGINT",   "BLOB",
    "BOOLEAN",  "BY",        "CAST",   "CHECK",   "COALESCE", "COLLATE",
    "COMMIT",   "COUNT",     "CREATE", "DEFAULT", "DELETE",   "DESC",
    "DISTINCT", "DOUBLE",    "DROP",   "ESCAPE",  "EXISTS",   "EXPLAIN",
    "FALSE",    "FLOAT",     "FROM",   "IF",      "IFNULL",   "IN",
    "INCLUDE",  "INDEX",     "INSERT", "INT",     "INTEGER",  "INTO",
    "IS",       "KEY",       "LENGTH", "LIKE",    "LIMIT",    "LOWER",
    "MAX",      "MIN",       "NOT",    "NULL",    "NULLIF",   "OFFSET",
    "ON",       "OR",        "ORDER",  "PRAGMA",  "PRIMARY",  "REAL",
    "ROLLBACK", "SELECT",    "SET",    "SUBSTR",  "SUM",      "TABLE",
    "TEXT",     "TIMESTAMP", "TRUE",   "UNIQUE",  "UPDATE",   "UPPER",
    "VALUES",   "VARCHAR",   "WHERE",
};

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

struct Token {
  std::string text;
  size_t offset;  // where it starts in the line
};

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

}  // namespace

Shell::Shell(ShellOptions options, std::ostream& out, std::ostream& err)
    : options_(options), out_(out), err_(err) {}

Shell::~Shell() {
  if (file_out_) file_out_->flush();
  out_.flush();
}

Status Shell::Open(const std::string& path) {
  Options options;
  options.read_only = options_.read_only;
  auto db = Database::Open(path, options);
  if (!db.ok()) return db.status();
  {
    std::lock_guard<std::mutex> lock(db_mu_);
    db_ = std::move(db).value();
  }
  db_path_ = path;
  column_cache_.clear();
  return Status::OK();
}

const char* Shell::prompt() const {
  return in_statement() ? kContinuationPrompt : kPrompt;
}

void Shell::Interrupt() {
  interrupted_ = true;
  std::lock_guard<std::mutex> lock(db_mu_);
  if (db_) db_->Interrupt();
}

int Shell::exit_code() const {
  if (explicit_exit_ >= 0) return explicit_exit_;
  return failures_ > 0 ? 1 : 0;
}

void Shell::Fail(const std::string& message) {
  out().flush();
  // After the terminal echoed ^C, start the message on a line of its own.
  if (options_.interactive && interrupted_) err_ << "\n";
  err_ << "Error: " << message << "\n";
  err_.flush();
  ++failures_;
  if (options_.bail) {
    bailing_ = true;
    if (!options_.interactive) exiting_ = true;
  }
}

bool Shell::ProcessLine(std::string_view line) {
  bailing_ = false;
  return ProcessLineIn(top_, line);
}

bool Shell::ProcessLineIn(Input& input, std::string_view line) {
  if (exiting_) return false;
  if (input.buffer.empty()) {
    std::string_view t = TrimView(line);
    if (t.starts_with('.')) {
      DoDotCommand(t);
      return !exiting_;
    }
    if (IsBlankSql(line)) return true;
  }
  input.buffer.append(line);
  input.buffer += '\n';
  if (IsBlankSql(input.buffer)) {
    input.buffer.clear();
  } else if (IsCompleteStatement(input.buffer)) {
    std::string buffer = std::move(input.buffer);
    input.buffer.clear();
    RunBuffer(buffer);
  }
  return !exiting_;
}

bool Shell::FinishInput(Input& input) {
  std::string buffer = std::move(input.buffer);
  input.buffer.clear();
  // SplitStatements drops a blank tail, also an unterminated /* comment.
  if (!exiting_) RunBuffer(buffer);
  return !exiting_;
}

bool Shell::Finish() { return FinishInput(top_); }

bool Shell::RunText(std::string_view text) {
  std::istringstream in{std::string(text)};
  return RunStream(in);
}

bool Shell::RunFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    Fail("cannot open " + path + ": " + std::strerror(errno));
    return !exiting_;
  }
  return RunStream(in);
}

bool Shell::RunStream(std::istream& in) {
  if (read_depth_ >= 16) {
    Fail(".read: files nested more than 16 deep");
    return !exiting_;
  }
  ++read_depth_;
  Input input;
  std::string line;
  while (!exiting_ && !bailing_ && !interrupted_ && std::getline(in, line)) {
    if (line.ends_with('\r')) line.pop_back();
    ProcessLineIn(input, line);
  }
  if (!bailing_ && !interrupted_) FinishInput(input);
  --read_depth_;
  return !exiting_;
}

void Shell::RunBuffer(const std::string& buffer) {
  for (const std::string& sql : SplitStatements(buffer)) {
    if (exiting_ || bailing_) break;
    // Ctrl-C drops the statements after the interrupted one, too.
    if (!RunStatement(sql) && interrupted_) break;
  }
}

Params Shell::BindFor(const Statement& statement) const {
  Params params;
  if (params_.empty()) return params;
  for (const std::string& name : statement.parameter_names()) {
    auto it = name.empty() ? params_.end() : params_.find(name);
    if (it != params_.end()) params.named[name] = it->second;
  }
  return params;
}

bool Shell::RunStatement(const std::string& sql) {
  interrupted_ = false;
  if (options_.echo) out() << sql << "\n";
  auto start = std::chrono::steady_clock::now();
  std::string keyword = FirstKeyword(sql);
  auto statement = db_->Prepare(sql);
  bool ok = statement.ok();
  if (!ok) Fail(statement.status().ToString());
  Params params;
  if (ok) params = BindFor(**statement);
  if (ok && options_.explain && keyword == "SELECT") {
    auto plan = db_->Explain(sql, params);
    if (!plan.ok()) {
      Fail(plan.status().ToString());
      ok = false;
    } else {
      out() << *plan;
      if (!plan->empty() && !plan->ends_with('\n')) out() << "\n";
    }
  }
  if (ok && keyword == "SELECT" && pager_.page_rows() > 0) {
    Status s = pager_.Start(std::move(*statement), params, ShowPageFn());
    if (s.ok()) {
      out() << pager_.Where() << "\n";
    } else {
      Fail(s.ToString());
      ok = false;
    }
  } else if (ok) {
    ok = ShowRows((*statement)->Query(params));
  }
  if (keyword != "SELECT") column_cache_.clear();
  if (options_.timer) {
    double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    char buf[64];
    std::snprintf(buf, sizeof(buf), "Run Time: real %.3f\n", secs);
    out() << buf;
  }
  out().flush();
  return ok;
}

Pager::ShowPage Shell::ShowPageFn() {
  return [this](Cursor& c, int64_t rows) -> Result<int64_t> {
    std::unique_ptr<Renderer> renderer =
        MakeRenderer(options_.mode, options_.headers, out());
    renderer->Begin(c.column_names());
    int64_t shown = 0;
    while (shown < rows && c.Next()) {
      renderer->AddRow(c.row());
      ++shown;
    }
    renderer->End();
    if (!c.status().ok()) return c.status();
    return shown;
  };
}

void Shell::CmdPage(const std::string& cmd,
                    const std::vector<std::string>& args) {
  if (cmd == ".page") {
    if (args.empty()) {
      out() << (pager_.page_rows() > 0
                    ? "page " + std::to_string(pager_.page_rows()) + " rows"
                    : std::string("page off"))
            << "\n";
      return;
    }
    if (args[0] == "off") {
      pager_.set_page_rows(0);
      return;
    }
    char* end = nullptr;
    const long long n = std::strtoll(args[0].c_str(), &end, 10);
    if (end == args[0].c_str() || *end != '\0' || n < 1 || n > 1000000) {
      Fail(".page takes a number of rows from 1 to 1000000, or off");
      return;
    }
    pager_.set_page_rows(n);
    return;
  }
  Status s = cmd == ".next" ? pager_.Next(ShowPageFn())
                            : pager_.Previous(ShowPageFn());
  if (!s.ok()) {
    Fail(s.ToString());
    return;
  }
  out() << pager_.Where() << "\n";
}

bool Shell::ShowRows(Result<std::unique_ptr<Cursor>> cursor) {
  if (!cursor.ok()) {
    Fail(cursor.status().ToString());
    return false;
  }
  Cursor& c = **cursor;
  std::unique_ptr<Renderer> renderer;
  if (!c.column_names().empty()) {
    renderer = MakeRenderer(options_.mode, options_.headers, out());
    renderer->Begin(c.column_names());
  }
  while (c.Next()) {
    if (renderer) renderer->AddRow(c.row());
  }
  // Rows that arrived before an error are still shown.
  if (renderer) renderer->End();
  Status status = c.status();
  if (!status.ok()) {
    Fail(status.ToString());
    return false;
  }
  return true;
}

void Shell::DoDotCommand(std::string_view line) {
  interrupted_ = false;
  if (options_.echo) out() << line << "\n";
  std::vector<Token> tokens = Tokenize(line);
  std::string cmd = Lower(tokens.empty() ? "." : tokens[0].text);
  std::vector<std::string> args;
  for (size_t i = 1; i < tokens.size(); ++i) args.push_back(tokens[i].text);

  if (cmd == ".help") {
    out() << kHelp;
  } else if (cmd == ".quit") {
    exiting_ = true;
  } else if (cmd == ".exit") {
    CmdExit(args);
  } else if (cmd == ".open") {
    CmdOpen(args);
  } else if (cmd == ".tables") {
    CmdTables(args);
  } else if (cmd == ".schema") {
    CmdSchema(args);
  } else if (cmd == ".indexes" || cmd == ".indices") {
    CmdIndexes(args);
  } else if (cmd == ".mode") {
    CmdMode(args);
  } else if (cmd == ".headers" || cmd == ".header") {
    CmdToggle(".headers", args, &options_.headers);
  } else if (cmd == ".timer") {
    CmdToggle(".timer", args, &options_.timer);
  } else if (cmd == ".explain") {
    CmdToggle(".explain", args, &options_.explain);
  } else if (cmd == ".bail") {
    CmdToggle(".bail", args, &options_.bail);
  } else if (cmd == ".echo") {
    CmdToggle(".echo", args, &options_.echo);
  } else if (cmd == ".read") {
    CmdRead(args);
  } else if (cmd == ".import") {
    CmdImport(args);
  } else if (cmd == ".output") {
    CmdOutput(args);
  } else if (cmd == ".param" || cmd == ".parameter") {
    std::string_view rest =
        tokens.size() > 3 ? line.substr(tokens[3].offset) : std::string_view();
    CmdParam(rest, args);
  } else if (cmd == ".page" || cmd == ".next" || cmd == ".prev") {
    CmdPage(cmd, args);
  } else if (cmd == ".check") {
    CmdCheck(args);
  } else if (cmd == ".stats") {
    CmdStats();
  } else if (cmd == ".shell" || cmd == ".system") {
    Fail(cmd + " is refused: levelql has no shell escape");
  } else {
    Fail("unknown command \"" + cmd + "\" (enter \".help\" for the list)");
  }
  out().flush();
}

void Shell::CmdExit(const std::vector<std::string>& args) {
  int code = 0;
  if (!args.empty()) {
    const std::string& a = args[0];
    auto [ptr, ec] = std::from_chars(a.data(), a.data() + a.size(), code);
    if (ec != std::errc() || ptr != a.data() + a.size() || args.size() > 1) {
      Fail("usage: .exit [CODE]");
      return;
    }
  }
  explicit_exit_ = code;
  exiting_ = true;
}

bool Shell::CheckPath(const std::string& command, const std::string& path) {
  if (!options_.safe) return true;
  fs::path p(path);
  bool inside = !p.empty() && p.is_relative() && !path.starts_with('~');
  for (const fs::path& part : p) inside = inside && part != "..";
  if (inside) {
    // Symbolic links may still lead out; compare the resolved paths.
    std::error_code ec;
    fs::path cwd = fs::weakly_canonical(fs::current_path(ec), ec);
    fs::path full = fs::weakly_canonical(fs::current_path(ec) / p, ec);
    auto [end, rest] =
        std::mismatch(cwd.begin(), cwd.end(), full.begin(), full.end());
    inside = !ec && end == cwd.end();
  }
  if (!inside) {
    Fail(command +
         ": --safe refuses paths outside the current directory: " + path);
  }
  return inside;
}

void Shell::CmdOpen(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    Fail("usage: .open FILE");
    return;
  }
  if (args[0] != ":memory:" && !CheckPath(".open", args[0])) return;
  Status s = Open(args[0]);
  if (!s.ok()) Fail(s.ToString());
}

void Shell::CmdTables(const std::vector<std::string>& args) {
  if (args.size() > 1) {
    Fail("usage: .tables [PATTERN]");
    return;
  }
  std::vector<std::string> names;
  size_t width = 0;
  for (std::string& n : db_->TableNames()) {
    if (!args.empty() && !LikeMatch(args[0], n)) continue;
    width = std::max(width, DisplayWidth(n));
    names.push_back(std::move(n));
  }
  if (names.empty()) return;
  // Column-major, as many columns as fit in 80 characters.
  size_t col_width = width + 2;
  size_t cols = std::max<size_t>(1, 80 / col_width);
  size_t rows = (names.size() + cols - 1) / cols;
  for (size_t r = 0; r < rows; ++r) {
    std::string line;
    for (size_t c = 0; c < cols; ++c) {
      size_t i = c * rows + r;
      if (i >= names.size()) break;
      line += names[i];
      line += std::string(col_width - DisplayWidth(names[i]), ' ');
    }
    while (line.ends_with(' ')) line.pop_back();
    out() << line << "\n";
  }
}

void Shell::CmdSchema(const std::vector<std::string>& args) {
  if (args.size() > 1) {
    Fail("usage: .schema [TABLE]");
    return;
  }
  bool any = false;
  for (const SchemaEntry& e : db_->Schema()) {
    if (!args.empty() && !LikeMatch(args[0], e.table)) continue;
    out() << e.sql << ";\n";
    any = true;
  }
  if (!any && !args.empty()) Fail("no table matches " + args[0]);
}

void Shell::CmdIndexes(const std::vector<std::string>& args) {
  if (args.size() > 1) {
    Fail("usage: .indexes [TABLE]");
    return;
  }
  for (const SchemaEntry& e : db_->Schema()) {
    if (e.kind != "index") continue;
    if (!args.empty() && !LikeMatch(args[0], e.table)) continue;
    out() << e.name << "\n";
  }
}

void Shell::CmdMode(const std::vector<std::string>& args) {
  if (args.empty()) {
    out() << "current output mode: " << OutputModeName(options_.mode) << "\n";
    return;
  }
  auto mode = ParseOutputMode(args[0]);
  if (!mode || args.size() > 1) {
    Fail("unknown mode \"" + args[0] + "\"; use one of " +
         std::string(OutputModeNames()));
    return;
  }
  options_.mode = *mode;
}

void Shell::CmdToggle(const std::string& name,
                      const std::vector<std::string>& args, bool* flag) {
  std::optional<bool> value;
  if (args.size() == 1) value = ParseBool(args[0]);
  if (!value) {
    Fail("usage: " + name + " on|off");
    return;
  }
  *flag = *value;
}

void Shell::CmdRead(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    Fail("usage: .read FILE");
    return;
  }
  if (!CheckPath(".read", args[0])) return;
  RunFile(args[0]);
}

void Shell::CmdImport(const std::vector<std::string>& args) {
  ImportRequest request;
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--csv") continue;
    if (args[i] == "--skip-bad") {
      request.skip_bad = true;
      continue;
    }
    if (args[i] == "--skip" && i + 1 < args.size()) {
      const std::string& n = args[++i];
      auto [ptr, ec] =
          std::from_chars(n.data(), n.data() + n.size(), request.skip);
      if (ec != std::errc() || ptr != n.data() + n.size() || request.skip < 0) {
        Fail(".import: --skip takes a number of lines, not \"" + n + "\"");
        return;
      }
      continue;
    }
    if (args[i].starts_with("--")) {
      Fail(".import: unknown option " + args[i] +
           " (usage: .import [--csv] [--skip N] [--skip-bad] FILE TABLE)");
      return;
    }
    positional.push_back(args[i]);
  }
  if (positional.size() != 2) {
    Fail("usage: .import [--csv] [--skip N] [--skip-bad] FILE TABLE");
    return;
  }
  if (!CheckPath(".import", positional[0])) return;
  request.path = positional[0];
  request.table = CatalogName(positional[1], "table");
  request.progress = options_.progress ? &err_ : nullptr;
  request.interrupted = &interrupted_;
  // Skipped lines are reported, not failures: --skip-bad asked for them.
  request.on_skip = [this](int64_t line, const std::string& reason) {
    err_ << "line " << line << ": " << reason << " (skipped)\n";
  };
  out().flush();
  ImportResult result = ImportCsv(*db_, request);
  if (!result.error.empty()) {
    Fail(".import " + request.path + ": " + result.error);
  }
  out().flush();
  err_ << ImportSummary(result, request, positional[0], positional[1]) << "\n";
  err_.flush();
}

void Shell::CmdOutput(const std::vector<std::string>& args) {
  if (args.size() > 1) {
    Fail("usage: .output [FILE]");
    return;
  }
  out().flush();
  if (args.empty()) {
    file_out_.reset();
    return;
  }
  if (!CheckPath(".output", args[0])) return;
  auto file = std::make_unique<std::ofstream>(args[0], std::ios::trunc);
  if (!*file) {
    Fail(".output: cannot open " + args[0] + ": " + std::strerror(errno));
    return;
  }
  file_out_ = std::move(file);
}

void Shell::CmdParam(std::string_view rest,
                     const std::vector<std::string>& args) {
  std::string sub = args.empty() ? "" : Lower(args[0]);
  auto name_of = [](std::string n) {
    if (n.starts_with(':')) n.erase(0, 1);
    return n;
  };
  if (sub == "set" && args.size() >= 3) {
    std::string name = name_of(args[1]);
    if (!IsParameterName(name)) {
      Fail(".param: \"" + args[1] + "\" is not a parameter name");
      return;
    }
    params_[name] = ParseParamValue(rest);
  } else if (sub == "unset" && args.size() == 2) {
    params_.erase(name_of(args[1]));
  } else if (sub == "clear" && args.size() == 1) {
    params_.clear();
  } else if (sub == "list" && args.size() == 1) {
    for (const auto& [name, value] : params_) {
      out() << ":" << name << " " << value.ToSqlLiteral() << "\n";
    }
  } else {
    Fail("usage: .param set :NAME VALUE | unset :NAME | list | clear");
  }
}

void Shell::CmdCheck(const std::vector<std::string>& args) {
  std::string sql = "CHECK";
  if (args.size() == 1) {
    sql += " TABLE " + QuoteIdentifier(CatalogName(args[0], "table"));
  } else if (args.size() == 2) {
    std::string kind = Lower(args[0]);
    sql += " " + args[0] + " " + QuoteIdentifier(CatalogName(args[1], kind));
  } else if (!args.empty()) {
    Fail("usage: .check [TABLE t | INDEX i]");
    return;
  }
  if (ShowRows(db_->Query(sql))) out() << "ok\n";
}

void Shell::CmdStats() {
  std::unique_ptr<Renderer> renderer =
      MakeRenderer(options_.mode, options_.headers, out());
  renderer->Begin({"table", "rows"});
  for (const std::string& name : db_->TableNames()) {
    auto cursor = db_->Query("SELECT count(*) FROM " + QuoteIdentifier(name));
    if (cursor.ok() && (*cursor)->Next()) {
      renderer->AddRow({Value::Text(name), (*cursor)->row()[0]});
    } else {
      Fail(cursor.ok() ? (*cursor)->status().ToString()
                       : cursor.status().ToString());
    }
  }
  renderer->End();
}

std::string Shell::CatalogName(const std::string& typed,
                               std::string_view kind) {
  std::vector<std::string> names;
  if (kind == "table") {
    names = db_->TableNames();
  } else {
    for (const SchemaEntry& e : db_->Schema()) {
      if (e.kind == kind) names.push_back(e.name);
    }
  }
  if (std::find(names.begin(), names.end(), typed) != names.end()) {
    return typed;
  }
  std::string folded = typed;
  for (char& c : folded) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  if (std::find(names.begin(), names.end(), folded) != names.end()) {
    return folded;
  }
  return typed;
}

std::vector<std::string> Shell::ColumnsOf(const std::string& table) {
  auto it = column_cache_.find(table);
  if (it != column_cache_.end()) return it->second;
  std::vector<std::string> columns;
  auto cursor =
      db_->Query("SELECT * FROM " + QuoteIdentifier(table) + " LIMIT 0");
  if (cursor.ok()) columns = (*cursor)->column_names();
  column_cache_[table] = columns;
  return columns;
}

std::vector<std::string> Shell::Complete(std::string_view before,
                                         std::string_view word) {
  std::set<std::string> out;
  auto offer = [&](std::string_view candidate) {
    if (StartsWithNoCase(candidate, word)) out.emplace(candidate);
  };
  std::string_view line_start = TrimView(before);
  bool dot = !in_statement() && (line_start.starts_with('.') ||
                                 (line_start.empty() && word.starts_with('.')));
  if (dot && line_start.empty()) {
    for (const char* c : kDotCommands) offer(c);
    return {out.begin(), out.end()};
  }
  if (db_ == nullptr) return {};
  std::vector<std::string> tables = db_->TableNames();
  for (const std::string& t : tables) offer(t);
  if (dot) return {out.begin(), out.end()};  // .schema t, .import f t, ...

  bool lower = std::any_of(word.begin(), word.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c));
  });
  for (const char* k : kKeywords) offer(lower ? Lower(k) : std::string(k));
  // Columns of the tables the statement names, or of every table when it
  // names none yet (up to 20 tables).
  std::string text = Lower(top_.buffer + std::string(before));
  std::vector<std::string> named;
  for (const std::string& t : tables) {
    std::string lt = Lower(t);
    for (size_t pos = text.find(lt); pos != std::string::npos;
         pos = text.find(lt, pos + 1)) {
      auto is_word = [&](size_t i) {
        return i < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[i])) ||
                text[i] == '_');
      };
      if ((pos == 0 || !is_word(pos - 1)) && !is_word(pos + lt.size())) {
        named.push_back(t);
        break;
      }
    }
  }
  if (named.empty() && tables.size() <= 20) named = tables;
  for (const std::string& t : named) {
    for (const std::string& c : ColumnsOf(t)) offer(c);
  }
  return {out.begin(), out.end()};
}

}  // namespace levelql::repl
