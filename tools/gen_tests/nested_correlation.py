#!/usr/bin/env python3
"""Writes tests/sql/nested_correlation.test: subqueries that read a column
of a query two or three levels around them (each subquery between passes
the value in as one of the row around it), as scalar, EXISTS, IN and NOT IN
subqueries, in WHERE, the select list and ORDER BY, with subqueries in FROM
and FULL JOINs among them; expected rows computed by SQLite (Python's
sqlite3) over the same rows. Fixed cases, then random ones (fixed seed).

    python3 tools/gen_tests/nested_correlation.py \\
        > tests/sql/nested_correlation.test
"""
import random
import sqlite3
import sys

from slt_out import write_cases, write_query, write_setup

SEED = 83
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE p (id INTEGER PRIMARY KEY, a INTEGER, s TEXT COLLATE "
    "nocase)",
    "CREATE INDEX p_a ON p (a)",
    "CREATE TABLE q (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER)",
    "CREATE INDEX q_a ON q (a)",
    "CREATE TABLE r (id INTEGER PRIMARY KEY, b INTEGER, s TEXT)",
]


def rows():
    words = ["x", "X", "y", "z", None]
    p = [(i, rng.choice([None, 0, 1, 2, 3]), rng.choice(words))
         for i in range(1, 11)]
    q = [(i, rng.choice([None, 0, 1, 2, 3, 4]), rng.randint(0, 6))
         for i in range(1, 16)]
    r = [(i, rng.choice([None, 1, 2, 3, 4, 5, 6]), rng.choice(words))
         for i in range(1, 13)]
    return p, q, r


FIXED = [
    ("SELECT id, (SELECT count(*) FROM q WHERE q.a = p.a AND EXISTS (SELECT "
     "1 FROM r WHERE r.b = q.b AND r.s = p.s)) FROM p ORDER BY id", 2, True),
    ("SELECT id FROM p WHERE EXISTS (SELECT 1 FROM q WHERE q.a = p.a AND "
     "q.b IN (SELECT r.b FROM r WHERE r.id > p.id))", 1, False),
    ("SELECT id, (SELECT (SELECT max(r.b) FROM r WHERE r.b < p.a + q.b) FROM "
     "q WHERE q.a = p.a ORDER BY q.id LIMIT 1) FROM p ORDER BY id", 2, True),
    ("SELECT id FROM p WHERE a NOT IN (SELECT q.a FROM q WHERE NOT EXISTS "
     "(SELECT 1 FROM r WHERE r.b = q.b AND r.id <> p.id) AND q.a IS NOT "
     "NULL)", 1, False),
    # Three levels: the innermost reads p, q and r.
    ("SELECT id, (SELECT count(*) FROM q WHERE EXISTS (SELECT 1 FROM r WHERE "
     "r.b = q.b AND EXISTS (SELECT 1 FROM q AS q2 WHERE q2.a = p.a AND "
     "q2.b = r.b))) FROM p ORDER BY id", 2, True),
    # Ordered by a subquery reading two levels out.
    ("SELECT id FROM p ORDER BY (SELECT count(*) FROM q WHERE q.a = p.a AND "
     "q.b > (SELECT min(b) FROM r WHERE r.s = p.s)), id", 1, True),
    # Subqueries in FROM between.
    ("SELECT id, (SELECT max(n) FROM (SELECT q.b, (SELECT count(*) FROM r "
     "WHERE r.b = q.b AND r.s = p.s) AS n FROM q WHERE q.a = p.a)) FROM p "
     "ORDER BY id", 2, True),
    ("SELECT id, (SELECT count(*) FROM q WHERE q.b IN (SELECT b FROM (SELECT "
     "DISTINCT b FROM r WHERE r.id <= p.id))) FROM p ORDER BY id", 2, True),
    # The row around comes from a FULL JOIN, a subquery in FROM, or a query
    # itself in FROM; the subquery reading it has a subquery in FROM, a
    # common table or a compound (the third probe's refusals).
    ("SELECT p.id, q.id FROM p FULL JOIN q ON q.a = p.a WHERE EXISTS (SELECT "
     "1 FROM (SELECT b FROM r WHERE r.b <> q.b) AS w)", 2, False),
    ("SELECT id FROM (SELECT p.id FROM p WHERE 2 IN (SELECT w.b FROM (SELECT "
     "b FROM r WHERE r.b <> p.a) AS w)) AS d", 1, False),
    ("SELECT e FROM (SELECT id AS e FROM p) AS pp WHERE 2 IN (SELECT s.x FROM "
     "(SELECT pp.e + 0 AS x FROM q) AS s)", 1, False),
    ("SELECT d.id FROM (SELECT id, a FROM p) AS d WHERE d.a IN (SELECT a FROM "
     "q WHERE q.b > d.id UNION SELECT b FROM r WHERE r.id = d.id)", 1, False),
    ("SELECT d.id, (WITH c AS (SELECT b FROM r WHERE r.id < d.id) SELECT "
     "count(*) FROM c) FROM (SELECT id FROM p) AS d ORDER BY d.id", 2, True),
    # A FULL JOIN whose ON reads the row around.
    ("SELECT id, (SELECT count(*) FROM q FULL JOIN r ON r.b = q.b AND q.a = "
     "p.a) FROM p ORDER BY id", 2, True),
    ("SELECT id, (SELECT count(*) FROM q FULL JOIN r ON r.b = q.b AND r.id < "
     "(SELECT min(id) FROM p AS p2 WHERE p2.a = q.a)) FROM p ORDER BY id", 2,
     True),
]

