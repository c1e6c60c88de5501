// The abstract syntax tree of the levelql dialect (docs/DIALECT.md).
//
// Plain structs produced by parser::Parse and consumed by the engine's binder.
// The parser knows no catalog: names are as written (unquoted identifiers are
// folded to ASCII lower case, "quoted" ones are kept verbatim), literals are
// Values of the type their spelling implies. Every node carries the 1-based
// line and column where it starts, for error messages. Trees own their
// children through unique_ptr; a tree is not thread-safe to mutate but may be
// read from several threads.
#ifndef LEVELQL_PARSER_AST_H_
#define LEVELQL_PARSER_AST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "levelql/value.h"

namespace levelql::parser {

struct Position {
  int line = 0;    // 1-based
  int column = 0;  // 1-based, in bytes
  friend bool operator==(const Position&, const Position&) = default;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Select;

enum class ExprKind {
  kLiteral,   // literal
  kColumn,    // [qualifier.]name
  kParam,     // ?, ?NNN or :name
  kUnary,     // op args[0]
  kBinary,    // args[0] op args[1]
  kBetween,   // args[0] [NOT] BETWEEN args[1] AND args[2]
  kIn,        // args[0] [NOT] IN (args[1..]), or IN (subquery) when set
  kIsNull,    // args[0] IS [NOT] NULL
  kLike,      // args[0] [NOT] LIKE args[1] [ESCAPE args[2]]
  kFunction,  // name([DISTINCT] args...) or name(*) when star
  kCast,      // CAST(args[0] AS cast_type)
  kArray,     // ARRAY[args...]
  kCase,      // CASE [args[0]] WHEN w THEN t ... [ELSE e] END: args are the
              // operand (when case_operand), then each WHEN and its THEN,
              // then the ELSE (when case_else)
  kSubquery,  // (subquery): its first row's value, NULL without a row
  kExists,    // EXISTS (subquery)
  kCollate,   // args[0] COLLATE name
};

enum class UnaryOp { kPlus, kMinus, kNot, kBitNot };

enum class BinaryOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kConcat,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAnd,
  kOr,
  // Bitwise, on 64-bit integers (SQLite's & | << >>).
  kBitAnd,
  kBitOr,
  kShiftLeft,
  kShiftRight,
};

// A declared type: scalar type plus whether it is a list (`T[]`).
struct TypeName {
  Type type = Type::kNull;
  bool is_list = false;
  std::optional<int64_t> length;  // VARCHAR(n); informative only
  friend bool operator==(const TypeName&, const TypeName&) = default;
};

struct Expr {
  Expr() = default;
  // Takes the tree apart without recursion: a deep one (999 nested
  // brackets) must not overflow a small thread stack as it is freed.
  ~Expr();
  Expr(Expr&&) = default;
  Expr& operator=(Expr&&) = default;

