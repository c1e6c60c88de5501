// levelql: the interactive SQL shell, like sqlite3's.
//
//   levelql [DB] [-c SQL]... [-f FILE]... [-bail] [-echo] [--mode M]
//           [--readonly] [--safe] [--version] [--help]
//
// Without DB it works on a private in-memory database. With -c or -f it
// runs those, in order, and exits; otherwise it reads SQL from stdin: with
// line editing, history and completion when stdin is a terminal, plainly
// when it is a pipe or a file. Exit status: 0 on success, 1 when any
// statement or command failed (or .exit CODE), 2 for usage errors.
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "tools/repl/line_editor.h"
#include "tools/repl/shell.h"

#ifndef LEVELQL_VERSION
#define LEVELQL_VERSION "unknown"
#endif

namespace levelql::repl {
namespace {

constexpr const char* kUsage =
    "usage: levelql [DB] [options]\n"
    "  DB               database directory (default: a private in-memory "
    "one)\n"
    "  -c SQL           run SQL (or a dot-command), then exit; repeatable\n"
    "  -f FILE          run the SQL in FILE, then exit; repeatable\n"
    "  -bail            stop at the first error\n"
    "  -echo            print each command before running it\n"
    "  --mode MODE      output mode: table|box|csv|tsv|json|line|markdown\n"
    "                   (default table)\n"
    "  --readonly       open databases read-only\n"
    "  --safe           .open/.read/.import/.output only within the current\n"
    "                   directory\n"
    "  --version        print the version and exit\n"
    "  --help           print this help and exit\n"
    "Without -c/-f, SQL is read from stdin; \".help\" lists the "
    "dot-commands.\n";

struct Action {
  bool file;  // -f FILE, else -c SQL
  std::string text;
};

struct Args {
  std::string db;
  std::vector<Action> actions;
  ShellOptions options;
  bool help = false;
  bool version = false;
};

int UsageError(const std::string& message) {
  std::cerr << "levelql: " << message << "\n" << kUsage;
  return 2;
}

// Returns 0, or 2 after printing a usage error.
int ParseArgs(int argc, char** argv, Args* args) {
  bool have_db = false;
  bool options_done = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (options_done || arg.size() < 2 || arg[0] != '-') {
      if (have_db) return UsageError("unexpected argument \"" + arg + "\"");
      args->db = arg;
      have_db = true;
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    // -x and --x are the same; --x=VALUE gives the value inline.
    std::string name = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string value;
    bool has_value = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      has_value = true;
    }
    auto take_value = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    bool flag = !has_value;
    if (name == "c" || name == "f") {
      if (!take_value()) return UsageError(arg + " needs an argument");
      args->actions.push_back({name == "f", value});
    } else if (name == "mode") {
      if (!take_value()) return UsageError(arg + " needs an argument");
      auto mode = ParseOutputMode(value);
      if (!mode) {
        return UsageError("unknown mode \"" + value + "\"; use " +
                          std::string(OutputModeNames()));
      }
      args->options.mode = *mode;
    } else if (name == "bail" && flag) {
      args->options.bail = true;
    } else if (name == "echo" && flag) {
      args->options.echo = true;
    } else if (name == "readonly" && flag) {
      args->options.read_only = true;
    } else if (name == "safe" && flag) {
      args->options.safe = true;
    } else if (name == "version" && flag) {
      args->version = true;
    } else if ((name == "help" || name == "h") && flag) {
      args->help = true;
    } else {
      return UsageError("unknown option " + arg);
    }
  }
  return 0;
}

// Ctrl-C: the handler only sets a flag and writes a byte to a pipe (both
// async-signal-safe); the watcher thread reads the pipe and calls
// Shell::Interrupt(), which calls Database::Interrupt().
std::atomic<bool> g_sigint{false};
int g_sigint_pipe[2] = {-1, -1};

extern "C" void OnSigint(int) {
  int saved = errno;
  g_sigint.store(true);
  char byte = 1;
  [[maybe_unused]] ssize_t n = write(g_sigint_pipe[1], &byte, 1);
  errno = saved;
}

class InterruptWatcher {
 public:
  explicit InterruptWatcher(Shell* shell) {
    if (pipe(g_sigint_pipe) != 0) return;
    // The watcher must not take the signal itself: block it while the
    // thread is created (it inherits the mask), then restore.
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    thread_ = std::thread([shell] {
      char byte;
      while (read(g_sigint_pipe[0], &byte, 1) > 0) shell->Interrupt();
    });
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    struct sigaction sa;
    std::memset(&sa, 0, sizeof(sa));
    sa.sa_handler = OnSigint;
    sa.sa_flags = SA_RESTART;  // output writes must not fail with EINTR
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
  }
  ~InterruptWatcher() {
    if (!thread_.joinable()) return;
    signal(SIGINT, SIG_DFL);
    close(g_sigint_pipe[1]);
    thread_.join();
    close(g_sigint_pipe[0]);
  }