OPS = ["=", "<", "<=", ">", ">=", "<>"]


def inner(depth):
    """A subquery condition at `depth` levels below p (1: over q, 2: over
    r, 3: over q AS q3), reading columns of every level around it."""
    table, alias, cols = {1: ("q", "q", ["a", "b", "id"]),
                          2: ("r", "r", ["b", "id"]),
                          3: ("q", "q3", ["a", "b"])}[depth]
    around = {1: [("p", "a"), ("p", "id")],
              2: [("p", "a"), ("p", "id"), ("q", "b"), ("q", "a")],
              3: [("p", "a"), ("q", "b"), ("r", "b"), ("r", "id")]}[depth]
    terms = []
    for _ in range(rng.randint(1, 2)):
        t, c = rng.choice(around)
        terms.append("%s.%s %s %s.%s" % (alias, rng.choice(cols),
                                         rng.choice(OPS), t, c))
    if depth < 3 and rng.random() < 0.6:
        kind = rng.choice(["EXISTS", "NOT EXISTS", "IN", "scalar"])
        sub = inner(depth + 1)
        nxt = {1: "r", 2: "q3"}[depth]
        col = {1: "b", 2: "b"}[depth]
        if kind in ("EXISTS", "NOT EXISTS"):
            terms.append("%s (SELECT 1 FROM %s WHERE %s)" % (
                kind, {1: "r", 2: "q AS q3"}[depth], sub))
        elif kind == "IN":
            terms.append("%s.b IN (SELECT %s.%s FROM %s WHERE %s)" % (
                alias, nxt, col, {1: "r", 2: "q AS q3"}[depth], sub))
        else:
            terms.append("%s.b <= (SELECT count(*) FROM %s WHERE %s)" % (
                alias, {1: "r", 2: "q AS q3"}[depth], sub))
    return " AND ".join(terms)


def random_query():
    cond = inner(1)
    form = rng.random()
    if form < 0.4:
        return ("SELECT id, (SELECT count(*) FROM q WHERE %s) FROM p ORDER BY "
                "id" % cond, 2, True)
    if form < 0.8:
        return ("SELECT id FROM p WHERE %sEXISTS (SELECT 1 FROM q WHERE %s)" %
                (rng.choice(["", "NOT "]), cond), 1, False)
    return ("SELECT id FROM p WHERE a IN (SELECT q.a FROM q WHERE %s)" % cond,
            1, False)


def main():
    out = sys.stdout
    db = sqlite3.connect(":memory:")
    out.write("# Generated by tools/gen_tests/nested_correlation.py; do not "
              "edit by hand.\n# Subqueries reading a query two or three "
              "levels around, against SQLite's rows.\n")
    p, q, r = rows()
    write_setup(out, db, SCHEMA, [("p", p), ("q", q), ("r", r)])
    write_cases(out, db, FIXED, [], 120, random_query)
    for stmt in [
            "UPDATE q SET b = b + 1 WHERE EXISTS (SELECT 1 FROM r WHERE "
            "r.b = q.b AND EXISTS (SELECT 1 FROM p WHERE p.a = q.a AND "
            "p.s = r.s))",
            "DELETE FROM r WHERE b IN (SELECT q.b FROM q WHERE q.a IN "
            "(SELECT p.a FROM p WHERE p.id = r.id))"]:
        db.execute(stmt)
        out.write("\nstatement ok\n%s\n" % stmt)
    write_query(out, db, "SELECT * FROM q", 3, False)
    write_query(out, db, "SELECT * FROM r", 3, False)


if __name__ == "__main__":
    main()
