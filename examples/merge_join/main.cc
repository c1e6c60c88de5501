// Story 3 of DESIGN.md: secondary indexes, a multi-valued column, and merge
// joins of their primary-key streams.
//
// An index entry is [indexed values][primary key], so the entries for one
// value (country = 'France') come out sorted by primary key. Two such
// streams are intersected (AND) or merged (OR) in one pass, leapfrogging
// with seeks, without sorting or hashing anything.
//
// `category TEXT[]` holds a list; its index has one entry per element, and
// `category = 'A'` means "contains A". A row still comes back once.
#include <iostream>
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
    CREATE TABLE entities (id INTEGER PRIMARY KEY, country TEXT,
                           category TEXT[]);
    CREATE INDEX entities_by_country ON entities (country);
    CREATE INDEX entities_by_category ON entities (category);
    INSERT INTO entities VALUES
      (1, 'Belgium', ARRAY['C']), (4, 'France', ARRAY['A', 'B']),
      (5, 'Belgium', ARRAY[]), (7, 'Brazil', ARRAY[]),
      (12, 'France', ARRAY['A']);
  )sql"));

  // A list parameter binds a whole multi-valued column.
  Check(db->Execute("INSERT INTO entities VALUES (?, ?, ?)",
                    {Value::Int(15), Value::Text("Chile"),
                     Value::List({Value::Text("B"), Value::Text("C")})}));

  // The story's three lookups on one index: equality, range, prefix.
  Show(*db, "SELECT id FROM entities WHERE country = 'France'");
  Show(*db,
       "SELECT id, country FROM entities "
       "WHERE country BETWEEN 'Belgium' AND 'France'");
  Show(*db, "SELECT id, country FROM entities WHERE country LIKE 'B%'");
  ShowPlan(*db, "SELECT id, country FROM entities WHERE country LIKE 'B%'");

  // Row 4 has two entries in entities_by_category but comes back once.
  std::cout << "\n";
  Show(*db, "SELECT id, category FROM entities WHERE category LIKE '%'");

  // AND of two pk-sorted streams: Intersect.
  std::cout << "\n";
  Show(*db,
       "SELECT id, country, category FROM entities "
       "WHERE country = 'France' AND category = 'A'");
  ShowPlan(*db,
           "SELECT id, country, category FROM entities "
           "WHERE country = 'France' AND category = 'A'");

  // OR of two pk-sorted streams: Union, duplicates removed (row 4 matches
  // both sides).
  std::cout << "\n";
  Show(*db,
       "SELECT id, country, category FROM entities "
       "WHERE country = 'France' OR category = 'B'");
  ShowPlan(*db,
           "SELECT id, country, category FROM entities "
           "WHERE country = 'France' OR category = 'B'");
  return 0;
}
