#!/usr/bin/env python3
"""Writes tests/sql/with.test: common table expressions (WITH), read as
subqueries in FROM (merged, or read as tables of their rows), with expected
rows computed by SQLite (Python's sqlite3) over the same tables.

Fixed cases (one and several common tables, column lists, one reading
another, a name hiding a table's, in subqueries, compounds, joins, views
made with WITH, INSERT ... WITH ... SELECT), errors, then random queries
over common tables with random WHERE and ORDER BY terms (fixed seed).

    python3 tools/gen_tests/with.py > tests/sql/with.test
"""
import random
import sqlite3
import sys

from slt_out import write_cases, write_query, write_setup

SEED = 31
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b REAL, "
    "s TEXT COLLATE nocase, c INTEGER)",
    "CREATE INDEX t_a ON t (a)",
    "CREATE TABLE u (k INTEGER PRIMARY KEY, a INTEGER, name TEXT)",
    "CREATE TABLE sink (x INTEGER, n INTEGER)",
    "CREATE VIEW wv AS WITH big AS (SELECT id, a FROM t WHERE a > 3) "
    "SELECT a, count(*) AS n FROM big GROUP BY a",
]


def make_rows():
    words = ["apple", "Apple", "banana", "Cherry", "cherry", "date", None,
             "", "10"]
    t_rows = [(i, rng.choice([None, 0, 1, 2, 3, 4, 5, 6]),
               rng.choice([None, 0.5, 2.25, -3.5, 7.0]), rng.choice(words),
               rng.randint(-3, 9)) for i in range(1, 41)]
    u_rows = [(k, rng.choice([None, 1, 2, 3, 4, 5]), "user%d" % k)
              for k in range(1, 9)]
    return t_rows, u_rows


FIXED = [
    ("WITH x AS (SELECT id, a FROM t WHERE a > 4) SELECT * FROM x", 2, False),
    ("WITH x (p, q) AS (SELECT id, a FROM t WHERE a > 4) SELECT q, p FROM x "
     "WHERE p < 20", 2, False),
    ("WITH g AS (SELECT a, count(*) AS n FROM t GROUP BY a) "
     "SELECT a, n FROM g WHERE n > 4", 2, False),
    ("WITH g AS (SELECT a, count(*) AS n FROM t GROUP BY a), "
     "h AS (SELECT a, n * 2 AS m FROM g WHERE a IS NOT NULL) "
     "SELECT h.a, h.m, g.n FROM h JOIN g ON g.a = h.a", 3, False),
    # The name of a common table hides a table's.
    ("WITH u AS (SELECT 1 AS k) SELECT * FROM u", 1, True),
    ("WITH u AS (SELECT id AS k FROM t WHERE a = 2) SELECT count(*) FROM u",
     1, True),
    # In subqueries, and seen from inside them.
    ("WITH g AS (SELECT a FROM t WHERE c > 5) SELECT id FROM t WHERE a IN "
     "(SELECT a FROM g)", 1, False),
    ("WITH g AS (SELECT a, max(c) AS m FROM t GROUP BY a) SELECT id, "
     "(SELECT m FROM g WHERE g.a = t.a) FROM t WHERE id < 15", 2, False),
    ("SELECT id FROM t WHERE EXISTS (WITH z AS (SELECT k, a FROM u) "
     "SELECT 1 FROM z WHERE z.a = t.a)", 1, False),
    ("SELECT * FROM (WITH z AS (SELECT a, name FROM u) SELECT name FROM z "
     "WHERE a > 2)", 1, False),
    # One may read one written after it.
    ("WITH x AS (SELECT a FROM y WHERE a > 2), y AS (SELECT a FROM t) "
     "SELECT count(*) FROM x", 1, True),
    # Compounds: the common tables are seen by every SELECT.
    ("WITH p AS (SELECT a FROM t), q AS (SELECT a FROM u) "
     "SELECT a FROM p UNION SELECT a FROM q", 1, False),
    ("WITH p AS (SELECT a FROM t UNION SELECT a FROM u) SELECT count(*) "
     "FROM p", 1, True),
    ("WITH p AS (SELECT a FROM t EXCEPT SELECT a FROM u) SELECT * FROM p "
     "ORDER BY a", 1, True),
    # Read twice, joined to a table, on the right of a LEFT JOIN.
    ("WITH g AS (SELECT a, count(*) AS n FROM t GROUP BY a) SELECT x.a, y.a "
     "FROM g AS x, g AS y WHERE x.n = y.n AND x.a < y.a", 2, False),
    ("WITH g AS (SELECT a, count(*) AS n FROM t GROUP BY a) SELECT u.k, g.n "
     "FROM u LEFT JOIN g ON g.a = u.a", 2, False),
    ("WITH d AS (SELECT DISTINCT s FROM t) SELECT count(*) FROM d", 1, True),
    ("WITH l AS (SELECT id FROM t ORDER BY c DESC, id LIMIT 5) "
     "SELECT * FROM l", 1, False),
    # A view made with WITH.
    ("SELECT * FROM wv", 2, False),
    ("SELECT a FROM wv WHERE n > 1 ORDER BY a", 1, True),
    # An inner WITH's name hides an outer one's.
    ("WITH x AS (SELECT 1 AS v) SELECT (WITH x AS (SELECT 2 AS v) "
     "SELECT v FROM x), v FROM x", 2, True),
]

