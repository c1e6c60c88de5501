-- Story 2 of DESIGN.md: search files by several conditions at once.
-- Run: build/tools/levelql -echo -f examples/file_search/file_search.sql
--
-- The composite index (owner, created) answers the owner and date range
-- with one range scan; the LIKE conditions are checked on the rows it
-- fetches. A LIKE prefix in Chinese is a prefix of the UTF-8 key as well.
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

-- The story's query: 1, 2, 3, 4, 5, 7.
SELECT id, created, name FROM files
 WHERE owner = 1 AND created BETWEEN 20120901 AND 20121001
   AND name LIKE '中国好声音%' AND category LIKE '综艺%';
EXPLAIN SELECT id, created, name FROM files
 WHERE owner = 1 AND created BETWEEN 20120901 AND 20121001
   AND name LIKE '中国好声音%' AND category LIKE '综艺%';

-- Other conditions pick other indexes.
SELECT id, name FROM files WHERE name LIKE '中国好声音%' AND category = '综艺花絮';
EXPLAIN SELECT id, name FROM files WHERE name LIKE '中国好声音%' AND category = '综艺花絮';
SELECT id, name, category FROM files WHERE category LIKE '综艺%' AND owner > 1;
EXPLAIN SELECT id, name, category FROM files WHERE category LIKE '综艺%' AND owner > 1;

-- Box mode aligns by display width: each Chinese character is two columns.
.mode box
SELECT id, name, category, owner FROM files WHERE owner >= 2;
