// ToSql: renders syntax trees back to SQL text of the dialect.
//
// The output is meant for people as much as for the round trip (EXPLAIN,
// error messages), so it uses the fewest parentheses that keep the tree
// shape: a child is parenthesized exactly when its operator binds looser than
// its place in the parent allows. Identifiers are "quoted" only when they
// are reserved words or not plain lower-case names.
//
// Round-trip contract: for every tree the parser produces,
// ParseStatement(ToSql(s)) is Equal to s. Every pair of brackets the output
// adds stands for one parent-child edge of the tree, so re-parsing it never
// nests deeper than the tree is high: it stays within the parser's limits.
// Trees built by hand may hold values that have no literal spelling (a negative
// REAL, a TIMESTAMP or LIST literal); those render as the equivalent expression
// instead.
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "parser/lexer.h"
#include "parser/parser.h"

namespace levelql::parser {
namespace {

// Binding strength, loosest first; see the grammar in grammar.cc.
enum Level {
  kLevelOr = 1,
  kLevelAnd,
  kLevelNot,
  kLevelEquality,  // = == <> != IS BETWEEN IN LIKE
  kLevelCompare,   // < <= > >=
  kLevelBit,       // & | << >>
  kLevelAdd,
  kLevelMultiply,
  kLevelConcat,
  kLevelCollate,  // postfix COLLATE
  kLevelUnary,    // prefix + -
  kLevelPrimary,
};

int BinaryLevel(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr:
      return kLevelOr;
    case BinaryOp::kAnd:
      return kLevelAnd;
    case BinaryOp::kEq:
    case BinaryOp::kNe:
      return kLevelEquality;
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe:
      return kLevelCompare;
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
      return kLevelAdd;
    case BinaryOp::kMul:
    case BinaryOp::kDiv:
    case BinaryOp::kMod:
      return kLevelMultiply;
    case BinaryOp::kConcat:
      return kLevelConcat;
    case BinaryOp::kBitAnd:
    case BinaryOp::kBitOr:
    case BinaryOp::kShiftLeft:
    case BinaryOp::kShiftRight:
      return kLevelBit;
  }
  return kLevelPrimary;
}

int LevelOf(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kUnary:
      return e.unary_op == UnaryOp::kNot ? kLevelNot : kLevelUnary;
    case ExprKind::kBinary:
      return BinaryLevel(e.binary_op);
    case ExprKind::kBetween:
    case ExprKind::kIn:
    case ExprKind::kIsNull:
    case ExprKind::kLike:
      return kLevelEquality;
    case ExprKind::kCollate:
      return kLevelCollate;
    default:
      return kLevelPrimary;
  }
}

void WriteName(const std::string& name, std::string* out) {
  *out += QuoteIdentifier(name);
}

void WriteLiteral(const Value& v, std::string* out) {
  if (v.type() == Type::kInteger && v.int_value() < 0) {
    if (v.int_value() == INT64_MIN) {
      *out += "(-9223372036854775808)";  // folded back by the parser
    } else {
      // Only a hexadecimal literal spells a negative integer directly.
      char buf[24];
      std::snprintf(buf, sizeof(buf), "0x%016" PRIx64,
                    static_cast<uint64_t>(v.int_value()));
      *out += buf;
    }
    return;
  }
  std::string text = v.ToSqlLiteral();
  if (v.type() == Type::kReal && std::signbit(v.real_value())) {
    *out += '(' + text + ')';
    return;
  }
  *out += text;
}

void WriteType(const TypeName& t, std::string* out) {
  switch (t.type) {
    case Type::kInteger:
      *out += "INTEGER";
      break;
    case Type::kReal:
      *out += "REAL";
      break;
    case Type::kText:
      *out += t.length ? "VARCHAR" : "TEXT";
      break;
    case Type::kBlob:
      *out += "BLOB";
      break;
    case Type::kBoolean:
      *out += "BOOLEAN";
      break;
    case Type::kTimestamp:
      *out += "TIMESTAMP";
      break;
    default:
      *out += std::string(::levelql::TypeName(t.type));
      break;
  }
  if (t.length) *out += '(' + std::to_string(*t.length) + ')';
  if (t.is_list) *out += "[]";
}

