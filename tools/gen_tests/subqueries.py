#!/usr/bin/env python3
"""Writes tests/sql/subqueries.test: subqueries (a scalar `(SELECT ...)`,
`EXISTS`, `[NOT] IN (SELECT ...)`, nested ones; uncorrelated and reading
the row around them) in WHERE, the select list, ORDER BY, HAVING, joins and
writes, over indexed and plain columns, NULLs, empty results, nocase text
and mixed affinities; expected rows computed by SQLite (Python's sqlite3)
over the same rows.

Deterministic (fixed seed). Text is ASCII (SQLite's nocase folds only
ASCII).

    python3 tools/gen_tests/subqueries.py > tests/sql/subqueries.test
"""
import random
import sqlite3
import sys

from slt_out import write_query, write_setup

SEED = 2711
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE t1 (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, r REAL)",
    "CREATE INDEX t1_a ON t1 (a)",
    "CREATE INDEX t1_b ON t1 (b)",
    "CREATE TABLE t2 (id INTEGER PRIMARY KEY, x INTEGER, y INTEGER, "
    "name TEXT COLLATE nocase, s TEXT)",
    "CREATE INDEX t2_xy ON t2 (x, y)",
    "CREATE TABLE t3 (id INTEGER PRIMARY KEY, c INTEGER, d TEXT)",
]


def maybe(v, p=0.1):
    return None if rng.random() < p else v


def rows():
    words = ["ab", "AB", "Ab", "cd", "CD", "ef", "gh", "GH"]
    t1 = [(i, maybe(rng.randint(0, 30)), maybe(rng.choice(words)),
           maybe(round(rng.uniform(0, 10), 1)))
          for i in range(1, 121)]
    t2 = [(i, maybe(rng.randint(0, 40)), maybe(rng.randint(0, 9)),
           maybe(rng.choice(words)), maybe(str(rng.randint(0, 30))))
          for i in range(1, 41)]
    t3 = [(i, maybe(rng.randint(0, 30)), maybe(rng.choice(words)))
          for i in range(1, 6)]
    return [("t1", t1), ("t2", t2), ("t3", t3)]


def k(lo, hi):
    return rng.randint(lo, hi)


