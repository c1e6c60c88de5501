// Story 4 of DESIGN.md: order-preserving keys for every type.
//
// Index keys are compared as plain bytes, so each value is encoded so that
// byte order is SQL order: integers of any sign and size, doubles including
// -inf, subnormals and +inf (-0.0 equals 0.0 and is stored as 0.0; NaN is
// stored as NULL), timestamps before and after 1970, and text of any length
// followed by further key columns, without padding. A DESC index column
// stores the complemented bytes. Below, every ORDER BY is answered by
// walking an index forward or backward: no plan has a Sort.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <memory>

#include "common/example.h"
#include "levelql/database.h"

using example::Check;
using example::Show;
using example::ShowPlan;
using levelql::Value;

int main() {
  std::unique_ptr<levelql::Database> db =
      Check(levelql::Database::Open(":memory:"));
  Check(db->Execute(R"sql(
    CREATE TABLE samples (id INTEGER PRIMARY KEY, name TEXT, n INTEGER,
                          x REAL, at TIMESTAMP);
    CREATE INDEX samples_by_n ON samples (n DESC);
    CREATE INDEX samples_by_x ON samples (x);
    CREATE INDEX samples_by_at ON samples (at DESC);
    CREATE INDEX samples_by_name_n ON samples (name, n);
  )sql"));

  using limits = std::numeric_limits<double>;
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  struct Sample {
    const char* name;
    Value n, x;
    const char* at;  // TIMESTAMP columns take text in this form
  };
  const Sample kSamples[] = {
      {"a", Value::Int(kMin), Value::Real(-limits::infinity()),
       "1969-07-20 20:17:40"},
      {"ab", Value::Int(-1), Value::Real(-1e300), "1900-01-01"},
      {"abc", Value::Int(0), Value::Real(-2.5), "1970-01-01 00:00:00"},
      {"a", Value::Int(1), Value::Real(-limits::denorm_min()),
       "1969-12-31 23:59:59.999999"},
      {"ab", Value::Int(kMax), Value::Real(-0.0), "2012-09-01 12:30:00.5"},
      {"", Value::Int(42), Value::Real(0.0), "2012-09-01 14:30:00+02:00"},
      {"b", Value::Int(-42), Value::Real(limits::denorm_min()),
       "2038-01-19 03:14:08"},
      {"B", Value::Null(), Value::Real(1.5), "2262-04-11 23:47:16"},
      {"a", Value::Int(7), Value::Real(limits::infinity()), "1969-12-31"},
      {"ab", Value::Int(100), Value::Real(std::nan("")), "2012-09-01 12:30"},
  };
  std::unique_ptr<levelql::Statement> insert =
      Check(db->Prepare("INSERT INTO samples VALUES (?, ?, ?, ?, ?)"));
  int id = 0;
  for (const Sample& s : kSamples) {
    Check(insert->Execute(
        {Value::Int(++id), Value::Text(s.name), s.n, s.x, Value::Text(s.at)}));
  }

  // Integers: both directions through one DESC index. NULL sorts first
  // ascending and last descending.
  Show(*db, "SELECT n, id FROM samples ORDER BY n LIMIT 20");
  ShowPlan(*db, "SELECT n, id FROM samples ORDER BY n LIMIT 20");
  Show(*db, "SELECT n, id FROM samples WHERE n >= -42 ORDER BY n DESC");
  ShowPlan(*db, "SELECT n, id FROM samples WHERE n >= -42 ORDER BY n DESC");

  // Doubles: -inf < -1e300 < -2.5 < -subnormal < 0 < subnormal < 1.5 < inf.
  std::cout << "\n";
  Show(*db, "SELECT x, id FROM samples ORDER BY x LIMIT 20");
  Show(*db, "SELECT x, id FROM samples WHERE x > -1 ORDER BY x DESC");
  ShowPlan(*db, "SELECT x, id FROM samples WHERE x > -1 ORDER BY x DESC");
  Show(*db, "SELECT id FROM samples WHERE x = -0.0");

  // Timestamps: microseconds since 1970 UTC, negative before it. The
  // +02:00 reading is the same instant as 12:30:00 UTC.
  std::cout << "\n";
  Show(*db, "SELECT at, id FROM samples ORDER BY at DESC LIMIT 20");
  Show(*db,
       "SELECT at, id FROM samples WHERE at BETWEEN '1969-12-31' AND "
       "'2012-09-01 12:30:00' ORDER BY at");
  ShowPlan(*db,
           "SELECT at, id FROM samples WHERE at BETWEEN '1969-12-31' AND "
           "'2012-09-01 12:30:00' ORDER BY at");

  // Composite keys: "a" with n = 7 sorts before "ab" with n = -1 because
  // text ends with a terminator, not by padding it to a fixed width. The
  // empty name comes first, and binary order puts "B" before "a".
  std::cout << "\n";
  Show(*db, "SELECT name, n, id FROM samples ORDER BY name, n LIMIT 20");
  ShowPlan(*db, "SELECT name, n, id FROM samples ORDER BY name, n LIMIT 20");
  Show(*db, "SELECT name, n FROM samples WHERE name = 'ab' AND n > -1");
  return 0;
}
