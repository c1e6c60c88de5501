// Shell: the logic of the interactive `levelql` program, without a terminal.
//
// Feed it input one line at a time with ProcessLine(); it accumulates SQL
// until IsCompleteStatement() (levelql/sql_text.h) says a statement ended,
// runs each statement and writes the rows to `out` in the current output
// mode (render.h), and errors as `Error: <Status::ToString()>` to `err`. A line
// starting with `.` when no statement is pending is a dot-command (.help lists
// them). main.cc adds the terminal: line editing, history, Ctrl-C.
//
// Statements that return columns print their rows; others print nothing.
// With `.page N`, a SELECT prints its first N rows and `.next`/`.prev` page
// through it by continuation tokens (pager.h).
// Inside a transaction (BEGIN ... COMMIT) the prompt is "levelql*> ". The
// end of input, `.quit`, `.exit` and `.open` roll back a transaction left
// open and say so on `err` (nothing is committed that was not asked for).
// `.param set :name VALUE` values are bound to every statement that mentions
// `:name`. With `.bail on`, the first error stops the input: a
// non-interactive shell then exits with status 1, an interactive one drops
// the rest of the line and of any `.read` file. Interrupt() (Ctrl-C) stops
// the running statement and drops the rest of the line and `.read` file. The
// exit status is 1 when any statement or command failed, unless `.exit CODE`
// says otherwise.
//
// REQUIRES: Open() has succeeded before any input is fed.
//
// Thread safety: one thread drives the Shell; Interrupt() alone may be
// called from any other thread (the Ctrl-C watcher in main.cc).
#ifndef LEVELQL_TOOLS_REPL_SHELL_H_
#define LEVELQL_TOOLS_REPL_SHELL_H_

#include <atomic>
#include <fstream>
#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/database.h"
#include "tools/repl/pager.h"
#include "tools/repl/render.h"

namespace levelql::repl {

inline constexpr const char* kPrompt = "levelql> ";
inline constexpr const char* kTransactionPrompt = "levelql*> ";
inline constexpr const char* kContinuationPrompt = "   ...> ";

struct ShellOptions {
  OutputMode mode = OutputMode::kTable;  // table for terminals and pipes
  bool headers = true;
  bool bail = false;
  bool echo = false;
  bool timer = false;
  bool explain = false;
  // --safe: .open/.read/.import/.output only take relative paths inside the
  // current directory.
  bool safe = false;
  bool read_only = false;    // databases are opened read-only
  bool interactive = false;  // a person is typing (affects .bail)
  bool progress = false;     // draw .import progress bars on `err`
};

class Shell {
 public:
  // `out` and `err` are borrowed and must outlive the Shell.
  Shell(ShellOptions options, std::ostream& out, std::ostream& err);
  ~Shell();

  Shell(const Shell&) = delete;
  Shell& operator=(const Shell&) = delete;

  // Opens `path` (":memory:" for a private in-memory database) and makes it
  // current; on failure the previous database stays. Errors are returned,
  // not printed.
  Status Open(const std::string& path);
  const std::string& db_path() const { return db_path_; }
  Database* db() { return db_.get(); }

  // Names the lines given to ProcessLine (piped input: "stdin"): errors
  // then say where in them they are, as in a script file.
  void NameInput(std::string name) { top_.name = std::move(name); }
  // Handles one line of input (without its newline). Returns false once
  // the shell should exit (.quit, .exit, or an error with .bail on in a
  // non-interactive shell).
  bool ProcessLine(std::string_view line);
  // End of input: runs a statement left without its `;`, then rolls back
  // a transaction left open.
  bool Finish();
  // Runs `text` as complete input (the -c argument): its lines, then Finish.
  bool RunText(std::string_view text);
  // Runs the file at `path` like `.read` (the -f argument).
  bool RunFile(const std::string& path);

  // "levelql> ", "levelql*> " inside a transaction, or "   ...> " while a
  // statement is being continued.
  const char* prompt() const;
  bool in_statement() const { return !top_.buffer.empty(); }
  // Ctrl-C at the prompt: forgets the partially typed statement.
  void CancelInput() { top_.buffer.clear(); }
  // Thread-safe. Makes the running statement (or .import) stop soon.
  void Interrupt();

  bool exiting() const { return exiting_; }
  int exit_code() const;
  int64_t failures() const { return failures_; }
  const ShellOptions& options() const { return options_; }

