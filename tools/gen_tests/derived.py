#!/usr/bin/env python3
"""Writes tests/sql/derived.test: views and subqueries in FROM that make rows
of their own (GROUP BY, HAVING, aggregates, DISTINCT, LIMIT/OFFSET,
compounds), read as tables of their rows, with expected rows computed by
SQLite (Python's sqlite3) over the same tables.

Fixed cases (each kind of such a view or subquery; joined to tables, to
merged views and to each other, on either side of a LEFT JOIN; inside
subqueries; affinity and collation of their columns; nested; a merged view
over one), errors, then random queries over them with random WHERE and
ORDER BY terms (fixed seed).

    python3 tools/gen_tests/derived.py > tests/sql/derived.test
"""
import random
import sqlite3
import sys

from slt_out import write_cases, write_query, write_setup

SEED = 23
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b REAL, "
    "s TEXT COLLATE nocase, c INTEGER)",
    "CREATE INDEX t_a ON t (a)",
    "CREATE INDEX t_s ON t (s)",
    "CREATE TABLE u (k INTEGER PRIMARY KEY, a INTEGER, name TEXT)",
    "CREATE INDEX u_a ON u (a)",
]

VIEWS = [
    "CREATE VIEW g1 AS SELECT a, count(*) AS n, sum(c) AS sc, max(s) AS ms "
    "FROM t GROUP BY a",
    "CREATE VIEW g2 AS SELECT DISTINCT s FROM t",
    "CREATE VIEW g3 AS SELECT id, a, s FROM t ORDER BY id DESC LIMIT 12",
    "CREATE VIEW g4 (x, y) AS SELECT a, count(*) FROM t WHERE c > 0 "
    "GROUP BY a HAVING count(*) > 1",
    "CREATE VIEW g5 AS SELECT a FROM t UNION SELECT a FROM u",
    "CREATE VIEW g6 AS SELECT u.name, count(t.id) AS n FROM u "
    "LEFT JOIN t ON t.a = u.a GROUP BY u.name",
    "CREATE VIEW g7 AS SELECT * FROM g1 WHERE n > 2",
    "CREATE VIEW g8 AS SELECT count(*) AS total, min(b) AS lo FROM t",
    "CREATE VIEW g9 AS SELECT s, a FROM t WHERE a IS NOT NULL "
    "ORDER BY a, id LIMIT 8 OFFSET 3",
    "CREATE VIEW m1 AS SELECT g1.a, g1.n, u.name FROM g1 JOIN u "
    "ON u.a = g1.a",
]


def make_rows():
    words = ["apple", "Apple", "banana", "Cherry", "cherry", "date", "Eel",
             "fig", None, "", "10", "9"]
    t_rows = []
    for i in range(1, 41):
        t_rows.append((i, rng.choice([None, 0, 1, 2, 3, 4, 5, 6, 7]),
                       rng.choice([None, 0.5, 1.0, 2.25, -3.5, 7.0, 10.0]),
                       rng.choice(words), rng.randint(-3, 9)))
    u_rows = [(k, rng.choice([None, 1, 2, 3, 4, 5, 9]), "user%d" % k)
              for k in range(1, 9)]
    return t_rows, u_rows


