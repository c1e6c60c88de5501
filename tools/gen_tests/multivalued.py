#!/usr/bin/env python3
"""Writes tests/sql/multivalued/: multi-valued (list) columns checked
against a model of DIALECT.md's rules (Multi-valued columns), written in
Python here, since SQLite has no lists.

A table t (id, a TEXT[] binary or nocase, b INTEGER[], s INTEGER, c TEXT)
with NULL lists, empty lists, NULL and duplicate elements; 1-4 indexes
from 13 shapes (list first or second, two lists, DESC parts, nocase,
INCLUDE, ranked) or none (each seed writes both files, which must agree);
queries whose WHERE nests AND/OR/NOT over =, <>, <, <=, >, >=, IN (short,
8+ items, list items), BETWEEN, LIKE, IS NULL, column against column,
IN (SELECT ...), correlated EXISTS and scalar subqueries; selecting ids,
rows, ORDER BY with LIMIT/OFFSET, COUNT, DISTINCT, count(DISTINCT), GROUP
BY a scalar or a list, min/max of a list; UPDATE/DELETE/INSERT between
query rounds, each followed by a dump of the table and CHECK.

The model: a predicate on a list holds when it holds for some element; its
negated forms (<>, NOT IN, NOT BETWEEN, NOT LIKE) hold for some element;
NOT (...) holds when no element satisfies it; two lists compare as wholes;
a side is a list by its type (a list column's NULL compares as a whole);
x IN (y) is x = y. Written by a probe that found four wrong answers with
it (tests/sql/regressions/list_not_and_null.test, update_unique_order.test).

Deterministic (fixed seeds).

    python3 tools/gen_tests/multivalued.py tests/sql/multivalued 1 2 3 4 5 6
"""
import random, sys, os, functools

from slt_out import literal

TEXT_POOL = ['a', 'A', 'b', 'B', 'ab', 'Ab', 'aB', 'ba', 'bc', 'C', 'c', 'ca', 'abc']
INT_POOL = [-1, 0, 1, 2, 3, 4, 5, 6]
LIKE_PATS = ['a%', 'A%', '%b', '_', '__', '%', 'a_', '%c%', 'ab', 'B%', '_b%', 'c']


class L(list):
    """a list value"""


def fold(v, coll):
    if isinstance(v, str) and coll == 'nocase':
        return v.lower()
    return v


def scmp(x, y, coll):
    """scalar compare, both non-null -> -1/0/1"""
    x, y = fold(x, coll), fold(y, coll)
    return (x > y) - (x < y)


def lcmp(x, y, coll):
    for i in range(min(len(x), len(y))):
        a, b = x[i], y[i]
        if a is None and b is None:
            continue
        if a is None:
            return -1
        if b is None:
            return 1
        c = scmp(a, b, coll)
        if c:
            return c
    return (len(x) > len(y)) - (len(x) < len(y))


def OR3(vals):
    r = False
    for v in vals:
        if v is True:
            return True
        if v is None:
            r = None
    return r


def AND3(vals):
    r = True
    for v in vals:
        if v is False:
            return False
        if v is None:
            r = None
    return r


def NOT3(v):
    return None if v is None else (not v)


OPS = {'=': lambda c: c == 0, '<>': lambda c: c != 0, '<': lambda c: c < 0,
       '<=': lambda c: c <= 0, '>': lambda c: c > 0, '>=': lambda c: c >= 0}


def cmp(x, y, op, coll, xt=False, yt=False):
    """xt/yt: the operand is list-typed (a NULL of a list-typed operand is a NULL list)"""
    xl, yl = isinstance(x, L), isinstance(y, L)
    if (x is None and (xt or not yl)) or (y is None and (yt or not xl)):
        return None
    if xl and yl:
        return OPS[op](lcmp(x, y, coll))
    if xl:
        return OR3(cmp(e, y, op, coll) for e in x)
    if yl:
        return OR3(cmp(x, e, op, coll) for e in y)
    return OPS[op](scmp(x, y, coll))


