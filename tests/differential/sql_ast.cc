#include "tests/differential/sql_ast.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace levelql::difftest {

Expr Expr::Col(int c) {
  Expr e;
  e.kind = Kind::kColumn;
  e.column = c;
  return e;
}

Expr Expr::Lit(Value v) {
  Expr e;
  e.kind = Kind::kLiteral;
  e.literal = std::move(v);
  return e;
}

Expr Expr::Unary(std::string op, Expr a) {
  Expr e;
  e.kind = Kind::kUnary;
  e.op = std::move(op);
  e.kids.push_back(std::move(a));
  return e;
}

Expr Expr::Binary(std::string op, Expr a, Expr b) {
  Expr e;
  e.kind = Kind::kBinary;
  e.op = std::move(op);
  e.kids.push_back(std::move(a));
  e.kids.push_back(std::move(b));
  return e;
}

Expr Expr::Func(std::string name, std::vector<Expr> args) {
  Expr e;
  e.kind = Kind::kFunc;
  e.op = std::move(name);
  e.kids = std::move(args);
  return e;
}

TableDef JoinedTable(const TableDef& a, const TableDef& b, bool on, bool left,
                     bool right, bool full) {
  TableDef j;
  j.name = a.name + " AS x" +
           (left    ? " LEFT JOIN "
            : right ? " RIGHT JOIN "
            : full  ? " FULL JOIN "
            : on    ? " JOIN "
                    : ", ") +
           b.name + " AS y";
  for (const Column& c : a.cols) {
    j.cols.push_back(c);
    j.cols.back().name = "x." + c.name;
  }
  for (const Column& c : b.cols) {
    j.cols.push_back(c);
    j.cols.back().name = "y." + c.name;
  }
  if (!a.pk.empty() && !b.pk.empty()) {
    j.pk = a.pk;
    j.pk_desc = a.pk_desc;
    for (size_t i = 0; i < b.pk.size(); ++i) {
      j.pk.push_back(b.pk[i] + static_cast<int>(a.cols.size()));
      j.pk_desc.push_back(b.pk_desc[i]);
    }
  }
  return j;
}

TableDef QueryTable(const Query& q, const std::vector<TableDef>& tables) {
  if (q.join_table < 0) return tables[q.table];
  return JoinedTable(tables[q.table], tables[q.join_table],
                     q.join_on.has_value(), q.left_join, q.right_join,
                     q.full_join);
}

std::string RenderLiteral(const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      return "NULL";
    case Type::kInteger:
      return std::to_string(v.int_value());
    case Type::kBoolean:
      return v.bool_value() ? "TRUE" : "FALSE";
    case Type::kReal: {
      if (std::isinf(v.real_value())) {
        return v.real_value() > 0 ? "1e999" : "-1e999";
      }
      // The shortest form that reads back as the same double.
      char buf[40];
      for (int precision = 15; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof(buf), "%.*g", precision, v.real_value());
        if (std::strtod(buf, nullptr) == v.real_value()) break;
      }
      std::string s(buf);
      if (s.find_first_of(".eE") == std::string::npos) s += ".0";
      return s;
    }
    case Type::kText: {
      std::string out = "'";
      for (char c : v.text()) {
        if (c == '\'') out += '\'';
        out += c;
      }
      return out + "'";
    }
    default:
      return v.ToSqlLiteral();
  }
}

namespace {

bool IsNocaseColumn(const Expr& e, const TableDef& t) {
  return e.kind == Expr::Kind::kColumn && t.cols[e.column].nocase;
}

}  // namespace