FIXED = [
    ("SELECT * FROM g1", 4, False),
    ("SELECT a, n FROM g1 WHERE n > 4", 2, False),
    ("SELECT a, sc FROM g1 ORDER BY sc DESC, a", 2, True),
    ("SELECT * FROM g2", 1, False),
    ("SELECT * FROM g3", 3, True),
    ("SELECT id FROM g3 WHERE a > 3", 1, False),
    ("SELECT * FROM g4", 2, False),
    ("SELECT y, x FROM g4 WHERE x >= 3 ORDER BY 2", 2, True),
    ("SELECT * FROM g5 ORDER BY a", 1, True),
    ("SELECT * FROM g6", 2, False),
    ("SELECT * FROM g7", 4, False),
    ("SELECT * FROM g8", 2, True),
    ("SELECT * FROM g9", 2, True),
    ("SELECT * FROM m1", 3, False),
    # Subqueries in FROM, named and not.
    ("SELECT * FROM (SELECT a, count(*) FROM t GROUP BY a)", 2, False),
    ("SELECT d.a, d.n FROM (SELECT a, count(*) AS n FROM t GROUP BY a) AS d "
     "WHERE d.n BETWEEN 3 AND 6", 2, False),
    ("SELECT * FROM (SELECT DISTINCT a FROM t) WHERE a > 2", 1, False),
    ("SELECT * FROM (SELECT id, c FROM t ORDER BY c DESC, id LIMIT 5)", 2,
     True),
    ("SELECT * FROM (SELECT id FROM t ORDER BY id LIMIT 4 OFFSET 30)", 1,
     True),
    ("SELECT * FROM (SELECT a FROM t INTERSECT SELECT a FROM u)", 1, False),
    ("SELECT * FROM (SELECT a FROM t EXCEPT SELECT a FROM u)", 1, False),
    ("SELECT * FROM (SELECT a, c FROM t UNION ALL SELECT a, k FROM u) "
     "WHERE c > 5", 2, False),
    ("SELECT count(*) FROM (SELECT a FROM t UNION ALL SELECT a FROM u)", 1,
     True),
    ("SELECT count(*), sum(n) FROM g1", 2, True),
    ("SELECT max(n) FROM (SELECT a, count(*) AS n FROM t GROUP BY a)", 1, True),
    ("SELECT n, count(*) FROM g1 GROUP BY n", 2, False),
    ("SELECT DISTINCT n FROM g1", 1, False),
    # Joined: to tables, to merged views, to each other.
    ("SELECT u.name, g1.n FROM u JOIN g1 ON g1.a = u.a", 2, False),
    ("SELECT t.id, g1.n FROM t, g1 WHERE t.a = g1.a AND t.c > 6", 2, False),
    ("SELECT g1.a, g4.y FROM g1 JOIN g4 ON g4.x = g1.a", 2, False),
    ("SELECT p.a, q.a FROM g1 AS p, g1 AS q WHERE p.n = q.n AND p.a < q.a",
     2, False),
    ("SELECT u.name, d.n FROM u LEFT JOIN (SELECT a, count(*) AS n FROM t "
     "WHERE c > 4 GROUP BY a) AS d ON d.a = u.a", 2, False),
    ("SELECT g1.a, u.k FROM g1 LEFT JOIN u ON u.a = g1.a", 2, False),
    ("SELECT u.k, g2.s FROM u LEFT JOIN g2 ON g2.s = u.name", 2, False),
    ("SELECT g3.id, u.name FROM g3 JOIN u ON u.a = g3.a", 2, False),
    ("SELECT * FROM (SELECT a, count(*) AS n FROM t GROUP BY a) AS x "
     "JOIN (SELECT a, max(k) AS m FROM u GROUP BY a) AS y ON x.a = y.a", 4,
     False),
    # Inside subqueries and around them.
    ("SELECT id FROM t WHERE a IN (SELECT a FROM g1 WHERE n > 5)", 1, False),
    ("SELECT id, (SELECT n FROM g1 WHERE g1.a = t.a) FROM t WHERE id < 12",
     2, False),
    ("SELECT k FROM u WHERE EXISTS (SELECT 1 FROM g1 WHERE g1.a = u.a AND "
     "g1.n > 4)", 1, False),
    ("SELECT (SELECT max(n) FROM g1), (SELECT count(*) FROM g2)", 2, True),
    ("SELECT * FROM (SELECT * FROM (SELECT a, count(*) AS n FROM t GROUP BY a) "
     "WHERE n > 3 ORDER BY n DESC LIMIT 3) ORDER BY a", 2, True),
    ("SELECT a, n FROM (SELECT * FROM g7) WHERE a < 5", 2, False),
    ("SELECT * FROM (SELECT n, count(*) AS c2 FROM g1 GROUP BY n)", 2, False),
    # Affinity and collation of their columns, as SQLite gives them: a
    # column's own; none for other expressions.
    ("SELECT a FROM g1 WHERE a = '3'", 1, False),
    ("SELECT a FROM g1 WHERE n = '4'", 1, False),
    ("SELECT s FROM g2 WHERE s = 'APPLE'", 1, False),
    ("SELECT s FROM g2 WHERE s > 'c' ORDER BY s", 1, False),
    ("SELECT ms FROM g1 WHERE ms = 'FIG'", 1, False),
    ("SELECT s FROM (SELECT DISTINCT upper(s) AS s FROM t) WHERE s = 'apple'",
     1, False),
    ("SELECT count(*) FROM g2 JOIN t ON t.s = g2.s", 1, True),
    ("SELECT x FROM (SELECT CAST(c AS TEXT) AS x FROM t LIMIT 40) "
     "WHERE x = 5", 1, False),
    # A compound's column has its first SELECT's affinity: REAL reads an
    # INTEGER of a later SELECT as REAL; no other affinity converts.
    ("SELECT x, typeof(x) FROM (SELECT b AS x FROM t UNION ALL SELECT a "
     "FROM t)", 2, False),
    ("SELECT x, typeof(x) FROM (SELECT a AS x FROM t UNION SELECT b FROM t)",
     2, False),
    ("SELECT x, typeof(x) FROM (SELECT s AS x FROM t UNION SELECT c FROM t)",
     2, False),
    ("SELECT x FROM (SELECT b AS x FROM t UNION SELECT a FROM t) WHERE x = 3",
     1, False),
    # ... first SELECT's affinity, which a comparison applies to the column's
    # values too (a TEXT column holding an INTEGER compares it as text).
    ("SELECT x FROM (SELECT c AS x FROM t UNION ALL SELECT 'zz' ORDER BY 1 "
     "LIMIT 100) WHERE x = '5'", 1, False),
    ("SELECT x FROM (SELECT 'zz' AS x UNION ALL SELECT c FROM t) "
     "WHERE x = '5'", 1, False),
    ("SELECT x FROM (SELECT name AS x FROM u UNION ALL SELECT k FROM u "
     "UNION ALL SELECT name FROM u) WHERE x < '2'", 1, False),
    # A computed column compares under binary, even against a nocase
    # column; a compound's column under its first SELECT's column's.
    ("SELECT g.x, t.id FROM (SELECT upper(s) AS x, count(*) AS n FROM t "
     "GROUP BY upper(s)) AS g JOIN t ON g.x = t.s", 2, False),
    ("SELECT x FROM (SELECT name || '' AS x FROM u UNION ALL SELECT s FROM t) "
     "WHERE x = 'APPLE'", 1, False),
    ("SELECT x FROM (SELECT s AS x FROM t UNION ALL SELECT name FROM u) "
     "WHERE x = 'USER3'", 1, False),
    # Ordered from outside, paged.
    ("SELECT a, n FROM g1 ORDER BY n, a LIMIT 3", 2, True),
    ("SELECT a, n FROM g1 ORDER BY n DESC, a LIMIT 2 OFFSET 2", 2, True),
    ("SELECT name, n FROM g6 ORDER BY n DESC, name", 2, True),
    # Reading the row around a correlated subquery: made for each such row.
    ("SELECT id FROM t WHERE EXISTS (SELECT 1 FROM "
     "(SELECT a FROM u WHERE u.a = t.a GROUP BY a))", 1, False),
]