void Write(const Expr& e, int min_level, std::string* out);

void WriteList(const std::vector<ExprPtr>& args, size_t from,
               std::string* out) {
  for (size_t i = from; i < args.size(); ++i) {
    if (i > from) *out += ", ";
    Write(*args[i], 0, out);
  }
}

void WriteSelect(const Select& s, std::string* out);

void WriteInner(const Expr& e, std::string* out) {
  const auto& a = e.args;
  switch (e.kind) {
    case ExprKind::kLiteral:
      WriteLiteral(e.literal, out);
      return;
    case ExprKind::kColumn:
      if (!e.qualifier.empty()) {
        WriteName(e.qualifier, out);
        *out += '.';
      }
      WriteName(e.name, out);
      return;
    case ExprKind::kParam:
      if (!e.name.empty()) {
        *out += ':' + e.name;
      } else {
        *out += '?' + std::to_string(e.param_index);
      }
      return;
    case ExprKind::kUnary:
      if (e.unary_op == UnaryOp::kNot) {
        *out += "NOT ";
        Write(*a[0], kLevelNot, out);
      } else {
        // The space keeps "- -x" from becoming a "--" comment.
        *out += UnaryOpText(e.unary_op);
        *out += ' ';
        Write(*a[0], kLevelUnary, out);
      }
      return;
    case ExprKind::kBinary: {
      int level = BinaryLevel(e.binary_op);
      Write(*a[0], level, out);
      *out += ' ';
      *out += BinaryOpText(e.binary_op);
      *out += ' ';
      Write(*a[1], level + 1, out);  // left-associative
      return;
    }
    case ExprKind::kBetween:
      Write(*a[0], kLevelEquality, out);
      *out += e.negated ? " NOT BETWEEN " : " BETWEEN ";
      Write(*a[1], kLevelEquality, out);  // its AND ends it
      *out += " AND ";
      Write(*a[2], kLevelCompare, out);
      return;
    case ExprKind::kIn:
      Write(*a[0], kLevelEquality, out);
      *out += e.negated ? " NOT IN (" : " IN (";
      if (e.subquery) {
        WriteSelect(*e.subquery, out);
      } else {
        WriteList(a, 1, out);
      }
      *out += ')';
      return;
    case ExprKind::kSubquery:
      *out += '(';
      WriteSelect(*e.subquery, out);
      *out += ')';
      return;
    case ExprKind::kExists:
      *out += "EXISTS (";
      WriteSelect(*e.subquery, out);
      *out += ')';
      return;
    case ExprKind::kIsNull:
      Write(*a[0], kLevelEquality, out);
      *out += e.negated ? " IS NOT NULL" : " IS NULL";
      return;
    case ExprKind::kLike:
      Write(*a[0], kLevelEquality, out);
      *out += e.negated ? " NOT LIKE " : " LIKE ";
      Write(*a[1], kLevelCompare, out);
      if (a.size() > 2) {
        *out += " ESCAPE ";
        Write(*a[2], kLevelCompare, out);
      }
      return;
    case ExprKind::kFunction:
      WriteName(e.name, out);
      *out += '(';
      if (e.star) {
        *out += '*';
      } else {
        if (e.distinct) *out += "DISTINCT ";
        WriteList(a, 0, out);
      }
      *out += ')';
      return;
    case ExprKind::kCollate:
      Write(*a[0], kLevelCollate, out);
      *out += " COLLATE ";
      WriteName(e.name, out);
      return;
    case ExprKind::kCast:
      *out += "CAST(";
      Write(*a[0], 0, out);
      *out += " AS ";
      WriteType(e.cast_type, out);
      *out += ')';
      return;
    case ExprKind::kArray:
      *out += "ARRAY[";
      WriteList(a, 0, out);
      *out += ']';
      return;
    case ExprKind::kCase: {
      *out += "CASE";
      size_t i = 0;
      if (e.case_operand) {
        *out += ' ';
        Write(*a[i++], 0, out);
      }
      const size_t whens_end = a.size() - (e.case_else ? 1 : 0);
      for (; i < whens_end; i += 2) {
        *out += " WHEN ";
        Write(*a[i], 0, out);
        *out += " THEN ";
        Write(*a[i + 1], 0, out);
      }
      if (e.case_else) {
        *out += " ELSE ";
        Write(*a.back(), 0, out);
      }
      *out += " END";
      return;
    }
  }
}

