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
#include "tools/repl/shell_util.h"

namespace levelql::repl {
namespace {

using namespace shell_util;

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
    ".quit                    Exit (rolls back an open transaction)\n"
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
    "ABS",     "ADD",      "ALL",     "ALTER",     "ANALYZE",  "AND",
    "ARRAY",   "AS",       "ASC",     "AVG",       "BEGIN",    "BETWEEN",
    "BIGINT",  "BLOB",     "BOOLEAN", "BY",        "CASE",     "CAST",
    "CHECK",   "COALESCE", "COLLATE", "COLUMN",    "COMMIT",   "COUNT",
    "CREATE",  "DEFAULT",  "DELETE",  "DESC",      "DISTINCT", "DOUBLE",
    "DROP",    "ELSE",     "END",     "ESCAPE",    "EXISTS",   "EXPLAIN",
    "FALSE",   "FLOAT",    "FROM",    "GROUP",     "HAVING",   "IF",
    "IFNULL",  "IN",       "INCLUDE", "INDEX",     "INSERT",   "INT",
    "INTEGER", "INTO",     "IS",      "JOIN",      "KEY",      "LEFT",
    "LENGTH",  "LIKE",     "LIMIT",   "LOWER",     "MAX",      "MIN",
    "NOT",     "NULL",     "NULLIF",  "OFFSET",    "ON",       "OR",
    "ORDER",   "PRAGMA",   "PRIMARY", "REAL",      "REINDEX",  "RENAME",
    "REPLACE", "ROLLBACK", "SELECT",  "SET",       "SUBSTR",   "SUM",
    "TABLE",   "TEXT",     "THEN",    "TIMESTAMP", "TO",       "TRUE",
    "UNION",   "UNIQUE",   "UPDATE",  "UPPER",     "VALUES",   "VARCHAR",
    "VIEW",    "WHEN",     "WHERE",   "WITH",
};

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
  if (in_statement()) return kContinuationPrompt;
  return db_ && db_->InTransaction() ? kTransactionPrompt : kPrompt;
}

void Shell::RollBackOpenTransaction(const std::string& why) {
  if (!db_ || !db_->InTransaction()) return;
  out().flush();
  Status s = db_->Execute("ROLLBACK");
  if (!s.ok()) {
    Fail("rolling back the open transaction: " + s.ToString());
    return;
  }
  err_ << "Rolled back the open transaction (" << why
       << "): COMMIT before it to keep its changes.\n";
  err_.flush();
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

namespace {

// "Kind at L:C: rest" -> {Kind, L, C, rest}; false for "Kind: rest".
bool SplitPlaced(const std::string& message, std::string* kind, int* line,
                 int* column, std::string* rest) {
  const size_t at = message.find(" at ");
  const size_t colon = message.find(": ");
  if (at == std::string::npos || colon == std::string::npos || colon < at) {
    return false;
  }
  int l = 0, c = 0, n = 0;
  if (std::sscanf(message.c_str() + at, " at %d:%d: %n", &l, &c, &n) != 2 ||
      n == 0) {
    return false;
  }
  *kind = message.substr(0, at);
  *line = l;
  *column = c;
  *rest = message.substr(at + static_cast<size_t>(n));
  return true;
}

}  // namespace

void Shell::Fail(const std::string& message) {
  out().flush();
  // After the terminal echoed ^C, start the message on a line of its own.
  if (options_.interactive && interrupted_) err_ << "\n";
  if (place_.name) {
    std::string kind, rest;
    int line = 0, column = 0;
    if (SplitPlaced(message, &kind, &line, &column, &rest)) {
      // The statement's own position, in the file.
      const int file_column = line == 1 ? place_.column + column - 1 : column;
      err_ << "Error: " << *place_.name << ":" << place_.line + line - 1 << ":"
           << file_column << ": " << kind << ": " << rest << "\n";
    } else {
      err_ << "Error: " << *place_.name << ":" << place_.line << ": " << message
           << "\n";
    }
  } else {
    err_ << "Error: " << message << "\n";
  }
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
  ++input.line;
  if (input.buffer.empty()) {
    std::string_view t = TrimView(line);
    if (t.starts_with('.')) {
      const Place outer = place_;
      if (!input.name.empty()) place_ = Place{&input.name, input.line, 1};
      DoDotCommand(t);
      place_ = outer;
      return !exiting_;
    }
    if (IsBlankSql(line)) return true;
    input.first_line = input.line;
  }
  input.buffer.append(line);
  input.buffer += '\n';
  if (IsBlankSql(input.buffer)) {
    input.buffer.clear();
  } else if (IsCompleteStatement(input.buffer)) {
    std::string buffer = std::move(input.buffer);
    input.buffer.clear();
    RunBuffer(input, buffer);
  }
  return !exiting_;
}

bool Shell::FinishInput(Input& input) {
  std::string buffer = std::move(input.buffer);
  input.buffer.clear();
  // SplitStatements drops a blank tail, also an unterminated /* comment.
  if (!exiting_) RunBuffer(input, buffer);
  return !exiting_;
}

bool Shell::Finish() {
  bool go = FinishInput(top_);
  RollBackOpenTransaction("end of input");
  return go;
}

bool Shell::RunText(std::string_view text) {
  std::istringstream in{std::string(text)};
  return RunStream(in, "");
}

bool Shell::RunFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    Fail("cannot open " + path + ": " + std::strerror(errno));
    return !exiting_;
  }
  return RunStream(in, path);
}

bool Shell::RunStream(std::istream& in, const std::string& name) {
  if (read_depth_ >= 16) {
    Fail(".read: files nested more than 16 deep");
    return !exiting_;
  }
  ++read_depth_;
  Input input;
  input.name = name;
  std::string line;
  while (!exiting_ && !bailing_ && !interrupted_ && std::getline(in, line)) {
    if (line.ends_with('\r')) line.pop_back();
    ProcessLineIn(input, line);
  }
  if (!bailing_ && !interrupted_) FinishInput(input);
  --read_depth_;
  return !exiting_;
}

void Shell::RunBuffer(const Input& input, const std::string& buffer) {
  const Place outer = place_;
  size_t from = 0;  // where the next statement's text is looked for
  for (const std::string& sql : SplitStatements(buffer)) {
    if (exiting_ || bailing_) break;
    if (!input.name.empty()) {
      // The statement's text is the buffer's, trimmed: find where it starts.
      size_t at = buffer.find(sql, from);
      if (at == std::string::npos) at = from;
      from = at + sql.size();
      const size_t line_start =
          at == 0 ? std::string::npos : buffer.rfind('\n', at - 1);
      const auto newlines =
          std::count(buffer.begin(), buffer.begin() + at, '\n');
      place_ = Place{
          &input.name, input.first_line + static_cast<int>(newlines),
          static_cast<int>(line_start == std::string::npos ? at + 1
                                                           : at - line_start)};
    }
    // A failed (or interrupted) statement drops the rest of its input
    // line, as sqlite3 does: they may depend on it.
    const bool ok = RunStatement(sql);
    place_ = outer;
    if (!ok) break;
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
    RollBackOpenTransaction(".quit");
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
