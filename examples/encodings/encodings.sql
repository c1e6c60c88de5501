-- Story 4 of DESIGN.md: order-preserving keys for every type.
-- Run: build/tools/levelql -echo -f examples/encodings/encodings.sql
--
-- Index keys compare as bytes, so each value is encoded with byte order =
-- SQL order: integers of any sign, doubles from -inf through subnormals to
-- +inf (-0.0 equals 0.0 and is stored as 0.0), timestamps before and after
-- 1970, text of any length followed by more key columns. A DESC column is
-- stored complemented. Every ORDER BY below walks an index forwards or
-- backwards: the plans have no Sort.
CREATE TABLE samples (id INTEGER PRIMARY KEY, name TEXT, n INTEGER, x REAL, at TIMESTAMP);
CREATE INDEX samples_by_n ON samples (n DESC);
CREATE INDEX samples_by_x ON samples (x);
CREATE INDEX samples_by_at ON samples (at DESC);
CREATE INDEX samples_by_name_n ON samples (name, n);
INSERT INTO samples VALUES
  (1, 'a', -9223372036854775808, -1e999, '1969-07-20 20:17:40'),
  (2, 'ab', -1, -1e300, '1900-01-01'),
  (3, 'abc', 0, -2.5, '1970-01-01 00:00:00'),
  (4, 'a', 1, -4.9406564584124654e-324, '1969-12-31 23:59:59.999999'),
  (5, 'ab', 9223372036854775807, -0.0, '2012-09-01 12:30:00.5'),
  (6, '', 42, 0.0, '2012-09-01 14:30:00+02:00'),
  (7, 'b', -42, 4.9406564584124654e-324, '2038-01-19 03:14:08'),
  (8, 'B', NULL, 1.5, '2262-04-11 23:47:16'),
  (9, 'a', 7, 1e999, '1969-12-31'),
  (10, 'ab', 100, NULL, '2012-09-01 12:30');

-- Integers, both directions through one DESC index; NULL first ascending.
SELECT n, id FROM samples ORDER BY n LIMIT 20;
EXPLAIN SELECT n, id FROM samples ORDER BY n LIMIT 20;
SELECT n, id FROM samples WHERE n >= -42 ORDER BY n DESC;
EXPLAIN SELECT n, id FROM samples WHERE n >= -42 ORDER BY n DESC;

-- Doubles (1e999 overflows to Inf).
SELECT x, id FROM samples ORDER BY x LIMIT 20;
SELECT x, id FROM samples WHERE x > -1 ORDER BY x DESC;
EXPLAIN SELECT x, id FROM samples WHERE x > -1 ORDER BY x DESC;
SELECT id, x FROM samples WHERE x = -0.0;

-- Timestamps; 14:30:00+02:00 is the same instant as 12:30:00 UTC.
SELECT at, id FROM samples ORDER BY at DESC LIMIT 20;
SELECT at, id FROM samples WHERE at BETWEEN '1969-12-31' AND '2012-09-01 12:30:00' ORDER BY at;
EXPLAIN SELECT at, id FROM samples WHERE at BETWEEN '1969-12-31' AND '2012-09-01 12:30:00' ORDER BY at;

-- Composite keys without padding: 'a' with 7 sorts before 'ab' with -1.
SELECT name, n, id FROM samples ORDER BY name, n LIMIT 20;
EXPLAIN SELECT name, n, id FROM samples ORDER BY name, n LIMIT 20;
SELECT name, n FROM samples WHERE name = 'ab' AND n > -1;

-- Every index entry matches its row (CHECK prints nothing when they do).
CHECK;