 private:
  std::thread thread_;
};

std::string HistoryPath() {
  if (const char* env = std::getenv("LEVELQL_HISTORY")) return env;
  if (const char* home = std::getenv("HOME")) {
    return std::string(home) + "/.levelql_history";
  }
  return "";
}

// libedit needs a UTF-8 locale to show and edit non-ASCII text.
void SetUtf8Locale() {
  setlocale(LC_CTYPE, "");
  const char* codeset = nl_langinfo(CODESET);
  if (codeset == nullptr || std::strcmp(codeset, "UTF-8") != 0) {
    if (setlocale(LC_CTYPE, "C.UTF-8") == nullptr) {
      setlocale(LC_CTYPE, "en_US.UTF-8");
    }
  }
}

int RunInteractive(Shell& shell, bool in_memory) {
  std::cout << "levelql " << LEVELQL_VERSION << "\n"
            << "Enter \".help\" for usage hints.\n";
  if (in_memory) {
    std::cout << "Connected to a transient in-memory database.\n"
              << "Use \".open FILE\" to reopen on a persistent database.\n";
  }
  SetUtf8Locale();
  InterruptWatcher watcher(&shell);
  FILE* screen = isatty(STDOUT_FILENO) ? stdout : stderr;
  LineEditor editor(
      "levelql", screen, HistoryPath(),
      [&shell](std::string_view before, std::string_view word) {
        return shell.Complete(before, word);
      },
      &g_sigint);
  std::string entry;  // the history entry being typed (a whole statement)
  for (;;) {
    g_sigint = false;
    std::cout.flush();
    std::string line;
    LineEditor::Result r = editor.ReadLine(shell.prompt(), &line);
    if (r == LineEditor::Result::kInterrupted) {
      g_sigint = false;
      if (shell.in_statement() || !line.empty()) {
        shell.CancelInput();
        entry.clear();
        std::fputs("^C\n", screen);
      } else {
        std::fputs("^C\nUse \".quit\" or Ctrl-D to exit.\n", screen);
      }
      std::fflush(screen);
      continue;
    }
    if (r == LineEditor::Result::kEof) {
      std::fputc('\n', screen);
      break;
    }
    if (!entry.empty()) entry += ' ';
    entry += line;
    bool go = shell.ProcessLine(line);
    if (!shell.in_statement()) {
      editor.AddHistory(entry);
      entry.clear();
    }
    if (!go) break;
  }
  shell.Finish();
  return shell.exit_code();
}

int Main(int argc, char** argv) {
  Args args;
  if (int rc = ParseArgs(argc, argv, &args); rc != 0) return rc;
  if (args.help) {
    std::cout << kUsage;
    return 0;
  }
  if (args.version) {
    std::cout << "levelql " << LEVELQL_VERSION << "\n";
    return 0;
  }
  bool interactive = args.actions.empty() && isatty(STDIN_FILENO);
  args.options.interactive = interactive;
  args.options.progress = isatty(STDERR_FILENO);
  Shell shell(args.options, std::cout, std::cerr);
  std::string path = args.db.empty() ? ":memory:" : args.db;
  if (Status s = shell.Open(path); !s.ok()) {
    std::cerr << "levelql: cannot open " << path << ": " << s.ToString()
              << "\n";
    return 1;
  }
  if (!args.actions.empty()) {
    for (const Action& a : args.actions) {
      bool go = a.file ? shell.RunFile(a.text) : shell.RunText(a.text);
      if (!go) break;
    }
    shell.Finish();  // says so when it rolls back a transaction left open
    return shell.exit_code();
  }
  if (interactive) return RunInteractive(shell, args.db.empty());
  std::ios::sync_with_stdio(false);
  shell.NameInput("stdin");
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.ends_with('\r')) line.pop_back();
    if (!shell.ProcessLine(line)) break;
  }
  shell.Finish();
  return shell.exit_code();
}

}  // namespace
}  // namespace levelql::repl

int main(int argc, char** argv) { return levelql::repl::Main(argc, argv); }
