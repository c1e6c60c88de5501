// Tests for parser/: the grammar (precedence, literals, names, every
// statement), error messages with their place, limits, and the ToSql round
// trip over the whole conformance suite. The lexer has lexer_test.cc; the
// public SQL text helpers have sql_text_test.cc.
//
// Expression shapes are pinned with Tree(), a fully parenthesized rendering;
// statements with ToSql(), whose output is itself checked to parse back to an
// Equal tree.
#include "parser/parser.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "parser/lexer.h"
#include "tests/support/paths.h"

namespace levelql::parser {
namespace {

std::string Tree(const Expr& e) {
  auto list = [&](size_t from) {
    std::string out;
    for (size_t i = from; i < e.args.size(); ++i) {
      out += ' ' + Tree(*e.args[i]);
    }
    return out;
  };
  const char* neg = e.negated ? "NOT " : "";
  switch (e.kind) {
    case ExprKind::kLiteral:
      return e.literal.ToSqlLiteral();
    case ExprKind::kColumn:
      return e.qualifier.empty() ? e.name : e.qualifier + "." + e.name;
    case ExprKind::kParam:
      return e.name.empty() ? "?" + std::to_string(e.param_index)
                            : ":" + e.name;
    case ExprKind::kUnary: {
      const char* op = e.unary_op == UnaryOp::kNot      ? "NOT"
                       : e.unary_op == UnaryOp::kMinus  ? "-"
                       : e.unary_op == UnaryOp::kBitNot ? "~"
                                                        : "+";
      return std::string("(") + op + " " + Tree(*e.args[0]) + ")";
    }
    case ExprKind::kBinary: {
      static const char* kOps[] = {
          "+",  "-", "*",  "/",   "%",  "||", "=", "<>", "<",
          "<=", ">", ">=", "AND", "OR", "&",  "|", "<<", ">>"};
      return "(" + Tree(*e.args[0]) + " " +
             kOps[static_cast<int>(e.binary_op)] + " " + Tree(*e.args[1]) + ")";
    }
    case ExprKind::kBetween:
      return "(" + Tree(*e.args[0]) + " " + neg + "BETWEEN" + list(1) + ")";
    case ExprKind::kIn:
      if (e.subquery) return "[" + ToSql(e) + "]";
      return "(" + Tree(*e.args[0]) + " " + neg + "IN" + list(1) + ")";
    case ExprKind::kSubquery:
    case ExprKind::kExists:
      return "[" + ToSql(e) + "]";
    case ExprKind::kIsNull:
      return "(" + Tree(*e.args[0]) + " IS " + neg + "NULL)";
    case ExprKind::kLike:
      return "(" + Tree(*e.args[0]) + " " + neg + "LIKE" + list(1) + ")";
    case ExprKind::kFunction:
      if (e.star) return e.name + "(*)";
      return e.name + "(" + (e.distinct ? "DISTINCT" : "") + list(0) + ")";
    case ExprKind::kCollate:
      return "(" + Tree(*e.args[0]) + " COLLATE " + e.name + ")";
    case ExprKind::kCast:
      return "CAST(" + Tree(*e.args[0]) + " AS " +
             std::string(::levelql::TypeName(e.cast_type.type)) +
             (e.cast_type.is_list ? "[]" : "") + ")";
    case ExprKind::kArray:
      return "ARRAY[" + list(0) + "]";
    case ExprKind::kCase:
      return std::string("CASE") + (e.case_operand ? "(x)" : "") +
             (e.case_else ? "(else)" : "") + list(0) + " END";
  }
  return "?";
}

Statement Parse(const std::string& sql) {
  Result<Statement> r = ParseStatement(sql);
  EXPECT_TRUE(r.ok()) << sql << "\n" << r.status().ToString();
  if (!r.ok()) return Statement{};
  return std::move(r).value();
}

// The shape of the WHERE clause of SELECT * FROM t WHERE <where>.
std::string Where(const std::string& where) {
  Statement s = Parse("SELECT * FROM t WHERE " + where);
  const auto* select = std::get_if<Select>(&s.node);
  if (!select || !select->where) return "<no where>";
  return Tree(*select->where);
}

// The first select item of SELECT <item> FROM t.
std::string Item(const std::string& item) {
  Statement s = Parse("SELECT " + item + " FROM t");
  const auto* select = std::get_if<Select>(&s.node);
  if (!select || select->items.empty() || !select->items[0].expr) {
    return "<no item>";
  }
  return Tree(*select->items[0].expr);
}

const Value& Literal(const std::string& item) {
  static Statement keep;
  keep = Parse("SELECT " + item + " FROM t");
  static const Value kNone = Value::Text("<not a literal>");
  const auto* select = std::get_if<Select>(&keep.node);
  if (!select || select->items.empty() || !select->items[0].expr ||
      select->items[0].expr->kind != ExprKind::kLiteral) {
    return kNone;
  }
  return select->items[0].expr->literal;
}

// ToSql of the statement, after checking it parses back to an Equal tree.
std::string RoundTrip(const std::string& sql) {
  Statement s = Parse(sql);
  std::string out = ToSql(s);
  Result<Statement> again = ParseStatement(out);
  EXPECT_TRUE(again.ok()) << out << "\n" << again.status().ToString();
  if (again.ok()) {
    EXPECT_TRUE(Equal(s, *again)) << sql << "\n" << out;
  }
  return out;
}

std::string Error(const std::string& sql, const ParseOptions& options = {}) {
  Result<std::vector<Statement>> r = ParseScript(sql, options);
  return r.ok() ? "OK" : r.status().ToString();
}

// Only the first line: without the source excerpt and caret.
std::string ErrorLine(const std::string& sql,
                      const ParseOptions& options = {}) {
  std::string e = Error(sql, options);
  return e.substr(0, e.find('\n'));
}

// --- Precedence -----------------------------------------------------------

TEST(ParserPrecedence, OrBindsLooserThanAnd) {
  EXPECT_EQ(Where("a OR b AND c OR d"), "((a OR (b AND c)) OR d)");
}

TEST(ParserPrecedence, PrefixNotBindsLooserThanNotIn) {
  EXPECT_EQ(Where("NOT col3 NOT IN (1, 2)"), "(NOT (col3 NOT IN 1 2))");
  EXPECT_EQ(Where("NOT NOT a"), "(NOT (NOT a))");
}

TEST(ParserPrecedence, UnaryOperatorsBindTighterThanAdditionAndIn) {
  EXPECT_EQ(Where("NOT + ( - + col0 ) + - col3 NOT IN ( + 61 )"),
            "(NOT (((+ (- (+ col0))) + (- col3)) NOT IN (+ 61)))");
}

// SQLite's: tighter than every binary operator, looser than the prefix ones.
TEST(ParserPrecedence, CollateBindsTighterThanBinaryOperators) {
  EXPECT_EQ(Where("a || b COLLATE nocase = - c COLLATE \"icu:de\""),
            "((a || (b COLLATE nocase)) = ((- c) COLLATE icu:de))");
  EXPECT_EQ(Where("NOT a COLLATE binary COLLATE nocase IN (b)"),
            "(NOT (((a COLLATE binary) COLLATE nocase) IN b))");
}

TEST(ParserPrecedence, BetweenTakesTheFirstAnd) {
  EXPECT_EQ(Where("col BETWEEN a AND b AND c"), "((col BETWEEN a b) AND c)");
  EXPECT_EQ(Where("a NOT BETWEEN b + 1 AND c * 2 OR d"),
            "((a NOT BETWEEN (b + 1) (c * 2)) OR d)");
  EXPECT_EQ(Where("col3 < 6 OR col3 < 1 AND col3 BETWEEN 2 AND 7"),
            "((col3 < 6) OR ((col3 < 1) AND (col3 BETWEEN 2 7)))");
}

TEST(ParserPrecedence, IsNullForms) {
  EXPECT_EQ(Where("x IS NULL"), "(x IS NULL)");
  EXPECT_EQ(Where("x IS NOT NULL"), "(x IS NOT NULL)");
  EXPECT_EQ(Where("x ISNULL AND y NOTNULL AND z NOT NULL"),
            "(((x IS NULL) AND (y IS NOT NULL)) AND (z IS NOT NULL))");
  EXPECT_EQ(Where("a = b IS NULL"), "((a = b) IS NULL)");
}

TEST(ParserPrecedence, NullAfterAnOperandNeedsIsOrNot) {
  EXPECT_EQ(ErrorLine("SELECT a NULL FROM t"),
            "SyntaxError at 1:10: expected FROM near \"NULL\"");
  EXPECT_EQ(ErrorLine("SELECT * FROM t WHERE (a IS)"),
            "SyntaxError at 1:28: expected NULL near \")\"");
  EXPECT_EQ(ErrorLine("SELECT * FROM t WHERE a IS NOT"),
            "SyntaxError at 1:31: expected NULL near end of input");
}

TEST(ParserPrecedence, NotNullLiteralIsAnOperand) {
  EXPECT_EQ(Where("NOT NULL <> - 58"), "(NOT (NULL <> (- 58)))");
  EXPECT_EQ(Where("NOT NULL NOT BETWEEN 1 AND NULL"),
            "(NOT (NULL NOT BETWEEN 1 NULL))");
}

TEST(ParserPrecedence, ComparisonBindsTighterThanEquality) {
  EXPECT_EQ(Where("a = b < c"), "(a = (b < c))");
  EXPECT_EQ(Where("a <> b >= c"), "(a <> (b >= c))");
  EXPECT_EQ(Where("a == b != c"), "((a = b) <> c)");
}

TEST(ParserPrecedence, ArithmeticLevelsAndLeftAssociativity) {
  EXPECT_EQ(Item("a + b * c - d / e % f"), "((a + (b * c)) - ((d / e) % f))");
  EXPECT_EQ(Item("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(Item("a * b || c"), "(a * (b || c))");
  EXPECT_EQ(Item("- a || b"), "((- a) || b)");
}

// SQLite's levels: & | << >> share one, between comparison and + -.
TEST(ParserPrecedence, BitwiseOperators) {
  EXPECT_EQ(Item("a & b | c << d >> e"), "((((a & b) | c) << d) >> e)");
  EXPECT_EQ(Item("a + b << c * d"), "((a + b) << (c * d))");
  EXPECT_EQ(Where("a < b & c"), "(a < (b & c))");
  EXPECT_EQ(Where("a & b = c | d"), "((a & b) = (c | d))");
  EXPECT_EQ(Item("a || b | c"), "((a || b) | c)");
  EXPECT_EQ(Item("~ a & - ~ b"), "((~ a) & (- (~ b)))");
  EXPECT_EQ(Where("a << 1 BETWEEN b AND c >> 1"),
            "((a << 1) BETWEEN b (c >> 1))");
}

TEST(ParserPrecedence, InATable) {
  EXPECT_EQ(Where("a IN t"), "[a IN (SELECT * FROM t)]");
  EXPECT_EQ(Where("a NOT IN t AND b"), "([a NOT IN (SELECT * FROM t)] AND b)");
}

TEST(ParserPrecedence, NotAsAnOperandExtendsOverEquality) {
  EXPECT_EQ(Where("a = NOT b AND c"), "((a = (NOT b)) AND c)");
  EXPECT_EQ(Where("a < NOT b = c"), "(a < (NOT (b = c)))");
}

TEST(ParserPrecedence, LikeAndInForms) {
  EXPECT_EQ(Where("a LIKE 'x%' ESCAPE '!'"), "(a LIKE 'x%' '!')");
  EXPECT_EQ(Where("a NOT LIKE b || 'x'"), "(a NOT LIKE (b || 'x'))");
  EXPECT_EQ(Where("a IN ()"), "(a IN)");
  EXPECT_EQ(Where("a + 1 IN (1, b, 3 * 4)"), "((a + 1) IN 1 b (3 * 4))");
}

// --- Literals -------------------------------------------------------------

TEST(ParserPrecedence, Subqueries) {
  EXPECT_EQ(Where("a IN (SELECT b FROM u WHERE c > 1) AND d"),
            "([a IN (SELECT b FROM u WHERE c > 1)] AND d)");
  EXPECT_EQ(Where("NOT a NOT IN (SELECT b FROM u)"),
            "(NOT [a NOT IN (SELECT b FROM u)])");
  EXPECT_EQ(Where("NOT EXISTS (SELECT 1) OR (SELECT max(b) FROM u) > 2"),
            "((NOT [EXISTS (SELECT 1)]) OR ([(SELECT max(b) FROM u)] > 2))");
  // A SELECT in brackets ends at its closing bracket, with or without FROM.
  EXPECT_EQ(Item("((SELECT 1)) + 1"), "([(SELECT 1)] + 1)");
  EXPECT_EQ(Where("a IN (SELECT b FROM u WHERE b IN (SELECT c FROM v))"),
            "[a IN (SELECT b FROM u WHERE b IN (SELECT c FROM v))]");
  // Brackets around an expression are still brackets.
  EXPECT_EQ(Where("(a) IN ((b), (c))"), "(a IN b c)");
}

TEST(ParserLiterals, IntegersAndReals) {
  EXPECT_EQ(Literal("42"), Value::Int(42));
  EXPECT_EQ(Literal("9223372036854775807"), Value::Int(INT64_MAX));
  EXPECT_EQ(Literal("1.5"), Value::Real(1.5));
  EXPECT_EQ(Literal(".5"), Value::Real(0.5));
  EXPECT_EQ(Literal("1."), Value::Real(1.0));
  EXPECT_EQ(Literal("1e10"), Value::Real(1e10));
  EXPECT_EQ(Literal("1.5E-3"), Value::Real(1.5e-3));
  EXPECT_EQ(Literal("1e999"), Value::Real(HUGE_VAL));
  EXPECT_EQ(Literal("0x10"), Value::Int(16));
  EXPECT_EQ(Literal("0xffffffffffffffff"), Value::Int(-1));
}

TEST(ParserLiterals, IntegerBeyondInt64BecomesReal) {
  EXPECT_EQ(Literal("9223372036854775808"), Value::Real(9223372036854775808.0));
  EXPECT_EQ(Literal("99999999999999999999"), Value::Real(1e20));
}

TEST(ParserLiterals, MinusFoldsOnlyTheInt64MinMagnitude) {
  EXPECT_EQ(Literal("-9223372036854775808"), Value::Int(INT64_MIN));
  EXPECT_EQ(Item("- 9223372036854775807"), "(- 9223372036854775807)");
  EXPECT_EQ(Literal("-(9223372036854775808)"), Value::Int(INT64_MIN));
  EXPECT_EQ(Literal("-((9223372036854775808))"), Value::Int(INT64_MIN));
  EXPECT_EQ(Item("-(+9223372036854775808)"), "(- (+ 9.2233720368547758e+18))");
  EXPECT_EQ(Item("- - 9223372036854775808"), "(- -9223372036854775808)");
  EXPECT_EQ(Item("+ 9223372036854775808"), "(+ 9.2233720368547758e+18)");
}

TEST(ParserLiterals, TextBlobAndKeywords) {
  EXPECT_EQ(Literal("'it''s'"), Value::Text("it's"));
  EXPECT_EQ(Literal("''"), Value::Text(""));
  EXPECT_EQ(Literal("x'0aFF'"), Value::Blob(std::string("\x0a\xff", 2)));
  EXPECT_EQ(Literal("X''"), Value::Blob(""));
  EXPECT_EQ(Literal("null"), Value::Null());
  EXPECT_EQ(Literal("True"), Value::Bool(true));
  EXPECT_EQ(Literal("FALSE"), Value::Bool(false));
  EXPECT_EQ(Item("ARRAY['a', 1 + 2]"), "ARRAY[ 'a' (1 + 2)]");
  EXPECT_EQ(Item("ARRAY[]"), "ARRAY[]");
}

TEST(ParserLiterals, MalformedBlobIsASyntaxError) {
  EXPECT_EQ(ErrorLine("SELECT x'abc' FROM t"),
            "SyntaxError at 1:8: expected blob literal of hexadecimal digit "
            "pairs near \"x'abc'\"");
  EXPECT_EQ(ErrorLine("SELECT x'zz' FROM t").substr(0, 23),
            "SyntaxError at 1:8: exp");
}

TEST(ParserLiterals, MalformedNumbersAreSyntaxErrors) {
  EXPECT_EQ(ErrorLine("SELECT 12abc FROM t"),
            "SyntaxError at 1:8: expected expression near \"12abc\"");
  EXPECT_EQ(ErrorLine("SELECT 1e+ FROM t").substr(0, 40),
            "SyntaxError at 1:8: expected expression ");
}

TEST(ParserLiterals, ParametersAreNumberedAsInSqlite) {
  Statement s = Parse("SELECT ?, ?5, ?, :name, ?2, ? FROM t");
  std::string got;
  for (const SelectItem& item : std::get<Select>(s.node).items) {
    got += Tree(*item.expr) + " ";
  }
  EXPECT_EQ(got, "?1 ?5 ?6 :name ?2 ?8 ");
  EXPECT_EQ(ErrorLine("SELECT ?0 FROM t"),
            "SyntaxError at 1:8: expected parameter number between 1 and "
            "32766 near \"?0\"");
}

// --- Names ----------------------------------------------------------------

TEST(ParserNames, UnquotedFoldToLowerCaseQuotedStayVerbatim) {
  EXPECT_EQ(RoundTrip("SELECT Col, \"Col\", \"a\"\"b\", \"select\" FROM TaB"),
            "SELECT col, \"Col\", \"a\"\"b\", \"select\" FROM tab");
}

TEST(ParserSelect, JoinsRoundTrip) {
  EXPECT_EQ(RoundTrip("select a.x, u.* from t as a join u on a.x = u.y "
                      "inner join v w on w.z = u.y, q cross join r "
                      "where a.x > 1"),
            "SELECT a.x, u.* FROM t AS a JOIN u ON a.x = u.y JOIN v AS w ON "
            "w.z = u.y JOIN q JOIN r WHERE a.x > 1");
  EXPECT_EQ(RoundTrip("SELECT t.a FROM t"), "SELECT t.a FROM t");
  EXPECT_EQ(ErrorLine("SELECT * FROM t JOIN"),
            "SyntaxError at 1:21: expected table name near end of input");
}

TEST(ParserSelect, CompoundSelectsRoundTrip) {
  EXPECT_EQ(RoundTrip("select a from t union all select b from u except "
                      "select 1 intersect select c from v union select 2 "
                      "order by 1 desc limit 3 offset 1"),
            "SELECT a FROM t UNION ALL SELECT b FROM u EXCEPT SELECT 1 "
            "INTERSECT SELECT c FROM v UNION SELECT 2 ORDER BY 1 DESC LIMIT 3 "
            "OFFSET 1");
  Statement s = Parse("SELECT 1 UNION SELECT 2 UNION ALL SELECT 3");
  const Select& select = std::get<Select>(s.node);
  ASSERT_EQ(select.compound.size(), 2u);
  EXPECT_EQ(select.compound[0].op, CompoundOp::kUnion);
  EXPECT_EQ(select.compound[1].op, CompoundOp::kUnionAll);
  EXPECT_TRUE(select.order_by.empty());
  EXPECT_EQ(RoundTrip("SELECT * FROM t WHERE a IN (SELECT x FROM u UNION "
                      "SELECT 1)"),
            "SELECT * FROM t WHERE a IN (SELECT x FROM u UNION SELECT 1)");
  EXPECT_EQ(ErrorLine("SELECT a FROM t ORDER BY a UNION SELECT b FROM u"),
            "SyntaxError at 1:28: expected end of statement near \"UNION\"");
  EXPECT_EQ(ErrorLine("SELECT a FROM t UNION"),
            "SyntaxError at 1:22: expected SELECT near end of input");
}

TEST(ParserSelect, SubqueriesInFromAndViewsRoundTrip) {
  EXPECT_EQ(RoundTrip("select d.a from (select a from t where b > 1) as d"),
            "SELECT d.a FROM (SELECT a FROM t WHERE b > 1) AS d");
  EXPECT_EQ(RoundTrip("SELECT * FROM (SELECT 1 AS x)"),
            "SELECT * FROM (SELECT 1 AS x)");
  EXPECT_EQ(RoundTrip("SELECT * FROM t JOIN (SELECT k FROM u) e ON e.k = t.a"),
            "SELECT * FROM t JOIN (SELECT k FROM u) AS e ON e.k = t.a");
  EXPECT_EQ(RoundTrip("SELECT * FROM (t JOIN u ON u.a = t.a)"),
            "SELECT * FROM t JOIN u ON u.a = t.a");
  EXPECT_EQ(RoundTrip("create view if not exists V (a, b) as select x, y "
                      "from t"),
            "CREATE VIEW IF NOT EXISTS v (a, b) AS SELECT x, y FROM t");
  EXPECT_EQ(RoundTrip("DROP VIEW IF EXISTS v"), "DROP VIEW IF EXISTS v");
  EXPECT_EQ(RoundTrip("DROP VIEW v"), "DROP VIEW v");
  EXPECT_EQ(RoundTrip("alter table T add n integer not null default -7"),
            "ALTER TABLE t ADD COLUMN n INTEGER NOT NULL DEFAULT (- 7)");
  EXPECT_EQ(RoundTrip("ALTER TABLE t ADD COLUMN s TEXT[] COLLATE nocase"),
            "ALTER TABLE t ADD COLUMN s TEXT[] COLLATE nocase");
  EXPECT_EQ(RoundTrip("alter table T rename to \"New T\""),
            "ALTER TABLE t RENAME TO \"New T\"");
  EXPECT_EQ(RoundTrip("ALTER TABLE t RENAME a TO B"),
            "ALTER TABLE t RENAME COLUMN a TO b");
  EXPECT_EQ(RoundTrip("ALTER TABLE t RENAME COLUMN a TO b"),
            "ALTER TABLE t RENAME COLUMN a TO b");
  EXPECT_EQ(RoundTrip("alter table t drop A"), "ALTER TABLE t DROP COLUMN a");
  EXPECT_EQ(ErrorLine("SELECT * FROM (SELECT a FROM t"),
            "SyntaxError at 1:31: expected ')' near end of input");
  EXPECT_EQ(ErrorLine("CREATE VIEW v SELECT 1"),
            "SyntaxError at 1:15: expected AS near \"SELECT\"");
}

TEST(ParserSelect, GroupByAndHavingRoundTrip) {
  EXPECT_EQ(RoundTrip("select a, count(*) from t where b > 1 group by a, 2 "
                      "having count(*) > 3 order by 2 desc limit 5"),
            "SELECT a, count(*) FROM t WHERE b > 1 GROUP BY a, 2 HAVING "
            "count(*) > 3 ORDER BY 2 DESC LIMIT 5");
  EXPECT_EQ(RoundTrip("SELECT count(*) HAVING count(*) > 0"),
            "SELECT count(*) HAVING count(*) > 0");
  EXPECT_EQ(ErrorLine("SELECT a FROM t GROUP a"),
            "SyntaxError at 1:23: expected BY near \"a\"");
  EXPECT_EQ(ErrorLine("SELECT a FROM t HAVING a GROUP BY a"),
            "SyntaxError at 1:26: expected end of statement near \"GROUP\"");
}

TEST(ParserNames, ReservedWordsAreNotBareIdentifiers) {
  EXPECT_EQ(ErrorLine("SELECT from FROM t"),
            "SyntaxError at 1:8: expected expression near \"from\"");
  EXPECT_EQ(ErrorLine("CREATE TABLE order (a INT)"),
            "SyntaxError at 1:14: expected table name near \"order\"");
  EXPECT_TRUE(IsReservedWord("Where"));
  EXPECT_FALSE(IsReservedWord("count"));
  EXPECT_FALSE(IsReservedWord("key"));
}

TEST(ParserNames, AliasesWithAndWithoutAs) {
  Statement s =
      Parse("SELECT - 43 col4, b AS \"B\", c AS 'c c' FROM tab0 AS cor0");
  const Select& select = std::get<Select>(s.node);
  EXPECT_EQ(select.items[0].alias, "col4");
  EXPECT_EQ(Tree(*select.items[0].expr), "(- 43)");
  EXPECT_EQ(select.items[1].alias, "B");
  EXPECT_EQ(select.items[2].alias, "c c");
  EXPECT_EQ(select.alias, "cor0");
  EXPECT_EQ(std::get<Select>(Parse("SELECT * FROM tab0 cor0").node).alias,
            "cor0");
}

TEST(ParserNames, QualifiedColumnsAndFunctions) {
  EXPECT_EQ(Item("cor0.col1 + COUNT(*) + Sum(DISTINCT x) + count(ALL y)"),
            "(((cor0.col1 + count(*)) + sum(DISTINCT x)) + count( y))");
  EXPECT_EQ(Item("coalesce(a, NULL, 'x')"), "coalesce( a NULL 'x')");
  EXPECT_EQ(Item("random()"), "random()");
}

TEST(ParserExpressions, CaseBothFormsNestedAndRoundTripped) {
  EXPECT_EQ(Item("CASE WHEN a > 1 THEN 'x' END"), "CASE (a > 1) 'x' END");
  EXPECT_EQ(Item("CASE a WHEN 1 THEN 'x' WHEN 2 THEN 'y' ELSE 'z' END"),
            "CASE(x)(else) a 1 'x' 2 'y' 'z' END");
  EXPECT_EQ(Item("CASE WHEN a THEN CASE b WHEN 1 THEN 2 END END + 1"),
            "(CASE a CASE(x) b 1 2 END END + 1)");
  for (const char* sql :
       {"SELECT CASE WHEN a > 1 THEN 'x' ELSE b END FROM t",
        "SELECT CASE a + 1 WHEN 2 THEN 3 END FROM t WHERE CASE WHEN a THEN b "
        "END = 1"}) {
    Statement s = Parse(sql);
    Result<Statement> again = ParseStatement(ToSql(s));
    ASSERT_TRUE(again.ok()) << ToSql(s);
    EXPECT_TRUE(Equal(s, *again)) << ToSql(s);
  }
  // What CASE needs, named (a list of WHENs once failed with the
  // parser's C++ type name).
  auto error = [](const char* sql) {
    auto s = ParseStatement(sql);
    return s.ok() ? std::string("ok") : s.status().ToString();
  };
  EXPECT_EQ(error("SELECT CASE 1 END FROM t"),
            "SyntaxError at 1:15: expected WHEN near \"END\"\n"
            "SELECT CASE 1 END FROM t\n              ^");
  const std::string no_when = error("SELECT CASE a ELSE 1 END FROM t");
  EXPECT_TRUE(
      no_when.starts_with("SyntaxError at 1:15: expected WHEN near \"ELSE\"\n"))
      << no_when;
  EXPECT_NE(error("SELECT CASE END FROM t").find("expected WHEN"),
            std::string::npos);
  const std::string no_end = error("SELECT CASE WHEN 1 THEN 2 FROM t");
  EXPECT_TRUE(
      no_end.starts_with("SyntaxError at 1:27: expected END near \"FROM\"\n"))
      << no_end;
}

TEST(ParserNames, CastTypes) {
  EXPECT_EQ(Item("CAST(a AS INTEGER)"), "CAST(a AS INTEGER)");
  EXPECT_EQ(Item("CAST(a AS int)"), "CAST(a AS INTEGER)");
  EXPECT_EQ(Item("CAST(a AS BIGINT)"), "CAST(a AS INTEGER)");
  EXPECT_EQ(Item("CAST(a AS FLOAT)"), "CAST(a AS REAL)");
  EXPECT_EQ(Item("CAST(a AS DOUBLE PRECISION)"), "CAST(a AS REAL)");
  EXPECT_EQ(Item("CAST(a AS VARCHAR(10))"), "CAST(a AS TEXT)");
  EXPECT_EQ(Item("CAST(a AS BLOB)"), "CAST(a AS BLOB)");
  EXPECT_EQ(Item("CAST(a AS BOOLEAN)"), "CAST(a AS BOOLEAN)");
  EXPECT_EQ(Item("CAST(a AS TIMESTAMP)"), "CAST(a AS TIMESTAMP)");
  EXPECT_EQ(Item("CAST(a AS TEXT[])"), "CAST(a AS TEXT[])");
  EXPECT_EQ(ErrorLine("SELECT CAST(a AS DECIMAL) FROM t"),
            "NotSupported at 1:18: type DECIMAL");
}

// --- Scripts, comments and source text --------------------------------------

TEST(ParserScript, SkipsEmptyStatementsAndComments) {
  auto r = ParseScript(
      "-- leading comment\n"
      ";; SELECT a /* ; */ FROM t -- trailing ;\n"
      ";\n"
      "  /* c */ DELETE FROM u ; ;");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].text, "SELECT a /* ; */ FROM t");
  EXPECT_EQ((*r)[0].pos, (Position{2, 4}));
  EXPECT_EQ((*r)[1].text, "DELETE FROM u");
  EXPECT_EQ((*r)[1].pos, (Position{4, 11}));
  EXPECT_TRUE(ParseScript("  -- nothing\n /* at all */ ;")->empty());
}

TEST(ParserScript, SelectItemTextIsTheExpressionAsWritten) {
  Statement s = Parse("SELECT  a +  1  AS x, *, COUNT( * ) FROM t");
  const Select& select = std::get<Select>(s.node);
  EXPECT_EQ(select.items[0].text, "a +  1");
  EXPECT_EQ(select.items[0].pos, (Position{1, 9}));
  EXPECT_EQ(select.items[1].text, "*");
  EXPECT_EQ(select.items[1].expr, nullptr);
  EXPECT_EQ(select.items[2].text, "COUNT( * )");
}

TEST(ParserScript, NodesCarryTheirPositions) {
  Statement s = Parse("SELECT a\n  FROM t\n WHERE  b =\n - 5");
  const Select& select = std::get<Select>(s.node);
  EXPECT_EQ(select.table_pos, (Position{2, 8}));
  EXPECT_EQ(select.where->pos, (Position{3, 9}));           // b = ...
  EXPECT_EQ(select.where->args[1]->pos, (Position{4, 2}));  // - 5
}

TEST(ParserScript, ParseStatementTakesExactlyOne) {
  EXPECT_TRUE(ParseStatement("SELECT a FROM t;").ok());
  EXPECT_EQ(
      ParseStatement("SELECT a FROM t; DELETE FROM t").status().ToString(),
      "SyntaxError at 1:18: expected one statement near \"DELETE\"\n"
      "SELECT a FROM t; DELETE FROM t\n"
      "                 ^");
  EXPECT_EQ(ParseStatement(" -- x").status().code(),
            Status::Code::kSyntaxError);
}

// --- Statements -------------------------------------------------------------

TEST(ParserStatements, CreateTableWithEveryConstraint) {
  EXPECT_EQ(
      RoundTrip("create table if not exists T (a integer primary key desc not "
                "null, b VARCHAR(20) UNIQUE COLLATE NoCase DEFAULT 'x', c TEXT "
                "COLLATE \"icu:de\" DEFAULT -5, d DOUBLE PRECISION[] NULL "
                "DEFAULT (1 + 2), e BOOLEAN DEFAULT TRUE, f BLOB COLLATE "
                "'icu:sv' DEFAULT x'00', g TIMESTAMP NOT NULL, h BIGINT "
                "DEFAULT +1.5)"),
      "CREATE TABLE IF NOT EXISTS t (a INTEGER PRIMARY KEY DESC NOT NULL, b "
      "VARCHAR(20) UNIQUE COLLATE nocase DEFAULT ('x'), c TEXT COLLATE "
      "\"icu:de\" DEFAULT (- 5), d REAL[] DEFAULT (1 + 2), e BOOLEAN DEFAULT "
      "(TRUE), f BLOB COLLATE \"icu:sv\" DEFAULT (x'00'), g TIMESTAMP NOT "
      "NULL, h INTEGER DEFAULT (+ 1.5))");
  Statement s = Parse("CREATE TABLE t (a INT COLLATE \"icu:de\" PRIMARY KEY)");
  const ColumnDef& a = std::get<CreateTable>(s.node).columns[0];
  EXPECT_EQ(a.collation, "icu:de");
  EXPECT_TRUE(a.primary_key);
  EXPECT_EQ(a.pos, (Position{1, 17}));
}

TEST(ParserStatements, CreateTableWithCompositePrimaryKey) {
  EXPECT_EQ(RoundTrip("CREATE TABLE actions (userid INTEGER, stamp TIMESTAMP, "
                      "actionid INT, category TEXT[], PRIMARY KEY (userid, "
                      "stamp DESC, actionid ASC))"),
            "CREATE TABLE actions (userid INTEGER, stamp TIMESTAMP, actionid "
            "INTEGER, category TEXT[], PRIMARY KEY (userid, stamp DESC, "
            "actionid))");
}

TEST(ParserStatements, CreateAndDropIndex) {
  EXPECT_EQ(RoundTrip("CREATE UNIQUE INDEX IF NOT EXISTS by_email ON users "
                      "(email COLLATE nocase DESC, id) INCLUDE (name, age)"),
            "CREATE UNIQUE INDEX IF NOT EXISTS by_email ON users (email "
            "COLLATE nocase DESC, id) INCLUDE (name, age)");
  EXPECT_EQ(RoundTrip("CREATE INDEX idx_tab1_0 on tab1 (col0)"),
            "CREATE INDEX idx_tab1_0 ON tab1 (col0)");
  EXPECT_EQ(RoundTrip("DROP INDEX IF EXISTS i"), "DROP INDEX IF EXISTS i");
  EXPECT_EQ(RoundTrip("DROP TABLE t"), "DROP TABLE t");
}

TEST(ParserStatements, InsertValuesAndSelect) {
  EXPECT_EQ(
      RoundTrip("INSERT INTO tab0 VALUES(0,6,5.6,'jtqxx',9,5.19,'qvgba')"),
      "INSERT INTO tab0 VALUES (0, 6, 5.5999999999999996, 'jtqxx', 9, "
      "5.1900000000000004, 'qvgba')");
  EXPECT_EQ(RoundTrip("INSERT INTO t (a, b) VALUES (1, ?), (-2, NULL)"),
            "INSERT INTO t (a, b) VALUES (1, ?1), (- 2, NULL)");
  EXPECT_EQ(RoundTrip("INSERT INTO tab1 SELECT * FROM tab0"),
            "INSERT INTO tab1 SELECT * FROM tab0");
  EXPECT_EQ(RoundTrip("INSERT OR REPLACE INTO t VALUES (1)"),
            "INSERT OR REPLACE INTO t VALUES (1)");
  EXPECT_EQ(RoundTrip("replace into t (a) select b from u"),
            "INSERT OR REPLACE INTO t (a) SELECT b FROM u");
  EXPECT_EQ(RoundTrip("INSERT OR IGNORE INTO t VALUES (1)"),
            "INSERT OR IGNORE INTO t VALUES (1)");
  EXPECT_EQ(RoundTrip("INSERT OR ABORT INTO t VALUES (1)"),
            "INSERT INTO t VALUES (1)");
}

TEST(ParserStatements, UpdateAndDelete) {
  EXPECT_EQ(RoundTrip("UPDATE t SET a = a + 1, b = 'x' WHERE c LIKE 'a%'"),
            "UPDATE t SET a = a + 1, b = 'x' WHERE c LIKE 'a%'");
  EXPECT_EQ(RoundTrip("DELETE FROM tab1 WHERE col3 > 5"),
            "DELETE FROM tab1 WHERE col3 > 5");
  EXPECT_EQ(RoundTrip("DELETE FROM t"), "DELETE FROM t");
}

TEST(ParserStatements, SelectWithEveryClause) {
  EXPECT_EQ(RoundTrip("SELECT DISTINCT a, b AS c FROM t AS x WHERE a > 1 "
                      "ORDER BY 1 DESC, b ASC LIMIT ? OFFSET 10"),
            "SELECT DISTINCT a, b AS c FROM t AS x WHERE a > 1 ORDER BY 1 "
            "DESC, b LIMIT ?1 OFFSET 10");
  EXPECT_EQ(RoundTrip("SELECT ALL * FROM tab0 LIMIT 5"),
            "SELECT * FROM tab0 LIMIT 5");
}

TEST(ParserStatements, IndexHints) {
  EXPECT_EQ(RoundTrip("SELECT a FROM t NOT INDEXED WHERE a = 1"),
            "SELECT a FROM t NOT INDEXED WHERE a = 1");
  EXPECT_EQ(RoundTrip("SELECT * FROM t x INDEXED BY i JOIN u NOT INDEXED "
                      "ON x.a = u.a"),
            "SELECT * FROM t AS x INDEXED BY i JOIN u NOT INDEXED ON x.a = "
            "u.a");
  // INDEXED alone is an alias.
  EXPECT_EQ(RoundTrip("SELECT * FROM t indexed"), "SELECT * FROM t AS indexed");
}

TEST(ParserStatements, ExplainAnalyzeCheck) {
  EXPECT_EQ(RoundTrip("EXPLAIN SELECT * FROM t WHERE a = 1"),
            "EXPLAIN SELECT * FROM t WHERE a = 1");
  EXPECT_EQ(RoundTrip("EXPLAIN ANALYZE UPDATE t SET a = 1"),
            "EXPLAIN ANALYZE UPDATE t SET a = 1");
  Statement s = Parse("EXPLAIN  DELETE FROM t");
  const Statement& inner = *std::get<Explain>(s.node).statement;
  EXPECT_EQ(inner.text, "DELETE FROM t");
  EXPECT_EQ(inner.pos, (Position{1, 10}));
  EXPECT_EQ(RoundTrip("ANALYZE"), "ANALYZE");
  EXPECT_EQ(RoundTrip("ANALYZE t"), "ANALYZE t");
  EXPECT_EQ(RoundTrip("CHECK"), "CHECK");
  EXPECT_EQ(RoundTrip("CHECK TABLE t"), "CHECK TABLE t");
  EXPECT_EQ(RoundTrip("CHECK INDEX i"), "CHECK INDEX i");
  EXPECT_EQ(ErrorLine("EXPLAIN CREATE TABLE t (a INT)"),
            "SyntaxError at 1:9: expected SELECT, UPDATE or DELETE near "
            "\"CREATE\"");
}

TEST(ParserStatements, TransactionsAndPragmas) {
  EXPECT_EQ(RoundTrip("BEGIN"), "BEGIN");
  EXPECT_EQ(RoundTrip("begin transaction"), "BEGIN");
  EXPECT_EQ(RoundTrip("COMMIT"), "COMMIT");
  EXPECT_EQ(RoundTrip("END"), "COMMIT");
  EXPECT_EQ(RoundTrip("ROLLBACK"), "ROLLBACK");
  EXPECT_EQ(RoundTrip("PRAGMA sort_memory"), "PRAGMA sort_memory");
  EXPECT_EQ(RoundTrip("PRAGMA sort_memory = -1048576"),
            "PRAGMA sort_memory = -1048576");
  EXPECT_EQ(RoundTrip("PRAGMA disable_rule = 'index_union'"),
            "PRAGMA disable_rule = 'index_union'");
  EXPECT_EQ(RoundTrip("PRAGMA x = ON"), "PRAGMA x = 'on'");
  EXPECT_EQ(RoundTrip("PRAGMA x = true"), "PRAGMA x = TRUE");
  EXPECT_EQ(RoundTrip("PRAGMA x(2.5)"), "PRAGMA x = 2.5");
}

// --- Errors
// -------------------------------------------------------------------

TEST(ParserErrors, MisspeltKeywordNamesTheExpectedOneWithACaret) {
  EXPECT_EQ(Error("SELECT * FORM t"),
            "SyntaxError at 1:10: expected FROM near \"FORM\"\n"
            "SELECT * FORM t\n"
            "         ^");
}

TEST(ParserErrors, PlaceIsLineAndColumnInTheScript) {
  EXPECT_EQ(Error("SELECT a FROM t;\nSELECT a\nFROM t WHERE a = = 3"),
            "SyntaxError at 3:18: expected expression near \"=\"\n"
            "FROM t WHERE a = = 3\n"
            "                 ^");
  EXPECT_EQ(ErrorLine("SELECT a FROM t WHERE"),
            "SyntaxError at 1:22: expected expression near end of input");
  EXPECT_EQ(ErrorLine("SELECT a FROM t WHERE a NOT b"),
            "SyntaxError at 1:29: expected BETWEEN, IN, LIKE or NULL near "
            "\"b\"");
  EXPECT_EQ(ErrorLine("FOO"),
            "SyntaxError at 1:1: expected statement near "
            "\"FOO\"");
  EXPECT_EQ(ErrorLine("SELECT a FROM t x y"),
            "SyntaxError at 1:19: expected end of statement near \"y\"");
}

// Found by fuzzing: a lone CR used to end the excerpt's line early.
TEST(ParserErrors, ExcerptKeepsLinesWithCarriageReturnsAndControls) {
  EXPECT_EQ(Error("SELECT *\r FORM t"),
            "SyntaxError at 1:11: expected FROM near \"FORM\"\n"
            "SELECT *  FORM t\n"
            "          ^");
  EXPECT_EQ(Error("SELECT *\x01 FROM t"),
            "SyntaxError at 1:9: expected FROM near \"\\x01\"\n"
            "SELECT *  FROM t\n"
            "        ^");
  EXPECT_EQ(Error("SELECT *\r\nFORM t"),
            "SyntaxError at 2:1: expected FROM near \"FORM\"\n"
            "FORM t\n"
            "^");
}

TEST(ParserErrors, UnterminatedTokensAreReportedWhereTheyStart) {
  EXPECT_EQ(Error("SELECT a FROM t\nWHERE a = 'abc;\nDELETE FROM t"),
            "SyntaxError at 2:11: unterminated string literal\n"
            "WHERE a = 'abc;\n"
            "          ^");
  EXPECT_EQ(ErrorLine("SELECT \"abc FROM t"),
            "SyntaxError at 1:8: unterminated quoted identifier");
  EXPECT_EQ(ErrorLine("SELECT a FROM t /* open"),
            "SyntaxError at 1:17: unterminated block comment");
}

TEST(ParserErrors, ConstructsOutsideTheDialectAreNotSupported) {
  EXPECT_EQ(Error("SELECT a FROM t GROUP BY a WINDOW w AS ()"),
            "NotSupported at 1:28: window function");
  EXPECT_EQ(Error("SELECT a FROM t OUTER JOIN u"),
            "NotSupported at 1:17: outer join");
  EXPECT_EQ(Error("SELECT a FROM t FULL OUTER JOIN u ON 1"), "OK");
  EXPECT_EQ(Error("SELECT a FROM t FULL JOIN u ON 1"), "OK");
  EXPECT_EQ(Error("SELECT a FROM t NATURAL JOIN u"),
            "NotSupported at 1:17: NATURAL JOIN");
  EXPECT_EQ(Error("SELECT a FROM t JOIN u USING (a)"),
            "NotSupported at 1:24: JOIN ... USING");
  EXPECT_EQ(Error("CREATE TEMP VIEW v AS SELECT a FROM t"),
            "NotSupported at 1:8: CREATE TEMP");
  EXPECT_EQ(Error("CREATE TRIGGER x AFTER INSERT ON t BEGIN END"),
            "NotSupported at 1:8: CREATE TRIGGER");
  EXPECT_EQ(Error("WITH x AS MATERIALIZED (SELECT 1) SELECT * FROM x"),
            "NotSupported at 1:11: MATERIALIZED");
  EXPECT_EQ(Error("SELECT rank() OVER (ORDER BY a) FROM t"),
            "NotSupported at 1:15: window function");
  EXPECT_EQ(Error("INSERT OR FAIL INTO t VALUES (1)"),
            "NotSupported at 1:11: INSERT OR FAIL");
  EXPECT_EQ(Error("INSERT OR ROLLBACK INTO t VALUES (1)"),
            "NotSupported at 1:11: INSERT OR ROLLBACK");
  EXPECT_EQ(Error("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING"),
            "NotSupported at 1:26: ON CONFLICT");
  EXPECT_EQ(Error("SELECT a FROM t WHERE (a, b) = (1, 2)"),
            "NotSupported at 1:25: row value");
  EXPECT_EQ(Error("SELECT a FROM t LIMIT 1, 2"),
            "NotSupported at 1:24: LIMIT with a comma (use LIMIT n OFFSET m)");
  // CASE is in the dialect (issue 18): a malformed one is a syntax error.
  EXPECT_EQ(Error("SELECT CASE WHEN a THEN 1 FROM t").substr(0, 23),
            "SyntaxError at 1:27: ex");
  EXPECT_EQ(Error("SELECT a FROM t WHERE a IS 5"),
            "NotSupported at 1:28: IS other than IS [NOT] NULL");
  EXPECT_EQ(Error("SELECT a FROM t WHERE a NOT GLOB 'x*'"),
            "NotSupported at 1:29: GLOB");
  EXPECT_EQ(ErrorLine("SELECT a COLLATE FROM t"),
            "SyntaxError at 1:18: expected collation name near \"FROM\"");
}

TEST(ParserErrors, NestingLimitStopsDeepInputQuickly) {
  const int n = 100'000;
  std::string minus;
  for (int i = 0; i < n; ++i) minus += "- ";
  std::string nots;
  for (int i = 0; i < n; ++i) nots += "NOT ";
  std::string calls, arrays;
  for (int i = 0; i < n; ++i) calls += "abs(";
  for (int i = 0; i < n; ++i) arrays += "ARRAY[";
  const std::string cases[] = {
      "SELECT " + std::string(n, '(') + "1" + std::string(n, ')') + " FROM t",
      "SELECT " + minus + "1 FROM t",
      "SELECT * FROM t WHERE " + nots + "a",
      "SELECT " + calls + "1 FROM t",
      "SELECT " + arrays + " FROM t",
  };
  for (const std::string& sql : cases) {
    auto start = std::chrono::steady_clock::now();
    Result<Statement> r = ParseStatement(sql);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Status::Code::kLimitExceeded)
        << r.status().ToString();
    EXPECT_NE(r.status().message().find(
                  ": expression nesting exceeds the limit of 1000"),
              std::string::npos)
        << r.status().message();
    EXPECT_LT(seconds, 1.0) << sql.substr(0, 20);
  }
  // Reported at the first token inside the bracket that is one too deep.
  EXPECT_EQ(ErrorLine("SELECT " + std::string(1000, '(') + "1" +
                      std::string(1000, ')') + " FROM t"),
            "OK");
  EXPECT_EQ(ErrorLine("SELECT " + std::string(1001, '(') + "1" +
                      std::string(1001, ')') + " FROM t"),
            "LimitExceeded at 1:1009: expression nesting exceeds the limit of "
            "1000");
}

TEST(ParserErrors, NestingLimitCountsTreeHeight) {
  ParseOptions options;
  options.max_expression_depth = 10;
  EXPECT_EQ(Error("SELECT ((((((((((1)))))))))) FROM t", options), "OK");
  EXPECT_EQ(Error("SELECT 1+1+1+1+1+1+1+1+1+1 FROM t", options), "OK");
  EXPECT_EQ(ErrorLine("SELECT 1+1+1+1+1+1+1+1+1+1+1 FROM t", options),
            "LimitExceeded at 1:8: expression nesting exceeds the limit of "
            "10");
  EXPECT_EQ(ErrorLine("SELECT - - - - - - - - - - 1 FROM t", options),
            "LimitExceeded at 1:8: expression nesting exceeds the limit of "
            "10");
}

TEST(ParserErrors, StatementLengthAndInListLimits) {
  EXPECT_EQ(Error("SELECT '" + std::string(10'000'000, 'x') + "' FROM t"),
            "LimitExceeded: statement is 10000016 bytes; the limit is 1000000");
  ParseOptions options;
  options.max_in_list = 3;
  EXPECT_EQ(Error("SELECT * FROM t WHERE a IN (1, 2, 3)", options), "OK");
  EXPECT_EQ(Error("SELECT * FROM t WHERE a IN (1, 2, 3, 4)", options),
            "LimitExceeded at 1:38: IN list exceeds the limit of 3 items");
}

// --- Round trip
// ---------------------------------------------------------------

// The conformance suite in the repository (tests/slt), next to this file.
std::filesystem::path SltDir() {
  return std::filesystem::path(levelql::testing::SourceDir()) / "tests" / "slt";
}

TEST(ParserRoundTrip, EveryConformanceStatementSurvivesToSql) {
  std::filesystem::path dir = SltDir();
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << "missing suite " << dir;
  size_t statements = 0, failures = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".test") continue;
    std::ifstream in(entry.path());
    std::string line, sql;
    bool reading = false, may_fail = false;
    int line_no = 0, sql_line = 0;
    auto check = [&] {
      if (sql.empty()) return;
      ++statements;
      Result<Statement> first = ParseStatement(sql);
      if (!first.ok()) {
        if (!may_fail && ++failures <= 10) {
          ADD_FAILURE() << entry.path() << ":" << sql_line << "\n"
                        << sql << "\n"
                        << first.status().ToString();
        }
        return;
      }
      std::string text = ToSql(*first);
      Result<Statement> second = ParseStatement(text);
      if ((!second.ok() || !Equal(*first, *second)) && ++failures <= 10) {
        ADD_FAILURE() << entry.path() << ":" << sql_line << "\n"
                      << sql << "\nrendered as\n"
                      << text << "\n"
                      << (second.ok() ? "not Equal"
                                      : second.status().ToString());
      }
    };
    while (std::getline(in, line)) {
      ++line_no;
      if (reading) {
        if (line.empty() || line == "----") {
          check();
          sql.clear();
          reading = false;
        } else {
          if (sql.empty()) sql_line = line_no;
          sql += sql.empty() ? line : "\n" + line;
        }
      } else if (line.rfind("statement ", 0) == 0 ||
                 line.rfind("query ", 0) == 0) {
        reading = true;
        may_fail = line.rfind("statement error", 0) == 0;
      }
    }
    if (reading) check();
  }
  EXPECT_EQ(failures, 0u);
  EXPECT_GT(statements, 200'000u);
}