def like1(s, pat, coll):
    if s is None:
        return None
    s, pat = fold(s, coll), fold(pat, coll)
    # simple recursive matcher
    @functools.lru_cache(None)
    def m(i, j):
        if j == len(pat):
            return i == len(s)
        if pat[j] == '%':
            return any(m(k, j + 1) for k in range(i, len(s) + 1))
        if i < len(s) and (pat[j] == '_' or pat[j] == s[i]):
            return m(i + 1, j + 1)
        return False
    return m(0, 0)


def lit_sql(v):
    if isinstance(v, L):
        return 'ARRAY[' + ', '.join(lit_sql(e) for e in v) + ']'
    return literal(v)


def render(v):
    if v is None:
        return 'NULL'
    if isinstance(v, L):
        return '[' + ', '.join(render(e) for e in v) + ']'
    return str(v)


# ---------------------------------------------------------------- operands
class Col:
    def __init__(self, name, schema):
        self.name = name
        self.coll = schema.coll.get(name)  # 'binary' / 'nocase'
        self.kind = schema.kind[name]       # 'tl','il','t','i'

    def sql(self):
        return self.name

    def val(self, row):
        return row[self.name]


class Lit:
    coll = None

    def __init__(self, v):
        self.v = v
        self.kind = None

    def sql(self):
        return lit_sql(self.v)

    def val(self, row):
        return self.v


def coll_of(x, y):
    return x.coll or y.coll or 'binary'


def is_list_operand(o, row=None):
    """Whether operand `o` is a list by its type (`row` unused: a value's
    list-ness is its operand's)."""
    if isinstance(o, Col):
        return o.kind in ('tl', 'il')
    return isinstance(o.v, L)


# ---------------------------------------------------------------- predicates
class Cmp:
    def __init__(self, x, op, y):
        self.x, self.op, self.y = x, op, y

    def sql(self):
        return f'{self.x.sql()} {self.op} {self.y.sql()}'

    def ev(self, row):
        return cmp(self.x.val(row), self.y.val(row), self.op, coll_of(self.x, self.y), is_list_operand(self.x), is_list_operand(self.y))


class In:
    def __init__(self, x, items, neg):
        self.x, self.items, self.neg = x, items, neg

    def sql(self):
        return f'{self.x.sql()} {"NOT " if self.neg else ""}IN ({", ".join(i.sql() for i in self.items)})'

    def ev(self, row):
        coll = self.x.coll or 'binary'
        xv = self.x.val(row)
        pos = OR3(cmp(xv, i.val(row), '=', coll, is_list_operand(self.x), is_list_operand(i)) for i in self.items)
        if not self.neg:
            return pos
        if any(is_list_operand(i, row) for i in self.items) or not is_list_operand(self.x, row):
            return NOT3(pos)
        if xv is None:
            return None
        return OR3(NOT3(OR3(cmp(e, i.val(row), '=', coll) for i in self.items)) for e in xv)


class Between:
    def __init__(self, x, lo, hi, neg):
        self.x, self.lo, self.hi, self.neg = x, lo, hi, neg

    def sql(self):
        return f'{self.x.sql()} {"NOT " if self.neg else ""}BETWEEN {self.lo.sql()} AND {self.hi.sql()}'

    def ev(self, row):
        c1 = coll_of(self.x, self.lo)
        c2 = coll_of(self.x, self.hi)
        xv, lv, hv = self.x.val(row), self.lo.val(row), self.hi.val(row)
        if is_list_operand(self.x, row) and not is_list_operand(self.lo, row) and not is_list_operand(self.hi, row):
            if xv is None:
                return None
            f = (lambda e: NOT3(AND3([cmp(e, lv, '>=', c1), cmp(e, hv, '<=', c2)]))) if self.neg else \
                (lambda e: AND3([cmp(e, lv, '>=', c1), cmp(e, hv, '<=', c2)]))
            return OR3(f(e) for e in xv)
        xt, lt, ht = is_list_operand(self.x), is_list_operand(self.lo), is_list_operand(self.hi)
        pos = AND3([cmp(xv, lv, '>=', c1, xt, lt), cmp(xv, hv, '<=', c2, xt, ht)])
        return NOT3(pos) if self.neg else pos


