-- The story tables of DESIGN.md, loaded by `make run` into demo.db.
-- examples/<story>/ shows each story as a program and as a REPL script.

-- 1. Newest-first paging: the row key is <userid><stamp descending><actionid>.
CREATE TABLE actions (
  userid INTEGER, stamp TIMESTAMP, actionid INTEGER, name TEXT,
  PRIMARY KEY (userid, stamp DESC, actionid)
);
INSERT INTO actions VALUES
  (1, '2012-09-01 10:00:00', 1, 'login'), (1, '2012-09-01 10:05:00', 2, 'search'),
  (1, '2012-09-01 10:06:30', 3, 'view'), (1, '2012-09-02 08:00:00', 4, 'login'),
  (1, '2012-09-02 08:01:00', 5, 'upload'), (1, '2012-09-03 19:30:00', 6, 'share'),
  (1, '2012-09-04 07:45:00', 7, 'logout'), (2, '2012-09-01 11:00:00', 8, 'login'),
  (2, '2012-09-02 12:00:00', 9, 'view'), (3, '2012-09-03 13:00:00', 10, 'login');

-- 2. Multi-condition search over files.
CREATE TABLE files (
  id INTEGER PRIMARY KEY, created INTEGER, name TEXT, category TEXT, owner INTEGER
);
CREATE INDEX files_by_owner_created ON files (owner, created);
CREATE INDEX files_by_name ON files (name);
CREATE INDEX files_by_category ON files (category);
INSERT INTO files VALUES
  (1, 20120902, '中国好声音第1期', '综艺', 1),
  (2, 20120904, '中国好声音第2期', '综艺', 1),
  (3, 20120906, '中国好声音外卡赛', '综艺', 1),
  (4, 20120908, '中国好声音第3期', '综艺', 1),
  (5, 20120910, '中国好声音第4期', '综艺', 1),
  (6, 20120912, '中国好声音选手采访', '综艺花絮', 2),
  (7, 20120914, '中国好声音第5期', '综艺', 1),
  (8, 20120916, '中国好声音录制花絮', '综艺花絮', 2),
  (9, 20120918, '张玮独家专访', '花絮', 3),
  (10, 20120920, '加多宝凉茶广告', '综艺广告', 4);

-- 3. Secondary indexes and a multi-valued column, merged by intersection.
CREATE TABLE entities (id INTEGER PRIMARY KEY, country TEXT, category TEXT[]);
CREATE INDEX entities_by_country ON entities (country);
CREATE INDEX entities_by_category ON entities (category);
INSERT INTO entities VALUES
  (1, 'Belgium', ARRAY['C']), (4, 'France', ARRAY['A', 'B']),
  (5, 'Belgium', ARRAY[]), (7, 'Brazil', ARRAY[]), (12, 'France', ARRAY['A']);

-- 4. Order-preserving keys for every type.
CREATE TABLE measurements (id INTEGER PRIMARY KEY, delta INTEGER, value REAL, at TIMESTAMP);
CREATE INDEX measurements_by_delta ON measurements (delta DESC);
CREATE INDEX measurements_by_value ON measurements (value);
INSERT INTO measurements VALUES
  (1, -9223372036854775807, -1e300, '1969-12-31 23:59:59'),
  (2, -1, -0.0, '1970-01-01'), (3, 0, 0.0, '2012-09-01 12:30:00.5'),
  (4, 1, 5e-324, '2038-01-19 03:14:08Z'), (5, 9223372036854775807, 1e300, '2262-04-11');

-- 5. Strings as people search them. A column's collation decides equality,
--    order and LIKE, and the indexes on it are built with it
--    (examples/multilingual has more).
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

-- 6. "Next interesting record" and autocomplete.
CREATE TABLE blocks (upper TEXT PRIMARY KEY, lower TEXT, owner TEXT);
INSERT INTO blocks VALUES
  ('10.00.00.ff', '10.00.00.00', 'alpha'), ('50.60.a1.0f', '50.60.a1.00', 'beta'),
  ('50.60.a1.ff', '50.60.a1.10', 'gamma'), ('c0.a8.00.ff', 'c0.a8.00.00', 'delta');
CREATE TABLE titles (id INTEGER PRIMARY KEY, title TEXT COLLATE nocase, rank INTEGER);
CREATE INDEX titles_by_title ON titles (title);
INSERT INTO titles VALUES
  (1, 'Chicago', 90), (2, 'chinese food', 75), (3, 'Chile', 80),
  (4, 'chips', 60), (5, 'China', 99), (6, 'Chess', 70),
  (7, 'Chihuahua', 85), (8, 'Cheese', 95);
