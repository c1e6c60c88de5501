// Story 5 of DESIGN.md: strings as people search them.
//
// A column's collation says when two strings are equal and how they sort:
//   binary     code points (the default)
//   nocase     Unicode full case folding: Straße = STRASSE, ﬁ = fi
//   search     nocase, and accents ignored: Café = cafe, Ö = o
//   "icu:sv"   the ICU collator of a locale: Swedish sorts å ä ö after z
// Index keys hold the folded form (or the ICU sort key), rows keep the
// original text, and a LIKE prefix is still a range scan of the index.
#include <iostream>
#include <memory>

#include "common/example.h"
#include "levelql/database.h"

using example::Check;
using example::Show;
using example::ShowPlan;

int main() {
  std::unique_ptr<levelql::Database> db =
      Check(levelql::Database::Open(":memory:"));
  Check(db->Execute(R"sql(
    CREATE TABLE streets (id INTEGER PRIMARY KEY, name TEXT COLLATE nocase);
    CREATE INDEX streets_by_name ON streets (name);
    INSERT INTO streets VALUES (1, 'Straße'), (2, 'STRASSE'),
      (3, 'Strandweg'), (4, 'Hauptstraße'), (5, 'ﬁschergasse');

    CREATE TABLE menu (id INTEGER PRIMARY KEY, item TEXT COLLATE search);
    CREATE INDEX menu_by_item ON menu (item);
    INSERT INTO menu VALUES (1, 'Café au lait'), (2, 'cafe latte'),
      (3, 'CAFÉ NOIR'), (4, 'Crème brûlée'), (5, 'Cacao'), (6, 'Öl');

    CREATE TABLE ordlista (word TEXT COLLATE "icu:sv" PRIMARY KEY);
    INSERT INTO ordlista VALUES ('zebra'), ('ångström'), ('äpple'),
      ('Ärlig'), ('öl'), ('olja'), ('apa'), ('Apa');
  )sql"));

  // nocase: equality and prefix search ignore case, through the index.
  Show(*db, "SELECT id, name FROM streets WHERE name = 'strasse'");
  Show(*db, "SELECT id, name FROM streets WHERE name LIKE 'stra%'");
  ShowPlan(*db, "SELECT id, name FROM streets WHERE name LIKE 'stra%'");
  Show(*db, "SELECT id, name FROM streets WHERE name LIKE 'FISCHER%'");

  // search: accents do not matter either.
  std::cout << "\n";
  Show(*db, "SELECT id, item FROM menu WHERE item LIKE 'cafe%'");
  ShowPlan(*db, "SELECT id, item FROM menu WHERE item LIKE 'cafe%'");
  Show(*db, "SELECT id, item FROM menu WHERE item = 'creme brulee'");
  Show(*db, "SELECT id, item FROM menu WHERE item = 'ol'");

  // icu:sv: Swedish order, read from the primary key in both directions.
  // å, ä and ö are letters of their own, after z, so they are not 'a%'.
  std::cout << "\n";
  Show(*db, "SELECT word FROM ordlista ORDER BY word LIMIT 20");
  Show(*db, "SELECT word FROM ordlista ORDER BY word DESC LIMIT 3");
  ShowPlan(*db, "SELECT word FROM ordlista ORDER BY word DESC LIMIT 3");
  Show(*db, "SELECT word FROM ordlista WHERE word LIKE 'a%'");
  Show(*db, "SELECT word FROM ordlista WHERE word > 'z'");
  return 0;
}
