#!/usr/bin/env python3
"""Writes tests/sql/joins.test: inner joins of two and three tables (JOIN
... ON, the comma form with WHERE, CROSS JOIN, self-joins through aliases)
with expected rows computed by SQLite (Python's sqlite3) over the same rows.

Deterministic (fixed seed). Text is ASCII (SQLite's nocase folds only
ASCII); LIMIT comes only after an ORDER BY that is total.

    python3 tools/gen_tests/joins.py > tests/sql/joins.test
"""
import random
import sqlite3
import sys

from slt_out import write_query, write_setup

SEED = 1801
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE users (userid INTEGER PRIMARY KEY, name TEXT, "
    "country TEXT COLLATE nocase)",
    "CREATE TABLE actions (id INTEGER PRIMARY KEY, userid INTEGER, "
    "stamp INTEGER, cat TEXT)",
    "CREATE INDEX actions_user ON actions (userid, stamp)",
    "CREATE INDEX actions_cat ON actions (cat)",
    "CREATE TABLE tags (k INTEGER, v TEXT COLLATE nocase, w REAL)",
    "CREATE INDEX tags_v ON tags (v)",
]


def maybe(p, v):
    return v if rng.random() >= p else None


def rows():
    users = [(u, rng.choice(["ann", "bob", "cy", "dan", "eve"]),
              maybe(0.15, rng.choice(["de", "DE", "fr", "us", "Us"])))
             for u in range(1, 21)]
    actions = [(i, maybe(0.1, rng.randint(1, 23)), rng.randint(0, 500),
                maybe(0.1, rng.choice(["x", "y", "z"])))
               for i in range(1, 61)]
    tags = [(maybe(0.1, rng.randint(0, 12)),
             maybe(0.1, rng.choice(["x", "X", "y", "de", "fr", "q"])),
             maybe(0.1, rng.randint(0, 12) / 2)) for _ in range(30)]
    return {"users": users, "actions": actions, "tags": tags}


# Join shapes: FROM clause, and the columns each alias offers.
COLS = {"users": ["userid", "name", "country"],
        "actions": ["id", "userid", "stamp", "cat"],
        "tags": ["k", "v", "w"]}
PK = {"users": ["userid"], "actions": ["id"], "tags": None}
SHAPES = [
    ("users u JOIN actions a ON a.userid = u.userid", [("u", "users"), ("a", "actions")]),
    ("actions a JOIN users u ON u.userid = a.userid", [("a", "actions"), ("u", "users")]),
    ("users u, actions a WHERE u.userid = a.userid", [("u", "users"), ("a", "actions")]),
    ("actions a JOIN tags t ON t.k = a.userid", [("a", "actions"), ("t", "tags")]),
    ("tags t JOIN actions a ON a.cat = t.v", [("t", "tags"), ("a", "actions")]),
    ("users u JOIN tags t ON t.v = u.country", [("u", "users"), ("t", "tags")]),
    ("tags t JOIN users u ON u.userid = t.w", [("t", "tags"), ("u", "users")]),
    ("users u JOIN actions a ON a.userid = u.userid AND a.stamp > 250",
     [("u", "users"), ("a", "actions")]),
    ("users u JOIN actions a ON a.userid < u.userid - 16",
     [("u", "users"), ("a", "actions")]),
    ("users u CROSS JOIN tags t WHERE t.k = 3", [("u", "users"), ("t", "tags")]),
    ("users x JOIN users y ON x.country = y.country",
     [("x", "users"), ("y", "users")]),
    ("users u JOIN actions a ON a.userid = u.userid JOIN tags t ON t.v = a.cat",
     [("u", "users"), ("a", "actions"), ("t", "tags")]),
    ("actions a JOIN users u ON u.userid = a.userid JOIN actions b ON "
     "b.userid = u.userid AND b.id < a.id",
     [("a", "actions"), ("u", "users"), ("b", "actions")]),
]
FILTERS = {
    "users": ["{a}.country = 'de'", "{a}.userid < 12", "{a}.name IN ('ann', 'cy')",
              "{a}.country IS NULL"],
    "actions": ["{a}.cat = 'x'", "{a}.stamp BETWEEN 100 AND 300",
                "{a}.userid > 15", "{a}.cat IS NOT NULL"],
    "tags": ["{a}.w > 2", "{a}.v = 'x'", "{a}.k IS NOT NULL"],
}


def query():
    shape, tables = rng.choice(SHAPES)
    items = []
    for alias, table in tables:
        for c in rng.sample(COLS[table], rng.randint(0, 2)):
            # A nocase value shown after DISTINCT or GROUP BY may be any
            # row's spelling in SQLite: lower() shows one.
            shown = "%s.%s" % (alias, c)
            items.append("lower(%s)" % shown if c in ("country", "v") else shown)
    if not items:
        alias, table = tables[0]
        items.append("%s.%s" % (alias, COLS[table][0]))
    sql_from = shape
    conds = []
    if rng.random() < 0.5:
        alias, table = rng.choice(tables)
        conds.append(rng.choice(FILTERS[table]).format(a=alias))
    where = ""
    if conds:
        where = (" AND " if " WHERE " in shape else " WHERE ") + conds[0]
    kind = rng.random()
    if kind < 0.15:
        # Aggregates over the join, grouped by the first item.
        sql = "SELECT %s, count(*), max(%s) FROM %s%s GROUP BY 1" % (
            items[0], items[-1], sql_from, where)
        return sql, 3, False
    if kind < 0.25:
        sql = "SELECT count(*) FROM %s%s" % (sql_from, where)
        return sql, 1, False
    distinct = rng.random() < 0.15
    sql = "SELECT %s%s FROM %s%s" % ("DISTINCT " if distinct else "",
                                     ", ".join(items), sql_from, where)
    total = False
    if not distinct and rng.random() < 0.4 and all(PK[t] for _, t in tables):
        # Every table's key: a total order.
        keys = ["%s.%s%s" % (a, PK[t][0], rng.choice(["", " DESC"]))
                for a, t in tables]
        lead = []
        if rng.random() < 0.5:
            lead = [rng.choice(items) + rng.choice(["", " DESC"])]
        sql += " ORDER BY " + ", ".join(lead + keys)
        total = True
        if rng.random() < 0.6:
            sql += " LIMIT %d" % rng.randint(0, 6)
            if rng.random() < 0.5:
                sql += " OFFSET %d" % rng.randint(0, 5)
    return sql, len(items), total


def main():
    db = sqlite3.connect(":memory:")
    out = sys.stdout
    out.write("# Inner joins (issue 18): merge joins on an equality (ordered by "
              "an index, the\n# primary key or a sort), nested loops "
              "without one, three tables, self-joins,\n# aggregates and "
              "DISTINCT over joins, ORDER BY + LIMIT. Expected rows\n# "
              "computed by SQLite %s (Python's sqlite3); written by\n# "
              "tools/gen_tests/joins.py (seed %d).\n"
              % (sqlite3.sqlite_version, SEED))
    write_setup(out, db, SCHEMA, rows().items())
    seen = set()
    while len(seen) < 300:
        sql, width, total = query()
        if sql in seen:
            continue
        seen.add(sql)
        write_query(out, db, sql, width, total)


if __name__ == "__main__":
    main()