ERRORS = [
    ("NotSupported", "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL "
     "SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r"),
    ("InvalidArgument", "WITH x AS (SELECT 1), x AS (SELECT 2) "
     "SELECT * FROM x"),
    ("NotFound", "WITH x AS (SELECT a FROM t) SELECT b FROM x"),
    ("InvalidArgument", "WITH x AS (SELECT a FROM y), y AS (SELECT a FROM x) "
     "SELECT * FROM x"),
    ("InvalidArgument", "WITH x (p, q) AS (SELECT a FROM t) SELECT * FROM x"),
    ("InvalidArgument", "WITH t AS (SELECT id FROM t) SELECT * FROM t"),
]

OPS = ["=", "<", "<=", ">", ">=", "<>"]
BODIES = [
    ("SELECT a, count(*) AS n, sum(c) AS sc FROM t GROUP BY a",
     ["a", "n", "sc"]),
    ("SELECT id, a, c FROM t WHERE c > 0", ["id", "a", "c"]),
    ("SELECT DISTINCT a, c FROM t", ["a", "c"]),
    ("SELECT k, a FROM u UNION ALL SELECT id, a FROM t WHERE id < 10",
     ["k", "a"]),
]


def random_query():
    body, cols = rng.choice(BODIES)
    where = " AND ".join(
        "%s %s %d" % (rng.choice(cols), rng.choice(OPS), rng.randint(0, 6))
        for _ in range(rng.randint(1, 2)))
    order = ", ".join(cols)
    if rng.random() < 0.5:
        return ("WITH w AS (%s) SELECT %s FROM w WHERE %s ORDER BY %s" %
                (body, ", ".join(cols), where, order), len(cols), True)
    return ("WITH w AS (%s) SELECT %s FROM w WHERE %s" %
            (body, ", ".join(cols), where), len(cols), False)


def main():
    out = sys.stdout
    db = sqlite3.connect(":memory:")
    out.write("# Generated by tools/gen_tests/with.py; do not edit by hand.\n"
              "# Common table expressions (WITH) against SQLite's rows.\n")
    t_rows, u_rows = make_rows()
    write_setup(out, db, SCHEMA, [("t", t_rows), ("u", u_rows)])
    write_cases(out, db, FIXED, ERRORS, 60, random_query)
    # INSERT ... WITH ... SELECT writes the rows it reads; WITH before
    # INSERT, UPDATE and DELETE is seen by their SELECTs and subqueries.
    for stmt in [
            "INSERT INTO sink WITH g AS (SELECT a, count(*) AS n FROM t "
            "GROUP BY a) SELECT a, n FROM g WHERE a IS NOT NULL",
            "WITH g AS (SELECT a, max(c) AS m FROM t GROUP BY a) "
            "INSERT INTO sink SELECT a + 100, m FROM g WHERE a > 2",
            "WITH v (x) AS (SELECT 7) INSERT INTO sink VALUES "
            "((SELECT x FROM v), 0)",
            "WITH big AS (SELECT a FROM t WHERE c > 6) DELETE FROM sink "
            "WHERE x IN (SELECT a FROM big)",
            "WITH m AS (SELECT max(c) AS mc FROM t) UPDATE sink SET "
            "n = (SELECT mc FROM m) WHERE x = 0"]:
        db.execute(stmt)
        out.write("\nstatement ok\n%s\n" % stmt)
        write_query(out, db, "SELECT * FROM sink", 2, False)
    out.write("\nstatement error ^NotSupported\nWITH RECURSIVE r AS "
              "(SELECT 1) DELETE FROM sink\n")
    write_query(out, db, "SELECT count(*) FROM sink", 1, True)


if __name__ == "__main__":
    main()
