#!/usr/bin/env python3
"""Writes tests/sql/full_join.test: FULL [OUTER] JOIN of the first two FROM
items, with expected rows computed by SQLite (Python's sqlite3) over the
same tables.

Fixed cases (matched and unmatched rows of both sides, NULL keys, ON terms
of one side, `*` and `t.*`, unqualified names, WHERE/GROUP BY/ORDER BY/
LIMIT over the result, a view and a subquery as a side, a join after it,
inside a correlated subquery), errors, then random FULL JOINs with random ON
and WHERE terms (fixed seed).

    python3 tools/gen_tests/full_join.py > tests/sql/full_join.test
"""
import random
import sqlite3
import sys

from slt_out import write_cases, write_setup

SEED = 59
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE a (id INTEGER PRIMARY KEY, x INTEGER, s TEXT)",
    "CREATE INDEX a_x ON a (x)",
    "CREATE TABLE b (id INTEGER PRIMARY KEY, x INTEGER, y TEXT COLLATE "
    "nocase, r REAL)",
    "CREATE TABLE c (k INTEGER PRIMARY KEY, y TEXT, n INTEGER NOT NULL)",
    "CREATE VIEW bv AS SELECT id, x, y FROM b WHERE r > 0",
]


def rows():
    a = [(i, rng.choice([None, 1, 2, 3, 4, 5]), rng.choice(["p", "Q", None]))
         for i in range(1, 13)]
    b = [(i, rng.choice([None, 1, 2, 3, 6, 7]),
          rng.choice(["p", "q", "r", None]),
          rng.choice([None, -1.5, 0.0, 2.5])) for i in range(1, 11)]
    c = [(k, rng.choice(["p", "q", "z", None]), rng.randint(0, 7))
         for k in range(1, 7)]
    return a, b, c


FIXED = [
    ("SELECT a.id, b.id FROM a FULL JOIN b ON b.x = a.x", 2, False),
    ("SELECT a.id, b.id FROM a FULL OUTER JOIN b ON b.x = a.x AND b.y = 'P'",
     2, False),
    ("SELECT a.id, b.id FROM a FULL JOIN b ON b.x = a.x AND a.s = 'p'", 2,
     False),
    ("SELECT * FROM a FULL JOIN b ON b.x = a.x", 7, False),
    ("SELECT b.*, a.s FROM a FULL JOIN b ON b.x = a.x", 5, False),
    ("SELECT s, y, r FROM a FULL JOIN b ON b.x = a.x", 3, False),
    ("SELECT a.id, b.id FROM a FULL JOIN b ON 0", 2, False),
    ("SELECT a.id, b.id FROM a FULL JOIN b ON NULL", 2, False),
    ("SELECT count(*) FROM a FULL JOIN b ON 1", 1, False),
    ("SELECT a.id, b.id FROM a FULL JOIN b ON b.x = a.x WHERE a.id IS NULL "
     "OR b.id IS NULL", 2, False),
    ("SELECT coalesce(a.x, b.x) AS k, count(a.id), count(b.id) FROM a FULL "
     "JOIN b ON b.x = a.x GROUP BY k ORDER BY k", 3, True),
    ("SELECT a.id, b.id FROM a FULL JOIN b ON b.x = a.x ORDER BY a.id, b.id "
     "LIMIT 5 OFFSET 2", 2, True),
    ("SELECT a.id, d.id FROM a FULL JOIN bv AS d ON d.x = a.x", 2, False),
    ("SELECT a.id, d.x, d.n FROM a FULL JOIN (SELECT x, count(*) AS n FROM b "
     "GROUP BY x) AS d ON d.x = a.x", 3, False),
    ("SELECT a.id, b.id, c.k FROM a FULL JOIN b ON b.x = a.x JOIN c ON "
     "c.y = b.y", 3, False),
    ("SELECT a.id, b.id, c.k FROM a FULL JOIN b ON b.x = a.x LEFT JOIN c ON "
     "c.n = a.x", 3, False),
    ("SELECT c.k, (SELECT count(*) FROM a FULL JOIN b ON b.x = a.x WHERE "
     "a.x = c.n OR b.x = c.n) FROM c", 2, False),
    ("SELECT a.id FROM a WHERE EXISTS (SELECT 1 FROM c FULL JOIN b ON "
     "b.y = c.y WHERE b.x = a.x)", 1, False),
    # A column keeps the name it was read by, in a subquery reading the
    # FULL JOIN's rows too (the probe's: it was found around instead).
    ("SELECT c.k FROM c WHERE c.n IN (SELECT x FROM (SELECT a.x FROM a FULL "
     "JOIN b ON a.x = b.x))", 1, False),
    ("SELECT c.k FROM c WHERE EXISTS (SELECT 1 FROM (SELECT b.x FROM a FULL "
     "JOIN b ON a.x = b.x) WHERE x = 7)", 1, False),
    # A side with no FROM first (read as a table of its one row).
    ("SELECT * FROM (SELECT 2 AS k) AS d FULL JOIN a ON d.k = a.x", 4,
     False),
    ("SELECT * FROM (SELECT 2 AS k) AS d LEFT JOIN a ON d.k = a.x", 4,
     False),
    # A name a subquery does not select, of a table of rows under it, is
    # the table's beside it (b.id here), not ambiguous.
    ("SELECT count(*) FROM b AS z, (WITH q AS (SELECT * FROM a LIMIT 5) "
     "SELECT x FROM q) AS w WHERE id > 3", 1, False),
    # In a subquery in ORDER BY, a name of a FULL JOIN side's column that
    # is also a result column's name is the column (the third probe's).
    ("SELECT b.r FROM a FULL JOIN b ON a.x = b.x ORDER BY (SELECT count(*) "
     "FROM c WHERE c.k < r), 1", 1, True),
    # A side two of whose columns share a name.
    ("SELECT d.* FROM (SELECT id, x AS id FROM a) AS d FULL JOIN c ON 0",
     2, False),
    ("SELECT * FROM c FULL JOIN (SELECT id, x AS id FROM a) AS d ON 0", 5,
     False),
]

