#!/usr/bin/env python3
"""Writes tests/sql/left_join.test: LEFT [OUTER] JOIN with expected rows
computed by SQLite (Python's sqlite3) over the same tables.

Fixed cases (ON terms of either side, WHERE on the right side's NULLs,
chains with inner joins, aggregates, views and subqueries on either side),
then random two- and three-table LEFT JOINs with random ON and WHERE terms
(fixed seed), ordered by every table's key or compared as sets.

    python3 tools/gen_tests/left_join.py > tests/sql/left_join.test
"""
import random
import sqlite3
import sys

from slt_out import write_cases, write_setup

SEED = 3
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE a (id INTEGER PRIMARY KEY, x INTEGER, s TEXT)",
    "CREATE INDEX a_x ON a (x)",
    "CREATE TABLE b (id INTEGER PRIMARY KEY, x INTEGER, y TEXT, r REAL)",
    "CREATE INDEX b_x ON b (x)",
    "CREATE TABLE c (k INTEGER PRIMARY KEY, y TEXT, n INTEGER NOT NULL)",
    "CREATE VIEW bv AS SELECT id, x, y FROM b WHERE r > 0",
]


def rows():
    a = [(i, rng.choice([None, 1, 2, 3, 4, 5]), rng.choice(["p", "q", None]))
         for i in range(1, 16)]
    b = [(i, rng.choice([None, 1, 2, 3, 6]), rng.choice(["p", "q", "r", None]),
          rng.choice([None, -1.5, 0.0, 2.5]))
         for i in range(1, 13)]
    c = [(k, rng.choice(["p", "q", "z", None]), rng.randint(0, 3))
         for k in range(1, 7)]
    return a, b, c


FIXED = [
    ("SELECT a.id, b.id FROM a LEFT JOIN b ON b.x = a.x", 2, False),
    ("SELECT a.id, b.id FROM a LEFT OUTER JOIN b ON b.x = a.x AND b.y = 'p'",
     2, False),
    ("SELECT a.id, b.id FROM a LEFT JOIN b ON b.x = a.x AND a.s = 'q'", 2,
     False),
    ("SELECT a.id FROM a LEFT JOIN b ON b.x = a.x WHERE b.id IS NULL", 1,
     False),
    ("SELECT a.id, b.id FROM a LEFT JOIN b ON b.x = a.x WHERE b.r > 0", 2,
     False),
    ("SELECT a.id, b.id FROM a LEFT JOIN b ON 0", 2, False),
    ("SELECT a.id, b.id FROM a LEFT JOIN b ON NULL", 2, False),
    ("SELECT a.id, b.id FROM a LEFT JOIN b", 2, False),
    ("SELECT a.id, b.id, c.k FROM a LEFT JOIN b ON b.x = a.x LEFT JOIN c ON "
     "c.y = b.y", 3, False),
    ("SELECT a.id, b.id, c.k FROM a JOIN c ON c.y = a.s LEFT JOIN b ON "
     "b.x = a.x", 3, False),
    ("SELECT a.id, b.id, c.k FROM a LEFT JOIN b ON b.x = a.x JOIN c ON "
     "c.y = b.y", 3, False),
    ("SELECT a.id, c.n FROM a LEFT JOIN c ON c.y = a.s WHERE c.n IS NULL", 2,
     False),
    ("SELECT a.x, count(*), count(b.id), sum(b.r) FROM a LEFT JOIN b ON "
     "b.x = a.x GROUP BY a.x ORDER BY a.x", 4, True),
    ("SELECT count(*) FROM a LEFT JOIN b ON b.x = a.x", 1, True),
    ("SELECT DISTINCT b.y FROM a LEFT JOIN b ON b.x = a.x", 1, False),
    ("SELECT a.id, b.id FROM a LEFT JOIN b ON b.x = a.x ORDER BY a.id DESC, "
     "b.id LIMIT 7 OFFSET 2", 2, True),
    ("SELECT a.id, bv.id FROM a LEFT JOIN bv ON bv.x = a.x", 2, False),
    ("SELECT a.id, d.id FROM a LEFT JOIN (SELECT id, x FROM b WHERE y = 'q') "
     "AS d ON d.x = a.x", 2, False),
    ("SELECT v.id, b.id FROM (SELECT id, x FROM a WHERE x > 2) AS v LEFT "
     "JOIN b ON b.x = v.x", 2, False),
    ("SELECT a.id, (SELECT count(*) FROM b WHERE b.x = a.x) FROM a LEFT JOIN "
     "c ON c.y = a.s", 2, False),
    ("SELECT a.id FROM a LEFT JOIN b ON b.x = a.x WHERE b.x IN (SELECT n FROM "
     "c)", 1, False),
    ("SELECT a.id, coalesce(b.y, 'none') FROM a LEFT JOIN b ON b.x = a.x "
     "UNION SELECT 0, 'x'", 2, False),
    # Inner joins among LEFT JOINs: hash joins on their equalities, one
    # keyed on a column a LEFT JOIN may have made NULL.
    ("SELECT a.id, b.id, c.k FROM a JOIN c ON c.n = a.x LEFT JOIN b "
     "ON b.x = a.x", 3, False),
    ("SELECT a.id, b.id, c.k FROM a LEFT JOIN b ON b.x = a.x JOIN c "
     "ON c.y = b.y", 3, False),
    ("SELECT a.id, c.k, d.k FROM a LEFT JOIN b ON b.x = a.x, c, c AS d "
     "WHERE c.n = a.x AND d.k = c.k", 3, False),
    # A RIGHT JOIN is the LEFT JOIN the other way round, its columns in the
    # order written.
    ("SELECT * FROM a RIGHT JOIN b ON b.x = a.x", 7, False),
    ("SELECT a.id, b.id FROM a RIGHT OUTER JOIN b ON b.x = a.x AND a.s = 'q' "
     "WHERE a.id IS NULL", 2, False),
    ("SELECT a.s, b.y, c.n FROM a RIGHT JOIN b ON b.x = a.x JOIN c "
     "ON c.y = b.y", 3, False),
    ("SELECT b.id, count(a.id) FROM a RIGHT JOIN b ON b.x = a.x "
     "GROUP BY b.id", 2, False),
    ("SELECT * FROM (SELECT x, count(*) AS n FROM a GROUP BY x) AS g "
     "RIGHT JOIN c ON c.n = g.x", 5, False),
    # On the right, a view or subquery that computes a column or joins
    # tables is read as a table of its rows: NULLs where none pairs.
    ("SELECT * FROM a LEFT JOIN (SELECT b.id FROM b, c WHERE c.y = b.y) AS d "
     "ON d.id = a.id", 4, False),
    ("SELECT * FROM a LEFT JOIN (SELECT x, 1 AS one FROM b) AS d ON d.x = a.x",
     5, False),
]