TEST(ParserRoundTrip, HandWrittenStatementsCoverTheDialect) {
  const char* statements[] = {
      "SELECT a FROM t WHERE a - - 9223372036854775808 > 0",
      "SELECT - (a + b) * c, - - a, + - a, NOT (a AND b), (NOT a) IS NULL "
      "FROM t",
      "SELECT a FROM t WHERE (a OR b) AND (c OR d) AND NOT (e = f)",
      "SELECT a FROM t WHERE a BETWEEN (b = c) AND d",
      "SELECT a FROM t WHERE a BETWEEN b BETWEEN c AND d AND e",
      "SELECT a FROM t WHERE (a = b) IN (1) AND a = (b IN (1))",
      "SELECT a FROM t WHERE (a LIKE b) LIKE c AND a LIKE (b LIKE c)",
      "SELECT a - (b - c), (a || b) || c, a || (b || c) FROM t",
      "SELECT CAST(- 1 AS REAL[]), ARRAY[ARRAY[1], NULL] FROM t",
      "SELECT 0xffffffffffffffff, 0x8000000000000000, 1e999 FROM t",
      "SELECT \"weird \"\" name\", \"UPPER\" AS \"Order\" FROM \"T\" AS \"A\"",
      "SELECT count(*), count(DISTINCT \"x\") FROM t WHERE :p > ?3",
      "SELECT * FROM t WHERE a NOT IN (1) = NOT b",
      "SELECT * FROM t WHERE - CAST ( - 32 AS INTEGER ) IS NULL AND NOT - "
      "col1 >= NULL",
      "WITH x (a, b) AS (SELECT 1, 2), \"Y\" AS (SELECT a FROM x) SELECT * "
      "FROM \"Y\" UNION SELECT b FROM x ORDER BY 1",
      "WITH RECURSIVE r AS (SELECT 1) SELECT (WITH q AS (SELECT 2) SELECT * "
      "FROM q) FROM r WHERE EXISTS (WITH z AS (SELECT 3) SELECT * FROM z)",
      "SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x) AS d JOIN "
      "(WITH y AS (SELECT 2) SELECT * FROM y) AS e",
      "INSERT INTO t WITH x AS (SELECT 1) SELECT * FROM x",
      "WITH x (a) AS (SELECT 1) INSERT OR REPLACE INTO t SELECT a FROM x",
      "WITH x AS (SELECT 1 AS a) UPDATE t SET b = (SELECT a FROM x) WHERE "
      "c IN (SELECT a FROM x)",
      "WITH RECURSIVE x AS (SELECT 1) DELETE FROM t WHERE a IN (SELECT * "
      "FROM x)",
      "CREATE VIEW v AS WITH x AS (SELECT 1) SELECT * FROM x",
      "SELECT * FROM a RIGHT JOIN b ON b.x = a.x LEFT JOIN c ON c.y = b.y",
      "SELECT * FROM a FULL JOIN b ON b.x = a.x JOIN c ON c.y = b.y",
      "SELECT a COLLATE nocase, - b COLLATE \"icu:de\", (a || b) COLLATE "
      "binary FROM t ORDER BY 1 COLLATE nocase",
  };
  for (const char* sql : statements) RoundTrip(sql);
}

}  // namespace
}  // namespace levelql::parser