// Writes `e` where the grammar accepts operators binding at least as tightly
// as `min_level`, parenthesizing it otherwise.
void Write(const Expr& e, int min_level, std::string* out) {
  bool parens = LevelOf(e) < min_level;
  if (parens) *out += '(';
  WriteInner(e, out);
  if (parens) *out += ')';
}

void WriteIndexColumns(const std::vector<IndexColumn>& columns,
                       std::string* out) {
  *out += '(';
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i) *out += ", ";
    WriteName(columns[i].name, out);
    if (!columns[i].collation.empty()) {
      *out += " COLLATE ";
      WriteName(columns[i].collation, out);
    }
    if (columns[i].desc) *out += " DESC";
  }
  *out += ')';
}

void WriteHint(const IndexHint& hint, std::string* out) {
  if (hint.not_indexed) {
    *out += " NOT INDEXED";
  } else if (!hint.index.empty()) {
    *out += " INDEXED BY ";
    WriteName(hint.index, out);
  }
}

// A FROM item: a table's name, or a subquery in brackets.
void WriteSource(const std::string& table, const Select* subquery,
                 std::string* out) {
  if (!subquery) return WriteName(table, out);
  *out += '(';
  WriteSelect(*subquery, out);
  *out += ')';
}

// `WITH ... ` (with its trailing space), or nothing.
void WriteWith(const std::vector<CommonTable>& with, bool recursive,
               std::string* out) {
  for (size_t i = 0; i < with.size(); ++i) {
    const CommonTable& c = with[i];
    *out += i ? ", " : recursive ? "WITH RECURSIVE " : "WITH ";
    WriteName(c.name, out);
    for (size_t k = 0; k < c.columns.size(); ++k) {
      *out += k ? ", " : " (";
      WriteName(c.columns[k], out);
    }
    if (!c.columns.empty()) *out += ')';
    *out += " AS (";
    WriteSelect(*c.select, out);
    *out += ')';
  }
  if (!with.empty()) *out += ' ';
}

void WriteSelect(const Select& s, std::string* out) {
  WriteWith(s.with, s.recursive, out);
  *out += s.distinct ? "SELECT DISTINCT " : "SELECT ";
  for (size_t i = 0; i < s.items.size(); ++i) {
    if (i) *out += ", ";
    const SelectItem& item = s.items[i];
    if (!item.expr) {
      if (!item.star_table.empty()) {
        WriteName(item.star_table, out);
        *out += '.';
      }
      *out += '*';
      continue;
    }
    Write(*item.expr, 0, out);
    if (!item.alias.empty()) {
      *out += " AS ";
      WriteName(item.alias, out);
    }
  }
  if (!s.table.empty() || s.from_subquery) {
    *out += " FROM ";
    WriteSource(s.table, s.from_subquery.get(), out);
    if (!s.alias.empty()) {
      *out += " AS ";
      WriteName(s.alias, out);
    }
    WriteHint(s.hint, out);
    for (const JoinTable& j : s.joins) {
      *out += j.left    ? " LEFT JOIN "
              : j.right ? " RIGHT JOIN "
              : j.full  ? " FULL JOIN "
                        : " JOIN ";
      WriteSource(j.table, j.subquery.get(), out);
      if (!j.alias.empty()) {
        *out += " AS ";
        WriteName(j.alias, out);
      }
      WriteHint(j.hint, out);
      if (j.on) {
        *out += " ON ";
        Write(*j.on, 0, out);
      }
    }
  }
  if (s.where) {
    *out += " WHERE ";
    Write(*s.where, 0, out);
  }
  for (size_t i = 0; i < s.group_by.size(); ++i) {
    *out += i ? ", " : " GROUP BY ";
    Write(*s.group_by[i], 0, out);
  }
  if (s.having) {
    *out += " HAVING ";
    Write(*s.having, 0, out);
  }
  for (const CompoundTerm& t : s.compound) {
    *out += ' ';
    *out += CompoundOpText(t.op);
    *out += ' ';
    WriteSelect(*t.select, out);
  }
  for (size_t i = 0; i < s.order_by.size(); ++i) {
    *out += i ? ", " : " ORDER BY ";
    Write(*s.order_by[i].expr, 0, out);
    if (s.order_by[i].desc) *out += " DESC";
  }
  if (s.limit) {
    *out += " LIMIT ";
    Write(*s.limit, 0, out);
    if (s.offset) {
      *out += " OFFSET ";
      Write(*s.offset, 0, out);
    }
  }
}