std::string RenderExpr(const Expr& e, const TableDef& t, Dialect d,
                       std::vector<Value>* params) {
  auto kid = [&](size_t i) { return RenderExpr(e.kids[i], t, d, params); };
  switch (e.kind) {
    case Expr::Kind::kColumn:
      return t.cols[e.column].name;
    case Expr::Kind::kLiteral:
      if (params) {
        params->push_back(e.literal);
        return "?";
      }
      return RenderLiteral(e.literal);
    case Expr::Kind::kUnary:
      return "(" + e.op + " " + kid(0) + ")";
    case Expr::Kind::kBinary:
      return "(" + kid(0) + " " + e.op + " " + kid(1) + ")";
    case Expr::Kind::kIsNull:
      return "(" + kid(0) + (e.negated ? " IS NOT NULL)" : " IS NULL)");
    case Expr::Kind::kBetween:
      return "(" + kid(0) + (e.negated ? " NOT BETWEEN " : " BETWEEN ") +
             kid(1) + " AND " + kid(2) + ")";
    case Expr::Kind::kIn: {
      std::string out = "(" + kid(0) + (e.negated ? " NOT IN (" : " IN (");
      for (size_t i = 1; i < e.kids.size(); ++i) {
        if (i > 1) out += ", ";
        out += kid(i);
      }
      return out + "))";
    }
    case Expr::Kind::kLike: {
      std::string lhs = kid(0), rhs = kid(1);
      // SQLite runs with case_sensitive_like = ON; levelql's LIKE follows
      // the left operand's collation, so a nocase column matches without
      // case. lower() on both sides says the same for ASCII text.
      if (d == Dialect::kSqlite && IsNocaseColumn(e.kids[0], t)) {
        lhs = "lower(" + lhs + ")";
        rhs = "lower(" + rhs + ")";
      }
      return "(" + lhs + (e.negated ? " NOT LIKE " : " LIKE ") + rhs +
             (e.escape ? " ESCAPE '!')" : ")");
    }
    case Expr::Kind::kFunc: {
      std::string out = e.op + "(";
      for (size_t i = 0; i < e.kids.size(); ++i) {
        if (i) out += ", ";
        out += kid(i);
      }
      return out + ")";
    }
    case Expr::Kind::kCast:
      return "CAST(" + kid(0) + " AS " + e.op + ")";
    case Expr::Kind::kCase: {
      std::string out = "CASE";
      size_t i = 0;
      if (e.case_operand) out += " " + kid(i++);
      const size_t whens_end = e.kids.size() - (e.case_else ? 1 : 0);
      for (; i < whens_end; i += 2) {
        out += " WHEN " + kid(i) + " THEN " + kid(i + 1);
      }
      if (e.case_else) out += " ELSE " + kid(e.kids.size() - 1);
      return out + " END";
    }
    case Expr::Kind::kAgg:
      if (e.kids.empty()) return e.op + "(*)";
      return e.op + (e.distinct ? "(DISTINCT " : "(") + kid(0) + ")";
  }
  return "?";
}

std::string RenderQuery(const Query& q, const TableDef& t, Dialect d,
                        std::vector<Value>* params) {
  std::string out = q.distinct ? "SELECT DISTINCT " : "SELECT ";
  if (q.star) {
    out += "*";
  } else {
    for (size_t i = 0; i < q.items.size(); ++i) {
      if (i) out += ", ";
      out += RenderExpr(q.items[i], t, d);
    }
  }
  out += " FROM " + t.name;
  if (q.join_on) out += " ON " + RenderExpr(*q.join_on, t, d, params);
  if (q.where) out += " WHERE " + RenderExpr(*q.where, t, d, params);
  for (size_t i = 0; i < q.group_by.size(); ++i) {
    out += i ? ", " : " GROUP BY ";
    out += RenderExpr(q.group_by[i], t, d);
  }
  if (q.having) out += " HAVING " + RenderExpr(*q.having, t, d);
  for (const CompoundPart& part : q.compound) {
    out +=
        " " + part.op + " " + RenderQuery(*part.query, *part.table, d, params);
  }
  for (size_t i = 0; i < q.order.size(); ++i) {
    out += i ? ", " : " ORDER BY ";
    const OrderTerm& o = q.order[i];
    out += o.ordinal ? std::to_string(o.ordinal) : RenderExpr(o.expr, t, d);
    if (o.desc) out += " DESC";
  }
  if (q.limit >= 0) {
    out += " LIMIT " + std::to_string(q.limit);
    if (q.offset >= 0) out += " OFFSET " + std::to_string(q.offset);
  }
  if (q.derived) {
    out = q.derived_with ? "WITH d AS (" + out + ") SELECT * FROM d"
                         : "SELECT * FROM (" + out + ") AS d";
  }
  return out;
}

std::string RenderCreateTable(const TableDef& t, Dialect) {
  static const char* kTypeNames[] = {"INTEGER", "REAL", "TEXT"};
  const bool pk_on_column = t.pk_on_column && t.pk.size() == 1 && !t.pk_desc[0];
  std::string out = "CREATE TABLE " + t.name + " (";
  for (size_t i = 0; i < t.cols.size(); ++i) {
    const Column& c = t.cols[i];
    if (i) out += ", ";
    out += c.name + " " + kTypeNames[static_cast<int>(c.type)];
    if (c.list) out += "[]";
    if (c.not_null) out += " NOT NULL";
    if (c.unique) out += " UNIQUE";
    if (!c.default_value.is_null()) {
      out += " DEFAULT " + RenderLiteral(c.default_value);
    }
    if (!c.collation.empty()) {
      out += " COLLATE " + (c.collation.find(':') == std::string::npos
                                ? c.collation
                                : "\"" + c.collation + "\"");
    } else if (c.nocase) {
      out += " COLLATE nocase";
    }
    if (pk_on_column && t.pk[0] == static_cast<int>(i)) out += " PRIMARY KEY";
  }
  if (!t.pk.empty() && !pk_on_column) {
    out += ", PRIMARY KEY (";
    for (size_t i = 0; i < t.pk.size(); ++i) {
      if (i) out += ", ";
      out += t.cols[t.pk[i]].name;
      if (t.pk_desc[i]) out += " DESC";
    }
    out += ")";
  }
  return out + ")";
}

