#include "tools/repl/csv_import.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "levelql/sql_text.h"

namespace levelql::repl {

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len;
    uint32_t cp;
    if ((c >> 5) == 6) {
      len = 2;
      cp = c & 0x1f;
    } else if ((c >> 4) == 14) {
      len = 3;
      cp = c & 0x0f;
    } else if ((c >> 3) == 30) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (int k = 1; k < len; ++k) {
      unsigned char cc = s[i + k];
      if ((cc >> 6) != 2) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      return false;
    }
    i += len;
  }
  return true;
}

CsvReader::CsvReader(std::istream& in) : in_(in) {}

bool CsvReader::Fill() {
  if (pos_ < buf_.size()) return true;
  buf_.resize(1 << 16);
  in_.read(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.resize(static_cast<size_t>(in_.gcount()));
  pos_ = 0;
  if (!started_) {
    started_ = true;
    if (buf_.starts_with("\xEF\xBB\xBF")) {
      pos_ = 3;
      consumed_ = 3;
    }
  }
  return pos_ < buf_.size();
}

int CsvReader::Get() {
  if (!Fill()) return -1;
  ++consumed_;
  return static_cast<unsigned char>(buf_[pos_++]);
}

int CsvReader::Peek() {
  if (!Fill()) return -1;
  return static_cast<unsigned char>(buf_[pos_]);
}

bool CsvReader::Next(CsvRecord* record) {
  record->fields.clear();
  record->quoted.clear();
  record->line = line_;
  if (error_line_ != 0 || Peek() < 0) return false;
  std::string field;
  for (;;) {
    int c = Peek();
    bool quoted = c == '"';
    field.clear();
    if (quoted) {
      Get();
      int64_t start = line_;
      for (;;) {
        c = Get();
        if (c < 0) return Fail(start, "unterminated quoted field");
        if (c == '"') {
          if (Peek() != '"') break;
          Get();
        } else if (c == '\n') {
          ++line_;
        }
        field += static_cast<char>(c);
      }
      c = Get();
      if (c == '\r' && Peek() == '\n') c = Get();
      if (c != ',' && c != '\n' && c >= 0) {
        recoverable_ = true;
        return Fail(line_, "field " +
                               std::to_string(record->fields.size() + 1) +
                               ": unexpected character after closing quote");
      }
    } else {
      for (;;) {
        c = Get();
        if (c < 0 || c == ',' || c == '\n') break;
        if (c == '\r' && Peek() == '\n') {
          c = Get();
          break;
        }
        field += static_cast<char>(c);
      }
    }
    record->fields.push_back(field);
    record->quoted.push_back(quoted);
    if (c != ',') {
      if (c == '\n') ++line_;
      return true;
    }
  }
}

bool CsvReader::Fail(int64_t line, std::string reason) {
  error_line_ = line;
  error_reason_ = std::move(reason);
  return false;
}

std::string CsvReader::error() const {
  if (error_line_ == 0) return "";
  return "line " + std::to_string(error_line_) + ": " + error_reason_;
}

bool CsvReader::SkipBadRecord() {
  if (error_line_ == 0 || !recoverable_) return false;
  for (int c = Get(); c >= 0; c = Get()) {
    if (c == '\n') {
      ++line_;
      break;
    }
  }
  error_line_ = 0;
  error_reason_.clear();
  recoverable_ = false;
  return true;
}

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string InsertSql(const std::string& table, size_t columns, size_t rows) {
  std::string tuple = "(";
  for (size_t i = 0; i < columns; ++i) tuple += i ? ", ?" : "?";
  tuple += ")";
  std::string sql = "INSERT INTO " + QuoteIdentifier(table) + " VALUES ";
  sql.reserve(sql.size() + rows * (tuple.size() + 2));
  for (size_t r = 0; r < rows; ++r) {
    if (r) sql += ", ";
    sql += tuple;
  }
  return sql;
}

class ProgressBar {
 public:
  ProgressBar(std::ostream* out, uint64_t total) : out_(out), total_(total) {}
  ~ProgressBar() {
    if (out_ != nullptr && drawn_) *out_ << "\r\033[K" << std::flush;
  }
  // Erases the bar, before other output on the same stream.
  void Clear() {
    if (out_ != nullptr && drawn_) *out_ << "\r\033[K" << std::flush;
    drawn_ = false;
  }
  void Update(uint64_t done, int64_t rows) {
    if (out_ == nullptr) return;
    auto now = Clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    drawn_ = true;
    constexpr int kWidth = 30;
    double frac = total_ > 0 ? std::min(1.0, double(done) / total_) : 0;
    int filled = static_cast<int>(frac * kWidth);
    *out_ << "\r[" << std::string(filled, '=')
          << std::string(kWidth - filled, ' ') << "] "
          << static_cast<int>(frac * 100) << "% " << rows << " rows\033[K"
          << std::flush;
  }

 private:
  std::ostream* out_;
  uint64_t total_;
  bool drawn_ = false;
  Clock::time_point last_;
};

// Errors the engine reports for a row's values, which --skip-bad skips.
// Anything else (I/O, corruption, interruption) stops the import.
bool RowIsAtFault(const Status& s) {
  switch (s.code()) {
    case Status::Code::kTypeError:
    case Status::Code::kConstraintError:
    case Status::Code::kInvalidArgument:
    case Status::Code::kLimitExceeded:
      return true;
    default:
      return false;
  }
}

// The engine's error for the one row of `sql` (INSERT INTO t VALUES (?, ?,
// ...)) in the CSV's terms: a place "at 1:C: " that points at the K-th `?`
// becomes "field K: ".
std::string RowError(const Status& s, const std::string& sql) {
  const std::string& m = s.message();
  std::string kind = std::string(Status::CodeName(s.code())) + ": ";
  size_t column = 0;
  size_t i = 5;  // after "at 1:"
  if (!m.starts_with("at 1:")) return s.ToString();
  while (i < m.size() && m[i] >= '0' && m[i] <= '9') {
    column = column * 10 + (m[i++] - '0');
  }
  if (column == 0 || column > sql.size() || sql[column - 1] != '?' ||
      m.compare(i, 2, ": ") != 0) {
    return s.ToString();
  }
  size_t field = std::count(sql.begin(), sql.begin() + column, '?');
  return "field " + std::to_string(field) + ": " + kind + m.substr(i + 2);
}

// The state of one import: the counts, where it stopped, and the rows not
// yet sent.
class Importer {
 public:
  Importer(Database& db, const ImportRequest& request, size_t columns,
           size_t batch_rows, ImportResult* result)
      : db_(db),
        request_(request),
        columns_(columns),
        batch_rows_(batch_rows),
        result_(result) {}

  bool stopped() const { return !result_->error.empty(); }
  size_t pending() const { return lines_.size(); }

  // Stops at the record on `line` with ordinal `record` (records read after
  // the first request.skip).
  void Stop(int64_t line, int64_t record, std::string error) {
    result_->error = std::move(error);
    result_->stop_line = line;
    result_->resume_skip = request_.skip + record;
  }
  // Stops before the first row not yet sent, or at `line`/`record` when
  // none is pending: Ctrl-C drops the pending rows.
  void Interrupt(int64_t line, int64_t record) {
    if (!lines_.empty()) {
      line = lines_[0];
      record = records_[0];
    }
    Stop(line, record, "interrupted at line " + std::to_string(line));
  }

  // A bad record: skipped and reported with skip_bad (returns true), else
  // the import stops at it.
  bool Bad(int64_t line, int64_t record, const std::string& reason) {
    if (!request_.skip_bad) {
      Stop(line, record, "line " + std::to_string(line) + ": " + reason);
      return false;
    }
    ++result_->skipped;
    skips_.emplace_back(line, reason);
    return true;
  }

  // Reports the skipped lines not yet reported, in line order: a line bad
  // in itself is found as it is read, one the engine rejects only when its
  // batch is sent.
  void ReportSkips() {
    std::stable_sort(
        skips_.begin(), skips_.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
    if (request_.on_skip) {
      for (const auto& [line, reason] : skips_) request_.on_skip(line, reason);
    }
    skips_.clear();
  }

  void Add(std::vector<Value> values, int64_t line, int64_t record) {
    for (Value& v : values) params_.positional.push_back(std::move(v));
    lines_.push_back(line);
    records_.push_back(record);
  }

  // Sends the pending rows and reports the lines skipped so far; false
  // when the import stopped.
  bool Flush() {
    SendPending();
    ReportSkips();
    return !stopped();
  }

  bool Full() const { return lines_.size() == batch_rows_; }

 private:
  void SendPending() {
    if (lines_.empty()) return;
    Status status = Send(lines_.size(), params_);
    if (status.ok()) {
      result_->rows += static_cast<int64_t>(lines_.size());
    } else if (status.code() == Status::Code::kInterrupted) {
      Interrupt(0, 0);
    } else {
      // Find the rows the engine rejects; the ones before the first that
      // stops the import still go in.
      for (size_t r = 0; r < lines_.size() && !stopped(); ++r) {
        Params one;
        one.positional.assign(params_.positional.begin() + r * columns_,
                              params_.positional.begin() + (r + 1) * columns_);
        Status s = Send(1, one);
        if (s.ok()) {
          result_->rows++;
        } else if (s.code() == Status::Code::kInterrupted) {
          Stop(lines_[r], records_[r],
               "interrupted at line " + std::to_string(lines_[r]));
        } else if (!RowIsAtFault(s)) {
          Stop(lines_[r], records_[r],
               "line " + std::to_string(lines_[r]) + ": " + s.ToString());
        } else {
          Bad(lines_[r], records_[r],
              RowError(s, InsertSql(request_.table, columns_, 1)));
        }
      }
    }
    params_.positional.clear();
    lines_.clear();
    records_.clear();
  }

  Status Send(size_t rows, const Params& params) {
    std::unique_ptr<Statement>& slot = rows == batch_rows_ ? full_ : partial_;
    if (rows != batch_rows_ && rows != partial_rows_) slot.reset();
    if (!slot) {
      auto stmt = db_.Prepare(InsertSql(request_.table, columns_, rows));
      if (!stmt.ok()) return stmt.status();
      slot = std::move(stmt).value();
      if (rows != batch_rows_) partial_rows_ = rows;
    }
    auto r = slot->Execute(params);
    return r.ok() ? Status::OK() : r.status();
  }

  Database& db_;
  const ImportRequest& request_;
  size_t columns_;
  size_t batch_rows_;
  ImportResult* result_;
  std::unique_ptr<Statement> full_;     // batch_rows_ rows
  std::unique_ptr<Statement> partial_;  // partial_rows_ rows
  size_t partial_rows_ = 0;
  Params params_;
  std::vector<int64_t> lines_;    // line of each pending row
  std::vector<int64_t> records_;  // ordinal of each pending row's record
  std::vector<std::pair<int64_t, std::string>> skips_;  // not yet reported
};

// A dot-command argument that the shell's tokenizer reads back as `s`.
std::string DotArg(std::string_view s) {
  bool plain = !s.empty() && s.find_first_of(" \t'\"") == std::string::npos;
  if (plain) return std::string(s);
  std::string out = "'";
  for (char c : s) out += c == '\'' ? "''" : std::string(1, c);
  return out + "'";
}

}  // namespace

ImportResult ImportCsv(Database& db, const ImportRequest& request) {
  ImportResult result;
  auto start = Clock::now();
  auto finish = [&]() {
    result.seconds = SecondsSince(start);
    return result;
  };
  std::ifstream in(request.path, std::ios::binary);
  if (!in) {
    result.error = "cannot open " + request.path + ": " + std::strerror(errno);
    return finish();
  }
  auto probe =
      db.Query("SELECT * FROM " + QuoteIdentifier(request.table) + " LIMIT 0");
  if (!probe.ok()) {
    result.error = probe.status().ToString();
    return finish();
  }
  const size_t columns = (*probe)->column_names().size();
  if (columns == 0) {
    result.error = "table " + request.table + " has no columns";
    return finish();
  }
  // Keep one statement's text well under the parser's 1 MB limit.
  size_t batch_rows = std::max<size_t>(
      1, std::min(request.batch_rows, 400000 / (2 * columns + 4)));
  std::error_code ec;
  uint64_t total = std::filesystem::file_size(request.path, ec);
  ProgressBar bar(request.progress, ec ? 0 : total);
  ImportRequest reporting = request;
  reporting.on_skip = [&](int64_t line, const std::string& reason) {
    bar.Clear();
    if (request.on_skip) request.on_skip(line, reason);
  };
  Importer importer(db, reporting, columns, batch_rows, &result);
  CsvReader reader(in);
  CsvRecord record;
  int64_t skipped = 0;  // of request.skip
  int64_t ordinal = 0;  // records read after those
  for (;;) {
    if (!reader.Next(&record)) {
      if (reader.error().empty()) break;  // the end of the file
      // A malformed record: skip_bad drops the rest of its line and goes
      // on, unless it is an unterminated quoted field (the rest of the file).
      int64_t line = reader.error_line();
      std::string error = reader.error();
      std::string reason = reader.error_reason();
      bool skip = request.skip_bad && reader.SkipBadRecord();
      if (skipped < request.skip) {
        if (skip) {
          ++skipped;
          continue;
        }
        result.error = error;
        break;
      }
      if (!skip) {
        importer.Stop(line, ordinal, error);
        break;
      }
      importer.Bad(line, ordinal++, reason);
      continue;
    }
    if (skipped < request.skip) {
      ++skipped;
      continue;
    }
    if (request.interrupted != nullptr && request.interrupted->load()) {
      importer.Interrupt(record.line, ordinal);
      break;
    }
    std::string reason;
    if (record.fields.size() != columns) {
      reason = "expected " + std::to_string(columns) + " fields, found " +
               std::to_string(record.fields.size());
    }
    std::vector<Value> values;
    values.reserve(columns);
    for (size_t i = 0; i < columns && reason.empty(); ++i) {
      std::string& f = record.fields[i];
      if (!IsValidUtf8(f)) {
        reason = "field " + std::to_string(i + 1) + ": invalid UTF-8";
      } else if (f.empty() && !record.quoted[i]) {
        values.push_back(Value::Null());
      } else {
        values.push_back(Value::Text(std::move(f)));
      }
    }
    if (!reason.empty()) {
      if (!importer.Bad(record.line, ordinal++, reason)) break;
      continue;
    }
    importer.Add(std::move(values), record.line, ordinal++);
    if (importer.Full()) {
      if (!importer.Flush()) return finish();
      bar.Update(reader.bytes_read(), result.rows);
    }
  }
  // The rows before a bad record (or all of them) still go in; an
  // interrupted import stops where it is.
  if (!result.error.starts_with("interrupted")) {
    ImportResult stop = result;  // the bad record, if any
    result.error.clear();
    if (importer.Flush() && !stop.error.empty()) {
      result.error = stop.error;
      result.stop_line = stop.stop_line;
      result.resume_skip = stop.resume_skip;
    }
  }
  importer.ReportSkips();
  return finish();
}

std::string ImportSummary(const ImportResult& result,
                          const ImportRequest& request, std::string_view file,
                          std::string_view table) {
  char buf[160];
  double rate = result.seconds > 0 ? result.rows / result.seconds : 0;
  std::snprintf(buf, sizeof(buf), "imported %lld row%s in %.3f s (%.0f rows/s)",
                static_cast<long long>(result.rows),
                result.rows == 1 ? "" : "s", result.seconds, rate);
  std::string out = buf;
  if (result.stop_line > 0 && result.rows > 0) {
    out += std::string(": every ") + (request.skip_bad ? "good " : "") +
           "row before line " + std::to_string(result.stop_line) +
           ", none from it on";
  }
  if (result.skipped > 0) {
    out += "; skipped " + std::to_string(result.skipped) + " bad line" +
           (result.skipped == 1 ? "" : "s");
  }
  if (result.stop_line > 0) {
    std::string again = ".import ";
    if (request.skip_bad) again += "--skip-bad ";
    if (result.resume_skip > 0) {
      again += "--skip " + std::to_string(result.resume_skip) + " ";
    }
    again += DotArg(file) + " " + DotArg(table);
    out += result.error.starts_with("interrupted")
               ? "\nresume with: " + again
               : "\nfix line " + std::to_string(result.stop_line) +
                     ", then resume with: " + again;
  }
  return out;
}

}  // namespace levelql::repl