void WriteColumnDef(const ColumnDef& col, std::string* out) {
  WriteName(col.name, out);
  *out += ' ';
  WriteType(col.type, out);
  if (col.primary_key) {
    *out += col.primary_key_desc ? " PRIMARY KEY DESC" : " PRIMARY KEY";
  }
  if (col.not_null) *out += " NOT NULL";
  if (col.unique) *out += " UNIQUE";
  if (!col.collation.empty()) {
    *out += " COLLATE ";
    WriteName(col.collation, out);
  }
  if (col.default_value) {
    *out += " DEFAULT (";
    Write(*col.default_value, 0, out);
    *out += ')';
  }
}

struct StatementWriter {
  std::string* out;

  void operator()(const CreateTable& c) const {
    *out += c.if_not_exists ? "CREATE TABLE IF NOT EXISTS " : "CREATE TABLE ";
    WriteName(c.name, out);
    *out += " (";
    for (size_t i = 0; i < c.columns.size(); ++i) {
      if (i) *out += ", ";
      WriteColumnDef(c.columns[i], out);
    }
    if (!c.primary_key.empty()) {
      *out += c.columns.empty() ? "PRIMARY KEY " : ", PRIMARY KEY ";
      WriteIndexColumns(c.primary_key, out);
    }
    *out += ')';
    for (size_t i = 0; i < c.options.size(); ++i) {
      *out += i ? ", " : " WITH (";
      WriteName(c.options[i].name, out);
      *out += " = " + c.options[i].value.ToSqlLiteral();
    }
    if (!c.options.empty()) *out += ')';
  }
  void operator()(const CreateIndex& c) const {
    *out += c.unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ";
    if (c.if_not_exists) *out += "IF NOT EXISTS ";
    WriteName(c.name, out);
    *out += " ON ";
    WriteName(c.table, out);
    *out += ' ';
    WriteIndexColumns(c.columns, out);
    if (!c.include.empty()) {
      *out += " INCLUDE (";
      for (size_t i = 0; i < c.include.size(); ++i) {
        if (i) *out += ", ";
        WriteName(c.include[i], out);
      }
      *out += ')';
    }
    if (c.ranked) *out += " WITH (ranked)";
  }
  void operator()(const DropTable& d) const {
    *out += d.if_exists ? "DROP TABLE IF EXISTS " : "DROP TABLE ";
    WriteName(d.name, out);
  }
  void operator()(const AlterTable& a) const {
    *out += "ALTER TABLE ";
    WriteName(a.name, out);
    switch (a.action) {
      case AlterTable::Action::kAddColumn:
        *out += " ADD COLUMN ";
        WriteColumnDef(a.column, out);
        break;
      case AlterTable::Action::kRenameTable:
        *out += " RENAME TO ";
        WriteName(a.to, out);
        break;
      case AlterTable::Action::kRenameColumn:
        *out += " RENAME COLUMN ";
        WriteName(a.from, out);
        *out += " TO ";
        WriteName(a.to, out);
        break;
      case AlterTable::Action::kDropColumn:
        *out += " DROP COLUMN ";
        WriteName(a.from, out);
        break;
    }
  }
  void operator()(const DropIndex& d) const {
    *out += d.if_exists ? "DROP INDEX IF EXISTS " : "DROP INDEX ";
    WriteName(d.name, out);
  }
  void operator()(const CreateView& c) const {
    *out += c.if_not_exists ? "CREATE VIEW IF NOT EXISTS " : "CREATE VIEW ";
    WriteName(c.name, out);
    for (size_t i = 0; i < c.columns.size(); ++i) {
      *out += i ? ", " : " (";
      WriteName(c.columns[i], out);
    }
    if (!c.columns.empty()) *out += ')';
    *out += " AS ";
    WriteSelect(*c.select, out);
  }
  void operator()(const DropView& d) const {
    *out += d.if_exists ? "DROP VIEW IF EXISTS " : "DROP VIEW ";
    WriteName(d.name, out);
  }
  void operator()(const Insert& s) const {
    WriteWith(s.with, s.recursive, out);
    *out += s.on_conflict == OnConflict::kReplace  ? "INSERT OR REPLACE INTO "
            : s.on_conflict == OnConflict::kIgnore ? "INSERT OR IGNORE INTO "
                                                   : "INSERT INTO ";
    WriteName(s.table, out);
    if (!s.columns.empty()) {
      *out += " (";
      for (size_t i = 0; i < s.columns.size(); ++i) {
        if (i) *out += ", ";
        WriteName(s.columns[i], out);
      }
      *out += ')';
    }
    if (s.select) {
      *out += ' ';
      WriteSelect(*s.select, out);
      return;
    }
    *out += " VALUES ";
    for (size_t i = 0; i < s.rows.size(); ++i) {
      if (i) *out += ", ";
      *out += '(';
      WriteList(s.rows[i], 0, out);
      *out += ')';
    }
  }
  void operator()(const Update& s) const {
    WriteWith(s.with, s.recursive, out);
    *out += "UPDATE ";
    WriteName(s.table, out);
    for (size_t i = 0; i < s.assignments.size(); ++i) {
      *out += i ? ", " : " SET ";
      WriteName(s.assignments[i].column, out);
      *out += " = ";
      Write(*s.assignments[i].value, 0, out);
    }
    if (s.where) {
      *out += " WHERE ";
      Write(*s.where, 0, out);
    }
  }
  void operator()(const Delete& s) const {
    WriteWith(s.with, s.recursive, out);
    *out += "DELETE FROM ";
    WriteName(s.table, out);
    if (s.where) {
      *out += " WHERE ";
      Write(*s.where, 0, out);
    }
  }
  void operator()(const Select& s) const { WriteSelect(s, out); }
  void operator()(const Explain& s) const {
    *out += s.analyze ? "EXPLAIN ANALYZE " : "EXPLAIN ";
    if (s.statement) std::visit(*this, s.statement->node);
  }
  void operator()(const Analyze& s) const {
    *out += "ANALYZE";
    if (!s.table.empty()) {
      *out += ' ';
      WriteName(s.table, out);
    }
  }
  void operator()(const Reindex& s) const {
    *out += "REINDEX";
    if (!s.name.empty()) {
      *out += ' ';
      WriteName(s.name, out);
    }
  }
  void operator()(const Check& s) const {
    *out += "CHECK";
    if (s.target == Check::Target::kAll) return;
    *out += s.target == Check::Target::kTable ? " TABLE " : " INDEX ";
    WriteName(s.name, out);
  }
  void operator()(const Begin& s) const {
    *out += "BEGIN";
    if (s.mode == Begin::Mode::kImmediate) *out += " IMMEDIATE";
    if (s.mode == Begin::Mode::kExclusive) *out += " EXCLUSIVE";
  }
  void operator()(const Commit&) const { *out += "COMMIT"; }
  void operator()(const Rollback&) const { *out += "ROLLBACK"; }
  void operator()(const Pragma& s) const {
    *out += "PRAGMA ";
    WriteName(s.name, out);
    if (!s.value) return;
    *out += " = ";
    // A pragma value is a single (possibly signed) literal: no parentheses.
    const Value& v = *s.value;
    if (v.type() == Type::kInteger) {
      *out += std::to_string(v.int_value());
    } else {
      *out += v.ToSqlLiteral();
    }
  }
};

}  // namespace

std::string ToSql(const Expr& expr) {
  std::string out;
  Write(expr, 0, &out);
  return out;
}

std::string ToSql(const Statement& statement) {
  std::string out;
  std::visit(StatementWriter{&out}, statement.node);
  return out;
}

}  // namespace levelql::parser
