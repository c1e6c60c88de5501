// The binder: resolves a parsed statement against the catalog.
//
// Names become row positions, literals and parameters become slots, types and
// collations are attached for comparison, aggregates are pulled out of the
// select list, and ORDER BY terms are matched to output columns (ordinals,
// aliases) or bound as expressions over the table row. Errors carry the
// position of the offending name. A Binder is used by one thread.
#ifndef LEVELQL_ENGINE_PLAN_BINDER_H_
#define LEVELQL_ENGINE_PLAN_BINDER_H_

#include <memory>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/exec/expr.h"
#include "parser/ast.h"

namespace levelql {

struct BoundOrder {
  BoundExprPtr expr;  // over the table row (or aggregate results)
  int output = -1;    // >= 0: sort by this output column instead
  bool desc = false;
  const Collation* collation = nullptr;
};

// One table of a join's FROM, and where its columns start in the joined row.
struct BoundTableRef {
  std::shared_ptr<const TableSchema> table;
  std::string name;  // the alias, else the table's name (for EXPLAIN)
  int offset = 0;
  // LEFT JOIN: the rows before it each pair with this table's rows for
  // which `on` (over the joined row) is true, or with NULLs when none is.
  bool outer = false;
  std::shared_ptr<const BoundExpr> on;  // null: every row pairs
};

struct BoundSubquery;

struct BoundSelect {
  // The rows' table; for a join, a made-up table whose row is every FROM
  // table's row in turn (their columns at `from[i].offset`) and whose
  // primary key is all of theirs.
  std::shared_ptr<const TableSchema> table;
  std::vector<BoundTableRef> from;        // joins only: the FROM tables
  std::vector<std::string> column_names;  // of the table row, for EXPLAIN
  BoundExprPtr where;                     // null: every row
  std::vector<BoundExprPtr> outputs;
  std::vector<std::string> output_names;
  std::vector<Type> output_types;
  bool distinct = false;
  // Rows are aggregated: one result row per group of GROUP BY (one row in
  // all without GROUP BY).
  bool aggregate = false;
  std::vector<AggregateSpec> aggregates;
  // GROUP BY terms over the table row (ordinals and aliases resolved).
  std::vector<BoundExprPtr> group_by;
  BoundExprPtr having;  // over the aggregates and a group's last row
  // One result row: aggregates without GROUP BY.
  bool single_row() const { return aggregate && group_by.empty(); }
  std::vector<BoundOrder> order_by;
  BoundExprPtr limit;   // null: none
  BoundExprPtr offset;  // null: 0
  // A compound SELECT (UNION [ALL], INTERSECT, EXCEPT): its SELECTs, the
  // i-th joined to those before it by compound_ops[i - 1]. `outputs` and
  // the names and types are the first one's; order_by (over the outputs),
  // limit and offset belong to the whole; `table` has no columns.
  std::vector<std::shared_ptr<const BoundSelect>> compound;
  std::vector<parser::CompoundOp> compound_ops;
  // Of a correlated subquery: the tables of its views and subqueries in
  // FROM that read a column of the row around it (kTable subqueries). Their
  // rows are made again for each such row, before it runs, in this order
  // (an inner one before the one reading it); the statement's other kTable
  // subqueries are made once, before the statement.
  std::vector<std::shared_ptr<const BoundSubquery>> per_run_tables;
};

// A subquery of a statement (`(SELECT ...)`, `EXISTS (...)`, `x IN (SELECT
// ...)`). An uncorrelated one runs once per execution, before the
// statement (subquery.h), its value read through a hidden parameter slot;
// a correlated one (reading columns of the row around it, as kOuterRef)
// runs for each such row (BoundExpr::Kind::kSubqueryRun).
struct BoundSubquery {
  enum class Kind {
    kScalar,  // its first row's first value, NULL without a row
    kExists,  // 1 when it has a row, else 0
    kIn,      // a LIST of every row's first value (BoundExpr::Kind::kInSet)
    // A view or subquery in FROM that makes rows of its own: its rows
    // become the rows of `table` (numbered from 1 in the order they come,
    // their hidden rowid), which the query reading it reads as a table.
    kTable,
  };
  Kind kind = Kind::kScalar;
  std::shared_ptr<const BoundSelect> select;
  std::shared_ptr<const TableSchema> table;  // kTable
  parser::Position pos;                      // where it is in the statement
};

// The ids of the tables kTable subqueries fill: counted down from here, far
// above any id a catalog gives, and never stored.
inline constexpr int64_t kFirstDerivedTableId = int64_t{1} << 62;

// Maps the statement's parameters to slots: `?`/`?NNN` use slot NNN-1; each
// distinct `:name` gets the next slot after them. Subqueries' values follow
// the statement's parameters, the last slot the first subquery's: a hidden
// slot is read as BoundExpr index -1 for the first subquery, -2 for the
// second, counted from the end of the values (so it is known while binding,
// before the statement's last parameter is seen). Subqueries are listed
// in the order they are bound, an inner one before the one holding it; a
// null one belongs to a value the statement never reads (an UPDATE's
// assignment overridden by a later one) and is not run.
struct ParamSlots {
  int count = 0;
  std::vector<std::string> names;  // slot -> name ("" for positional)
  std::vector<std::shared_ptr<const BoundSubquery>> subqueries;
};

struct BoundInsert {
  parser::OnConflict on_conflict = parser::OnConflict::kAbort;
  std::shared_ptr<const TableSchema> table;
  std::vector<int> target_columns;              // per value position
  std::vector<std::vector<BoundExprPtr>> rows;  // VALUES
  std::unique_ptr<BoundSelect> select;          // INSERT ... SELECT
};

struct BoundUpdate {
  std::shared_ptr<const TableSchema> table;
  std::vector<std::string> column_names;
  std::vector<std::pair<int, BoundExprPtr>> assignments;
  BoundExprPtr where;
};

struct BoundDelete {
  std::shared_ptr<const TableSchema> table;
  std::vector<std::string> column_names;
  BoundExprPtr where;
};

// The collation a compound SELECT compares result column `column` with:
// that of the first SELECT, left to right, whose column has one (SQLite's
// rule); null (binary) when none has.
const Collation* CompoundCollation(const BoundSelect& select, int column);

// A call of an aggregate function (min and max of two or more arguments
// are scalar functions).
bool IsAggregateCall(const parser::Expr& e);

class Binder {
 public:
  explicit Binder(std::shared_ptr<const CatalogState> catalog)
      : catalog_(std::move(catalog)) {}

