// The small SQL model the differential tests generate, shrink and print: a
// table definition, expression trees, queries and the steps of a test case
// (DDL, INSERT/UPDATE/DELETE, the checking query). Keeping statements as
// trees rather than text is what lets the shrinker simplify a predicate
// subtree or drop rows from an INSERT.
//
// Render*() print a node for one of two dialects: levelql's (DIALECT.md) or
// SQLite's. They differ only where KNOWN_DIFFERENCES.md says the same meaning
// needs different words (INCLUDE columns, LIKE on a nocase column).
// Everything here is a plain value type; thread-compatible.
#ifndef LEVELQL_TESTS_DIFFERENTIAL_SQL_AST_H_
#define LEVELQL_TESTS_DIFFERENTIAL_SQL_AST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "levelql/value.h"

namespace levelql::difftest {

enum class Dialect { kLevelql, kSqlite };

enum class ColType { kInt, kReal, kText };

struct Column {
  std::string name;
  ColType type = ColType::kInt;  // the element type when `list`
  // A multi-valued column (`TEXT[]`, `INTEGER[]`; levelql only): values are
  // lists, a predicate holds when it holds for some element.
  bool list = false;
  // A collation under which distinct texts can be equal (TEXT only):
  // `collation` when set ("search", "icu:de"; levelql only), else nocase.
  bool nocase = false;
  std::string collation;
  bool not_null = false;  // NOT NULL (always set for primary key columns)
  bool unique = false;    // a column-level UNIQUE constraint
  Value default_value;    // DEFAULT literal (NULL: none)
};

struct IndexDef {
  std::string name;
  std::vector<int> cols;  // column positions in the table
  std::vector<bool> desc;
  bool unique = false;
  std::vector<int> include;  // INCLUDE columns (levelql only)
};

struct TableDef {
  std::string name;
  std::vector<Column> cols;
  std::vector<int> pk;  // empty: a hidden rowid
  std::vector<bool> pk_desc;
  // A one-column ascending key written on its column
  // (`name TEXT COLLATE nocase PRIMARY KEY`) instead of as a table constraint.
  bool pk_on_column = false;
};

// One node of an expression. Children are owned by value.
struct Expr {
  enum class Kind {
    kColumn,   // column
    kLiteral,  // literal
    kUnary,    // op: "NOT", "-", "+"
    kBinary,   // op: AND OR = <> < <= > >= + - * / % ||
    kIsNull,   // kids[0] IS [NOT] NULL
    kBetween,  // kids[0] [NOT] BETWEEN kids[1] AND kids[2]
    kIn,       // kids[0] [NOT] IN (kids[1..])
    kLike,     // kids[0] [NOT] LIKE kids[1] [ESCAPE '!' when escape]
    kFunc,     // op(kids...)
    kCast,     // CAST(kids[0] AS op)
    kAgg,      // op([DISTINCT] kids[0]) or count(*) without kids
    kCase,     // CASE [kids[0] when case_operand] (WHEN w THEN t)...
               // [ELSE kids.back() when case_else] END
  };
  Kind kind = Kind::kLiteral;
  std::string op;
  bool negated = false;   // NOT BETWEEN, NOT IN, NOT LIKE, IS NOT NULL
  bool distinct = false;  // aggregates
  bool escape = false;    // LIKE ... ESCAPE '!'
  bool case_operand = false;
  bool case_else = false;
  int column = -1;
  Value literal;
  std::vector<Expr> kids;

