#!/usr/bin/env python3
"""Writes tests/sql/compound.test: compound SELECTs (UNION, UNION ALL,
INTERSECT, EXCEPT) with expected rows computed by SQLite (Python's sqlite3)
over the same tables.

Fixed cases (each operator, chains that mix them left to right, NULLs and
duplicates, nocase values that compare equal, ORDER BY by ordinal, name and
expression, LIMIT/OFFSET, compounds in subqueries, INSERT ... SELECT and
views over the tables), then random chains of 2 to 4 SELECTs with random
WHERE terms (fixed seed), ordered by every column or compared as sets.

    python3 tools/gen_tests/compound.py > tests/sql/compound.test
"""
import random
import sqlite3
import sys

from slt_out import write_query, write_setup

SEED = 5
rng = random.Random(SEED)

SCHEMA = [
    "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL)",
    "CREATE INDEX t_a ON t (a)",
    "CREATE TABLE u (id INTEGER PRIMARY KEY, x INTEGER, y TEXT COLLATE nocase)",
    "CREATE INDEX u_x ON u (x)",
    "CREATE TABLE w (k INTEGER PRIMARY KEY, v INTEGER)",
    "CREATE TABLE m (id INTEGER PRIMARY KEY, d TEXT, n INTEGER)",
]


def make_rows():
    t_rows = [(i, rng.choice([None, 1, 2, 3, 4, 5, 6]),
               rng.choice(["a", "b", "B", "c", None, "10"]),
               rng.choice([None, 1.0, 2.5, 3.0, -1.0]))
              for i in range(1, 31)]
    u_rows = [(i, rng.choice([None, 1, 2, 3, 7, 8]),
               rng.choice(["a", "A", "b", "c", "C", None]))
              for i in range(1, 21)]
    return t_rows, u_rows


FIXED = [
    ("SELECT a FROM t UNION SELECT x FROM u", 1, False),
    ("SELECT a FROM t UNION ALL SELECT x FROM u", 1, False),
    ("SELECT a FROM t INTERSECT SELECT x FROM u", 1, False),
    ("SELECT a FROM t EXCEPT SELECT x FROM u", 1, False),
    ("SELECT x FROM u EXCEPT SELECT a FROM t", 1, False),
    ("SELECT a, b FROM t UNION SELECT x, y FROM u ORDER BY 1, 2", 2, True),
    ("SELECT a, b FROM t UNION ALL SELECT x, y FROM u ORDER BY 2 DESC, 1", 2,
     False),
    ("SELECT y FROM u UNION SELECT b FROM t ORDER BY 1", 1, True),
    ("SELECT b FROM t UNION SELECT y FROM u ORDER BY 1", 1, True),
    ("SELECT y FROM u INTERSECT SELECT b FROM t", 1, False),
    ("SELECT y FROM u EXCEPT SELECT b FROM t ORDER BY 1", 1, True),
    ("SELECT a FROM t UNION SELECT x FROM u EXCEPT SELECT v FROM w", 1, False),
    ("SELECT a FROM t EXCEPT SELECT v FROM w UNION ALL SELECT x FROM u", 1,
     False),
    ("SELECT a FROM t UNION ALL SELECT a FROM t INTERSECT SELECT x FROM u", 1,
     False),
    ("SELECT a FROM t INTERSECT SELECT x FROM u UNION ALL SELECT 99", 1, False),
    ("SELECT a AS n FROM t UNION SELECT x FROM u ORDER BY n DESC LIMIT 3", 1,
     True),
    ("SELECT a FROM t UNION SELECT x FROM u ORDER BY a LIMIT 2 OFFSET 1", 1,
     True),
    ("SELECT a + 1 FROM t UNION SELECT x FROM u ORDER BY a + 1", 1, True),
    ("SELECT a, c FROM t WHERE a > 3 UNION ALL SELECT x, NULL FROM u WHERE "
     "x > 3 ORDER BY 1, 2", 2, False),
    ("SELECT 1 UNION SELECT 1 UNION ALL SELECT 1", 1, False),
    ("SELECT 1, 'x' UNION SELECT 2, 'y' EXCEPT SELECT 1, 'x'", 2, False),
    ("SELECT NULL UNION SELECT NULL", 1, True),
    ("SELECT count(*) FROM t UNION ALL SELECT count(*) FROM u", 1, False),
    ("SELECT a, count(*) FROM t GROUP BY a UNION SELECT x, count(*) FROM u "
     "GROUP BY x ORDER BY 1, 2", 2, True),
    ("SELECT DISTINCT b FROM t UNION ALL SELECT DISTINCT y FROM u", 1, False),
    ("SELECT t.a, u.y FROM t JOIN u ON u.x = t.a UNION SELECT v, 'w' FROM w",
     2, False),
    # The collation of a column is the first SELECT's that has one.
    ("SELECT 'x', b FROM t UNION SELECT 'x', y FROM u", 2, False),
    ("SELECT b FROM t WHERE b = 'B' UNION SELECT y FROM u WHERE y = 'b'", 1,
     False),
    ("SELECT id FROM t WHERE a IN (SELECT x FROM u UNION SELECT v FROM w) "
     "ORDER BY id", 1, True),
    ("SELECT (SELECT max(a) FROM t UNION SELECT 0 ORDER BY 1 DESC LIMIT 1)", 1,
     True),
    ("SELECT count(*) FROM t WHERE EXISTS (SELECT x FROM u WHERE x = t.a "
     "EXCEPT SELECT v FROM w)", 1, True),
    ("SELECT c FROM t UNION SELECT a FROM t ORDER BY 1", 1, True),
    # A column (even an INTEGER one, through CAST or +) gives its SELECT's
    # collation, binary when it has none: the first such SELECT decides.
    ("SELECT x FROM u UNION SELECT y FROM u", 1, False),
    ("SELECT CAST(x AS TEXT) FROM u UNION SELECT y FROM u", 1, False),
    ("SELECT 'k' FROM u UNION SELECT y FROM u", 1, False),
    # x IN (compound): compared with the last SELECT's affinity (SQLite's).
    ("SELECT id FROM m WHERE d IN (SELECT n FROM m UNION SELECT d FROM m "
     "WHERE 0) ORDER BY id", 1, True),
    ("SELECT id FROM m WHERE 2 IN (SELECT 99 UNION SELECT d FROM m) "
     "ORDER BY id", 1, True),
    ("SELECT id FROM m WHERE d IN (SELECT 2 UNION SELECT CAST(3 AS TEXT)) "
     "ORDER BY id", 1, True),
    ("SELECT id FROM m WHERE d IN (SELECT d FROM m WHERE 0 UNION ALL SELECT n "
     "FROM m UNION ALL SELECT d FROM m WHERE 0) ORDER BY id", 1, True),
    # ORDER BY names a column the first SELECT selects, with or without
    # its table.
    ("SELECT t.a FROM t UNION SELECT 5 ORDER BY a", 1, True),
    ("SELECT q.a FROM t AS q UNION SELECT 5 ORDER BY a", 1, True),
    ("SELECT a FROM t AS q UNION SELECT 5 ORDER BY q.a", 1, True),
]

