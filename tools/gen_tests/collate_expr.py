#!/usr/bin/env python3
"""Writes tests/sql/collate_expr.test: COLLATE written in expressions (WHERE,
ORDER BY, GROUP BY, DISTINCT, joins), with expected rows computed by SQLite
(Python's sqlite3) over the same tables.

A collation written with COLLATE wins over a column's, from either side of
a comparison (the left one's first); ORDER BY 2 COLLATE c and ORDER BY
alias COLLATE c sort a result column under c. Rows that a collation makes
equal are shown only through values every spelling shares (counts, keys),
since which spelling a group or DISTINCT keeps is not defined.

    python3 tools/gen_tests/collate_expr.py > tests/sql/collate_expr.test
"""
import random
import sqlite3
import sys

from slt_out import write_cases, write_setup

SEED = 41
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, n TEXT COLLATE nocase, "
    "a INTEGER)",
    "CREATE INDEX t_s ON t (s)",
    "CREATE INDEX t_s_nocase ON t (s COLLATE nocase)",
    "CREATE TABLE u (k INTEGER PRIMARY KEY, name TEXT)",
]

WORDS = ["apple", "Apple", "APPLE", "banana", "Banana", "cherry", "Cherry",
         "date", "b", "B", "", None, "Zed", "zed", "10", "9"]


def make_rows():
    t_rows = [(i, rng.choice(WORDS), rng.choice(WORDS), rng.randint(0, 5))
              for i in range(1, 61)]
    u_rows = [(k, rng.choice(WORDS)) for k in range(1, 13)]
    return t_rows, u_rows


FIXED = [
    ("SELECT id FROM t WHERE s = 'apple' COLLATE nocase", 1, False),
    ("SELECT id FROM t WHERE s COLLATE nocase = 'APPLE'", 1, False),
    ("SELECT id FROM t WHERE n = 'apple' COLLATE binary", 1, False),
    ("SELECT id FROM t WHERE n COLLATE binary = 'Apple'", 1, False),
    ("SELECT id FROM t WHERE s COLLATE nocase > 'b'", 1, False),
    ("SELECT id FROM t WHERE s COLLATE nocase BETWEEN 'b' AND 'CHERRY'", 1,
     False),
    ("SELECT id FROM t WHERE s COLLATE nocase IN ('apple', 'ZED')", 1, False),
    ("SELECT id FROM t WHERE s IN ('apple', 'ZED') ", 1, False),
    ("SELECT id, s FROM t ORDER BY s COLLATE nocase, id", 2, True),
    ("SELECT id, s FROM t ORDER BY s COLLATE nocase DESC, id", 2, True),
    ("SELECT id, n FROM t ORDER BY n COLLATE binary, id", 2, True),
    ("SELECT id, s FROM t ORDER BY 2 COLLATE nocase, 1", 2, True),
    ("SELECT id, s AS x FROM t ORDER BY x COLLATE nocase, id DESC", 2, True),
    ("SELECT count(*) FROM t GROUP BY s COLLATE nocase "
     "ORDER BY count(*), min(id)", 1, True),
    ("SELECT count(*), min(id) FROM t GROUP BY n COLLATE binary "
     "ORDER BY 2", 2, True),
    ("SELECT lower(s) AS x, count(*) FROM t GROUP BY x COLLATE nocase "
     "ORDER BY 1", 2, True),
    ("SELECT upper(s), count(*) FROM t GROUP BY 1 COLLATE nocase "
     "ORDER BY 1", 2, True),
    ("SELECT count(DISTINCT s COLLATE nocase) FROM t", 1, True),
    ("SELECT count(*) FROM (SELECT DISTINCT s COLLATE nocase FROM t)", 1,
     True),
    ("SELECT t.id, u.k FROM t JOIN u ON t.s = u.name COLLATE nocase", 2,
     False),
    ("SELECT t.id, u.k FROM t JOIN u ON t.n = u.name COLLATE binary", 2,
     False),
    ("SELECT id FROM t WHERE s || '' = 'APPLE' COLLATE nocase", 1, False),
    ("SELECT id FROM t WHERE (s || 'x') COLLATE nocase = 'applex'", 1, False),
    ("SELECT id FROM t WHERE s COLLATE nocase = n", 1, False),
    ("SELECT id FROM t WHERE n = s COLLATE binary", 1, False),
    ("SELECT max(s COLLATE nocase) IS NOT NULL FROM t", 1, True),
    ("SELECT id FROM t WHERE s COLLATE nocase LIKE 'a%'", 1, False),
    # BETWEEN compares each bound under its own pair's collation.
    ("SELECT id FROM t WHERE s BETWEEN 'a' COLLATE nocase AND 'Apple'", 1,
     False),
    ("SELECT id FROM t WHERE s BETWEEN 'Apple' AND 'b' COLLATE nocase", 1,
     False),
    ("SELECT id FROM t WHERE s NOT BETWEEN 'a' COLLATE nocase AND 'Apple'", 1,
     False),
    ("SELECT id FROM t WHERE n BETWEEN 'b' AND 'cherry' COLLATE binary", 1,
     False),
    # IN (SELECT ...) compares as x = column does: a written one wins
    # (SQLite 3.40 does so only when no index on x is used: s has one).
    ("SELECT id FROM t WHERE n IN (SELECT name COLLATE binary FROM u)", 1,
     False),
    # A collation written in a function's argument is carried out of it.
    ("SELECT id FROM t WHERE substr(s COLLATE nocase, 1) = 'APPLE'", 1,
     False),
    ("SELECT upper('x' COLLATE nocase) = 'x'", 1, True),
]

ERRORS = [
    ("InvalidArgument", "SELECT id FROM t WHERE s = 'a' COLLATE nosuch"),
    ("InvalidArgument", "SELECT id FROM t ORDER BY 1 COLLATE nosuch"),
]

OPS = ["=", "<", "<=", ">", ">=", "<>"]


def random_query():
    col = rng.choice(["s", "n"])
    coll = rng.choice(["nocase", "binary"])
    value = rng.choice([w for w in WORDS if w is not None])
    side = rng.random()
    op = rng.choice(OPS)
    if side < 0.4:
        cond = "%s COLLATE %s %s '%s'" % (col, coll, op, value)
    elif side < 0.8:
        cond = "%s %s '%s' COLLATE %s" % (col, op, value, coll)
    else:
        cond = "'%s' %s %s COLLATE %s" % (value, op, col, coll)
    if rng.random() < 0.5:
        return ("SELECT id FROM t WHERE %s ORDER BY %s COLLATE %s, id" %
                (cond, rng.choice(["s", "n"]), rng.choice(["nocase", "binary"])),
                1, True)
    return ("SELECT id FROM t WHERE %s" % cond, 1, False)


def main():
    out = sys.stdout
    db = sqlite3.connect(":memory:")
    out.write("# Generated by tools/gen_tests/collate_expr.py; do not edit by "
              "hand.\n# COLLATE written in expressions against SQLite's "
              "rows.\n")
    t_rows, u_rows = make_rows()
    write_setup(out, db, SCHEMA, [("t", t_rows), ("u", u_rows)])
    write_cases(out, db, FIXED, ERRORS, 100, random_query)


if __name__ == "__main__":
    main()