ERRORS = [
    ("NotFound", "SELECT c FROM g1"),
    ("NotFound", "SELECT g1.id FROM g1"),
    ("InvalidArgument", "SELECT a FROM g1, g4, g5"),
    ("InvalidArgument", "CREATE VIEW bad (p, q) AS SELECT a FROM t GROUP BY a"),
    ("InvalidArgument", "INSERT INTO g1 VALUES (1, 2, 3, 'x')"),
]

COLUMNS = {"g1": ["a", "n", "sc", "ms"], "g3": ["id", "a", "s"],
           "g4": ["x", "y"], "g6": ["name", "n"], "g9": ["s", "a"],
           "m1": ["a", "n", "name"]}
OPS = ["=", "<", "<=", ">", ">=", "<>"]


def term(cols):
    c = rng.choice(cols)
    kind = rng.random()
    if kind < 0.15:
        return "%s IS NULL" % c
    if kind < 0.25:
        return "%s BETWEEN %d AND %d" % (c, rng.randint(0, 3), rng.randint(3, 8))
    if kind < 0.35 and c in ("s", "ms", "name"):
        return "%s LIKE '%s%%'" % (c, rng.choice(["a", "C", "d", "u"]))
    if kind < 0.45:
        return "%s IN (%d, %d)" % (c, rng.randint(0, 7), rng.randint(0, 7))
    value = rng.choice(["%d" % rng.randint(-1, 8), "'%s'" % rng.choice(
        ["apple", "Cherry", "3", "d", "user4"]), "%.1f" % (rng.randint(0, 16) / 2)])
    return "%s %s %s" % (c, rng.choice(OPS), value)


def random_query():
    view = rng.choice(sorted(COLUMNS))
    cols = COLUMNS[view]
    where = " AND ".join(term(cols) for _ in range(rng.randint(1, 2)))
    if rng.random() < 0.3:
        where = "(%s) OR %s" % (where, term(cols))
    shown = ", ".join(cols)
    if rng.random() < 0.5:
        # Every column in the ORDER BY: a total order but for equal rows.
        order = ", ".join("%s%s" % (c, rng.choice(["", " DESC"]))
                          for c in rng.sample(cols, len(cols)))
        limit = ""
        if rng.random() < 0.5:
            limit = " LIMIT %d OFFSET %d" % (rng.randint(1, 5),
                                             rng.randint(0, 3))
        return ("SELECT %s FROM %s WHERE %s ORDER BY %s%s" %
                (shown, view, where, order, limit), len(cols), True)
    return ("SELECT %s FROM %s WHERE %s" % (shown, view, where), len(cols),
            False)


def main():
    out = sys.stdout
    db = sqlite3.connect(":memory:")
    out.write("# Generated by tools/gen_tests/derived.py; do not edit by "
              "hand.\n# Views and subqueries in FROM read as tables of their "
              "rows, against SQLite's rows.\n")
    t_rows, u_rows = make_rows()
    write_setup(out, db, SCHEMA + VIEWS, [("t", t_rows), ("u", u_rows)])
    write_cases(out, db, FIXED, ERRORS, 120, random_query)
    # Their rows are made for each statement: a write is seen by the next.
    for stmt in ["INSERT INTO t VALUES (41, 5, 1.0, 'new', 7)",
                 "DELETE FROM t WHERE a = 2",
                 "UPDATE u SET a = 5 WHERE k < 3"]:
        db.execute(stmt)
        out.write("\nstatement ok\n%s\n" % stmt)
        write_query(out, db, "SELECT * FROM g1", 4, False)
        write_query(out, db, "SELECT * FROM g6", 2, False)


if __name__ == "__main__":
    main()