std::string RenderCreateIndex(const IndexDef& ix, const TableDef& t,
                              Dialect d) {
  std::string out = ix.unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ";
  out += ix.name + " ON " + t.name + " (";
  for (size_t i = 0; i < ix.cols.size(); ++i) {
    if (i) out += ", ";
    out += t.cols[ix.cols[i]].name;
    if (ix.desc[i]) out += " DESC";
  }
  out += ")";
  // SQLite has no INCLUDE; covering columns change no answer.
  if (d == Dialect::kLevelql && !ix.include.empty()) {
    out += " INCLUDE (";
    for (size_t i = 0; i < ix.include.size(); ++i) {
      if (i) out += ", ";
      out += t.cols[ix.include[i]].name;
    }
    out += ")";
  }
  return out;
}

std::string RenderStep(const Step& s, const std::vector<TableDef>& tables,
                       Dialect d) {
  const TableDef& t = tables[s.table];
  switch (s.kind) {
    case Step::Kind::kCreateTable:
      return RenderCreateTable(t, d);
    case Step::Kind::kCreateIndex:
      return RenderCreateIndex(s.index, t, d);
    case Step::Kind::kDropIndex:
      return "DROP INDEX " + s.index.name;
    case Step::Kind::kDropTable:
      return "DROP TABLE " + t.name;
    case Step::Kind::kInsert: {
      std::string out = "INSERT INTO " + t.name + " (";
      if (s.columns.empty()) {
        for (size_t i = 0; i < t.cols.size(); ++i) {
          if (i) out += ", ";
          out += t.cols[i].name;
        }
      } else {
        for (size_t i = 0; i < s.columns.size(); ++i) {
          if (i) out += ", ";
          out += t.cols[s.columns[i]].name;
        }
      }
      out += ") VALUES ";
      for (size_t r = 0; r < s.rows.size(); ++r) {
        if (r) out += ", ";
        out += "(";
        for (size_t i = 0; i < s.rows[r].size(); ++i) {
          if (i) out += ", ";
          out += RenderLiteral(s.rows[r][i]);
        }
        out += ")";
      }
      return out;
    }
    case Step::Kind::kInsertSelect: {
      std::string out = "INSERT INTO " + t.name + " (";
      for (size_t i = 0; i < t.cols.size(); ++i) {
        if (i) out += ", ";
        out += t.cols[i].name;
      }
      return out + ") " + RenderQuery(s.query, tables[s.query.table], d);
    }
    case Step::Kind::kUpdate: {
      std::string out = "UPDATE " + t.name + " SET ";
      for (size_t i = 0; i < s.sets.size(); ++i) {
        if (i) out += ", ";
        out += t.cols[s.sets[i].first].name + " = " +
               RenderExpr(s.sets[i].second, t, d);
      }
      if (s.where) out += " WHERE " + RenderExpr(*s.where, t, d);
      return out;
    }
    case Step::Kind::kDelete: {
      std::string out = "DELETE FROM " + t.name;
      if (s.where) out += " WHERE " + RenderExpr(*s.where, t, d);
      return out;
    }
    case Step::Kind::kQuery:
      if (s.query.join_table >= 0) {
        return RenderQuery(
            s.query,
            JoinedTable(tables[s.query.table], tables[s.query.join_table],
                        s.query.join_on.has_value(), s.query.left_join,
                        s.query.right_join, s.query.full_join),
            d);
      }
      return RenderQuery(s.query, t, d);
    case Step::Kind::kAnalyze:
      return "ANALYZE " + t.name;
    case Step::Kind::kBegin:
      return s.immediate ? "BEGIN IMMEDIATE" : "BEGIN";
    case Step::Kind::kCommit:
      return "COMMIT";
    case Step::Kind::kRollback:
      return "ROLLBACK";
  }
  return "";
}

int ExprSize(const Expr& e) {
  int n = 1;
  for (const Expr& k : e.kids) n += ExprSize(k);
  return n;
}

}  // namespace levelql::difftest
