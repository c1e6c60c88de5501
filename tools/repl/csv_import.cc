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
  if (!error_.empty() || Peek() < 0) return false;
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
        if (c < 0) {
          error_ =
              "line " + std::to_string(start) + ": unterminated quoted field";
          return false;
        }
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
        error_ = "line " + std::to_string(line_) + ": field " +
                 std::to_string(record->fields.size() + 1) +
                 ": unexpected character after closing quote";
        return false;
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

// Accumulates rows and sends them in batches.
class BatchInserter {
 public:
  BatchInserter(Database& db, std::string table, size_t columns,
                size_t batch_rows)
      : db_(db),
        table_(std::move(table)),
        columns_(columns),
        batch_rows_(batch_rows) {}

  size_t pending() const { return lines_.size(); }
  size_t batch_rows() const { return batch_rows_; }

  void Add(std::vector<Value> values, int64_t line) {
    for (Value& v : values) params_.positional.push_back(std::move(v));
    lines_.push_back(line);
  }

  // Sends the pending rows; on failure sets *error to "line N: reason".
  bool Flush(ImportResult* result) {
    if (lines_.empty()) return true;
    Status status = Send(lines_.size(), params_);
    if (status.ok()) {
      result->rows += static_cast<int64_t>(lines_.size());
      result->last_line = lines_.back();
    } else if (status.code() == Status::Code::kInterrupted) {
      result->error = "interrupted at line " + std::to_string(lines_[0]);
    } else {
      // Find the row the engine rejects; the ones before it still go in.
      for (size_t r = 0; r < lines_.size(); ++r) {
        Params one;
        one.positional.assign(params_.positional.begin() + r * columns_,
                              params_.positional.begin() + (r + 1) * columns_);
        Status s = Send(1, one);
        if (!s.ok()) {
          result->error =
              "line " + std::to_string(lines_[r]) + ": " + s.ToString();
          break;
        }
        result->rows++;
        result->last_line = lines_[r];
      }
    }
    params_.positional.clear();
    lines_.clear();
    return result->error.empty();
  }

 private:
  Status Send(size_t rows, const Params& params) {
    std::unique_ptr<Statement>& slot = rows == batch_rows_ ? full_ : partial_;
    if (rows != batch_rows_ && rows != partial_rows_) slot.reset();
    if (!slot) {
      auto stmt = db_.Prepare(InsertSql(table_, columns_, rows));
      if (!stmt.ok()) return stmt.status();
      slot = std::move(stmt).value();
      if (rows != batch_rows_) partial_rows_ = rows;
    }
    auto r = slot->Execute(params);
    return r.ok() ? Status::OK() : r.status();
  }

  Database& db_;
  std::string table_;
  size_t columns_;
  size_t batch_rows_;
  std::unique_ptr<Statement> full_;     // batch_rows_ rows
  std::unique_ptr<Statement> partial_;  // partial_rows_ rows
  size_t partial_rows_ = 0;
  Params params_;
  std::vector<int64_t> lines_;  // line of each pending row
};

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
  BatchInserter inserter(db, request.table, columns, batch_rows);

  std::error_code ec;
  uint64_t total = std::filesystem::file_size(request.path, ec);
  ProgressBar bar(request.progress, ec ? 0 : total);
  CsvReader reader(in);
  CsvRecord record;
  int64_t skipped = 0;
  while (reader.Next(&record)) {
    if (skipped < request.skip) {
      ++skipped;
      continue;
    }
    if (request.interrupted != nullptr && request.interrupted->load()) {
      result.error = "interrupted at line " + std::to_string(record.line);
      break;
    }
    std::string line = "line " + std::to_string(record.line) + ": ";
    if (record.fields.size() != columns) {
      result.error = line + "expected " + std::to_string(columns) +
                     " fields, found " + std::to_string(record.fields.size());
      break;
    }
    std::vector<Value> values;
    values.reserve(columns);
    for (size_t i = 0; i < columns && result.error.empty(); ++i) {
      std::string& f = record.fields[i];
      if (!IsValidUtf8(f)) {
        result.error =
            line + "field " + std::to_string(i + 1) + ": invalid UTF-8";
      } else if (f.empty() && !record.quoted[i]) {
        values.push_back(Value::Null());
      } else {
        values.push_back(Value::Text(std::move(f)));
      }
    }
    if (!result.error.empty()) break;
    inserter.Add(std::move(values), record.line);
    if (inserter.pending() == inserter.batch_rows()) {
      if (!inserter.Flush(&result)) return finish();
      bar.Update(reader.bytes_read(), result.rows);
    }
  }
  if (result.error.empty()) result.error = reader.error();
  // The rows before the bad record (or all of them) still go in.
  if (result.error.empty() || !result.error.starts_with("interrupted")) {
    std::string error = std::move(result.error);
    result.error.clear();
    if (inserter.Flush(&result) && !error.empty()) result.error = error;
  }
  return finish();
}

std::string ImportSummary(const ImportResult& result) {
  std::string through;
  if (!result.error.empty() && result.rows > 0) {
    through = " through line " + std::to_string(result.last_line);
  }
  char buf[160];
  double rate = result.seconds > 0 ? result.rows / result.seconds : 0;
  std::snprintf(buf, sizeof(buf),
                "imported %lld rows%s in %.3f s (%.0f rows/s)",
                static_cast<long long>(result.rows), through.c_str(),
                result.seconds, rate);
  return buf;
}

}  // namespace levelql::repl