class SubIn:
    TABLE = None  # set by generator: current model table

    def __init__(self, x, subcol, subpred, neg, sch):
        self.x, self.subcol, self.subpred, self.neg = x, subcol, subpred, neg
        self.sc = Col(subcol, sch)

    def sql(self):
        return f'{self.x.sql()} {"NOT " if self.neg else ""}IN (SELECT {self.subcol} FROM t AS q WHERE {self.subpred.sql()})'

    def ev(self, row):
        vals = [r[self.subcol] for r in SubIn.TABLE if self.subpred.ev(r) is True]
        if not vals:
            return False if not self.neg else True
        xv = self.x.val(row)
        coll = self.x.coll or self.sc.coll or 'binary'
        xt, vt = is_list_operand(self.x), is_list_operand(self.sc)
        pos = OR3(cmp(xv, v, '=', coll, xt, vt) for v in vals)
        if not self.neg:
            return pos
        if vt or not xt:
            return NOT3(pos)
        if xv is None:
            return None
        return OR3(NOT3(OR3(cmp(e, v, '=', coll) for v in vals)) for e in xv)


class Exists:
    def __init__(self, ic, op, oc, sch, neg):
        self.ic, self.op, self.oc, self.neg = ic, op, oc, neg
        self.icol, self.ocol = Col(ic, sch), Col(oc, sch)

    def sql(self):
        return f'{"NOT " if self.neg else ""}EXISTS (SELECT 1 FROM t AS x WHERE x.{self.ic} {self.op} t.{self.oc})'

    def ev(self, row):
        coll = self.icol.coll or self.ocol.coll or 'binary'
        xt, yt = is_list_operand(self.icol), is_list_operand(self.ocol)
        r = any(cmp(ir[self.ic], row[self.oc], self.op, coll, xt, yt) is True for ir in SubIn.TABLE)
        return (not r) if self.neg else r


class ScalarSub:
    def __init__(self, col, op, lit, sch, off):
        self.col, self.op, self.lit, self.off = col, op, lit, off
        self.c = Col(col, sch)

    def sql(self):
        return f'(SELECT {self.col} FROM t AS x WHERE x.id = t.id + {self.off}) {self.op} {self.lit.sql()}'

    def ev(self, row):
        m = [r for r in SubIn.TABLE if r['id'] == row['id'] + self.off]
        v = m[0][self.col] if m else None
        return cmp(v, self.lit.v, self.op, 'binary', is_list_operand(self.c), False)  # a subquery carries no collation


class Like:
    def __init__(self, x, pat, neg):
        self.x, self.pat, self.neg = x, pat, neg

    def sql(self):
        return f'{self.x.sql()} {"NOT " if self.neg else ""}LIKE {lit_sql(self.pat)}'

    def ev(self, row):
        coll = self.x.coll or 'binary'
        xv = self.x.val(row)
        if xv is None:
            return None
        if isinstance(xv, L):
            if self.neg:
                return OR3(NOT3(like1(e, self.pat, coll)) for e in xv)
            return OR3(like1(e, self.pat, coll) for e in xv)
        r = like1(xv, self.pat, coll)
        return NOT3(r) if self.neg else r


class IsNull:
    def __init__(self, x, neg):
        self.x, self.neg = x, neg

    def sql(self):
        return f'{self.x.sql()} IS {"NOT " if self.neg else ""}NULL'

    def ev(self, row):
        return (self.x.val(row) is not None) if self.neg else (self.x.val(row) is None)


class Not:
    def __init__(self, p):
        self.p = p

    def sql(self):
        return f'NOT ({self.p.sql()})'

    def ev(self, row):
        return NOT3(self.p.ev(row))


class Bin:
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b

    def sql(self):
        return f'({self.a.sql()} {self.op} {self.b.sql()})'

    def ev(self, row):
        f = AND3 if self.op == 'AND' else OR3
        return f([self.a.ev(row), self.b.ev(row)])


