// Story 6 of DESIGN.md: "next interesting record" and autocomplete.
//
// IP blocks keyed by their upper address: the block holding an address is
// the first block whose upper end is >= that address, which is one seek
// into the primary key. Addresses are stored as fixed-width hex octets
// ("50.60.a1.0f") so that text order is address order.
//
// Autocomplete: the titles starting with what was typed, best ranked
// first. The prefix is a range scan of a nocase index; the ranking needs a
// top-k sort of the matches (they come out in title order, not rank order).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "common/example.h"
#include "levelql/database.h"

using example::Check;
using example::Show;
using example::ShowPlan;
using levelql::Value;

namespace {

// "80.96.161.9" -> "50.60.a1.09".
std::string HexAddress(int a, int b, int c, int d) {
  char buf[12];
  std::snprintf(buf, sizeof(buf), "%02x.%02x.%02x.%02x", a, b, c, d);
  return buf;
}

}  // namespace

int main() {
  std::unique_ptr<levelql::Database> db =
      Check(levelql::Database::Open(":memory:"));
  Check(db->Execute(R"sql(
    CREATE TABLE blocks (upper TEXT PRIMARY KEY, lower TEXT, owner TEXT);
    INSERT INTO blocks VALUES
      ('10.00.00.ff', '10.00.00.00', 'alpha'),
      ('50.60.a1.0f', '50.60.a1.00', 'beta'),
      ('50.60.a1.ff', '50.60.a1.10', 'gamma'),
      ('c0.a8.00.ff', 'c0.a8.00.00', 'delta');

    CREATE TABLE titles (id INTEGER PRIMARY KEY, title TEXT COLLATE nocase,
                         rank INTEGER);
    CREATE INDEX titles_by_title ON titles (title);
    INSERT INTO titles VALUES
      (1, 'Chicago', 90), (2, 'chinese food', 75), (3, 'Chile', 80),
      (4, 'chips', 60), (5, 'China', 99), (6, 'Chess', 70),
      (7, 'Chihuahua', 85), (8, 'Cheese', 95);
  )sql"));

  // The story's query reads exactly one index entry (EXPLAIN ANALYZE counts
  // the keys read and the seeks).
  const char* kNext =
      "SELECT * FROM blocks WHERE upper >= ? ORDER BY upper LIMIT 1";
  Show(*db, std::string("EXPLAIN ANALYZE ") + kNext,
       {Value::Text("50.60.a1.09")});

  // Which block holds an address? The next block up, if its lower end is
  // not above the address.
  std::unique_ptr<levelql::Statement> next = Check(db->Prepare(kNext));
  const int kAddresses[][4] = {
      {80, 96, 161, 9}, {80, 96, 161, 200}, {11, 0, 0, 1}, {255, 0, 0, 1}};
  std::cout << "\n";
  for (const auto& a : kAddresses) {
    std::string address = HexAddress(a[0], a[1], a[2], a[3]);
    std::cout << a[0] << "." << a[1] << "." << a[2] << "." << a[3] << " = "
              << address << ": ";
    std::unique_ptr<levelql::Cursor> cursor =
        Check(next->Query({Value::Text(address)}));
    if (!cursor->Next()) {
      Check(cursor->status());
      std::cout << "above every block\n";
      continue;
    }
    const levelql::Row& block = cursor->row();  // upper, lower, owner
    if (block[1].text() <= address) {
      std::cout << "in " << block[2].text() << "'s block " << block[1].text()
                << " - " << block[0].text() << "\n";
    } else {
      std::cout << "in a gap; the next block up is " << block[2].text()
                << "'s\n";
    }
  }

  // Autocomplete as the user types.
  const char* kComplete =
      "SELECT title, rank FROM titles WHERE title LIKE ? "
      "ORDER BY rank DESC LIMIT 3";
  std::cout << "\n";
  for (const char* typed : {"c", "chi", "CHIN", "chx"}) {
    std::cout << "typed \"" << typed << "\":\n";
    std::unique_ptr<levelql::Cursor> cursor =
        Check(db->Query(kComplete, {Value::Text(std::string(typed) + "%")}));
    if (example::PrintRows(*cursor) == 0) std::cout << "  (no match)\n";
  }
  ShowPlan(*db,
           "SELECT title, rank FROM titles WHERE title LIKE 'chi%' "
           "ORDER BY rank DESC LIMIT 10");
  return 0;
}