# Each template: (sql with {} holes filled by generators, output width,
# whether ORDER BY makes the order total).
def queries():
    out = []
    for _ in range(6):
        out.append(("SELECT id, a FROM t1 WHERE a IN (SELECT x FROM t2 WHERE "
                    "y > %d) ORDER BY id" % k(0, 9), 2, True))
        out.append(("SELECT id FROM t1 WHERE a NOT IN (SELECT x FROM t2 "
                    "WHERE y = %d) ORDER BY id" % k(0, 9), 1, True))
        out.append(("SELECT id FROM t1 WHERE a NOT IN (SELECT x FROM t2 "
                    "WHERE y = %d AND x IS NOT NULL) ORDER BY id" % k(0, 9),
                    1, True))
        out.append(("SELECT count(*) FROM t1 WHERE EXISTS (SELECT 1 FROM t2 "
                    "WHERE x > %d) AND a < %d" % (k(20, 45), k(5, 25)), 1,
                    True))
        out.append(("SELECT count(*) FROM t1 WHERE NOT EXISTS (SELECT * FROM "
                    "t2 WHERE x = %d)" % k(0, 45), 1, True))
        out.append(("SELECT id, a, (SELECT max(x) FROM t2 WHERE y = %d) FROM "
                    "t1 WHERE a > (SELECT avg(x) FROM t2 WHERE y < %d) "
                    "ORDER BY id" % (k(0, 9), k(1, 9)), 3, True))
        out.append(("SELECT id FROM t1 WHERE a = (SELECT x FROM t2 WHERE "
                    "x IS NOT NULL ORDER BY y DESC, id LIMIT 1 OFFSET %d) "
                    "ORDER BY id" % k(0, 45), 1, True))
        out.append(("SELECT id FROM t1 WHERE a IN (SELECT x FROM t2 WHERE y "
                    "IN (SELECT c FROM t3 WHERE c < %d)) ORDER BY id"
                    % k(0, 30), 1, True))
        out.append(("SELECT b, count(*) FROM t1 WHERE b IN (SELECT name FROM "
                    "t2 WHERE y < %d) GROUP BY b ORDER BY b" % k(0, 9), 2,
                    True))
        # lower(): SQLite and levelql show different spellings of a
        # nocase group.
        out.append(("SELECT lower(name), count(*) FROM t2 WHERE name IN "
                    "(SELECT b FROM t1 WHERE a < %d) GROUP BY name "
                    "ORDER BY 2, 1" % k(0, 30), 2, True))
        out.append(("SELECT id FROM t1 WHERE a IN (SELECT s FROM t2 WHERE "
                    "y >= %d) ORDER BY id" % k(0, 9), 1, True))
        out.append(("SELECT id FROM t2 WHERE s IN (SELECT a FROM t1 WHERE "
                    "id < %d) ORDER BY id" % k(1, 120), 1, True))
        out.append(("SELECT t1.id, t2.id FROM t1 JOIN t2 ON t1.a = t2.x "
                    "WHERE t2.y IN (SELECT c FROM t3) AND t1.id < %d"
                    % k(10, 120), 2, False))
        out.append(("SELECT a, count(*) FROM t1 GROUP BY a HAVING count(*) "
                    "> (SELECT count(*) FROM t3 WHERE c < %d) ORDER BY a"
                    % k(0, 30), 2, True))
        out.append(("SELECT id FROM t1 WHERE (SELECT min(x) FROM t2 WHERE "
                    "y = %d) IS NULL AND id < 4 ORDER BY id" % k(0, 12), 1,
                    True))
        out.append(("SELECT id FROM t1 WHERE a IN (SELECT x FROM t2 WHERE "
                    "x > 100) OR b IN (SELECT d FROM t3 WHERE c > %d) "
                    "ORDER BY id" % k(0, 30), 1, True))
        out.append(("SELECT id FROM t1 WHERE r IN (SELECT y FROM t2 WHERE "
                    "x < %d) ORDER BY id" % k(0, 40), 1, True))
        # Correlated: the subquery reads the row around it.
        out.append(("SELECT id, (SELECT count(*) FROM t2 WHERE t2.x < t1.a "
                    "AND y > %d) FROM t1 WHERE id < 40 ORDER BY id"
                    % k(0, 9), 2, True))
        out.append(("SELECT id FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE "
                    "t2.x = t1.a AND t2.y < %d) ORDER BY id" % k(0, 9), 1,
                    True))
        out.append(("SELECT id FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 "
                    "WHERE t2.x = t1.a) AND a < %d ORDER BY id" % k(0, 30),
                    1, True))
        out.append(("SELECT id FROM t1 WHERE a IN (SELECT x FROM t2 WHERE "
                    "t2.y = t1.id %% 10) AND id < %d ORDER BY id"
                    % k(20, 120), 1, True))
        out.append(("SELECT id FROM t1 WHERE a NOT IN (SELECT x FROM t2 "
                    "WHERE t2.y = t1.a %% 7 AND x > %d) ORDER BY id"
                    % k(0, 40), 1, True))
        # Self-correlation: an alias hides the table's name (SQLite).
        out.append(("SELECT id, a FROM t1 WHERE a > %d AND (SELECT count(*) "
                    "FROM t1 AS x WHERE x.a < t1.a) < 20 ORDER BY id"
                    % k(0, 25), 2, True))
        out.append(("SELECT id FROM t1 ORDER BY (SELECT max(y) FROM t2 WHERE "
                    "t2.x = t1.a), id LIMIT %d" % k(5, 30), 1, True))
        out.append(("SELECT a, count(*) FROM t1 GROUP BY a HAVING count(*) > "
                    "(SELECT count(*) FROM t2 WHERE t2.x = t1.a) - %d "
                    "ORDER BY a" % k(0, 2), 2, True))
        out.append(("SELECT t1.id, t2.id FROM t1 JOIN t2 ON t1.a = t2.x "
                    "WHERE t2.y > (SELECT min(c) FROM t3 WHERE t3.c > t1.a "
                    "- %d) ORDER BY 1, 2" % k(0, 20), 2, True))
        out.append(("SELECT id FROM t1 WHERE a IN (SELECT x FROM t2 WHERE "
                    "EXISTS (SELECT 1 FROM t3 WHERE t3.c = t2.y)) AND id < "
                    "%d ORDER BY id" % k(20, 120), 1, True))
        # A column of the row around keeps its collation (nocase t2.name
        # against binary t1.b, either side first).
        out.append(("SELECT id FROM t2 WHERE EXISTS (SELECT 1 FROM t1 WHERE "
                    "t2.name = t1.b AND t1.a > %d) ORDER BY id" % k(0, 30), 1,
                    True))
        out.append(("SELECT id FROM t2 WHERE EXISTS (SELECT 1 FROM t1 WHERE "
                    "t1.b = t2.name AND t1.a > %d) ORDER BY id" % k(0, 30), 1,
                    True))
        out.append(("SELECT id, (SELECT count(*) FROM t1 WHERE t1.b IN "
                    "(t2.name, 'zz')) FROM t2 WHERE id < %d ORDER BY id"
                    % k(5, 40), 2, True))
    return out