  // Tab completion: candidates for `word`, the partial word before the
  // cursor; `before` is the text of the line before it. Uses the pending
  // statement for context (which tables it names).
  std::vector<std::string> Complete(std::string_view before,
                                    std::string_view word);

 private:
  struct Input {
    std::string buffer;  // SQL typed so far, not yet complete
    // A script file's name (-f, .read): errors then say where in it they
    // are. Empty for typed or piped input and -c.
    std::string name;
    int line = 0;        // lines read
    int first_line = 0;  // the line the buffer starts on
  };
  // Where the statement or dot-command running now is in its script.
  struct Place {
    const std::string* name = nullptr;  // null: not in a script
    int line = 0;
    int column = 1;
  };

  bool ProcessLineIn(Input& input, std::string_view line);
  bool FinishInput(Input& input);
  bool RunStream(std::istream& in, const std::string& name);
  // Runs every statement of a complete buffer.
  void RunBuffer(const Input& input, const std::string& buffer);
  // Runs one statement; false when it failed.
  bool RunStatement(const std::string& sql);
  // Renders the rows of a query that was run; false on error.
  bool ShowRows(Result<std::unique_ptr<Cursor>> cursor);
  void DoDotCommand(std::string_view line);

  // The dot-commands; each reports its own errors via Fail().
  void CmdHelp();
  void CmdOpen(const std::vector<std::string>& args);
  void CmdTables(const std::vector<std::string>& args);
  void CmdSchema(const std::vector<std::string>& args);
  void CmdIndexes(const std::vector<std::string>& args);
  void CmdMode(const std::vector<std::string>& args);
  void CmdRead(const std::vector<std::string>& args);
  void CmdImport(const std::vector<std::string>& args);
  void CmdOutput(const std::vector<std::string>& args);
  void CmdParam(std::string_view rest, const std::vector<std::string>& args);
  void CmdCheck(const std::vector<std::string>& args);
  void CmdStats();
  // .page [N|off], .next, .prev
  void CmdPage(const std::string& cmd, const std::vector<std::string>& args);
  // Renders up to N rows of a cursor (a page), for the Pager.
  Pager::ShowPage ShowPageFn();
  void CmdExit(const std::vector<std::string>& args);
  // .headers .timer .explain .bail .echo
  void CmdToggle(const std::string& name, const std::vector<std::string>& args,
                 bool* flag);

  // Prints "Error: <message>" and counts a failure (see .bail). In a script
  // the message starts with the file's line and column ("demo.sql:7:13:
  // SyntaxError: ..."): a statement's own "at line:column" made the file's,
  // else where the statement starts.
  void Fail(const std::string& message);
  // Rolls back a transaction left open, saying so on err (`why`: what ends
  // it, e.g. ".quit").
  void RollBackOpenTransaction(const std::string& why);
  // In --safe mode, refuses paths outside the current directory.
  bool CheckPath(const std::string& command, const std::string& path);
  // The .param values of the named parameters `statement` has.
  Params BindFor(const Statement& statement) const;
  // The catalog name of the table (`kind` "table") or index ("index") a
  // dot-command argument means: the one of exactly that name, else the one
  // it names read as an unquoted SQL name (folded to lower case), else
  // `typed` itself, for the engine's error to name.
  std::string CatalogName(const std::string& typed, std::string_view kind);
  std::vector<std::string> ColumnsOf(const std::string& table);
  std::ostream& out() { return file_out_ ? *file_out_ : out_; }

  ShellOptions options_;
  std::ostream& out_;
  std::ostream& err_;
  std::unique_ptr<std::ofstream> file_out_;  // .output FILE
  std::mutex db_mu_;                         // guards db_ for Interrupt()
  std::unique_ptr<Database> db_;
  std::string db_path_;
  Input top_;
  Place place_;
  std::map<std::string, Value> params_;  // .param, keys without the colon
  Pager pager_;                          // .page
  std::map<std::string, std::vector<std::string>> column_cache_;
  std::atomic<bool> interrupted_{false};
  int read_depth_ = 0;
  bool bailing_ = false;  // an error with .bail on: drop pending input
  bool exiting_ = false;
  int explicit_exit_ = -1;  // .exit CODE
  int64_t failures_ = 0;
};

}  // namespace levelql::repl

#endif  // LEVELQL_TOOLS_REPL_SHELL_H_