  ExprKind kind = ExprKind::kLiteral;
  Position pos;
  Value literal;          // kLiteral
  std::string name;       // kColumn name, kFunction name (lower case),
                          // kParam ":name" name without the colon
  std::string qualifier;  // kColumn: table or alias, may be empty
  int param_index = 0;    // kParam: NNN for ?NNN; a plain ? and the first
                          // use of a :name get the next number (SQLite)
  UnaryOp unary_op = UnaryOp::kPlus;
  BinaryOp binary_op = BinaryOp::kAdd;
  bool negated = false;       // NOT BETWEEN / NOT IN / IS NOT NULL / NOT LIKE
  bool distinct = false;      // kFunction: COUNT(DISTINCT x)
  bool star = false;          // kFunction: COUNT(*)
  TypeName cast_type;         // kCast
  bool case_operand = false;  // kCase: CASE x WHEN ... (args[0] is x)
  bool case_else = false;     // kCase: the last arg is the ELSE
  std::vector<ExprPtr> args;
  // kSubquery, kExists, and kIn with a SELECT in its brackets.
  std::shared_ptr<Select> subquery;
  // Set by the engine only (never parsed): a view's computed column merged
  // into a query carries its collation, binary unless it has one
  // (engine/plan/inline_from.h).
  bool pin_collation = false;
  // Set by the engine only: a column a subquery in FROM reads that none of
  // its own tables has, once that subquery is merged into the query reading
  // it. It names a column of a query around that one, never of a table
  // beside the subquery (engine/plan/inline_from.h): the number of scopes,
  // from the column's own outwards, it is not looked for in (1 when it is
  // in that query's own clauses, 2 in a subquery of them, ...); 0: none.
  int outer_only = 0;
  // Set with outer_only on such a column of a merged subquery (not on one
  // the query itself writes): an aggregate over it is the reading query's
  // (its argument is that subquery's column), as in SQLite.
  bool via_from = false;
};

// Deep structural equality, positions ignored.
bool Equal(const Expr& a, const Expr& b);

struct ColumnDef {
  std::string name;
  Position pos;
  TypeName type;
  bool primary_key = false;
  bool primary_key_desc = false;  // "col INTEGER PRIMARY KEY DESC"
  bool not_null = false;
  bool unique = false;
  std::string collation;  // empty when not given; a bare name folded to
                          // lower case, "quoted" or 'string' verbatim
  ExprPtr default_value;  // a literal (possibly negated), or null
};

struct IndexColumn {
  std::string name;
  Position pos;
  std::string collation;  // empty when not given
  bool desc = false;
};

// One `name = value` of CREATE TABLE ... WITH (...); the engine checks the
// names and values (salt_buckets is the only option).
struct TableOption {
  std::string name;
  Position pos;
  Value value;
};

struct CreateTable {
  std::string name;
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;
  std::vector<IndexColumn> primary_key;  // table constraint PRIMARY KEY (...)
  std::vector<TableOption> options;      // WITH (name = value, ...)
};

struct CreateIndex {
  std::string name;
  std::string table;
  bool unique = false;
  bool if_not_exists = false;
  std::vector<IndexColumn> columns;
  std::vector<std::string> include;
  bool ranked = false;  // WITH (ranked): entry counts kept for OFFSET/COUNT
};

struct DropTable {
  std::string name;
  bool if_exists = false;
};

// ALTER TABLE name ADD [COLUMN] column-def (a column added after the
// table's others; rows written before it read it as its DEFAULT), RENAME
// TO new-name, RENAME [COLUMN] from TO to, or DROP [COLUMN] from.
struct AlterTable {
  enum class Action { kAddColumn, kRenameTable, kRenameColumn, kDropColumn };
  std::string name;
  Action action = Action::kAddColumn;
  ColumnDef column;  // kAddColumn
  std::string from;  // kRenameColumn, kDropColumn: the column's name
  std::string to;    // kRenameTable, kRenameColumn: the new name
};

struct DropIndex {
  std::string name;
  bool if_exists = false;
};

// CREATE VIEW name [(column, ...)] AS SELECT ...: a named query, read
// wherever a table may be (engine/plan/inline_from.h).
struct CreateView {
  std::string name;
  bool if_not_exists = false;
  std::vector<std::string> columns;  // empty: the SELECT's own names
  std::shared_ptr<Select> select;
};

struct DropView {
  std::string name;
  bool if_exists = false;
};

struct SelectItem {
  ExprPtr expr;            // null for `*` and `t.*`
  std::string star_table;  // `t.*`: the table or alias t
  std::string alias;       // empty when none
  std::string text;        // the expression as written (alias excluded), for
                           // the result column name; "*" for `*`
  Position pos;
};

struct OrderItem {
  ExprPtr expr;  // an integer literal here means "ORDER BY <ordinal>"
  bool desc = false;
};

// SQLite's `INDEXED BY i` or `NOT INDEXED` after a table in FROM: which
// of its indexes the planner may use (the primary key always).
struct IndexHint {
  bool not_indexed = false;
  std::string index;  // INDEXED BY; empty: none
  Position pos;       // of the index name
  friend bool operator==(const IndexHint& a, const IndexHint& b) {
    return a.not_indexed == b.not_indexed && a.index == b.index;
  }
};

// A table after the first of FROM: `JOIN t [AS] a [ON expr]`, or `, t`.
struct JoinTable {
  bool left = false;                 // LEFT [OUTER] JOIN
  bool right = false;                // RIGHT [OUTER] JOIN (inline_from.h)
  bool full = false;                 // FULL [OUTER] JOIN (inline_from.h)
  std::string table;                 // empty when `subquery` is set
  std::shared_ptr<Select> subquery;  // `JOIN (SELECT ...) [AS] a`
  Position pos;
  std::string alias;
  IndexHint hint;
  ExprPtr on;  // null: every pair of rows (a comma or CROSS JOIN)
};

// The operator joining a SELECT to the ones before it in a compound
// SELECT (they associate to the left, all with one precedence).
enum class CompoundOp { kUnion, kUnionAll, kIntersect, kExcept };

struct CompoundTerm {
  CompoundOp op = CompoundOp::kUnion;
  std::shared_ptr<Select> select;  // no ORDER BY or LIMIT of its own
  Position pos;                    // of the operator
};

// `name [(columns)] AS (SELECT ...)` of a WITH clause: a view of one
// statement, which the SELECT it heads (and the subqueries in it) read by
// name.
struct CommonTable {
  std::string name;
  std::vector<std::string> columns;  // empty: the SELECT's own names
  std::shared_ptr<Select> select;
  Position pos;  // of the name
};

struct Select {
  // WITH ...: common table expressions, each seen by those after it and by
  // this SELECT, its compound's SELECTs and their subqueries.
  std::vector<CommonTable> with;
  bool recursive = false;  // WITH RECURSIVE
  bool distinct = false;
  std::vector<SelectItem> items;
  std::string table;  // the first table of FROM (empty: no FROM)
  // The first item of FROM is `(SELECT ...) [AS] alias` (table empty).
  std::shared_ptr<Select> from_subquery;
  Position table_pos;
  std::string alias;
  IndexHint hint;
  std::vector<JoinTable> joins;  // inner joins, in FROM order
  ExprPtr where;
  std::vector<ExprPtr> group_by;  // an integer literal: a select-list ordinal
  ExprPtr having;
  // A compound SELECT: this one, then each term in turn; ORDER BY, LIMIT
  // and OFFSET then belong to the whole.
  std::vector<CompoundTerm> compound;
  std::vector<OrderItem> order_by;
  ExprPtr limit;
  ExprPtr offset;
  // Read as a table (a view's SELECT, or a subquery in FROM): the names of
  // its result columns, when given (CREATE VIEW v (a, b) AS ...).
  std::vector<std::string> column_names;
  // Set by the engine only: the names of queries around (Expr::outer_only)
  // that the select lists of subqueries merged into this one hold, read or
  // not; the binder checks each is there, as SQLite does for a column a
  // query never reads (engine/plan/inline_from.h).
  std::vector<ExprPtr> names_to_check;
};

// What an INSERT does with a row that breaks a PRIMARY KEY, UNIQUE or NOT
// NULL constraint (SQLite's conflict clause; ABORT, the default, fails the
// statement).
enum class OnConflict { kAbort, kReplace, kIgnore };

struct Insert {
  std::vector<CommonTable> with;  // WITH ... before it (common_tables.h)
  bool recursive = false;
  OnConflict on_conflict = OnConflict::kAbort;  // INSERT OR ..., REPLACE
  std::string table;
  Position table_pos;
  std::vector<std::string> columns;  // empty: all columns in order
  std::vector<std::vector<ExprPtr>> rows;
  std::unique_ptr<Select> select;  // INSERT ... SELECT when set
};

struct Assignment {
  std::string column;
  Position pos;
  ExprPtr value;
};

struct Update {
  std::vector<CommonTable> with;  // WITH ... before it (common_tables.h)
  bool recursive = false;
  std::string table;
  Position table_pos;
  std::vector<Assignment> assignments;
  ExprPtr where;
};

struct Delete {
  std::vector<CommonTable> with;  // WITH ... before it (common_tables.h)
  bool recursive = false;
  std::string table;
  Position table_pos;
  ExprPtr where;
};

struct Analyze {
  std::string table;  // empty: every table
};

// REINDEX [name]: rebuild a table's or an index's keys.
struct Reindex {
  std::string name;  // a table or an index; empty: everything that needs it
};

struct Check {
  enum class Target { kAll, kTable, kIndex };
  Target target = Target::kAll;
  std::string name;
};

// BEGIN [DEFERRED | IMMEDIATE | EXCLUSIVE] [TRANSACTION].
struct Begin {
  enum class Mode { kDeferred, kImmediate, kExclusive };
  Mode mode = Mode::kDeferred;
};
struct Commit {};
struct Rollback {};

struct Pragma {
  std::string name;
  std::optional<Value> value;  // PRAGMA name = value; identifiers as TEXT
};

struct Statement;

struct Explain {
  bool analyze = false;
  std::unique_ptr<Statement> statement;  // Select, Update or Delete
};

struct Statement {
  Position pos;
  std::string text;  // the statement's source text, without the `;`
  std::variant<CreateTable, CreateIndex, DropTable, DropIndex, Insert, Update,
               Delete, Select, Explain, Analyze, Check, Reindex, Begin, Commit,
               Rollback, Pragma, CreateView, DropView, AlterTable>
      node;
};

// Deep structural equality, positions and source text ignored.
bool Equal(const Statement& a, const Statement& b);

// Deep copies (a subquery's SELECT is copied too, not shared).
ExprPtr Clone(const Expr& e);
std::shared_ptr<Select> Clone(const Select& s);
ColumnDef Clone(const ColumnDef& c);

// "UNION ALL", ...
const char* CompoundOpText(CompoundOp op);

// How `op` is written: "+", "<>", "AND", "<<", ...
const char* BinaryOpText(BinaryOp op);
// Whether `op` is one of = <> < <= > >=.
bool IsComparison(BinaryOp op);
// How `op` is written: "+", "-", "~" or "NOT".
const char* UnaryOpText(UnaryOp op);

}  // namespace levelql::parser

#endif  // LEVELQL_PARSER_AST_H_
