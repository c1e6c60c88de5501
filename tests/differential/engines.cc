#include "tests/differential/engines.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "tests/support/env.h"

namespace levelql::difftest {

Cell Cell::FromValue(const Value& v) {
  Cell c;
  switch (v.type()) {
    case Type::kNull:
      break;
    case Type::kInteger:
    case Type::kBoolean:
    case Type::kTimestamp:
      c.kind = Kind::kInt;
      c.i = v.int_value();
      break;
    case Type::kReal:
      c.kind = Kind::kReal;
      c.d = v.real_value();
      break;
    case Type::kText:
      c.kind = Kind::kText;
      c.s = v.text();
      break;
    case Type::kBlob:
      c.kind = Kind::kBlob;
      c.s = v.text();
      break;
    case Type::kList:
      c.kind = Kind::kText;
      c.s = v.ToString();
      c.list = v;
      break;
  }
  return c;
}

Value Cell::ToValue() const {
  switch (kind) {
    case Kind::kNull:
      return Value::Null();
    case Kind::kInt:
      return Value::Int(i);
    case Kind::kReal:
      return Value::Real(d);
    case Kind::kText:
      return list.type() == Type::kList ? list : Value::Text(s);
    case Kind::kBlob:
      return Value::Blob(s);
  }
  return Value::Null();
}

std::unique_ptr<LevelqlEngine> LevelqlEngine::Open(const std::string& where) {
  const std::string path =
      where == ":memory:" ? testing::FreshDatabasePath() : where;
  auto db = Database::Open(path, testing::TestOptions());
  if (!db.ok()) {
    std::fprintf(stderr, "levelql: cannot open %s: %s\n", path.c_str(),
                 db.status().ToString().c_str());
    std::abort();
  }
  return std::make_unique<LevelqlEngine>(std::move(db).value());
}

Outcome LevelqlEngine::Run(const std::string& sql, bool query) {
  Outcome out;
  if (!query) {
    auto r = db_->Execute(sql, Params{});
    if (!r.ok()) {
      out.ok = false;
      out.error = r.status().ToString();
    } else {
      out.changes = r->rows_affected;
    }
    return out;
  }
  return CursorOutcome(db_->Query(sql));
}

Outcome CursorOutcome(Result<std::unique_ptr<Cursor>> cur) {
  Outcome out;
  if (!cur.ok()) {
    out.ok = false;
    out.error = cur.status().ToString();
    return out;
  }
  out.columns = static_cast<int>((*cur)->column_names().size());
  while ((*cur)->Next()) {
    ResultRow row;
    for (const Value& v : (*cur)->row()) row.push_back(Cell::FromValue(v));
    out.rows.push_back(std::move(row));
  }
  if (Status s = (*cur)->status(); !s.ok()) {
    out.ok = false;
    out.error = s.ToString();
    out.rows.clear();
  }
  return out;
}

SqliteEngine::SqliteEngine() {
  if (sqlite3_open(":memory:", &db_) != SQLITE_OK) std::abort();
  Run("PRAGMA case_sensitive_like = ON", false);
}

SqliteEngine::~SqliteEngine() { sqlite3_close(db_); }

Outcome SqliteEngine::Run(const std::string& sql, bool) {
  Outcome out;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    out.ok = false;
    out.error = sqlite3_errmsg(db_);
    return out;
  }
  out.columns = sqlite3_column_count(stmt);
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    ResultRow row;
    int n = sqlite3_column_count(stmt);
    for (int i = 0; i < n; ++i) {
      Cell c;
      switch (sqlite3_column_type(stmt, i)) {
        case SQLITE_INTEGER:
          c.kind = Cell::Kind::kInt;
          c.i = sqlite3_column_int64(stmt, i);
          break;
        case SQLITE_FLOAT:
          c.kind = Cell::Kind::kReal;
          c.d = sqlite3_column_double(stmt, i);
          break;
        case SQLITE_TEXT:
          c.kind = Cell::Kind::kText;
          c.s.assign(
              reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)),
              sqlite3_column_bytes(stmt, i));
          break;
        case SQLITE_BLOB:
          c.kind = Cell::Kind::kBlob;
          c.s.assign(static_cast<const char*>(sqlite3_column_blob(stmt, i)),
                     sqlite3_column_bytes(stmt, i));
          break;
        default:
          break;
      }
      row.push_back(std::move(c));
    }
    out.rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) {
    out.ok = false;
    out.error = sqlite3_errmsg(db_);
    out.rows.clear();
  } else {
    out.changes = sqlite3_changes(db_);
  }
  sqlite3_finalize(stmt);
  return out;
}

std::string RenderCell(const Cell& c, bool loose) {
  switch (c.kind) {
    case Cell::Kind::kNull:
      return "NULL";
    case Cell::Kind::kInt:
      return std::to_string(c.i);
    case Cell::Kind::kReal: {
      char buf[48];
      if (loose && std::fabs(c.d) < 1e-9) return "0.0";
      std::snprintf(buf, sizeof(buf), loose ? "%.6g" : "%.17g", c.d);
      std::string s(buf);
      if (s.find_first_of(".eEin") == std::string::npos) s += ".0";
      return s;
    }
    case Cell::Kind::kText: {
      std::string out = "'";
      for (char ch : c.s) {
        if (ch == '\'') out += '\'';
        out += ch;
      }
      return out + "'";
    }
    case Cell::Kind::kBlob: {
      static const char* kHex = "0123456789abcdef";
      std::string out = "x'";
      for (unsigned char ch : c.s) {
        out += kHex[ch >> 4];
        out += kHex[ch & 15];
      }
      return out + "'";
    }
  }
  return "?";
}

