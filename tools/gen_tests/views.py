#!/usr/bin/env python3
"""Writes tests/sql/views.test: views and subqueries in FROM, merged into
the query reading them, with expected rows computed by SQLite (Python's
sqlite3) over the same tables.

Fixed cases (nested views, column lists, `*` and `t.*`, joins of views with
tables and with each other, unnamed subqueries, a view's ORDER BY, names of
the select list in the view's WHERE, affinity and collation carried through
a view's column), then random queries over views with random WHERE and
ORDER BY terms (fixed seed).

    python3 tools/gen_tests/views.py > tests/sql/views.test
"""
import random
import sqlite3
import sys

from slt_out import write_cases, write_query, write_setup

SEED = 11
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b REAL, "
    "s TEXT COLLATE nocase, c INTEGER)",
    "CREATE INDEX t_a ON t (a)",
    "CREATE INDEX t_s ON t (s)",
    "CREATE INDEX t_ab ON t (a, b)",
    "CREATE TABLE u (k INTEGER PRIMARY KEY, a INTEGER, name TEXT)",
    "CREATE INDEX u_a ON u (a)",
]

VIEWS = [
    "CREATE VIEW v1 AS SELECT id, a, s FROM t WHERE a > 2",
    "CREATE VIEW v2 AS SELECT id AS vid, a + 1 AS a1, b FROM t "
    "WHERE b IS NOT NULL",
    "CREATE VIEW v3 AS SELECT id FROM v1 WHERE s >= 'c'",
    "CREATE VIEW v4 (x, y) AS SELECT a, c FROM t",
    "CREATE VIEW v5 AS SELECT * FROM u",
    "CREATE VIEW v6 AS SELECT t.id, u.name FROM t JOIN u ON u.a = t.a",
    "CREATE VIEW v7 AS SELECT id, a FROM t ORDER BY a DESC, id",
    "CREATE VIEW v8 AS SELECT id, a * 2 AS d FROM t WHERE d > 4",
    "CREATE VIEW v9 AS SELECT t.* FROM t, u WHERE t.a = u.a AND u.k < 4",
    "CREATE VIEW w1 (p, q) AS SELECT id, s FROM t",
    "CREATE VIEW w2 AS SELECT q FROM w1",
    "CREATE VIEW w3 AS SELECT id, c, 2 AS k, upper(s) AS up FROM t",
    "CREATE VIEW w4 AS SELECT k FROM u",
    "CREATE VIEW w5 AS SELECT u.name FROM t, u WHERE t.id = u.k",
]


def make_rows():
    words = ["apple", "Apple", "banana", "Cherry", "cherry", "date", "Eel",
             "fig", None, "", "10", "9"]
    t_rows = []
    for i in range(1, 41):
        t_rows.append((i, rng.choice([None, 0, 1, 2, 3, 4, 5, 6, 7]),
                       rng.choice([None, 0.5, 1.0, 2.25, -3.5, 7.0, 10.0]),
                       rng.choice(words), rng.randint(-3, 9)))
    u_rows = [(k, rng.choice([None, 1, 2, 3, 4, 5]), "user%d" % k)
              for k in range(1, 9)]
    return t_rows, u_rows


