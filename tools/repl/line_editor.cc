#include "tools/repl/line_editor.h"

#include <histedit.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

#include "tools/repl/render.h"

namespace levelql::repl {
namespace {

LineEditor* Self(EditLine* el) {
  void* data = nullptr;
  el_get(el, EL_CLIENTDATA, &data);
  return static_cast<LineEditor*>(data);
}

size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

bool IsWordByte(char c) {
  unsigned char u = c;
  return std::isalnum(u) || c == '_' || u >= 0x80;
}

char Fold(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

}  // namespace

LineEditor::LineEditor(const char* program, FILE* out, std::string history_path,
                       Completer completer,
                       const std::atomic<bool>* interrupted)
    : out_(out),
      history_path_(std::move(history_path)),
      completer_(std::move(completer)),
      interrupted_(interrupted) {
  el_ = el_init(program, stdin, out, stderr);
  hist_ = history_init();
  HistEvent ev;
  history(hist_, &ev, H_SETSIZE, 2000);
  history(hist_, &ev, H_SETUNIQUE, 1);
  if (!history_path_.empty())
    history(hist_, &ev, H_LOAD, history_path_.c_str());
  el_set(el_, EL_CLIENTDATA, this);
  el_set(el_, EL_EDITOR, "emacs");
  el_set(el_, EL_SIGNAL, 0);
  el_set(el_, EL_HIST, history, hist_);
  el_set(el_, EL_PROMPT, &LineEditor::PromptFn);
  el_set(el_, EL_GETCFN, &LineEditor::ReadCharFn);
  el_set(el_, EL_ADDFN, "levelql-complete", "Complete SQL and dot-commands",
         &LineEditor::CompleteFn);
  el_set(el_, EL_BIND, "^I", "levelql-complete", nullptr);
  el_source(el_, nullptr);  // ~/.editrc, as other editline programs do
}

LineEditor::~LineEditor() {
  history_end(hist_);
  el_end(el_);
}

char* LineEditor::PromptFn(EditLine* el) { return Self(el)->prompt_.data(); }

// Reads one character as UTF-8. poll() returns EINTR on a signal whatever
// SA_RESTART says, which is how Ctrl-C ends the line at once.
int LineEditor::ReadCharFn(EditLine* el, wchar_t* out) {
  const LineEditor* self = Self(el);
  char32_t cp = 0;
  int need = 0;
  for (;;) {
    if (self->interrupted_ != nullptr && self->interrupted_->load()) {
      errno = EINTR;
      *out = 0;
      return -1;
    }
    struct pollfd fd = {STDIN_FILENO, POLLIN, 0};
    int r = poll(&fd, 1, -1);
    if (r < 0) {
      if (errno == EINTR) continue;
      *out = 0;
      return -1;
    }
    unsigned char c;
    ssize_t n = read(STDIN_FILENO, &c, 1);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      *out = 0;
      return -1;
    }
    if (n == 0) {
      *out = 0;
      return 0;
    }
    if (need == 0) {
      if (c < 0x80) {
        *out = static_cast<wchar_t>(c);
        return 1;
      }
      need = (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 0;
      if (need == 0) continue;  // a stray byte: drop it
      cp = c & (0x3f >> need);
      continue;
    }
    if ((c >> 6) != 2) {  // broken sequence: drop it
      need = 0;
      continue;
    }
    cp = (cp << 6) | (c & 0x3f);
    if (--need == 0) {
      *out = static_cast<wchar_t>(cp);
      return 1;
    }
  }
}

unsigned char LineEditor::CompleteFn(EditLine* el, int) {
  return Self(el)->Complete();
}

unsigned char LineEditor::Complete() {
  const LineInfo* li = el_line(el_);
  std::string_view before(li->buffer,
                          static_cast<size_t>(li->cursor - li->buffer));
  size_t start = before.size();
  while (start > 0 && IsWordByte(before[start - 1])) --start;
  // A leading dot belongs to the word when it starts a dot-command.
  if (start > 0 && before[start - 1] == '.' &&
      before.find_first_not_of(" \t") == start - 1) {
    --start;
  }
  std::string_view word = before.substr(start);
  std::vector<std::string> candidates =
      completer_(before.substr(0, start), word);
  if (candidates.empty()) return CC_REFRESH_BEEP;

  // The longest prefix every candidate shares (ASCII case folded).
  std::string common = candidates[0];
  for (const std::string& c : candidates) {
    size_t n = 0;
    while (n < common.size() && n < c.size() && Fold(common[n]) == Fold(c[n])) {
      ++n;
    }
    common.resize(n);
  }
  if (candidates.size() == 1) common += ' ';
  if (common.size() > word.size() ||
      (candidates.size() == 1 && common != word)) {
    el_deletestr(el_, static_cast<int>(CodePoints(word)));
    el_insertstr(el_, common.c_str());
    return CC_REFRESH;
  }
  // Nothing to add: list the candidates in columns under the line.
  size_t width = 0;
  for (const std::string& c : candidates)
    width = std::max(width, DisplayWidth(c));
  size_t cols = std::max<size_t>(1, 80 / (width + 2));
  size_t rows = (candidates.size() + cols - 1) / cols;
  std::fputc('\n', out_);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      size_t i = c * rows + r;
      if (i >= candidates.size()) break;
      std::fputs(candidates[i].c_str(), out_);
      if (c + 1 < cols && i + rows < candidates.size()) {
        std::fprintf(out_, "%*s",
                     static_cast<int>(width + 2 - DisplayWidth(candidates[i])),
                     "");
      }
    }
    std::fputc('\n', out_);
  }
  std::fflush(out_);
  return CC_REDISPLAY;
}

LineEditor::Result LineEditor::ReadLine(const std::string& prompt,
                                        std::string* line) {
  prompt_ = prompt;
  int count = 0;
  const char* text = el_gets(el_, &count);
  if (interrupted_ != nullptr && interrupted_->load()) {
    // What had been typed on the line, so the caller can tell a Ctrl-C
    // that discards text from one at an empty prompt.
    const LineInfo* li = el_line(el_);
    line->assign(li->buffer, static_cast<size_t>(li->lastchar - li->buffer));
    return Result::kInterrupted;
  }
  if (text == nullptr || count <= 0) return Result::kEof;
  line->assign(text, static_cast<size_t>(count));
  while (!line->empty() && (line->back() == '\n' || line->back() == '\r')) {
    line->pop_back();
  }
  return Result::kLine;
}

void LineEditor::AddHistory(const std::string& entry) {
  if (entry.find_first_not_of(" \t") == std::string::npos) return;
  if (entry == last_entry_) return;
  last_entry_ = entry;
  HistEvent ev;
  history(hist_, &ev, H_ENTER, entry.c_str());
  if (!history_path_.empty())
    history(hist_, &ev, H_SAVE, history_path_.c_str());
}

}  // namespace levelql::repl