  static Expr Col(int c);
  static Expr Lit(Value v);
  static Expr Unary(std::string op, Expr a);
  static Expr Binary(std::string op, Expr a, Expr b);
  static Expr Func(std::string name, std::vector<Expr> args);
};

struct OrderTerm {
  Expr expr;        // used when ordinal == 0
  int ordinal = 0;  // ORDER BY <n>, 1-based
  bool desc = false;
};

struct Query;

// A SELECT after the first of a compound SELECT: its operator ("UNION",
// "UNION ALL", "INTERSECT", "EXCEPT"), its query and the table it reads.
struct CompoundPart {
  std::string op;
  std::shared_ptr<Query> query;
  std::shared_ptr<TableDef> table;
};

struct Query {
  int table = 0;
  bool distinct = false;
  bool star = false;  // SELECT *
  std::vector<Expr> items;
  std::optional<Expr> where;
  std::vector<OrderTerm> order;
  int64_t limit = -1;  // -1: none
  int64_t offset = -1;
  // ORDER BY fixes the order of every output row: compare in order.
  bool ordered = false;
  bool aggregate = false;  // items are aggregates: exactly one row
  // GROUP BY (then items are group keys and aggregates, one row per group).
  std::vector<Expr> group_by;
  std::optional<Expr> having;
  // A join: FROM <table> AS x JOIN <join_table> AS y [ON join_on], or the
  // comma form (x, y) without join_on. Its expressions name the columns of
  // JoinedTable(): x's, then y's.
  int join_table = -1;
  std::optional<Expr> join_on;
  bool left_join = false;   // LEFT JOIN ... ON join_on
  bool right_join = false;  // RIGHT JOIN ... ON join_on
  bool full_join = false;   // FULL JOIN ... ON join_on
  // A compound SELECT: this query's SELECT, then each part in turn (their
  // ORDER BY ordinals and LIMIT are then the whole one's).
  std::vector<CompoundPart> compound;
  // Rendered as `SELECT * FROM (<this query>) AS d` (`derived_with`: as
  // `WITH d AS (<this query>) SELECT * FROM d`): the same rows, read
  // through a subquery in FROM.
  bool derived = false;
  bool derived_with = false;
};

// One step of a test case.
struct Step {
  enum class Kind {
    kCreateTable,
    kCreateIndex,
    kDropIndex,
    kDropTable,  // DROP TABLE (the next step usually creates it again)
    kInsert,
    kInsertSelect,  // INSERT INTO table (all columns) <query>
    kUpdate,
    kDelete,
    kQuery,
    kAnalyze,  // ANALYZE table (statistics the planner uses)
    kBegin,    // BEGIN [IMMEDIATE] (`immediate`)
    kCommit,
    kRollback,
  };
  Kind kind = Kind::kQuery;
  int table = 0;
  IndexDef index;                          // kCreateIndex, kDropIndex (name)
  std::vector<std::vector<Value>> rows;    // kInsert: one value per column
  std::vector<int> columns;                // kInsert: named columns; empty: all
  std::vector<std::pair<int, Expr>> sets;  // kUpdate
  std::optional<Expr> where;               // kUpdate, kDelete
  Query query;                             // kQuery, kInsertSelect
  bool immediate = false;                  // kBegin
};

// A self-contained test: the tables and the steps that build and check them.
struct Case {
  std::vector<TableDef> tables;
  std::vector<Step> steps;    // starts with the kCreateTable steps
  std::string disable_rules;  // levelql runs with these planner rules off
  bool file_backed = false;   // levelql on LevelDB files, not in memory
};

// The two tables of a join as one: columns `x.<name>` of `a` then
// `y.<name>` of `b`, the key of both (none when either has none), and a
// name that is the FROM clause (`on`: the JOIN form, else the comma form;
// `left`, `right`, `full`: LEFT, RIGHT, FULL JOIN).
TableDef JoinedTable(const TableDef& a, const TableDef& b, bool on,
                     bool left = false, bool right = false, bool full = false);

// The table `q`'s expressions name columns of: tables[q.table], or the
// JoinedTable() of a join.
TableDef QueryTable(const Query& q, const std::vector<TableDef>& tables);

std::string RenderLiteral(const Value& v);
// With `params`, every literal is a `?` and its value is appended there.
std::string RenderExpr(const Expr& e, const TableDef& t, Dialect d,
                       std::vector<Value>* params = nullptr);
// With `params`, the literals of WHERE and ON are `?` parameters (their
// values appended there in order); elsewhere a literal can be an ordinal.
std::string RenderQuery(const Query& q, const TableDef& t, Dialect d,
                        std::vector<Value>* params = nullptr);
std::string RenderCreateTable(const TableDef& t, Dialect d);
std::string RenderCreateIndex(const IndexDef& ix, const TableDef& t, Dialect d);
// Any step as one SQL statement (no trailing ';').
std::string RenderStep(const Step& s, const std::vector<TableDef>& tables,
                       Dialect d);

// The number of nodes in an expression (used to prefer smaller shrinks).
int ExprSize(const Expr& e);

}  // namespace levelql::difftest

#endif  // LEVELQL_TESTS_DIFFERENTIAL_SQL_AST_H_