ERRORS = [
    ("InvalidArgument", "SELECT a FROM t UNION SELECT x, y FROM u"),
    ("InvalidArgument", "SELECT a FROM t UNION SELECT x FROM u ORDER BY 3"),
    ("InvalidArgument", "SELECT a FROM t UNION SELECT x FROM u ORDER BY b"),
    ("SyntaxError", "SELECT a FROM t ORDER BY a UNION SELECT x FROM u"),
    ("SyntaxError", "SELECT a FROM t LIMIT 1 UNION SELECT x FROM u"),
]

SOURCES = [("t", ["a", "b"]), ("u", ["x", "y"]), ("w", ["v", "'w'"])]
OPS = ["UNION", "UNION ALL", "INTERSECT", "EXCEPT"]


def core():
    table, cols = rng.choice(SOURCES)
    numeric = cols[0]
    where = ""
    if rng.random() < 0.7:
        where = " WHERE %s %s %d" % (numeric, rng.choice(["<", ">", "<>", "="]),
                                     rng.randint(0, 7))
    return "SELECT %s, %s FROM %s%s" % (cols[0], cols[1], table, where)


def random_query():
    parts = [core()]
    for _ in range(rng.randint(1, 3)):
        parts.append(rng.choice(OPS))
        parts.append(core())
    sql = " ".join(parts)
    # Of values equal under nocase (u.y), SQLite keeps another spelling when
    # it merges for an ORDER BY than when it does not (levelql keeps the
    # latter's): ORDER BY only where u is not read. Rows compared as sets.
    if rng.random() < 0.5 and "FROM u" not in sql:
        return sql + " ORDER BY 1, 2", False
    return sql, False


def main():
    out = sys.stdout
    db = sqlite3.connect(":memory:")
    out.write("# Generated by tools/gen_tests/compound.py; do not edit by hand.\n"
              "# Compound SELECTs against SQLite's rows.\n")
    t_rows, u_rows = make_rows()
    w_rows = [(k, rng.choice([None, 1, 2, 5, 9])) for k in range(1, 8)]
    write_setup(out, db, SCHEMA, [("t", t_rows), ("u", u_rows), ("w", w_rows),
                                  ("m", [(1, "2", 2), (2, "3", 3)])])
    for sql, width, ordered in FIXED:
        write_query(out, db, sql, width, ordered)
    for kind, sql in ERRORS:
        out.write("\nstatement error ^%s\n%s\n" % (kind, sql))
    for _ in range(120):
        sql, ordered = random_query()
        write_query(out, db, sql, 2, ordered)
    # Rows a compound makes can be inserted.
    stmt = "INSERT INTO w (v) SELECT a FROM t UNION SELECT x FROM u"
    db.execute(stmt)
    out.write("\nstatement ok\n%s\n" % stmt)
    write_query(out, db, "SELECT v FROM w ORDER BY k", 1, True)


if __name__ == "__main__":
    main()
