-- Salted tables: events keyed by time, spread over 16 buckets, read newest
-- first. Run: build/tools/levelql -echo -f examples/salted_events/salted_events.sql
--
-- WITH (salt_buckets = 16) puts a hash of the primary key in front of each
-- row key, so time-ordered inserts land in 16 key ranges instead of one.
-- Queries are unchanged: a newest-first page merges the buckets on the key.
CREATE TABLE events (
  stamp TIMESTAMP, id INTEGER, source TEXT, message TEXT,
  PRIMARY KEY (stamp, id)
) WITH (salt_buckets = 16);
CREATE INDEX events_source ON events (source, stamp DESC);
INSERT INTO events VALUES
  ('2012-09-01 10:00:00', 0, 'api', 'started'), ('2012-09-01 10:01:00', 1, 'db', 'connected'),
  ('2012-09-01 10:02:00', 2, 'web', 'GET /'), ('2012-09-01 10:03:00', 3, 'api', 'GET /users'),
  ('2012-09-01 10:04:00', 4, 'db', 'slow query'), ('2012-09-01 10:05:00', 5, 'web', 'GET /login'),
  ('2012-09-01 10:06:00', 6, 'api', 'POST /login'), ('2012-09-01 10:07:00', 7, 'db', 'checkpoint');

-- Newest first, two pages of three: no Sort, the buckets are merged.
SELECT stamp, id, source FROM events ORDER BY stamp DESC, id DESC LIMIT 3;
SELECT stamp, id, source FROM events ORDER BY stamp DESC, id DESC LIMIT 3 OFFSET 3;
EXPLAIN SELECT stamp, id, source FROM events ORDER BY stamp DESC, id DESC LIMIT 3;

-- Through the salted index, and by the whole primary key (one bucket).
SELECT stamp, message FROM events WHERE source = 'db' ORDER BY stamp DESC LIMIT 2;
EXPLAIN SELECT stamp, message FROM events WHERE source = 'db' ORDER BY stamp DESC LIMIT 2;
EXPLAIN SELECT message FROM events WHERE stamp = '2012-09-01 10:07:00' AND id = 7;
CHECK;