# ---------------------------------------------------------------- schema
class Schema:
    def __init__(self, rng, unique=False):
        self.rng = rng
        self.acoll = rng.choice(['binary', 'binary', 'nocase'])
        self.ccoll = rng.choice(['binary', 'nocase'])
        self.kind = {'a': 'tl', 'b': 'il', 's': 'i', 'c': 't', 'id': 'i'}
        self.coll = {'a': self.acoll, 'c': self.ccoll, 'b': 'binary', 's': 'binary', 'id': 'binary'}
        self.pkdesc = rng.random() < 0.25
        self.unique = unique

    def create(self):
        acl = ' COLLATE nocase' if self.acoll == 'nocase' else ''
        ccl = ' COLLATE nocase' if self.ccoll == 'nocase' else ''
        pk = '' if self.pkdesc else ' PRIMARY KEY'
        tail = ', PRIMARY KEY (id DESC)' if self.pkdesc else ''
        return f'CREATE TABLE t (id INTEGER{pk}, a TEXT[]{acl}, b INTEGER[], s INTEGER, c TEXT{ccl}{tail})'

    def indexes(self):
        rng = self.rng
        cands = [['a'], ['b'], ['a', 's'], ['s', 'a'], ['a', 'b'], ['b DESC', 's'], ['c', 'a DESC'],
                 ['s DESC', 'b', 'c'], ['a DESC'], ['b', 'a'], ['s', 'c', 'a'], ['a', 'c'], ['b', 's DESC', 'a']]
        k = rng.randint(1, 4)
        picks = rng.sample(cands, k)
        out = []
        for n, cols in enumerate(picks):
            inc = ''
            if rng.random() < 0.2:
                rest = [c for c in ['s', 'c', 'b', 'a'] if not any(x.split()[0] == c for x in cols)]
                if rest:
                    inc = f' INCLUDE ({rng.choice(rest)})'
            ranked = ' WITH (ranked)' if rng.random() < 0.2 else ''
            out.append(f'CREATE INDEX i{n} ON t ({", ".join(cols)}){inc}{ranked}')
        return out


def rand_list(rng, pool):
    """A list of 1-4 elements of `pool` with NULL and repeated elements, or
    NULL, or empty."""
    r = rng.random()
    if r < 0.1:
        return None
    if r < 0.2:
        return L()
    n = rng.randint(1, 4)
    out = L()
    for _ in range(n):
        if rng.random() < 0.1:
            out.append(None)
        elif out and rng.random() < 0.15:
            out.append(rng.choice(out))  # duplicate
        else:
            out.append(rng.choice(pool))
    return out


def rand_text_list(rng):
    return rand_list(rng, TEXT_POOL)


def rand_int_list(rng):
    return rand_list(rng, INT_POOL)


def rand_row(rng, id_):
    return {'id': id_, 'a': rand_text_list(rng), 'b': rand_int_list(rng),
            's': None if rng.random() < 0.1 else rng.randint(0, 5),
            'c': None if rng.random() < 0.1 else rng.choice(TEXT_POOL)}


def row_sql(r):
    return '(' + ', '.join(lit_sql(r[k]) for k in ['id', 'a', 'b', 's', 'c']) + ')'


# ---------------------------------------------------------------- predicate gen
_DEPTH = [0]


def depth_ok(rng):
    return _DEPTH[0] == 1


def gen_atom(rng, sch):
    _DEPTH[0] += 1
    try:
        return _gen_atom(rng, sch)
    finally:
        _DEPTH[0] -= 1


