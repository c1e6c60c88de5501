#!/usr/bin/env python3
"""Writes tests/sql/group_by.test: GROUP BY / HAVING queries with expected
rows computed by SQLite (Python's sqlite3) over the same rows.

Deterministic (fixed seed). Queries avoid what SQLite leaves unspecified:
bare columns (any row of the group), the case a nocase group shows (lower()
of it instead), group_concat's order within a group (its length instead),
and LIMIT over ties (ORDER BY ends with every group key).

    python3 tools/gen_tests/group_by.py > tests/sql/group_by.test
"""
import random
import sqlite3
import sys

from slt_out import write_query, write_setup

SEED = 18
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, "
    "s TEXT COLLATE nocase, g INTEGER, r REAL)",
    "CREATE INDEX t_a ON t (a)",
    "CREATE INDEX t_gb ON t (g, b)",
    "CREATE INDEX t_s ON t (s)",
    "CREATE TABLE e (u INTEGER, st INTEGER, v INTEGER, w TEXT, "
    "PRIMARY KEY (u, st))",
    "CREATE INDEX e_w ON e (w, v)",
]


def maybe(p, v):
    return v if rng.random() >= p else None


def rows_t(n):
    words = ["apple", "Apple", "APPLE", "kiwi", "Kiwi", "plum", "fig", ""]
    out = []
    for i in range(1, n + 1):
        out.append((i, maybe(0.1, rng.randint(-4, 4)),
                    maybe(0.15, rng.choice(["x", "y", "z", "yy"])),
                    maybe(0.1, rng.choice(words)), rng.randint(0, 3),
                    maybe(0.2, rng.randint(-80, 80) / 8)))
    return out


def rows_e(n):
    out = []
    for u in range(1, n // 10 + 1):
        for st in rng.sample(range(100), 10):
            out.append((u, st, maybe(0.1, rng.randint(0, 9)),
                        maybe(0.1, rng.choice(["p", "q", "r"]))))
    return out


# Group keys: (expression in GROUP BY, expression shown in the select list).
T_KEYS = [("a", "a"), ("b", "b"), ("s", "lower(s)"), ("g", "g"),
          ("a % 3", "a % 3"), ("b || 'x'", "b || 'x'"), ("id % 7", "id % 7")]
E_KEYS = [("u", "u"), ("w", "w"), ("v", "v"), ("st / 10", "st / 10")]
T_AGGS = ["count(*)", "count(a)", "sum(a)", "min(a)", "max(a)", "avg(a)",
          "sum(r)", "min(r)", "max(r)", "avg(r)", "count(DISTINCT b)",
          "count(DISTINCT s)", "min(s) IS NULL", "max(b)",
          "length(group_concat(b))", "length(group_concat(id, '; '))",
          "total_rows"]
E_AGGS = ["count(*)", "sum(v)", "min(st)", "max(st)", "avg(v)",
          "count(DISTINCT w)", "max(w)", "count(v)"]
T_WHERE = ["a > 0", "g = 1", "g = 2 AND b = 'y'", "b IS NOT NULL", "r < 0",
           "s = 'apple'", "a BETWEEN -2 AND 2", "g IN (0, 3)", "id < 40"]
E_WHERE = ["u = 3", "u BETWEEN 2 AND 5", "w = 'q'", "v > 4", "st < 50"]


def query(table, keys, aggs, wheres):
    nkeys = rng.choice([1, 1, 1, 2, 2, 3])
    chosen = rng.sample(keys, nkeys)
    picked = [a for a in rng.sample(aggs, rng.randint(0, 3))
              if a != "total_rows"]
    if not picked and rng.random() < 0.7:
        picked = ["count(*)"]
    items = [shown for _, shown in chosen] + picked
    sql = "SELECT " + ", ".join(items) + " FROM " + table
    if rng.random() < 0.4:
        sql += " WHERE " + rng.choice(wheres)
    group_terms = []
    for i, (expr, shown) in enumerate(chosen):
        # Sometimes by ordinal.
        group_terms.append(str(i + 1) if rng.random() < 0.15 else expr)
    sql += " GROUP BY " + ", ".join(group_terms)
    if picked and rng.random() < 0.3:
        agg = rng.choice(picked)
        if agg.startswith(("min(s)", "length")):
            agg = "count(*)"
        sql += " HAVING " + agg + rng.choice([" > 1", " >= 2", " < 3",
                                              " IS NOT NULL"])
    order = rng.random()
    total = False
    if order < 0.4:
        # Group keys in some order and directions (a total order).
        terms = [str(i + 1) + rng.choice(["", " DESC"])
                 for i in rng.sample(range(nkeys), nkeys)]
        sql += " ORDER BY " + ", ".join(terms)
        total = True
    elif order < 0.6 and picked:
        # An aggregate first, then every key.
        terms = [str(nkeys + 1) + rng.choice(["", " DESC"])]
        terms += [str(i + 1) for i in range(nkeys)]
        sql += " ORDER BY " + ", ".join(terms)
        total = True
    if total and rng.random() < 0.4:
        sql += " LIMIT %d" % rng.randint(0, 4)
        if rng.random() < 0.5:
            sql += " OFFSET %d" % rng.randint(0, 3)
    return sql, len(items), total


def main():
    db = sqlite3.connect(":memory:")
    out = sys.stdout
    out.write("# GROUP BY and HAVING (issue 18): keys that an index or the "
              "primary key\n# gives in order, keys that need a sort, "
              "expressions, ordinals, HAVING,\n# ORDER BY over keys and "
              "aggregates, LIMIT/OFFSET. Expected rows computed\n# by SQLite "
              "%s (Python's sqlite3); written by\n# "
              "tools/gen_tests/group_by.py (seed %d).\n"
              % (sqlite3.sqlite_version, SEED))
    write_setup(out, db, SCHEMA, (("t", rows_t(120)), ("e", rows_e(80))))
    seen = set()
    for table, keys, aggs, wheres, count in (
            ("t", T_KEYS, T_AGGS, T_WHERE, 260),
            ("e", E_KEYS, E_AGGS, E_WHERE, 90)):
        made = 0
        while made < count:
            sql, width, total = query(table, keys, aggs, wheres)
            if sql in seen:
                continue
            seen.add(sql)
            made += 1
            write_query(out, db, sql, width, total)


if __name__ == "__main__":
    main()
