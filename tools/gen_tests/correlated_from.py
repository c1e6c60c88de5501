#!/usr/bin/env python3
"""Writes tests/sql/correlated_from.test: subqueries in FROM (and common
tables) inside a scalar, EXISTS or IN subquery that read a column of a
query around that subquery, with expected rows computed by SQLite (Python's
sqlite3) over the same tables.

Such a FROM subquery is merged into the subquery reading it, and its
column of the query around must then resolve there and never to a table
beside it (t.x below names the outer t even when the subquery also reads a
table t); one read as a table of its rows (GROUP BY, DISTINCT, LIMIT, a
compound) is made again for each row around. Fixed cases, errors (the
same column at the top level names no query around; an ambiguous one),
then random queries (fixed seed).

    python3 tools/gen_tests/correlated_from.py > tests/sql/correlated_from.test
"""
import random
import sqlite3
import sys

from slt_out import write_cases, write_setup

SEED = 47
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER, y INTEGER, "
    "s TEXT COLLATE nocase)",
    "CREATE INDEX t_x ON t (x)",
    "CREATE TABLE u (k INTEGER PRIMARY KEY, x INTEGER, z INTEGER, w TEXT)",
    "CREATE INDEX u_x ON u (x)",
]


def make_rows():
    words = ["a", "A", "b", "c", None, ""]
    t_rows = [(i, rng.choice([None, 0, 1, 2, 3, 4]), rng.randint(-2, 30),
               rng.choice(words)) for i in range(1, 16)]
    u_rows = [(k, rng.choice([None, 0, 1, 2, 3, 4, 5]), rng.randint(-5, 40),
               rng.choice(words)) for k in range(1, 31)]
    return t_rows, u_rows