ERRORS = [
    ("NotSupported", "SELECT * FROM a JOIN c ON 1 FULL JOIN b ON b.x = a.x"),
    ("InvalidArgument", "SELECT x FROM a FULL JOIN b ON b.x = a.x"),
    ("InvalidArgument", "SELECT 1 FROM a FULL JOIN a ON 1"),
    ("NotSupported", "SELECT * FROM a OUTER JOIN b ON b.x = a.x"),
]

COLS = {"a": ["id", "x", "s"], "b": ["id", "x", "y", "r"],
        "c": ["k", "y", "n"]}
KEYS = {"a": "id", "b": "id", "c": "k"}
OPS = ["=", "<", "<=", ">", ">=", "<>"]


def term(t1, t2):
    pairs = [("x", "x"), ("id", "x"), ("x", "id"), ("s", "y"), ("id", "n"),
             ("x", "n"), ("y", "y"), ("y", "s")]
    ok = [(p, q) for p, q in pairs if p in COLS[t1] and q in COLS[t2]]
    p, q = rng.choice(ok)
    return "%s.%s %s %s.%s" % (t1, p, rng.choice(OPS[:3]), t2, q)


def random_query():
    t1, t2 = rng.sample(["a", "b", "c"], 2)
    on = term(t1, t2)
    if rng.random() < 0.3:
        col = rng.choice([c for c in COLS[t1] if c in ("x", "id", "n")] or
                         ["id"])
        on += " AND %s.%s %s %d" % (t1, col, rng.choice(OPS), rng.randint(0, 5))
    where = ""
    if rng.random() < 0.4:
        t = rng.choice([t1, t2])
        col = rng.choice(COLS[t])
        where = " WHERE %s.%s IS %sNULL" % (t, col, rng.choice(["", "NOT "]))
    cols = ["%s.%s" % (t1, KEYS[t1]), "%s.%s" % (t2, KEYS[t2])]
    extra = rng.choice(COLS[t2])
    cols.append("%s.%s" % (t2, extra))
    return ("SELECT %s FROM %s FULL JOIN %s ON %s%s" %
            (", ".join(cols), t1, t2, on, where), 3, False)


def main():
    out = sys.stdout
    db = sqlite3.connect(":memory:")
    out.write("# Generated by tools/gen_tests/full_join.py; do not edit by "
              "hand.\n# FULL JOIN against SQLite's rows.\n")
    a, b, c = rows()
    write_setup(out, db, SCHEMA, [("a", a), ("b", b), ("c", c)])
    write_cases(out, db, FIXED, ERRORS, 120, random_query)


if __name__ == "__main__":
    main()