std::string RenderRow(const ResultRow& r, bool loose) {
  std::string out = "(";
  for (size_t i = 0; i < r.size(); ++i) {
    if (i) out += ", ";
    out += RenderCell(r[i], loose);
  }
  return out + ")";
}

namespace {

std::string Describe(const std::vector<std::string>& missing,
                     const std::vector<std::string>& extra, size_t n_expected,
                     size_t n_got) {
  std::string out = "expected " + std::to_string(n_expected) + " rows, got " +
                    std::to_string(n_got);
  auto list = [&](const char* what, const std::vector<std::string>& rows) {
    if (rows.empty()) return;
    out += std::string("; ") + what + " " + std::to_string(rows.size()) + ":";
    for (size_t i = 0; i < rows.size() && i < 5; ++i) out += " " + rows[i];
    if (rows.size() > 5) out += " ...";
  };
  list("missing", missing);
  list("unexpected", extra);
  return out;
}

std::string CompareRendered(const std::vector<ResultRow>& expected,
                            const std::vector<ResultRow>& got, bool ordered,
                            bool loose) {
  std::vector<std::string> e, g;
  for (const ResultRow& r : expected) e.push_back(RenderRow(r, loose));
  for (const ResultRow& r : got) g.push_back(RenderRow(r, loose));
  if (ordered) {
    if (e == g) return "";
    size_t i = 0;
    while (i < e.size() && i < g.size() && e[i] == g[i]) ++i;
    std::string out = "order differs at row " + std::to_string(i + 1) +
                      " (expected " + std::to_string(e.size()) + " rows, got " +
                      std::to_string(g.size()) + "): ";
    out += "expected " + (i < e.size() ? e[i] : std::string("end"));
    out += ", got " + (i < g.size() ? g[i] : std::string("end"));
    return out;
  }
  std::map<std::string, int> count;
  for (const std::string& s : e) ++count[s];
  for (const std::string& s : g) --count[s];
  std::vector<std::string> missing, extra;
  for (const auto& [row, n] : count) {
    for (int i = 0; i < n; ++i) missing.push_back(row);
    for (int i = 0; i < -n; ++i) extra.push_back(row);
  }
  if (missing.empty() && extra.empty()) return "";
  return Describe(missing, extra, e.size(), g.size());
}

// Whether two rows are equal but for the last bits of their reals (a sum
// added up in another order): every other cell equal, reals within a
// relative 1e-9.
bool Close(const ResultRow& a, const ResultRow& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const Cell& x = a[i];
    const Cell& y = b[i];
    if (x.kind == Cell::Kind::kReal && y.kind == Cell::Kind::kReal) {
      const double scale = std::max({1.0, std::fabs(x.d), std::fabs(y.d)});
      if (!(std::fabs(x.d - y.d) <= 1e-9 * scale)) return false;
    } else if (RenderCell(x, false) != RenderCell(y, false)) {
      return false;
    }
  }
  return true;
}

// The rows paired in order (or, unordered, each side sorted), every pair
// Close. Rounding the reals to 6 digits misses two sums on either side of
// a rounding boundary (13354.149999999996 and 13354.150000000001).
bool CloseRows(const std::vector<ResultRow>& expected,
               const std::vector<ResultRow>& got, bool ordered) {
  if (expected.size() != got.size()) return false;
  std::vector<const ResultRow*> e, g;
  for (const ResultRow& r : expected) e.push_back(&r);
  for (const ResultRow& r : got) g.push_back(&r);
  if (!ordered) {
    auto by_render = [](const ResultRow* a, const ResultRow* b) {
      return RenderRow(*a, false) < RenderRow(*b, false);
    };
    std::sort(e.begin(), e.end(), by_render);
    std::sort(g.begin(), g.end(), by_render);
  }
  for (size_t i = 0; i < e.size(); ++i) {
    if (!Close(*e[i], *g[i])) return false;
  }
  return true;
}

}  // namespace

std::string CompareRows(const std::vector<ResultRow>& expected,
                        const std::vector<ResultRow>& got, bool ordered) {
  std::string exact = CompareRendered(expected, got, ordered, false);
  if (exact.empty()) return "";
  if (CompareRendered(expected, got, ordered, true).empty()) return "";
  if (CloseRows(expected, got, ordered)) return "";
  return exact;
}

int CellTruth(const Cell& c) {
  switch (c.kind) {
    case Cell::Kind::kNull:
      return -1;
    case Cell::Kind::kInt:
      return c.i != 0;
    case Cell::Kind::kReal:
      return c.d != 0;
    case Cell::Kind::kText:
    case Cell::Kind::kBlob: {
      // The leading decimal number, as sqlite3AtoF reads it.
      const std::string& s = c.s;
      size_t i = 0;
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
                              s[i] == '\r' || s[i] == '\f')) {
        ++i;
      }
      size_t start = i;
      if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
      size_t digits = 0;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
      if (i < s.size() && s[i] == '.') {
        for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) ++digits;
      }
      if (digits == 0) return 0;
      if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
        if (j < s.size() && s[j] >= '0' && s[j] <= '9') {
          while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
          i = j;
        }
      }
      std::string number = s.substr(start, i - start);
      return std::strtod(number.c_str(), nullptr) != 0;
    }
  }
  return 0;
}

}  // namespace levelql::difftest