FIXED = [
    # Scalar subqueries counting and summing a correlated FROM subquery.
    ("SELECT id, (SELECT count(*) FROM (SELECT * FROM u WHERE u.x = t.x)) "
     "FROM t ORDER BY id", 2, True),
    ("SELECT id, (SELECT sum(z) FROM (SELECT z FROM u WHERE u.x = t.x) AS s)"
     " FROM t ORDER BY id", 2, True),
    # Unqualified: y is only t's.
    ("SELECT id, (SELECT count(*) FROM (SELECT * FROM u WHERE z > y)) "
     "FROM t ORDER BY id", 2, True),
    # In the subquery's select list.
    ("SELECT id, (SELECT max(v) FROM (SELECT z + y AS v FROM u)) FROM t "
     "ORDER BY id", 2, True),
    # The outer t, though the subquery reads a table t beside it.
    ("SELECT id, (SELECT count(*) FROM t AS t2, (SELECT * FROM u WHERE "
     "u.x = t.x) AS s WHERE t2.x = s.x) FROM t ORDER BY id", 2, True),
    ("SELECT (SELECT count(*) FROM t, (SELECT * FROM u WHERE u.x = t.x) AS s)"
     " FROM t ORDER BY 1", 1, True),
    # EXISTS and IN.
    ("SELECT id FROM t WHERE EXISTS (SELECT 1 FROM (SELECT * FROM u WHERE "
     "u.x = t.x) AS s WHERE s.z > 20)", 1, False),
    ("SELECT id FROM t WHERE x IN (SELECT s.x FROM (SELECT x FROM u WHERE "
     "z > y) AS s)", 1, False),
    ("SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM (SELECT x FROM u "
     "WHERE u.x = t.x AND u.w = t.s))", 1, False),
    # Two FROM levels, a join, ORDER BY inside, a common table.
    ("SELECT id, (SELECT count(*) || ':' || max(z) FROM (SELECT z FROM "
     "(SELECT * FROM u WHERE u.x = t.x) AS i ORDER BY z) AS o) FROM t "
     "ORDER BY id", 2, True),
    ("SELECT id, (SELECT count(*) FROM (SELECT * FROM u WHERE u.x = t.x) AS s"
     ", u AS v WHERE v.x = s.x) FROM t ORDER BY id", 2, True),
    ("SELECT id, (WITH c AS (SELECT * FROM u WHERE u.x = t.x) SELECT "
     "count(*) FROM c) FROM t ORDER BY id", 2, True),
    ("SELECT id, (SELECT count(*) FROM (SELECT x AS q FROM u) WHERE q = t.x)"
     " FROM t ORDER BY id", 2, True),
    # A collated outer column compares under its collation.
    ("SELECT id, (SELECT count(*) FROM (SELECT * FROM u WHERE u.w = t.s)) "
     "FROM t ORDER BY id", 2, True),
    # In WHERE of the outer query, against an indexed column.
    ("SELECT id FROM t WHERE y > (SELECT count(*) FROM (SELECT * FROM u "
     "WHERE u.x = t.x))", 1, False),
    # Read as tables of their rows (GROUP BY, DISTINCT, LIMIT, a compound,
    # an aggregate), made again for each row of t.
    ("SELECT id, (SELECT max(n) FROM (SELECT count(*) AS n FROM u WHERE "
     "u.x = t.x GROUP BY z)) FROM t ORDER BY id", 2, True),
    ("SELECT id, (SELECT count(*) FROM (SELECT DISTINCT w FROM u WHERE "
     "u.z > t.y) AS d) FROM t ORDER BY id", 2, True),
    ("SELECT id, (SELECT sum(z) FROM (SELECT z FROM u WHERE u.x = t.x "
     "ORDER BY z DESC LIMIT 2) AS top) FROM t ORDER BY id", 2, True),
    ("SELECT id FROM t WHERE EXISTS (SELECT 1 FROM (SELECT z FROM u WHERE "
     "u.x = t.x UNION SELECT y) AS s WHERE s.z > 20) ORDER BY id", 1, True),
    ("SELECT id, (SELECT m FROM (SELECT max(z) AS m FROM u WHERE u.x < t.x))"
     " FROM t ORDER BY id", 2, True),
    # Two of them reading the same column of t, joined.
    ("SELECT id, (SELECT count(*) FROM (SELECT z, count(*) FROM u WHERE "
     "u.x = t.x GROUP BY z) AS g, (SELECT DISTINCT x FROM u WHERE x >= t.x) "
     "AS h) FROM t ORDER BY id", 2, True),
    # One beside a table's rows, and one made once (reading no row of t).
    ("SELECT id, (SELECT count(*) FROM (SELECT DISTINCT x FROM u) AS once, "
     "(SELECT DISTINCT x FROM u WHERE z < t.y) AS each WHERE once.x = "
     "each.x) FROM t ORDER BY id", 2, True),
    # A name in a merged subquery's select list is never one of its
    # aliases: x reads t's x, and `x + 1 AS x` adds 1 once (the probe's
    # wrong answers).
    ("SELECT id, (SELECT v FROM (SELECT z AS x, x AS v FROM u WHERE k = 1))"
     " FROM t ORDER BY id", 2, True),
    ("SELECT id, (SELECT y FROM (SELECT y + 1 AS y FROM u WHERE k = 2)) "
     "FROM t ORDER BY id", 2, True),
    # A name its subquery does not select, or a qualifier naming it without
    # the column, is looked for around (SQLite).
    ("SELECT id, (SELECT count(*) FROM (SELECT z FROM u) AS t WHERE t.y > "
     "z) FROM t ORDER BY id", 2, True),
    ("SELECT id, (SELECT count(*) FROM (SELECT z FROM u) WHERE y < z) FROM "
     "t ORDER BY id", 2, True),
    # A name a merged subquery hides (u's x, not selected) that a table of
    # rows beside it has is that table's, not t's (the probe's).
    ("SELECT id, (SELECT count(*) FROM (SELECT z FROM u) AS a LEFT JOIN "
     "(SELECT w AS x, t.y + 0 AS q FROM u WHERE k < 5) ON 1 WHERE x IS NOT "
     "NULL) FROM t ORDER BY id", 2, True),
    ("SELECT count(*) FROM (SELECT z FROM u) AS a LEFT JOIN (SELECT w AS x, "
     "2 AS q FROM u WHERE k < 5) ON 1 WHERE x IS NOT NULL", 1, True),
    # An aggregate over a subquery's column that passes t's column through
    # is the subquery's.
    ("SELECT id, (SELECT count(v) FROM (SELECT t.x AS v FROM u WHERE u.k < "
     "4) AS sq) FROM t ORDER BY id", 2, True),
    # A column of a query two levels out, passed in through the subquery
    # between.
    ("SELECT id, (SELECT (SELECT count(*) FROM (SELECT DISTINCT z FROM u "
     "WHERE u.x = t.x)) FROM u AS v WHERE v.k = 1) FROM t ORDER BY id", 2,
     True),
    ("SELECT id, (SELECT (SELECT count(*) FROM (SELECT * FROM u WHERE u.x = "
     "t.x AND u.z > v.z)) FROM u AS v WHERE v.k = 2) FROM t ORDER BY id", 2,
     True),
    # On the right of a LEFT JOIN, computing a column from t's row. (With
    # the bare column `t.y AS ty`, SQLite 3.40 leaves ty t.y on the rows of
    # NULLs: a wrong answer of SQLite's that `t.y + 0` does not take.)
    ("SELECT id, (SELECT count(*) FROM u AS a LEFT JOIN (SELECT z, t.y + 0 "
     "AS ty FROM u) AS b ON a.z = b.z AND b.ty > 10 WHERE b.ty IS NULL) FROM "
     "t ORDER BY id", 2, True),
]