def _gen_atom(rng, sch):
    A, B, S, C = (Col(n, sch) for n in 'absc')
    tl = lambda: Lit(rng.choice(TEXT_POOL))
    il = lambda: Lit(rng.choice(INT_POOL))
    r = rng.random()
    ops = list(OPS)
    choices = [
        lambda: Cmp(A, rng.choice(ops), tl()),
        lambda: Cmp(tl(), rng.choice(ops), A),
        lambda: Cmp(B, rng.choice(ops), il()),
        lambda: Cmp(il(), rng.choice(ops), B),
        lambda: In(A, [tl() for _ in range(rng.randint(1, 4))], rng.random() < 0.4),
        lambda: In(B, [il() for _ in range(rng.randint(1, 4))], rng.random() < 0.4),
        lambda: In(tl(), [A], rng.random() < 0.4),
        lambda: In(il(), [B] + ([il()] if rng.random() < 0.3 else []), rng.random() < 0.4),
        lambda: Between(A, *sorted([tl(), tl()], key=lambda l: fold(l.v, sch.acoll)), rng.random() < 0.3),
        lambda: Between(B, *sorted([il(), il()], key=lambda l: l.v), rng.random() < 0.3),
        lambda: Between(A, tl(), tl(), rng.random() < 0.3),
        lambda: Like(A, rng.choice(LIKE_PATS), rng.random() < 0.3),
        lambda: Cmp(A, rng.choice(ops), Lit(rand_text_list(rng) or L(['a']))),
        lambda: Cmp(B, rng.choice(ops), Lit(rand_int_list(rng) or L([1]))),
        lambda: In(A, [Lit(rand_text_list(rng) or L(['b'])) for _ in range(rng.randint(1, 2))], rng.random() < 0.4),
        lambda: In(B, [Lit(rand_int_list(rng) or L([2])), il()], rng.random() < 0.4),
        lambda: IsNull(rng.choice([A, B]), rng.random() < 0.5),
        lambda: Cmp(S, rng.choice(ops), il()),
        lambda: In(S, [il() for _ in range(rng.randint(1, 3))], rng.random() < 0.3),
        lambda: Between(S, il(), il(), rng.random() < 0.3),
        lambda: Cmp(C, rng.choice(ops), tl()),
        lambda: Like(C, rng.choice(LIKE_PATS), rng.random() < 0.3),
        lambda: Cmp(S, rng.choice(['=', '<', '>=', '<>']), B),
        lambda: In(S, [B], rng.random() < 0.4),
        lambda: Cmp(C, rng.choice(['=', '<>', '<']), A),
        lambda: Cmp(A, rng.choice(['=', '<>', '>']), C),
        lambda: Between(il(), B, il(), rng.random() < 0.4),
        lambda: Between(tl(), tl(), A, rng.random() < 0.4),
        lambda: Between(B, Lit(rand_int_list(rng) or L([0])), il(), rng.random() < 0.4),
        lambda: In(A, [tl() for _ in range(rng.randint(8, 11))], rng.random() < 0.4),
        lambda: In(B, [il() for _ in range(rng.randint(8, 11))], rng.random() < 0.4),
        lambda: In(B, [Lit(rand_int_list(rng) or L([2]))] + [il() for _ in range(8)], rng.random() < 0.4),
        lambda: In(il(), [B] + [Lit(rng.choice(INT_POOL) + 10) for _ in range(8)], rng.random() < 0.4),
        lambda: SubIn(rng.choice([A, C, Lit(rng.choice(TEXT_POOL))]), rng.choice(['a', 'c']), gen_atom(rng, sch), rng.random() < 0.4, sch),
        lambda: Exists(*(lambda p: (p[0], rng.choice(['=', '<>', '<', '>=']), p[1]))(rng.choice([('a', 'c'), ('c', 'a'), ('b', 's'), ('s', 'b'), ('a', 'a'), ('b', 'b'), ('b', 'id')])), sch, rng.random() < 0.3),
        lambda: ScalarSub(*(lambda c: (c, rng.choice(list(OPS)), tl() if c == 'a' else il()))(rng.choice(['a', 'b'])), sch, rng.choice([1, -1, 2])),
        lambda: SubIn(rng.choice([B, S, il()]), rng.choice(['b', 's']), gen_atom(rng, sch), rng.random() < 0.4, sch),
    ]
    weights = [6, 2, 6, 2, 5, 5, 3, 2, 3, 3, 1, 4, 2, 2, 1, 1, 1, 4, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 1, (1 if depth_ok(rng) else 0), (2 if depth_ok(rng) else 0), (2 if depth_ok(rng) else 0), (1 if depth_ok(rng) else 0)]
    return rng.choices(choices, weights)[0]()


def gen_pred(rng, sch, depth=0):
    r = rng.random()
    if depth >= 2 or r < 0.45:
        return gen_atom(rng, sch)
    if r < 0.6:
        return Not(gen_pred(rng, sch, depth + 1))
    return Bin(rng.choice(['AND', 'OR']), gen_pred(rng, sch, depth + 1), gen_pred(rng, sch, depth + 1))


# ---------------------------------------------------------------- queries
def order_rows(rows, keys):
    """keys: list of (col, desc, coll)"""
    def cmpf(r1, r2):
        for col, desc, coll in keys:
            a, b = r1[col], r2[col]
            if a is None and b is None:
                c = 0
            elif a is None:
                c = -1
            elif b is None:
                c = 1
            elif isinstance(a, L):
                c = lcmp(a, b, coll)
            else:
                c = scmp(a, b, coll)
            if desc:
                c = -c
            if c:
                return c
        return 0
    return sorted(rows, key=functools.cmp_to_key(cmpf))