FIXED = [
    ("SELECT id, a, s FROM v1 ORDER BY id", 3, True),
    ("SELECT * FROM v1 WHERE a = 4 ORDER BY id", 3, True),
    ("SELECT vid, a1, b FROM v2 WHERE a1 > 3 ORDER BY vid", 3, True),
    ("SELECT * FROM v3 ORDER BY id", 1, True),
    ("SELECT x, y FROM v4 WHERE x = 3 ORDER BY y, x", 2, True),
    ("SELECT * FROM v4 WHERE y > 5", 2, False),
    ("SELECT * FROM v5 ORDER BY k", 3, True),
    ("SELECT id, name FROM v6 ORDER BY id, name", 2, True),
    ("SELECT * FROM v7", 2, True),
    ("SELECT id FROM v7 LIMIT 5", 1, True),
    ("SELECT id, d FROM v8 ORDER BY id", 2, True),
    ("SELECT id, a FROM v9 ORDER BY id", 2, True),
    ("SELECT count(*), sum(a), max(s) FROM v1", 3, True),
    ("SELECT a, count(*) FROM v1 GROUP BY a ORDER BY a", 2, True),
    ("SELECT DISTINCT a FROM v1 ORDER BY a", 1, True),
    ("SELECT v1.id, u.name FROM v1 JOIN u ON u.a = v1.a ORDER BY 1, 2", 2,
     True),
    ("SELECT p.id, q.id FROM v1 AS p, v1 AS q WHERE p.a = q.a AND p.id < q.id "
     "ORDER BY 1, 2", 2, True),
    ("SELECT v1.*, v5.name FROM v1 JOIN v5 ON v5.a = v1.a ORDER BY v1.id, "
     "v5.name", 4, True),
    ("SELECT id FROM v1 WHERE s = 'APPLE' ORDER BY id", 1, True),
    ("SELECT id FROM v1 WHERE a = '4' ORDER BY id", 1, True),
    ("SELECT id FROM v1 ORDER BY s, id", 1, True),
    ("SELECT id FROM v1 WHERE id IN (SELECT vid FROM v2 WHERE b > 1) "
     "ORDER BY id", 1, True),
    ("SELECT id FROM t WHERE EXISTS (SELECT 1 FROM v5 WHERE v5.a = t.a AND "
     "v5.k > 5) ORDER BY id", 1, True),
    ("SELECT id, (SELECT count(*) FROM v1 WHERE v1.a = t.a) FROM t "
     "ORDER BY id", 2, True),
    ("SELECT id FROM (SELECT id, a FROM t WHERE a > 3) AS d ORDER BY id", 1,
     True),
    ("SELECT * FROM (SELECT id, a FROM t WHERE a > 3) ORDER BY id", 2, True),
    ("SELECT d.x FROM (SELECT a AS x FROM t) d WHERE d.x > 5", 1, False),
    ("SELECT e.id FROM (SELECT id, a FROM (SELECT id, a, c FROM t WHERE c > 0) "
     "WHERE a < 5) AS e ORDER BY e.id", 1, True),
    ("SELECT u.name, d.n FROM u JOIN (SELECT a, id AS n FROM t) AS d ON "
     "d.a = u.a WHERE d.n < 10 ORDER BY 1, 2", 2, True),
    ("SELECT x FROM (SELECT 1 AS x) WHERE x > 0", 1, True),
    ("SELECT x + y FROM (SELECT 2 AS x, 3 AS y)", 1, True),
    ("SELECT id FROM (SELECT id, s FROM t ORDER BY s DESC, id)", 1, True),
    ("SELECT count(*) FROM (SELECT * FROM t JOIN u ON u.a = t.a)", 1, True),
    ("SELECT k FROM (SELECT * FROM v5) WHERE a IS NULL ORDER BY k", 1, True),
    # A name read through views is the view's column, whatever it selects.
    ("SELECT q FROM w2", 1, False),
    ("SELECT b FROM (SELECT b FROM (SELECT s AS b FROM t))", 1, False),
    # A view's constant column is a value, not an ORDER BY/GROUP BY ordinal.
    ("SELECT id, c FROM w3 ORDER BY k, id", 2, True),
    ("SELECT k, count(*) FROM w3 GROUP BY k", 2, True),
    ("SELECT count(*) FROM (SELECT id, 2 AS k FROM t) GROUP BY k", 1, True),
    # A view's computed column compares under binary (SQLite's COLLATE).
    ("SELECT w3.id, t.id FROM w3, t WHERE w3.up = t.s ORDER BY 1, 2", 2, True),
    ("SELECT id FROM w3 WHERE up IN (SELECT s FROM t) ORDER BY id", 1, True),
    # A view's ORDER BY names its own select list first.
    ("SELECT * FROM (SELECT * FROM w5 ORDER BY name)", 1, True),
    # Columns of a view's tables it does not select are not there: a name
    # is a select-list alias or another table's column.
    ("SELECT k AS a FROM w4 WHERE a = 1", 1, True),
    ("SELECT c AS id FROM w3 WHERE id = 5 ORDER BY 1", 1, True),
    ("SELECT c AS id, count(*) FROM w3 GROUP BY id ORDER BY 1", 2, True),
    ("SELECT t.id, k FROM t, w4 WHERE a = 5 ORDER BY 1, 2", 2, True),
]

