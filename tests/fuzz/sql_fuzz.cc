// libFuzzer target for whole statements: the input is a SQL script run
// against a small schema in a fresh in-memory database. Oracle: no crash,
// hang or sanitizer report, every failure is a Status, and afterwards CHECK
// succeeds (rows and index entries still agree, whatever the script did).
// The script also runs as a query (cursor iteration) and through EXPLAIN,
// with all planner rules on and off.
//
// Build and run: `make fuzz`, then build-fuzz/sql_fuzz tests/fuzz/corpus/sql.
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "levelql/database.h"

namespace {

constexpr const char* kSchema =
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b REAL, "
    "c TEXT COLLATE nocase, d TEXT, tags TEXT[]);"
    "CREATE INDEX t_a ON t (a, b DESC);"
    "CREATE UNIQUE INDEX t_d ON t (d) INCLUDE (a);"
    "CREATE INDEX t_c ON t (c);"
    "CREATE INDEX t_tags ON t (tags);"
    "CREATE TABLE u (k TEXT, s INTEGER, v BLOB, PRIMARY KEY (k DESC, s));"
    "CREATE INDEX u_v ON u (v);"
    "INSERT INTO t VALUES (1, 1, 1.5, 'Abc', 'x', ARRAY['A', 'B']),"
    " (2, NULL, -0.0, 'abd', 'y', ARRAY[]), (3, -7, NULL, NULL, NULL, NULL),"
    " (4, 1, 2.5, 'Straße', 'z', ARRAY['B']), (5, 9, 1e300, '', '', "
    "ARRAY['C']);"
    "INSERT INTO u VALUES ('a', 1, x'00ff'), ('b', 2, NULL), ('a', 3, x'');";

// Scripts that copy a table into itself grow it exponentially; a few copies
// are interesting, dozens are only slow.
bool TooManyInserts(std::string_view sql) {
  int n = 0;
  for (size_t i = 0; i + 6 <= sql.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(sql[i])) == 'i' &&
        std::tolower(static_cast<unsigned char>(sql[i + 1])) == 'n' &&
        std::tolower(static_cast<unsigned char>(sql[i + 2])) == 's' &&
        std::tolower(static_cast<unsigned char>(sql[i + 3])) == 'e' &&
        std::tolower(static_cast<unsigned char>(sql[i + 4])) == 'r' &&
        std::tolower(static_cast<unsigned char>(sql[i + 5])) == 't') {
      ++n;
    }
  }
  return n > 5;
}

void Drain(levelql::Database& db, std::string_view sql) {
  auto cur = db.Query(sql);
  if (!cur.ok()) return;
  for (int i = 0; i < 100000 && (*cur)->Next(); ++i) {
    for (const levelql::Value& v : (*cur)->row()) v.ToString();
  }
  (*cur)->status();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  if (TooManyInserts(sql)) return 0;
  auto opened = levelql::Database::Open(":memory:");
  if (!opened.ok()) std::abort();
  levelql::Database& db = **opened;
  if (!db.Execute(kSchema).ok()) std::abort();

  db.Execute(sql);
  Drain(db, sql);
  db.Explain(sql);
  db.Execute("PRAGMA disable_rules = 'all'");
  Drain(db, sql);
  db.Execute("PRAGMA disable_rules = ''");

  levelql::Status check = db.Execute("CHECK");
  if (!check.ok()) {
    std::fprintf(stderr, "CHECK failed after the script: %s\n",
                 check.ToString().c_str());
    std::abort();
  }
  return 0;
}
