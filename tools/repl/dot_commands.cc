// The dot-commands of Shell (shell.h): each reports its own errors through
// Fail().
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
#include "tools/repl/shell.h"
#include "tools/repl/shell_util.h"

namespace levelql::repl {

using namespace shell_util;
namespace fs = std::filesystem;

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
  RollBackOpenTransaction(".exit");
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
  RollBackOpenTransaction(".open");
  Status s = Open(args[0]);
  if (!s.ok()) Fail(s.ToString());
}

void Shell::CmdTables(const std::vector<std::string>& args) {
  if (args.size() > 1) {
    Fail("usage: .tables [PATTERN]");
    return;
  }
  // Tables and views, by name (sqlite3 lists both).
  std::vector<std::string> names;
  size_t width = 0;
  for (const SchemaEntry& e : db_->Schema()) {
    if (e.kind == "index") continue;
    if (!args.empty() && !LikeMatch(args[0], e.name)) continue;
    width = std::max(width, DisplayWidth(e.name));
    names.push_back(e.name);
  }
  std::sort(names.begin(), names.end());
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
  // A pattern matching no table prints nothing, as .tables and sqlite3 do.
  for (const SchemaEntry& e : db_->Schema()) {
    if (!args.empty() && !LikeMatch(args[0], e.table)) continue;
    out() << e.sql << ";\n";
  }
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
  // Nothing to sum up when nothing was read (no file, no table).
  if (result.error.empty() || result.rows > 0 || result.skipped > 0 ||
      result.stop_line > 0) {
    err_ << ImportSummary(result, request, positional[0], positional[1])
         << "\n";
  }
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

}  // namespace levelql::repl