def many_items():
    """IN lists and IN (SELECT ...) of many values (8 or more: searched in
    sorted order once folded) of mixed types, against columns of every
    affinity and collation, and expressions with none."""
    pool = [0, 1, 5, 7, 12, -3, 1.0, 5.0, 2.5, "5", " 5", "5.0", "7", "ab",
            "AB", "Ab", "cd", "", "0x", None]
    out = []
    for _ in range(40):
        items = [rng.choice(pool) for _ in range(rng.randint(8, 14))]
        lit = ", ".join(
            "NULL" if v is None else
            ("'%s'" % v if isinstance(v, str) else repr(v)) for v in items)
        x = rng.choice(["i", "r", "t", "n", "i + 0", "CAST(i AS TEXT)",
                        "t || ''", "lower(n)"])
        neg = rng.choice(["", "NOT "])
        out.append(("SELECT id FROM m WHERE %s %sIN (%s) ORDER BY id"
                    % (x, neg, lit), 1, True))
    for _ in range(20):
        x = rng.choice(["i", "r", "t", "n", "i + 0", "t || ''"])
        col = rng.choice(["i", "r", "t", "n"])
        neg = rng.choice(["", "NOT "])
        out.append(("SELECT id FROM m WHERE %s %sIN (SELECT %s FROM m WHERE "
                    "id %% %d <> 0) ORDER BY id"
                    % (x, neg, col, rng.randint(2, 5)), 1, True))
    return out


def many_rows():
    vals = [(0, 0.0, "0", "ab"), (1, 1.0, "1", "AB"), (5, 5.0, "5", "Ab"),
            (7, 2.5, " 5", "cd"), (12, 12.0, "5.0", "CD"),
            (-3, -3.0, "ab", "x"), (None, None, None, None),
            (5, 7.0, "AB", "ab"), (2, 0.5, "", "")]
    rows = []
    for i in range(1, 31):
        a, b, c, d = vals[i % len(vals)]
        rows.append((i, a, b, c, d))
    return rows


WRITES = [
    "UPDATE t1 SET b = 'zz' WHERE a IN (SELECT x FROM t2 WHERE y = 3)",
    "DELETE FROM t1 WHERE a = (SELECT min(a) FROM t1)",
    "INSERT INTO t3 SELECT id + 100, a, b FROM t1 WHERE a NOT IN "
    "(SELECT x FROM t2 WHERE x IS NOT NULL) AND a IS NOT NULL",
    "DELETE FROM t2 WHERE EXISTS (SELECT 1 FROM t3 WHERE c > 25) AND y = 0",
    "UPDATE t1 SET a = (SELECT max(c) FROM t3 WHERE t3.d = t1.b) "
    "WHERE id < 30",
    "DELETE FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.x = t1.a "
    "AND t2.y > 5)",
]


def main():
    db = sqlite3.connect(":memory:")
    out = sys.stdout
    out.write("# Generated by tools/gen_tests/subqueries.py (seed %d); "
              "answers from sqlite3.\n" % SEED)
    write_setup(out, db, SCHEMA, rows())
    for sql, width, ordered in queries():
        write_query(out, db, sql, width, ordered)
    write_setup(out, db, [
        "CREATE TABLE m (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, "
        "n TEXT COLLATE nocase)", "CREATE INDEX m_i ON m (i)",
        "CREATE INDEX m_n ON m (n)"], [("m", many_rows())])
    for sql, width, ordered in many_items():
        write_query(out, db, sql, width, ordered)
    for stmt in WRITES:
        db.execute(stmt)
        out.write("\nstatement ok\n%s\n" % stmt)
        for sql, width in [("SELECT id, a, b FROM t1 ORDER BY id", 3),
                           ("SELECT count(*), sum(c) FROM t3", 2),
                           ("SELECT count(*) FROM t2", 1)]:
            write_query(out, db, sql, width, True)


main()
