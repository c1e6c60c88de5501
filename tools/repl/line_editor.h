// LineEditor: line editing on a terminal through libedit (BSD editline),
// with a persistent history file and tab completion.
//
// It reads from stdin, which must be a terminal, and draws on `out` (stdout,
// or stderr when stdout is redirected). Keys are emacs-style; Up/Down walk
// the history; Tab asks the completer for candidates and inserts the unique
// one, or their common prefix, or lists them. Characters are read with
// poll()+read() so that a SIGINT - whose handler sets `*interrupted` -
// ends ReadLine() with kInterrupted at once, even when the handler was
// installed with SA_RESTART.
//
// Not thread-safe: one thread owns the editor. The history file is
// rewritten after each AddHistory(), so an abrupt exit loses nothing.
#ifndef LEVELQL_TOOLS_REPL_LINE_EDITOR_H_
#define LEVELQL_TOOLS_REPL_LINE_EDITOR_H_

#include <atomic>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

typedef struct editline EditLine;
typedef struct history History;

namespace levelql::repl {

class LineEditor {
 public:
  // Candidates for `word`, the partial word before the cursor; `before` is
  // the line's text before that word.
  using Completer = std::function<std::vector<std::string>(
      std::string_view before, std::string_view word)>;

  // `history_path` empty: no history file. `interrupted` is borrowed and
  // may be null.
  LineEditor(const char* program, FILE* out, std::string history_path,
             Completer completer, const std::atomic<bool>* interrupted);
  ~LineEditor();

  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  enum class Result { kLine, kEof, kInterrupted };
  // Shows `prompt` and reads one line (without its newline) into *line.
  // kInterrupted (Ctrl-C): *line is the text the line held, now discarded.
  Result ReadLine(const std::string& prompt, std::string* line);

  // Appends an entry to the history (skipping blanks and repeats of the
  // last entry) and saves the file.
  void AddHistory(const std::string& entry);

 private:
  static char* PromptFn(EditLine* el);
  static int ReadCharFn(EditLine* el, wchar_t* out);
  static unsigned char CompleteFn(EditLine* el, int ch);
  unsigned char Complete();

  EditLine* el_ = nullptr;
  History* hist_ = nullptr;
  FILE* out_;
  std::string history_path_;
  Completer completer_;
  const std::atomic<bool>* interrupted_;
  std::string prompt_;
  std::string last_entry_;
};

}  // namespace levelql::repl

#endif  // LEVELQL_TOOLS_REPL_LINE_EDITOR_H_
