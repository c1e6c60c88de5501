"""Writing sqllogictest records whose expected rows come from SQLite.

Shared by the generators in this directory.
"""


def literal(v):
    """A Python value as an SQL literal."""
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    if isinstance(v, bytes):
        return "x'" + v.hex() + "'"
    return repr(v)


def text(v):
    """A value as levelql-slt prints it (REAL as %.15g with a '.0')."""
    if v is None:
        return "NULL"
    if isinstance(v, float):
        s = "%.15g" % v
        if not any(c in s for c in ".en"):
            s += ".0"
        return s
    if v == "":
        return "(empty)"
    return str(v)


def insert(table, rows):
    """One INSERT of every row."""
    return "INSERT INTO %s VALUES %s" % (table, ", ".join(
        "(" + ", ".join(literal(v) for v in r) + ")" for r in rows))


def write_setup(out, db, schema, tables):
    """`statement ok` records of the schema and of one INSERT per table
    (`tables`: (name, rows) pairs), run in `db` too."""
    for stmt in schema:
        db.execute(stmt)
        out.write("\nstatement ok\n%s\n" % stmt)
    for table, rows in tables:
        stmt = insert(table, rows)
        db.execute(stmt)
        out.write("\nstatement ok\n%s\n" % stmt)


def write_query(out, db, sql, width, ordered):
    """A `query` record of `sql` with SQLite's rows (`rowsort` unless the
    ORDER BY makes the order total: the runner sorts the rows, column by
    column as bytes, and so do we)."""
    shown = [[text(v) for v in r] for r in db.execute(sql).fetchall()]
    if not ordered:
        shown.sort()
    out.write("\nquery %s%s\n%s\n----\n" %
              ("T" * width, "" if ordered else " rowsort", sql))
    for r in shown:
        for v in r:
            out.write(v + "\n")


def write_cases(out, db, queries, errors, more=0, make_query=None):
    """The `query` records of (sql, width, ordered) `queries`, the `statement
    error` records of (kind, sql) `errors`, then `more` records of
    `make_query()` (each a (sql, width, ordered) too)."""
    for sql, width, ordered in queries:
        write_query(out, db, sql, width, ordered)
    for kind, sql in errors:
        out.write("\nstatement error ^%s\n%s\n" % (kind, sql))
    for _ in range(more):
        write_query(out, db, *make_query())
