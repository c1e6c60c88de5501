#!/usr/bin/env python3
"""Writes tests/sql/join_order.test: inner joins of three to five tables
whose FROM order does not connect them by equalities (rule join_order
joins the connected tables first), with expected rows computed by SQLite
(Python's sqlite3) over the same rows.

Each query's equalities form a random tree over its tables (sometimes with
one more equality closing a cycle, sometimes with one table left out: every
pair with it is formed), named in a random FROM order and a random term
order, with filters, ORDER BY every table's key (LIMIT, OFFSET), count(*)
and GROUP BY. Deterministic (fixed seed).

    python3 tools/gen_tests/join_order.py > tests/sql/join_order.test
"""
import random
import sqlite3
import sys

from slt_out import write_query, write_setup

SEED = 2711
rng = random.Random(SEED)

TABLES = ["t1", "t2", "t3", "t4", "t5", "t6"]
# t1-t3 have an INTEGER PRIMARY KEY, t4 and t5 a hidden rowid; indexes on
# some join columns so that merges read some inputs in key order and sort
# others. t6 has text join columns under nocase.
SCHEMA = [
    "CREATE TABLE t1 (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, x TEXT)",
    "CREATE TABLE t2 (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, x TEXT)",
    "CREATE INDEX t2_a ON t2 (a)",
    "CREATE TABLE t3 (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, x TEXT)",
    "CREATE INDEX t3_b ON t3 (b, a)",
    "CREATE TABLE t4 (id INTEGER, a INTEGER, b INTEGER, x TEXT)",
    "CREATE INDEX t4_a ON t4 (a)",
    "CREATE TABLE t5 (id INTEGER, a INTEGER, b INTEGER, x TEXT)",
    "CREATE TABLE t6 (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, "
    "x TEXT COLLATE nocase)",
    "CREATE INDEX t6_x ON t6 (x)",
]
KEYED = {"t1", "t2", "t3", "t6"}  # an id that orders totally


def maybe(p, v):
    return v if rng.random() >= p else None


def rows(table):
    n = rng.randint(6, 14)
    words = ["p", "q", "r", "s"] if table != "t6" else ["p", "P", "q", "R", "r"]
    return [(i, maybe(0.1, rng.randint(0, 6)), maybe(0.1, rng.randint(0, 6)),
             maybe(0.1, rng.choice(words))) for i in range(1, n + 1)]


def equality(a, b):
    """An equality between a column of alias a and one of alias b."""
    if rng.random() < 0.2:
        return "%s.x = %s.x" % (a, b)
    return "%s.%s = %s.%s" % (a, rng.choice("ab"), b, rng.choice(["a", "b", "id"]))


def query():
    n = rng.randint(3, 5)
    tables = rng.sample(TABLES, n)
    aliases = ["j%d" % i for i in range(n)]
    # A tree over the aliases: each joins one before it in a random order.
    order = aliases[:]
    rng.shuffle(order)
    terms = []
    left_out = order[-1] if rng.random() < 0.15 else None
    for i in range(1, n):
        if order[i] == left_out:
            continue
        terms.append(equality(order[i], rng.choice(order[:i])))
    if rng.random() < 0.2:
        a, b = rng.sample(aliases, 2)
        terms.append(equality(a, b))
    if rng.random() < 0.6:
        terms.append("%s.%s %s %d" % (rng.choice(aliases), rng.choice("ab"),
                                      rng.choice(["=", "<", ">=", "<>"]),
                                      rng.randint(0, 6)))
    if rng.random() < 0.15:
        a, b = rng.sample(aliases, 2)
        terms.append("%s.b < %s.a + 2" % (a, b))
    rng.shuffle(terms)
    from_order = list(zip(aliases, tables))
    rng.shuffle(from_order)
    sql_from = ", ".join("%s %s" % (t, a) for a, t in from_order)
    where = " WHERE " + " AND ".join(terms) if terms else ""
    kind = rng.random()
    if kind < 0.15:
        return "SELECT count(*) FROM %s%s" % (sql_from, where), 1, False
    if kind < 0.25:
        g = "%s.%s" % (rng.choice(aliases), rng.choice("ab"))
        sql = "SELECT %s, count(*), sum(%s.b) FROM %s%s GROUP BY 1" % (
            g, rng.choice(aliases), sql_from, where)
        return sql, 3, False
    items = ["%s.%s" % (a, rng.choice(["id", "a", "b", "x"]))
             for a in rng.sample(aliases, rng.randint(1, 3))]
    sql = "SELECT %s FROM %s%s" % (", ".join(items), sql_from, where)
    keyed = all(t in KEYED for t in tables)
    if keyed and rng.random() < 0.5:
        keys = ["%s.id%s" % (a, rng.choice(["", " DESC"])) for a in aliases]
        rng.shuffle(keys)
        sql += " ORDER BY " + ", ".join(keys)
        if rng.random() < 0.6:
            sql += " LIMIT %d" % rng.randint(1, 8)
            if rng.random() < 0.5:
                sql += " OFFSET %d" % rng.randint(0, 6)
        return sql, len(items), True
    return sql, len(items), False


def main():
    db = sqlite3.connect(":memory:")
    out = sys.stdout
    out.write("# Joins of three to five tables whose FROM order does not "
              "connect them by\n# equalities (rule join_order): the "
              "connected tables join first. Expected\n# rows computed by "
              "SQLite %s (Python's sqlite3); written by\n# "
              "tools/gen_tests/join_order.py (seed %d).\n"
              % (sqlite3.sqlite_version, SEED))
    write_setup(out, db, SCHEMA, [(t, rows(t)) for t in TABLES])
    seen = set()
    queries = []
    while len(queries) < 250:
        q = query()
        if q[0] in seen:
            continue
        seen.add(q[0])
        queries.append(q)
        write_query(out, db, *q)
    # The first queries again in FROM order (every pair formed where it
    # says): the same answers.
    out.write("\nstatement ok\nPRAGMA disable_rules = 'join_order'\n")
    for q in queries[:40]:
        write_query(out, db, *q)


if __name__ == "__main__":
    main()