  Result<BoundSelect> BindSelect(const parser::Select& select);
  Result<BoundInsert> BindInsert(const parser::Insert& insert);
  Result<BoundUpdate> BindUpdate(const parser::Update& update);
  Result<BoundDelete> BindDelete(const parser::Delete& del);

  const ParamSlots& params() const { return params_; }

 private:
  struct Scope;
  // The table `name`; an error when it cannot be read (or, with `write`,
  // written) until REINDEX rebuilds it or one of its indexes.
  Result<std::shared_ptr<const TableSchema>> FindTable(
      const std::string& name, const parser::Position& pos,
      bool write = false) const;
  // FindTable for a SELECT's FROM, as its index hint lets the planner see it.
  Result<std::shared_ptr<const TableSchema>> FindHinted(
      const std::string& name, const parser::Position& pos,
      const parser::IndexHint& hint) const;
  Result<BoundExprPtr> Bind(const parser::Expr& expr, Scope& scope);
  Result<BoundExprPtr> BindFunction(const parser::Expr& expr, Scope& scope);
  Result<BoundExprPtr> BindSubquery(const parser::Expr& expr, Scope& scope);
  Status BindGroupBy(const parser::Select& select, Scope& scope,
                     BoundSelect* out);
  Status BindFrom(const parser::Select& select, BoundSelect* out);
  // The table of FROM item `name`: a table of the catalog, or the rows of a
  // subquery the inliner left to be made first (BindDerived).
  Result<std::shared_ptr<const TableSchema>> BindFromItem(
      const std::string& name, const parser::Select* subquery,
      const std::string& alias, const parser::Position& pos,
      const parser::IndexHint& hint);
  Result<std::shared_ptr<const TableSchema>> BindDerived(
      const parser::Select& select, const std::string& name,
      const parser::Position& pos);
  // BindSelect of a query whose FROM holds tables only (inline_from.h).
  Result<BoundSelect> BindMerged(const parser::Select& select);
  Result<BoundSelect> BindCompound(const parser::Select& select);
  Status BindLimits(const parser::Select& select, BoundSelect* out);
  Result<int> ParamSlot(const parser::Expr& expr);
  // The innermost query around (skipping what e.outer_only says) that has
  // column `e`: its level in around_ and the column's place there; NotFound
  // when none has it, InvalidArgument when that one has it twice. Binds
  // nothing (Select::names_to_check calls it alone).
  Status FindAround(const parser::Expr& e, size_t* level, int* at) const;

  std::shared_ptr<const CatalogState> catalog_;
  ParamSlots params_;
  // The queries views and subqueries in FROM were merged into, bound here.
  std::vector<std::unique_ptr<parser::Select>> merged_;
  // The expression whose collation Bind is pinning (Expr::pin_collation).
  const parser::Expr* pinning_ = nullptr;
  // Statements bound in place of the ones given (WITH ... INSERT, UPDATE,
  // DELETE, expanded).
  std::vector<std::shared_ptr<const void>> held_;
  // Tables of views and subqueries made for the statement (BindDerived).
  int64_t derived_tables_ = 0;
  // Per select item of the SELECT being bound, its first output (`*` and
  // `t.*` stand for several).
  std::vector<int> item_outputs_;
  // Per subquery being bound (innermost last): the scope of the query
  // around it, and the values of that query's row it reads, bound there (a
  // column of that row, or a value passed in from further out: a name
  // found around makes every subquery up to its query correlated).
  struct Around {
    const Scope* scope;
    std::vector<BoundExprPtr>* refs;
    // Its tables made for each row around it (BoundSelect::per_run_tables).
    std::vector<std::shared_ptr<const BoundSubquery>>* per_run;
    // Names bound to a column of that row so far (several may share a ref).
    int64_t reads = 0;
  };
  std::vector<Around> around_;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_BINDER_H_