def qrec(types, sort, sql, rows):
    vals = [[render(v) for v in r] for r in rows]
    if sort == 'rowsort':
        vals.sort()
    out = f'query {types} {sort}\n{sql}\n----\n'
    for r in vals:
        out += '\n'.join(r) + '\n'
    return out


def gen_query(rng, sch, table):
    p = gen_pred(rng, sch)
    w = p.sql()
    sel = [r for r in table if p.ev(r) is True]
    kind = rng.choices(range(12), [6, 3, 4, 2, 2, 2, 2, 1, 1, 1, 2, 2])[0]
    if kind == 0:
        return qrec('I', 'rowsort', f'SELECT id FROM t WHERE {w}', [[r['id']] for r in sel])
    if kind == 1:
        return qrec('ITI', 'rowsort', f'SELECT id, a, s FROM t WHERE {w}', [[r['id'], r['a'], r['s']] for r in sel])
    if kind == 2:
        desc = rng.random() < 0.5
        iddesc = rng.random() < 0.3
        o = order_rows(sel, [('s', desc, 'binary'), ('id', iddesc, 'binary')])
        lim = rng.randint(0, 6)
        off = rng.randint(0, 3)
        lo = f' LIMIT {lim}' + (f' OFFSET {off}' if rng.random() < 0.6 else '')
        if ' OFFSET ' not in lo:
            off = 0
        o = o[off:off + lim]
        return qrec('II', 'nosort', f'SELECT id, s FROM t WHERE {w} ORDER BY s{" DESC" if desc else ""}, id{" DESC" if iddesc else ""}{lo}',
                    [[r['id'], r['s']] for r in o])
    if kind == 3:
        return qrec('I', 'nosort', f'SELECT count(*) FROM t WHERE {w}', [[len(sel)]])
    if kind == 4:
        vals = sorted({r['s'] for r in sel}, key=lambda v: (v is not None, v))
        return qrec('I', 'rowsort', f'SELECT DISTINCT s FROM t WHERE {w}', [[v] for v in vals])
    if kind == 5:
        g = {}
        for r in sel:
            g[r['s']] = g.get(r['s'], 0) + 1
        return qrec('II', 'rowsort', f'SELECT s, count(*) FROM t WHERE {w} GROUP BY s', [[k, v] for k, v in g.items()])
    if kind == 6:
        col = rng.choice(['a', 'b'])
        coll = sch.coll[col]
        desc = rng.random() < 0.4
        o = order_rows(sel, [(col, desc, coll), ('id', False, 'binary')])
        lim = rng.randint(1, 8)
        return qrec('IT', 'nosort', f'SELECT id, {col} FROM t WHERE {w} ORDER BY {col}{" DESC" if desc else ""}, id LIMIT {lim}',
                    [[r['id'], r[col]] for r in o[:lim]])
    if kind == 7:
        col = 'b' if sch.acoll == 'nocase' else rng.choice(['a', 'b'])
        d = []
        for r in sel:
            if not any((x is None and r[col] is None) or (x is not None and r[col] is not None and lcmp(x, r[col], 'binary') == 0) for x in d):
                d.append(r[col])
        return qrec('T', 'rowsort', f'SELECT DISTINCT {col} FROM t WHERE {w}', [[v] for v in d])
    if kind == 8:
        col = rng.choice(['a', 'b'])
        coll = sch.coll[col]
        d = []
        for r in sel:
            v = r[col]
            if v is not None and not any(lcmp(x, v, coll) == 0 for x in d):
                d.append(v)
        return qrec('I', 'nosort', f'SELECT count(DISTINCT {col}) FROM t WHERE {w}', [[len(d)]])
    if kind == 9:
        col = rng.choice(['a', 'b'])
        coll = sch.coll[col]
        groups = []
        for r in sel:
            v = r[col]
            for gg in groups:
                if (gg[0] is None and v is None) or (gg[0] is not None and v is not None and lcmp(gg[0], v, coll) == 0):
                    gg[1] += 1
                    break
            else:
                groups.append([v, 1])
        return qrec('I', 'rowsort', f'SELECT count(*) FROM t WHERE {w} GROUP BY {col}', [[gg[1]] for gg in groups])
    if kind == 10:
        nn = [r['b'] for r in sel if r['b'] is not None]
        mn = min(nn, key=functools.cmp_to_key(lambda x, y: lcmp(x, y, 'binary'))) if nn else None
        mx = max(nn, key=functools.cmp_to_key(lambda x, y: lcmp(x, y, 'binary'))) if nn else None
        return qrec('TT', 'nosort', f'SELECT min(b), max(b) FROM t WHERE {w}', [[mn, mx]])
    if kind == 11:
        o = order_rows(sel, [('id', False, 'binary')])
        return qrec('ITTIT', 'nosort', f'SELECT id, a, b, s, c FROM t WHERE {w} ORDER BY id', [[r[k] for k in ['id', 'a', 'b', 's', 'c']] for r in o])


