-- Story 3 of DESIGN.md: secondary indexes, a multi-valued column, and merge
-- joins of primary-key streams.
-- Run: build/tools/levelql -echo -f examples/merge_join/merge_join.sql
--
-- An index entry is [indexed values][primary key], so the entries of one
-- value come out sorted by primary key ("pk-sorted" in EXPLAIN): AND is an
-- Intersect and OR a Union of such streams, in one pass. `category TEXT[]`
-- holds a list; `category = 'A'` means "contains A", and its index has one
-- entry per element.
CREATE TABLE entities (id INTEGER PRIMARY KEY, country TEXT, category TEXT[]);
CREATE INDEX entities_by_country ON entities (country);
CREATE INDEX entities_by_category ON entities (category);
INSERT INTO entities VALUES
  (1, 'Belgium', ARRAY['C']), (4, 'France', ARRAY['A', 'B']),
  (5, 'Belgium', ARRAY[]), (7, 'Brazil', ARRAY[]), (12, 'France', ARRAY['A']);

-- The story's lookups: 4, 12 (4 once, though it has two category entries);
-- 1, 4, 5, 7, 12; and 1, 5, 7.
SELECT id FROM entities WHERE country = 'France';
SELECT id, country FROM entities WHERE country BETWEEN 'Belgium' AND 'France';
SELECT id, country FROM entities WHERE country LIKE 'B%';
SELECT id, category FROM entities WHERE category = 'A';

-- AND: an Intersect of two pk-sorted index scans.
SELECT id, country, category FROM entities WHERE country = 'France' AND category = 'B';
EXPLAIN SELECT id, country, category FROM entities WHERE country = 'France' AND category = 'B';

-- OR: a Union without duplicates.
SELECT id, country, category FROM entities WHERE country = 'Belgium' OR category = 'A';
EXPLAIN SELECT id, country, category FROM entities WHERE country = 'Belgium' OR category = 'A';

-- EXPLAIN ANALYZE counts what each node read.
EXPLAIN ANALYZE SELECT id FROM entities WHERE country = 'France' AND category = 'A';
