-- Story 6 of DESIGN.md: "next interesting record" and autocomplete.
-- Run: build/tools/levelql -echo -f examples/next_record/next_record.sql
--
-- IP blocks are keyed by their upper address (fixed-width hex octets, so
-- text order is address order): the block holding an address is the first
-- one whose upper end is >= it, a single seek. Autocomplete scans the
-- titles with a prefix through a nocase index, then keeps the best ranked
-- with a top-k sort.
CREATE TABLE blocks (upper TEXT PRIMARY KEY, lower TEXT, owner TEXT);
INSERT INTO blocks VALUES
  ('10.00.00.ff', '10.00.00.00', 'alpha'), ('50.60.a1.0f', '50.60.a1.00', 'beta'),
  ('50.60.a1.ff', '50.60.a1.10', 'gamma'), ('c0.a8.00.ff', 'c0.a8.00.00', 'delta');

-- The story's query: 80.96.161.9 is 50.60.a1.09, in beta's block.
SELECT * FROM blocks WHERE upper >= '50.60.a1.09' ORDER BY upper LIMIT 1;
EXPLAIN ANALYZE SELECT * FROM blocks WHERE upper >= '50.60.a1.09' ORDER BY upper LIMIT 1;
-- 11.0.0.1 is in no block: the next one up starts above it.
SELECT *, lower <= '0b.00.00.01' AS inside FROM blocks WHERE upper >= '0b.00.00.01' ORDER BY upper LIMIT 1;

CREATE TABLE titles (id INTEGER PRIMARY KEY, title TEXT COLLATE nocase, rank INTEGER);
CREATE INDEX titles_by_title ON titles (title);
INSERT INTO titles VALUES
  (1, 'Chicago', 90), (2, 'chinese food', 75), (3, 'Chile', 80),
  (4, 'chips', 60), (5, 'China', 99), (6, 'Chess', 70),
  (7, 'Chihuahua', 85), (8, 'Cheese', 95);

-- The story's autocomplete query.
SELECT title, rank FROM titles WHERE title LIKE 'chi%' ORDER BY rank DESC LIMIT 10;
EXPLAIN SELECT title, rank FROM titles WHERE title LIKE 'chi%' ORDER BY rank DESC LIMIT 10;
-- Without the ranking, the index order is the answer order: no sort.
SELECT title FROM titles WHERE title LIKE 'CHI%' ORDER BY title LIMIT 3;
EXPLAIN SELECT title FROM titles WHERE title LIKE 'CHI%' ORDER BY title LIMIT 3;
