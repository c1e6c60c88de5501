// Salted tables: events keyed by time, written to 16 places at once, read
// newest first one page at a time.
//
// A primary key that starts with a timestamp sends every insert to the end
// of one key range: on a partitioned store, one partition takes all the
// writes. WITH (salt_buckets = 16) puts a bucket byte, a hash of the
// primary key, in front of each row key (and of its index entries), so
// consecutive events land in 16 ranges. Reads do not change: a newest-first
// page reads the 16 buckets backward and merges them on (stamp, id), so
// ORDER BY stamp DESC needs no Sort, LIMIT stops early, and a continuation
// token seeks every bucket past its position.
#include <iostream>
#include <memory>
#include <string>

#include "common/example.h"
#include "levelql/database.h"

using example::Check;
using levelql::Cursor;
using levelql::Value;

namespace {

constexpr int kPageSize = 4;

// Prints a page and returns the token after its last row ("" at the end).
std::string PrintPage(Cursor& cursor) {
  std::string token;
  int rows = 0;
  while (rows < kPageSize && cursor.Next()) {
    const levelql::Row& row = cursor.row();
    std::cout << "  " << row[0].ToString() << " | " << row[1].ToString()
              << " | " << row[2].text() << "\n";
    token = cursor.ContinuationToken();
    ++rows;
  }
  Check(cursor.status());
  return rows == kPageSize ? token : "";
}

}  // namespace

int main() {
  std::unique_ptr<levelql::Database> db =
      Check(levelql::Database::Open(":memory:"));
  Check(db->Execute(R"sql(
    CREATE TABLE events (
      stamp TIMESTAMP, id INTEGER, source TEXT, message TEXT,
      PRIMARY KEY (stamp, id)) WITH (salt_buckets = 16);
    CREATE INDEX events_source ON events (source, stamp DESC))sql"));

  // Events arrive in time order, as a log's do.
  std::unique_ptr<levelql::Statement> insert =
      Check(db->Prepare("INSERT INTO events VALUES (?, ?, ?, ?)"));
  const char* sources[] = {"api", "db", "web"};
  for (int i = 0; i < 10; ++i) {
    std::string stamp = "2012-09-01 10:" + std::string(i < 10 ? "0" : "") +
                        std::to_string(i) + ":00";
    Check(insert
              ->Execute({Value::Text(stamp), Value::Int(i),
                         Value::Text(sources[i % 3]),
                         Value::Text("event " + std::to_string(i))})
              .status());
  }

  // Newest first: the primary key read backward in every bucket, merged.
  example::ShowPlan(*db,
                    "SELECT stamp, id, source FROM events "
                    "ORDER BY stamp DESC, id DESC LIMIT 10");

  std::unique_ptr<levelql::Statement> newest =
      Check(db->Prepare("SELECT stamp, id, source FROM events "
                        "ORDER BY stamp DESC, id DESC"));
  std::unique_ptr<Cursor> cursor = Check(newest->Query({}));
  std::cout << "\npage 1:\n";
  std::string token = PrintPage(*cursor);
  for (int page = 2; !token.empty(); ++page) {
    cursor = Check(newest->Resume(token, {}));
    std::cout << "page " << page << ":\n";
    token = PrintPage(*cursor);
  }

  // One source's events, newest first, through the salted index.
  std::cout << "\nthe db source, newest first:\n";
  example::Show(*db,
                "SELECT stamp, id FROM events WHERE source = 'db' "
                "ORDER BY stamp DESC LIMIT 3");

  // A lookup by the whole primary key reads the one bucket it hashes to.
  example::ShowPlan(*db,
                    "SELECT message FROM events "
                    "WHERE stamp = '2012-09-01 10:07:00' AND id = 7");
  Check(db->Execute("CHECK"));
  std::cout << "\nCHECK: consistent\n";
  return 0;
}