ERRORS = [
    # At the top level there is no query around.
    ("NotFound", "SELECT * FROM t, (SELECT * FROM u WHERE u.x = t.x) AS s"),
    ("NotFound", "SELECT id, (SELECT count(*) FROM t AS a, (SELECT * FROM u "
     "WHERE u.x = a.x) AS s) FROM t"),
    # An ambiguous name around is an error, not a guess.
    ("InvalidArgument", "SELECT (SELECT count(*) FROM (SELECT 1 AS one "
     "WHERE x > 0) AS s) FROM t, u"),
    # A select-list name no query has is an error though never read.
    ("NotFound", "SELECT z FROM (SELECT nosuch, z FROM u)"),
    ("InvalidArgument", "SELECT (SELECT max(z) FROM (SELECT z, x AS m FROM "
     "(SELECT 1 AS z) AS one)) FROM t, u"),
]

OPS = ["=", "<", "<=", ">", ">=", "<>"]


def random_query():
    inner_col = rng.choice(["x", "z"])
    outer_col = rng.choice(["x", "y", "t.x", "t.y"])
    cond = "u.%s %s %s" % (inner_col, rng.choice(OPS), outer_col)
    if rng.random() < 0.4:
        cond += " AND u.z %s %d" % (rng.choice(OPS), rng.randint(0, 30))
    inner = "SELECT * FROM u WHERE %s" % cond
    shape = rng.random()
    if shape < 0.2:
        inner = "SELECT * FROM (%s) AS i2" % inner
    elif shape < 0.3:
        inner = "SELECT DISTINCT x, z FROM u WHERE %s" % cond
    elif shape < 0.4:
        inner = ("SELECT x, max(z) AS z FROM u WHERE %s GROUP BY x" % cond)
    elif shape < 0.45:
        inner = ("SELECT x, z FROM u WHERE %s ORDER BY z, k LIMIT 3" % cond)
    agg = rng.choice(["count(*)", "sum(z)", "max(z)", "min(x)",
                      "count(DISTINCT x)"])
    kind = rng.random()
    if kind < 0.5:
        return ("SELECT id, (SELECT %s FROM (%s) AS s) FROM t ORDER BY id" %
                (agg, inner), 2, True)
    if kind < 0.8:
        return ("SELECT id FROM t WHERE %sEXISTS (SELECT 1 FROM (%s) AS s)" %
                (rng.choice(["", "NOT "]), inner), 1, False)
    return ("SELECT id FROM t WHERE y %s (SELECT %s FROM (%s) AS s)" %
            (rng.choice(OPS), agg, inner), 1, False)


def main():
    out = sys.stdout
    db = sqlite3.connect(":memory:")
    out.write("# Generated by tools/gen_tests/correlated_from.py; do not edit "
              "by hand.\n# Subqueries in FROM reading a column of a query "
              "around, against SQLite's rows.\n")
    t_rows, u_rows = make_rows()
    write_setup(out, db, SCHEMA, [("t", t_rows), ("u", u_rows)])
    db.execute("CREATE VIEW uv AS SELECT * FROM u")
    out.write("\nstatement ok\nCREATE VIEW uv AS SELECT * FROM u\n")
    write_cases(out, db, FIXED, ERRORS, 80, random_query)
    out.write("\nstatement error ^NotFound\nCREATE VIEW bad AS SELECT * "
              "FROM (SELECT * FROM u WHERE u.x = t.x)\n")


if __name__ == "__main__":
    main()