def dump(table):
    o = order_rows(table, [('id', False, 'binary')])
    return qrec('ITTIT', 'nosort', 'SELECT id, a, b, s, c FROM t ORDER BY id', [[r[k] for k in ['id', 'a', 'b', 's', 'c']] for r in o])


def gen_file(seed, with_indexes):
    rng = random.Random(seed)
    sch = Schema(rng)
    out = ['# seed %d %s\n' % (seed, 'indexed' if with_indexes else 'no indexes')]
    out.append(f'statement ok\n{sch.create()}\n')
    idx = sch.indexes()
    if with_indexes:
        for i in idx:
            out.append(f'statement ok\n{i}\n')
    n = rng.choice([rng.randint(8, 30), rng.randint(40, 120)])
    table = [rand_row(rng, i + 1) for i in range(n)]
    for k in range(0, n, 7):
        out.append('statement ok\nINSERT INTO t VALUES ' + ', '.join(row_sql(r) for r in table[k:k + 7]) + '\n')
    if rng.random() < 0.5:
        out.append('statement ok\nANALYZE\n')
    out.append(dump(table))
    next_id = n + 1
    SubIn.TABLE = table
    for step in range(6):
        for _ in range(rng.randint(8, 14)):
            out.append(gen_query(rng, sch, table))
        # a write
        p = gen_pred(rng, sch)
        hit = [r for r in table if p.ev(r) is True]
        w = rng.random()
        if w < 0.3:
            v = None if rng.random() < 0.1 else rng.randint(0, 5)
            out.append(f'statement ok\nUPDATE t SET s = {lit_sql(v)} WHERE {p.sql()}\n')
            for r in hit:
                r['s'] = v
        elif w < 0.5:
            v = rand_text_list(rng)
            out.append(f'statement ok\nUPDATE t SET a = {lit_sql(v)} WHERE {p.sql()}\n')
            for r in hit:
                r['a'] = L(v) if v is not None else None
        elif w < 0.65:
            v = rand_int_list(rng)
            out.append(f'statement ok\nUPDATE t SET b = {lit_sql(v)}, c = {lit_sql("zz")} WHERE {p.sql()}\n')
            for r in hit:
                r['b'] = L(v) if v is not None else None
                r['c'] = 'zz'
        elif w < 0.85:
            out.append(f'statement ok\nDELETE FROM t WHERE {p.sql()}\n')
            table[:] = [r for r in table if r not in hit]
        else:
            new = [rand_row(rng, next_id + i) for i in range(rng.randint(1, 5))]
            next_id += len(new)
            out.append('statement ok\nINSERT INTO t VALUES ' + ', '.join(row_sql(r) for r in new) + '\n')
            table.extend(new)
        out.append(dump(table))
        out.append('statement ok\nCHECK\n')
    return '\n'.join(out)


if __name__ == '__main__':
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for seed in (int(a) for a in sys.argv[2:]):
        for wi, name in [(True, 'idx'), (False, 'noidx')]:
            with open(os.path.join(out_dir, f's{seed}_{name}.test'), 'w') as f:
                f.write('# Generated by tools/gen_tests/multivalued.py '
                        '(seed %d).\n' % seed)
                f.write(gen_file(seed, wi))
