-- Story 5 of DESIGN.md: strings as people search them.
-- Run: build/tools/levelql -echo -f examples/multilingual/multilingual.sql
--
-- A column's collation decides equality and order: nocase folds case
-- (Straße = STRASSE), search also drops accents (Café = cafe), and
-- "icu:<locale>" uses that locale's ICU collator. Indexes hold the folded
-- form or sort key and rows the original text; LIKE 'prefix%' is still a
-- range scan of the index.
CREATE TABLE streets (id INTEGER PRIMARY KEY, name TEXT COLLATE nocase);
CREATE INDEX streets_by_name ON streets (name);
INSERT INTO streets VALUES (1, 'Straße'), (2, 'STRASSE'), (3, 'Strandweg'),
  (4, 'Hauptstraße'), (5, 'ﬁschergasse');

CREATE TABLE menu (id INTEGER PRIMARY KEY, item TEXT COLLATE search);
CREATE INDEX menu_by_item ON menu (item);
INSERT INTO menu VALUES (1, 'Café au lait'), (2, 'cafe latte'), (3, 'CAFÉ NOIR'),
  (4, 'Crème brûlée'), (5, 'Cacao'), (6, 'Öl');

CREATE TABLE ordlista (word TEXT COLLATE "icu:sv" PRIMARY KEY);
INSERT INTO ordlista VALUES ('zebra'), ('ångström'), ('äpple'), ('Ärlig'),
  ('öl'), ('olja'), ('apa'), ('Apa');

-- nocase
SELECT id, name FROM streets WHERE name = 'strasse';
SELECT id, name FROM streets WHERE name LIKE 'stra%';
EXPLAIN SELECT id, name FROM streets WHERE name LIKE 'stra%';
SELECT id, name FROM streets WHERE name LIKE 'FISCHER%';

-- search
SELECT id, item FROM menu WHERE item LIKE 'cafe%';
EXPLAIN SELECT id, item FROM menu WHERE item LIKE 'cafe%';
SELECT id, item FROM menu WHERE item = 'creme brulee';
SELECT id, item FROM menu WHERE item IN ('ol', 'cacao');

-- icu:sv: å, ä, ö are letters after z, so they do not match 'a%'.
SELECT word FROM ordlista ORDER BY word LIMIT 20;
SELECT word FROM ordlista ORDER BY word DESC LIMIT 3;
EXPLAIN SELECT word FROM ordlista ORDER BY word DESC LIMIT 3;
SELECT word FROM ordlista WHERE word LIKE 'a%';
SELECT word FROM ordlista WHERE word > 'z';

-- A primary key under nocase: e-mail addresses compare without case.
CREATE TABLE logins (email TEXT COLLATE nocase PRIMARY KEY);
INSERT INTO logins VALUES ('Anna@Example.com');
SELECT email FROM logins WHERE email = 'anna@example.COM';
