-- Story 1 of DESIGN.md: a user's actions, newest first, one page at a time.
-- Run: build/tools/levelql -echo -f examples/paging/paging.sql
--
-- The primary key <userid><stamp descending><actionid> stores each user's
-- actions newest first: a page is one seek plus OFFSET+LIMIT steps along
-- the key, with no Sort in the plan. (Continuation tokens, which resume
-- after a row without counting, are an API feature: see main.cc.)
CREATE TABLE actions (
  userid INTEGER, stamp TIMESTAMP, actionid INTEGER, name TEXT,
  PRIMARY KEY (userid, stamp DESC, actionid)
);
INSERT INTO actions VALUES
  (1, '2012-09-01 10:00:00', 1, 'login'), (1, '2012-09-01 10:05:00', 2, 'search'),
  (1, '2012-09-01 10:06:30', 3, 'view'), (1, '2012-09-02 08:00:00', 4, 'login'),
  (1, '2012-09-02 08:01:00', 5, 'upload'), (1, '2012-09-03 19:30:00', 6, 'share'),
  (1, '2012-09-04 07:45:00', 7, 'logout'), (2, '2012-09-01 11:00:00', 8, 'login'),
  (2, '2012-09-02 12:00:00', 9, 'view');

-- Pages of three: page 1, then page 2.
SELECT actionid, name, stamp FROM actions WHERE userid = 1 ORDER BY stamp DESC LIMIT 3;
SELECT actionid, name, stamp FROM actions WHERE userid = 1 ORDER BY stamp DESC LIMIT 3 OFFSET 3;

-- The story's query (page three of ten): Skip counts index entries without
-- fetching their rows.
EXPLAIN SELECT actionid, name, stamp FROM actions WHERE userid = 1 ORDER BY stamp DESC LIMIT 10 OFFSET 20;

-- The user's oldest actions: the same key read backwards.
SELECT actionid, name, stamp FROM actions WHERE userid = 1 ORDER BY stamp LIMIT 2;
EXPLAIN SELECT actionid, name, stamp FROM actions WHERE userid = 1 ORDER BY stamp LIMIT 2;

-- Parameters work in the shell too.
.param set :user 2
SELECT actionid, name, stamp FROM actions WHERE userid = :user ORDER BY stamp DESC;