ERRORS = [
    ("NotSupported", "SELECT * FROM a JOIN c ON 1 FULL JOIN b ON b.x = a.x"),
    ("NotSupported", "SELECT * FROM a LEFT JOIN b USING (x)"),
    ("InvalidArgument", "SELECT * FROM a LEFT JOIN b ON b.x = c.n, c"),
]

COLS = {"a": ["id", "x", "s"], "b": ["id", "x", "y", "r"],
        "c": ["k", "y", "n"]}
KEYS = {"a": "id", "b": "id", "c": "k"}


def term(t, cols):
    col = rng.choice(cols)
    r = rng.random()
    if r < 0.2:
        return "%s.%s IS NULL" % (t, col)
    if r < 0.3:
        return "%s.%s IS NOT NULL" % (t, col)
    value = rng.choice(["1", "2", "3", "'p'", "'q'", "0.0"])
    return "%s.%s %s %s" % (t, col, rng.choice(["=", "<", ">", "<>"]), value)


def random_query():
    names = rng.sample(["a", "b", "c"], rng.choice([2, 2, 3]))
    sql = "SELECT %s FROM %s" % (
        ", ".join("%s.%s" % (t, KEYS[t]) for t in names), names[0])
    for i, t in enumerate(names[1:], 1):
        prev = rng.choice(names[:i])
        join = "LEFT JOIN" if rng.random() < 0.8 else "JOIN"
        left_col = rng.choice([c for c in COLS[prev] if c != "s" or t != "c"])
        right_col = rng.choice(COLS[t])
        on = "%s.%s = %s.%s" % (t, right_col, prev, left_col)
        if rng.random() < 0.4:
            side = t if rng.random() < 0.7 else prev
            on += " AND " + term(side, COLS[side])
        sql += " %s %s ON %s" % (join, t, on)
    if rng.random() < 0.6:
        t = rng.choice(names)
        sql += " WHERE " + term(t, COLS[t])
    if rng.random() < 0.4:
        # Each table's key, NULLs included: a total order of the rows.
        sql += " ORDER BY " + ", ".join(
            "%s.%s%s" % (t, KEYS[t], rng.choice(["", " DESC"])) for t in names)
        if rng.random() < 0.5:
            sql += " LIMIT %d" % rng.randint(1, 10)
        return sql, len(names), False
    return sql, len(names), False


def main():
    out = sys.stdout
    db = sqlite3.connect(":memory:")
    out.write("# Generated by tools/gen_tests/left_join.py; do not edit by hand.\n"
              "# LEFT JOIN against SQLite's rows.\n")
    a, b, c = rows()
    write_setup(out, db, SCHEMA, [("a", a), ("b", b), ("c", c)])
    write_cases(out, db, FIXED, ERRORS, 150, random_query)


if __name__ == "__main__":
    main()