ERRORS = [
    # A column the view does not select is not reachable through it.
    ("NotFound", "SELECT c FROM v1"),
    ("NotFound", "SELECT v1.c FROM v1"),
    ("NotFound", "SELECT t.id FROM v1"),
    ("InvalidArgument", "SELECT a FROM v1, v4, u"),
    ("InvalidArgument", "INSERT INTO v1 VALUES (1, 2, 'x')"),
    ("InvalidArgument", "UPDATE v1 SET a = 1"),
    ("InvalidArgument", "DELETE FROM v1"),
    ("InvalidArgument", "CREATE INDEX v1_a ON v1 (a)"),
    ("InvalidArgument", "CREATE VIEW v1 AS SELECT 1"),
    ("InvalidArgument", "CREATE TABLE v1 (x INTEGER)"),
    ("InvalidArgument", "CREATE VIEW t AS SELECT 1"),
    ("InvalidArgument", "DROP TABLE v1"),
    ("InvalidArgument", "DROP VIEW t"),
    ("NotFound", "DROP VIEW nosuch"),
    ("NotFound", "CREATE VIEW bad AS SELECT nosuch FROM t"),
    ("NotFound", "CREATE VIEW bad AS SELECT x FROM nosuch"),
    ("InvalidArgument", "CREATE VIEW bad (p, q) AS SELECT a FROM t"),
    ("InvalidArgument", "CREATE VIEW bad AS SELECT a FROM t WHERE a = ?"),
]

COLUMNS = {"v1": ["id", "a", "s"], "v2": ["vid", "a1", "b"],
           "v4": ["x", "y"], "v8": ["id", "d"]}
OPS = ["=", "<", "<=", ">", ">=", "<>"]


def term(cols):
    c = rng.choice(cols)
    kind = rng.random()
    if kind < 0.15:
        return "%s IS NULL" % c
    if kind < 0.25:
        return "%s BETWEEN %d AND %d" % (c, rng.randint(0, 3), rng.randint(3, 8))
    if kind < 0.35 and c in ("s",):
        return "%s LIKE '%s%%'" % (c, rng.choice(["a", "C", "d", "1"]))
    if kind < 0.45:
        return "%s IN (%d, %d)" % (c, rng.randint(0, 7), rng.randint(0, 7))
    value = rng.choice(["%d" % rng.randint(-1, 8), "'%s'" % rng.choice(
        ["apple", "Cherry", "3", "d"]), "%.1f" % (rng.randint(0, 16) / 2)])
    return "%s %s %s" % (c, rng.choice(OPS), value)


def random_query():
    view = rng.choice(sorted(COLUMNS))
    cols = COLUMNS[view]
    where = " AND ".join(term(cols) for _ in range(rng.randint(1, 2)))
    if rng.random() < 0.3:
        where = "(%s) OR %s" % (where, term(cols))
    key = cols[0]  # v1, v2 and v8 show t's primary key first
    if view != "v4" and rng.random() < 0.5:
        return ("SELECT %s FROM %s WHERE %s ORDER BY %s DESC" %
                (", ".join(cols), view, where, key), len(cols), True)
    return ("SELECT %s FROM %s WHERE %s" % (", ".join(cols), view, where),
            len(cols), False)


def main():
    out = sys.stdout
    db = sqlite3.connect(":memory:")
    out.write("# Generated by tools/gen_tests/views.py; do not edit by hand.\n"
              "# Views and subqueries in FROM against SQLite's rows.\n")
    t_rows, u_rows = make_rows()
    write_setup(out, db, SCHEMA + VIEWS, [("t", t_rows), ("u", u_rows)])
    write_cases(out, db, FIXED, ERRORS, 80, random_query)
    # Views go with DROP VIEW; the tables they read stay, and a view whose
    # table is dropped fails where it is read.
    for stmt in ["DROP VIEW v3", "DROP VIEW IF EXISTS v3",
                 "CREATE VIEW IF NOT EXISTS v1 AS SELECT 1",
                 "DROP TABLE u"]:
        db.execute(stmt)
        out.write("\nstatement ok\n%s\n" % stmt)
    out.write("\nstatement error ^NotFound\nSELECT * FROM v5\n")
    out.write("\nstatement error ^NotFound\nSELECT * FROM v3\n")
    write_query(out, db, "SELECT count(*) FROM v1", 1, True)


if __name__ == "__main__":
    main()
