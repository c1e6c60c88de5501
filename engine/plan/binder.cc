#include "engine/plan/binder.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "base/stack_floor.h"
#include "engine/exec/functions.h"
#include "engine/plan/inline_from.h"
#include "indexes/collation.h"
#include "parser/common_tables.h"
#include "parser/parse_error.h"

namespace levelql {
namespace {

using parser::Expr;
using parser::ExprKind;

std::string Where(const parser::Position& pos) {
  return parser::Place(pos) + ": ";
}

std::vector<std::string> ColumnNames(const TableSchema& table) {
  std::vector<std::string> names;
  for (const ColumnSchema& c : table.columns) names.push_back(c.name);
  return names;
}

// The aggregate function `name` (of one or more arguments; COUNT(*) is
// told by its star), if it is one.
std::optional<AggregateKind> AggregateNamed(const std::string& name) {
  static const std::pair<const char*, AggregateKind> kNames[] = {
      {"count", AggregateKind::kCount},
      {"sum", AggregateKind::kSum},
      {"min", AggregateKind::kMin},
      {"max", AggregateKind::kMax},
      {"avg", AggregateKind::kAvg},
      {"total", AggregateKind::kTotal},
      {"group_concat", AggregateKind::kGroupConcat}};
  for (const auto& [n, kind] : kNames) {
    if (name == n) return kind;
  }
  return std::nullopt;
}

}  // namespace

bool IsAggregateCall(const parser::Expr& e) {
  return e.kind == ExprKind::kFunction && AggregateNamed(e.name) &&
         !((e.name == "min" || e.name == "max") && e.args.size() > 1);
}

namespace {

// The last position of the row `e` reads (-1: none).
int LastColumn(const BoundExpr& e) {
  int last = e.kind == BoundExpr::Kind::kColumn ? e.index : -1;
  for (const auto& a : e.args) last = std::max(last, LastColumn(*a));
  return last;
}

bool HasAggregate(const BoundExpr& e) {
  if (e.kind == BoundExpr::Kind::kAggregateRef) return true;
  for (const auto& a : e.args) {
    if (HasAggregate(*a)) return true;
  }
  return false;
}

}  // namespace

struct Binder::Scope {
  const TableSchema* table = nullptr;  // null: no columns visible
  std::string alias;
  // A join: the FROM tables (names resolve through them to positions of
  // the joined row, `table`).
  const std::vector<BoundTableRef>* from = nullptr;

  // The position of column `name` (of table `qualifier` when given) in the
  // row, or an error naming what is missing or ambiguous.
  Result<int> FindColumn(const parser::Expr& e) const {
    if (!from) {
      // A table given an alias is known by it alone (SQLite): in a
      // subquery, the table's name may then be the query's around it.
      if (!e.qualifier.empty() &&
          e.qualifier != (alias.empty() ? table->name : alias)) {
        return Status::NotFound(Where(e.pos) + "no table " + e.qualifier);
      }
      int col = table->FindColumn(e.name);
      if (col < 0) {
        return Status::NotFound(Where(e.pos) + "no column " + e.name +
                                " in table " + table->name);
      }
      return col;
    }
    int found = -1;
    bool named = false;
    for (const BoundTableRef& t : *from) {
      if (!e.qualifier.empty() && e.qualifier != t.name) continue;
      named = true;
      int col = t.table->FindColumn(e.name);
      if (col < 0) continue;
      if (found >= 0) {
        return Status::InvalidArgument(Where(e.pos) + "ambiguous column " +
                                       e.name + ": more than one table has it");
      }
      found = t.offset + col;
    }
    if (!named)
      return Status::NotFound(Where(e.pos) + "no table " + e.qualifier);
    if (found < 0) {
      return Status::NotFound(
          Where(e.pos) + "no column " + e.name +
          (e.qualifier.empty() ? " in any table" : " in table " + e.qualifier));
    }
    return found;
  }

  std::vector<AggregateSpec>* aggregates = nullptr;  // null: not allowed
  bool inside_aggregate = false;
  const char* context = "here";  // for "aggregate functions are not allowed"
  // Select-list aliases a name that is no column may refer to (HAVING,
  // ORDER BY), as in SQLite.
  std::vector<std::pair<std::string, const BoundExpr*>> aliases;
  // In WHERE and ON, before the select list is bound: the items whose
  // aliases a name that is no column may refer to (SQLite allows it), and
  // the aliases being bound now (an item cannot refer to itself).
  const std::vector<parser::SelectItem>* unbound_items = nullptr;
  std::vector<std::string> resolving;
};

namespace {

// An ORDER BY or GROUP BY term that names a select-list column by number:
// an integer literal that fits SQLite's 32-bit int (0 is one, out of range);
// a larger one is a constant term, as in SQLite. (-9223372036854775808,
// which the parser folds into one literal, is a negated number.)
bool IsOrdinal(const parser::Expr& e) {
  return e.kind == parser::ExprKind::kLiteral &&
         e.literal.type() == Type::kInteger && e.literal.int_value() >= 0 &&
         e.literal.int_value() <= std::numeric_limits<int32_t>::max();
}

// `table` as the planner of one query sees it under `hint`: NOT INDEXED
// without its indexes, INDEXED BY i with index i alone (the primary key
// stays either way).
Result<std::shared_ptr<const TableSchema>> Hinted(
    std::shared_ptr<const TableSchema> table, const parser::IndexHint& hint) {
  if (!hint.not_indexed && hint.index.empty()) return table;
  auto copy = std::make_shared<TableSchema>(*table);
  copy->indexes.clear();
  if (hint.not_indexed) return std::shared_ptr<const TableSchema>(copy);
  for (const auto& index : table->indexes) {
    if (index->name == hint.index) copy->indexes.push_back(index);
  }
  if (copy->indexes.empty()) {
    return Status::NotFound(Where(hint.pos) + "no index " + hint.index +
                            " on table " + table->name + " (INDEXED BY)");
  }
  return std::shared_ptr<const TableSchema>(copy);
}

}  // namespace

Result<std::shared_ptr<const TableSchema>> Binder::FindHinted(
    const std::string& name, const parser::Position& pos,
    const parser::IndexHint& hint) const {
  LQ_ASSIGN_OR_RETURN(auto table, FindTable(name, pos));
  return Hinted(std::move(table), hint);
}

Result<std::shared_ptr<const TableSchema>> Binder::FindTable(
    const std::string& name, const parser::Position& pos, bool write) const {
  auto it = catalog_->tables.find(name);
  if (it == catalog_->tables.end()) {
    if (catalog_->FindView(name)) {
      return Status::InvalidArgument(Where(pos) + "cannot " +
                                     (write ? "modify" : "index") + " view " +
                                     name + ": a view is read only");
    }
    return Status::NotFound(Where(pos) + "no table " + name);
  }
  const TableSchema& table = *it->second;
  if (!table.needs_reindex.empty()) {
    return Status::NotSupported(Where(pos) + "table " + name +
                                " must be rebuilt before use: " +
                                table.needs_reindex + "; run REINDEX " + name);
  }
  if (write) {
    for (const auto& index : table.indexes) {
      if (index->needs_reindex.empty()) continue;
      return Status::NotSupported(
          Where(pos) + "table " + name + " cannot be written until index " +
          index->name + " is rebuilt: " + index->needs_reindex +
          "; run REINDEX " + index->name + " (or DROP INDEX " + index->name +
          ")");
    }
  }
  return it->second;
}

Result<int> Binder::ParamSlot(const Expr& e) {
  // The parser numbers every parameter: ?NNN as written, ? and the first
  // use of each :name as the next number (SQLite's rule).
  if (e.param_index < 1 || e.param_index > 32766) {
    return Status::InvalidArgument(Where(e.pos) + "parameter number " +
                                   std::to_string(e.param_index) +
                                   " is out of range 1..32766");
  }
  int slot = e.param_index - 1;
  if (slot >= params_.count) {
    params_.count = slot + 1;
    params_.names.resize(params_.count);
  }
  if (!e.name.empty()) params_.names[slot] = e.name;
  return slot;
}

namespace {

// The collation a comparison of `operands` uses: one written with COLLATE
// (the first operand's first), else the first one's, else the next's, else
// binary (SQLite's rule).
const Collation* ComparisonCollation(
    const std::vector<const BoundExpr*>& operands) {
  for (const BoundExpr* a : operands) {
    if (const Collation* c = ExplicitCollation(*a)) return c;
  }
  for (const BoundExpr* a : operands) {
    if (const Collation* c = CarriedCollation(*a)) return c;
  }
  return Collation::Binary();
}

}  // namespace

Result<BoundExprPtr> Binder::Bind(const Expr& e, Scope& scope) {
  if (e.pin_collation && pinning_ != &e) {
    const Expr* around = pinning_;
    pinning_ = &e;
    Result<BoundExprPtr> out = Bind(e, scope);
    pinning_ = around;
    if (!out.ok()) return out;
    const Collation* c = CarriedCollation(**out);
    (*out)->carried = c ? c : Collation::Binary();
    return out;
  }
  // One frame per level: a deep expression on a thread with a small stack
  // fails instead of overflowing it (the parser checks the same).
  if (StackExhausted()) {
    return Status::LimitExceeded(
        Where(e.pos) + "expression nesting exceeds this thread's stack");
  }
  auto out = std::make_unique<BoundExpr>();
  out->pos = e.pos;
  auto bind_args = [&]() -> Status {
    for (const auto& a : e.args) {
      LQ_ASSIGN_OR_RETURN(BoundExprPtr b, Bind(*a, scope));
      out->args.push_back(std::move(b));
    }
    return Status::OK();
  };
  auto pick_collation = [&]() {
    std::vector<const BoundExpr*> operands;
    for (const auto& a : out->args) operands.push_back(a.get());
    out->collation = ComparisonCollation(operands);
  };
  switch (e.kind) {
    case ExprKind::kCollate: {
      // x's value, carrying the collation written into comparisons,
      // ORDER BY, GROUP BY and DISTINCT.
      Result<const Collation*> c = Collation::Get(e.name);
      if (!c.ok()) {
        return Status::InvalidArgument(Where(e.pos) + c.status().message());
      }
      LQ_ASSIGN_OR_RETURN(BoundExprPtr x, Bind(*e.args[0], scope));
      x->carried = *c;
      x->explicit_collation = true;
      return x;
    }
    case ExprKind::kLiteral:
      // TEXT is UTF-8 wherever it comes from (a value stored or CAST is
      // checked too): collations and LIKE are defined on nothing else.
      if (e.literal.type() == Type::kText) {
        if (Status v = ValidateUtf8(e.literal.text()); !v.ok()) {
          return Status::TypeError(Where(e.pos) +
                                   "string literal: " + v.message());
        }
      }
      out->kind = BoundExpr::Kind::kConst;
      out->value = e.literal;
      out->type = e.literal.type();
      return out;
    case ExprKind::kColumn: {
      if (!scope.table) {
        return Status::InvalidArgument(Where(e.pos) + "no column " + e.name +
                                       " here (no table in scope)");
      }
      // A merged subquery's column of a query around: never this one's.
      Result<int> found = e.outer_only ? Result<int>(Status::NotFound(""))
                          : scope.table->one_row
                              ? Result<int>(Status::NotFound(
                                    Where(e.pos) + "no column " + e.name +
                                    " (a SELECT without FROM has no columns)"))
                              : scope.FindColumn(e);
      if (!found.ok() && found.status().code() == Status::Code::kNotFound &&
          e.qualifier.empty() && !e.outer_only) {
        for (const auto& [alias, expr] : scope.aliases) {
          if (alias != e.name) continue;
          if (scope.inside_aggregate && HasAggregate(*expr)) {
            return Status::InvalidArgument(
                Where(e.pos) + "aggregate functions cannot be nested");
          }
          return CloneExpr(*expr);
        }
        if (scope.unbound_items) {
          for (const parser::SelectItem& item : *scope.unbound_items) {
            if (!item.expr || item.alias != e.name ||
                std::find(scope.resolving.begin(), scope.resolving.end(),
                          e.name) != scope.resolving.end()) {
              continue;
            }
            scope.resolving.push_back(e.name);
            Result<BoundExprPtr> bound = Bind(*item.expr, scope);
            scope.resolving.pop_back();
            return bound;
          }
        }
      }
      if (!found.ok() && found.status().code() == Status::Code::kNotFound &&
          (!around_.empty() || e.outer_only)) {
        // A column of the row of a query around this subquery (correlated):
        // read as a value of that row each time the subquery runs. From a
        // query further out, each subquery between passes it in as a value
        // of the row around it.
        size_t level = 0;
        int at = -1;
        const Status around = FindAround(e, &level, &at);
        if (!around.ok() &&
            (e.outer_only || around.code() != Status::Code::kNotFound)) {
          return around;  // ambiguous there, or a name of no query around
        }
        if (around.ok()) {
          const ColumnSchema& column = around_[level].scope->table->columns[at];
          // The slot of a value (a column of the row, or a value passed
          // in) among a subquery's values from the row around it.
          auto slot = [&](std::vector<BoundExprPtr>* refs, BoundExpr::Kind kind,
                          int index) {
            size_t j = 0;
            while (j < refs->size() &&
                   ((*refs)[j]->kind != kind || (*refs)[j]->index != index)) {
              ++j;
            }
            if (j == refs->size()) {
              refs->push_back(MakeColumn(column, at));
              refs->back()->kind = kind;
              refs->back()->index = index;
              refs->back()->pos = e.pos;
            }
            return static_cast<int>(j);
          };
          int j = slot(around_[level].refs, BoundExpr::Kind::kColumn, at);
          ++around_[level].reads;
          for (size_t k = level + 1; k < around_.size(); ++k) {
            j = slot(around_[k].refs, BoundExpr::Kind::kOuterRef, j);
            ++around_[k].reads;
          }
          BoundExprPtr ref = MakeColumn(column, at);
          ref->kind = BoundExpr::Kind::kOuterRef;
          ref->index = j;
          ref->pos = e.pos;
          return ref;
        }
      }
      if (!found.ok()) return found.status();
      BoundExprPtr column = MakeColumn(scope.table->columns[*found], *found);
      column->pos = e.pos;
      return column;
    }
    case ExprKind::kParam: {
      out->kind = BoundExpr::Kind::kParam;
      LQ_ASSIGN_OR_RETURN(out->index, ParamSlot(e));
      return out;
    }
    case ExprKind::kUnary:
      out->kind = BoundExpr::Kind::kUnary;
      out->unary_op = e.unary_op;
      LQ_RETURN_IF_ERROR(bind_args());
      return out;
    case ExprKind::kBinary:
      out->kind = BoundExpr::Kind::kBinary;
      out->binary_op = e.binary_op;
      LQ_RETURN_IF_ERROR(bind_args());
      pick_collation();
      return out;
    case ExprKind::kBetween: {
      out->kind = BoundExpr::Kind::kBetween;
      out->negated = e.negated;
      LQ_RETURN_IF_ERROR(bind_args());
      // SQLite compares x >= lo and x <= hi each under its own pair's.
      const BoundExpr* x = out->args[0].get();
      out->collation = ComparisonCollation({x, out->args[1].get()});
      out->upper_collation = ComparisonCollation({x, out->args[2].get()});
      return out;
    }
    case ExprKind::kSubquery:
    case ExprKind::kExists:
      return BindSubquery(e, scope);
    case ExprKind::kIn:
      if (e.subquery) return BindSubquery(e, scope);
      out->kind = BoundExpr::Kind::kIn;
      out->negated = e.negated;
      LQ_RETURN_IF_ERROR(bind_args());
      // SQLite: x IN (...) compares in x's collation, never an item's.
      out->collation = CarriedCollation(*out->args[0]);
      if (!out->collation) out->collation = Collation::Binary();
      return out;
    case ExprKind::kIsNull:
      out->kind = BoundExpr::Kind::kIsNull;
      out->negated = e.negated;
      LQ_RETURN_IF_ERROR(bind_args());
      return out;
    case ExprKind::kLike:
      out->kind = BoundExpr::Kind::kLike;
      out->negated = e.negated;
      LQ_RETURN_IF_ERROR(bind_args());
      out->collation = CarriedCollation(*out->args[0]);
      if (!out->collation) out->collation = Collation::Binary();
      return out;
    case ExprKind::kFunction:
      return BindFunction(e, scope);
    case ExprKind::kCast:
      out->kind = BoundExpr::Kind::kCast;
      if (e.cast_type.is_list) {
        return Status::NotSupported(Where(e.pos) + "CAST to a list type");
      }
      out->cast_type = e.cast_type.type;
      out->type = e.cast_type.type;
      out->affinity = AffinityOf(e.cast_type.type);
      LQ_RETURN_IF_ERROR(bind_args());
      return out;
    case ExprKind::kArray:
      out->kind = BoundExpr::Kind::kArray;
      out->type = Type::kList;
      LQ_RETURN_IF_ERROR(bind_args());
      return out;
    case ExprKind::kCase:
      // The result has no type or affinity of its own (SQLite).
      out->kind = BoundExpr::Kind::kCase;
      out->case_operand = e.case_operand;
      out->case_else = e.case_else;
      LQ_RETURN_IF_ERROR(bind_args());
      return out;
  }
  return Status::NotSupported(Where(e.pos) + "expression");
}

namespace {

// Whether `e` reads a column of its own query's row (`own`; a correlated
// subquery inside it reading one counts) or of the row around a subquery
// (`outer`).
void RowsRead(const BoundExpr& e, bool* own, bool* outer) {
  if (e.kind == BoundExpr::Kind::kColumn) *own = true;
  if (e.kind == BoundExpr::Kind::kOuterRef) *outer = true;
  for (const auto& a : e.args) RowsRead(*a, own, outer);
}

// Whether `e` names a column of a query around through a merged subquery
// in FROM (Expr::via_from).
bool ReadsThroughFrom(const Expr& e) {
  if (e.kind == ExprKind::kColumn) return e.via_from;
  for (const parser::ExprPtr& a : e.args) {
    if (a && ReadsThroughFrom(*a)) return true;
  }
  return false;
}

}  // namespace

Status Binder::FindAround(const Expr& e, size_t* level, int* at) const {
  // (A merged subquery's column of a query around skips the scopes of the
  // query it was merged into and any subquery of it between.)
  const size_t skipped =
      e.outer_only > 1 ? static_cast<size_t>(e.outer_only - 1) : 0;
  for (size_t i = around_.size() - std::min(skipped, around_.size());
       i-- > 0;) {
    const Scope& around = *around_[i].scope;
    if (!around.table || around.table->one_row) continue;
    Result<int> found = around.FindColumn(e);
    if (found.ok()) {
      *level = i;
      *at = *found;
      return Status::OK();
    }
    if (found.status().code() != Status::Code::kNotFound) {
      return found.status();  // ambiguous there
    }
  }
  return Status::NotFound(
      Where(e.pos) + "no column " +
      (e.qualifier.empty() ? e.name : e.qualifier + "." + e.name) +
      " (a view or subquery in FROM shows only the columns it selects, and "
      "reads only its own tables and those of the queries around the one "
      "reading it)");
}

Result<BoundExprPtr> Binder::BindSubquery(const Expr& e, Scope& scope) {
  // The subquery is a query of its own; the one around it is bound on
  // after it, with its own select-list state.
  std::vector<BoundExprPtr> refs;  // columns of the row around it read
  std::vector<std::shared_ptr<const BoundSubquery>> per_run;
  around_.push_back({&scope, &refs, &per_run});
  std::vector<int> items = std::move(item_outputs_);
  Result<BoundSelect> inner = BindSelect(*e.subquery);
  item_outputs_ = std::move(items);
  around_.pop_back();
  LQ_RETURN_IF_ERROR(inner.status());
  inner->per_run_tables = std::move(per_run);
  auto sub = std::make_shared<BoundSubquery>();
  sub->pos = e.pos;
  sub->kind = e.kind == ExprKind::kExists ? BoundSubquery::Kind::kExists
              : e.kind == ExprKind::kIn   ? BoundSubquery::Kind::kIn
                                          : BoundSubquery::Kind::kScalar;
  if (sub->kind != BoundSubquery::Kind::kExists && inner->outputs.size() != 1) {
    return Status::InvalidArgument(Where(e.pos) + "subquery returns " +
                                   std::to_string(inner->outputs.size()) +
                                   " columns; only one is allowed here");
  }
  auto value = std::make_unique<BoundExpr>();
  value->pos = e.pos;
  if (refs.empty()) {
    value->kind = BoundExpr::Kind::kParam;
    value->index = -1 - static_cast<int>(params_.subqueries.size());
  } else {
    value->kind = BoundExpr::Kind::kSubqueryRun;
    value->args = std::move(refs);
  }
  if (sub->kind != BoundSubquery::Kind::kExists) {
    // The result column's affinity (SQLite: a subquery's value has it).
    value->affinity = inner->outputs[0]->affinity;
  }
  if (sub->kind != BoundSubquery::Kind::kExists) {
    // A list by its column's type (for IN, each of its values): a NULL of
    // it is a NULL list, compared as a whole.
    value->is_list =
        inner->outputs[0]->is_list || inner->outputs[0]->type == Type::kList;
  }
  // (It stays where it is when the select moves.)
  const BoundExpr* column = inner->outputs[0].get();
  sub->select = std::make_shared<const BoundSelect>(std::move(*inner));
  if (value->kind == BoundExpr::Kind::kSubqueryRun) {
    value->subquery = std::move(sub);
  } else {
    params_.subqueries.push_back(std::move(sub));
  }
  if (e.kind != ExprKind::kIn) return value;
  auto out = std::make_unique<BoundExpr>();
  out->kind = BoundExpr::Kind::kInSet;
  out->pos = e.pos;
  out->negated = e.negated;
  LQ_ASSIGN_OR_RETURN(BoundExprPtr x, Bind(*e.args[0], scope));
  // SQLite: as x = column compares.
  out->collation = ComparisonCollation({x.get(), column});
  out->args.push_back(std::move(x));
  out->args.push_back(std::move(value));
  return out;
}

Result<BoundExprPtr> Binder::BindFunction(const Expr& e, Scope& scope) {
  auto arity = [&](size_t lo, size_t hi) -> Status {
    if (e.args.size() < lo || e.args.size() > hi || e.star) {
      return Status::InvalidArgument(
          Where(e.pos) + "wrong number of arguments to " + e.name + "()");
    }
    return Status::OK();
  };
  if (IsAggregateCall(e)) {
    const AggregateKind aggregate = *AggregateNamed(e.name);
    if (!scope.aggregates) {
      return Status::InvalidArgument(Where(e.pos) + "aggregate function " +
                                     e.name + "() is not allowed " +
                                     scope.context);
    }
    if (scope.inside_aggregate) {
      return Status::InvalidArgument(Where(e.pos) +
                                     "aggregate functions cannot be nested");
    }
    AggregateSpec spec;
    spec.distinct = e.distinct;
    if (e.star) {
      if (e.name != "count") {
        return Status::InvalidArgument(Where(e.pos) + e.name +
                                       "(*) is not a function");
      }
      spec.kind = AggregateKind::kCountStar;
    } else {
      const bool concat = e.name == "group_concat";
      LQ_RETURN_IF_ERROR(arity(1, concat ? 2 : 1));
      if (concat && e.distinct && e.args.size() > 1) {
        return Status::InvalidArgument(
            Where(e.pos) +
            "group_concat(DISTINCT ...) takes one argument (no separator)");
      }
      spec.kind = aggregate;
      scope.inside_aggregate = true;
      Result<BoundExprPtr> arg = Bind(*e.args[0], scope);
      Result<BoundExprPtr> sep = concat && e.args.size() > 1
                                     ? Bind(*e.args[1], scope)
                                     : Result<BoundExprPtr>(BoundExprPtr());
      scope.inside_aggregate = false;
      if (!arg.ok()) return arg.status();
      if (!sep.ok()) return sep.status();
      bool own = false, outer = false;
      RowsRead(**arg, &own, &outer);
      if (*sep) RowsRead(**sep, &own, &outer);
      // A column of a merged subquery in its FROM is its own, though that
      // subquery passes a column of the row around through it (SQLite).
      own = own || ReadsThroughFrom(*e.args[0]) ||
            (e.args.size() > 1 && ReadsThroughFrom(*e.args[1]));
      if (outer && !own) {
        // SQL makes it an aggregate of the query around (SQLite does).
        return Status::NotSupported(
            Where(e.pos) + e.name +
            "() of only the columns of the query around this subquery (SQL "
            "computes it in that query, over its rows); compute it there");
      }
      spec.collation = CarriedCollation(**arg);
      spec.arg = std::move(arg).value();
      spec.separator = std::move(sep).value();
    }
    auto out = std::make_unique<BoundExpr>();
    out->kind = BoundExpr::Kind::kAggregateRef;
    out->pos = e.pos;
    out->index = static_cast<int>(scope.aggregates->size());
    if (spec.kind == AggregateKind::kCountStar ||
        spec.kind == AggregateKind::kCount) {
      out->type = Type::kInteger;
    } else if (spec.kind == AggregateKind::kAvg ||
               spec.kind == AggregateKind::kTotal) {
      out->type = Type::kReal;
    } else if (spec.kind == AggregateKind::kGroupConcat) {
      out->type = Type::kText;
    } else if (spec.kind != AggregateKind::kSum) {
      out->type = spec.arg->type;
    }
    scope.aggregates->push_back(std::move(spec));
    return out;
  }
  auto out = std::make_unique<BoundExpr>();
  out->kind = BoundExpr::Kind::kFunction;
  out->pos = e.pos;
  if (e.distinct) {
    return Status::InvalidArgument(Where(e.pos) + "DISTINCT in " + e.name +
                                   "(), which is not an aggregate");
  }
  const FunctionInfo* f = FindFunction(e.name);
  if (f == nullptr) {
    return Status::NotSupported(Where(e.pos) + "function " + e.name + "()");
  }
  LQ_RETURN_IF_ERROR(arity(f->min_args, f->max_args));
  out->function = f->function;
  if (f->result) out->type = *f->result;
  for (const auto& a : e.args) {
    LQ_ASSIGN_OR_RETURN(BoundExprPtr b, Bind(*a, scope));
    out->args.push_back(std::move(b));
  }
  // The collation nullif() compares with; the result carries none.
  out->collation = CarriedCollation(*out->args[0]);
  if (!out->collation && out->args.size() > 1) {
    out->collation = CarriedCollation(*out->args[1]);
  }
  if (!out->collation) out->collation = Collation::Binary();
  return out;
}

// The table of a SELECT without FROM: no columns and one row.
std::shared_ptr<const TableSchema> OneRowTable() {
  static const auto table = [] {
    auto t = std::make_shared<TableSchema>();
    t->one_row = true;
    return std::shared_ptr<const TableSchema>(std::move(t));
  }();
  return table;
}

// The columns `*` or `t.*` stands for: [first, last) of the row, or
// first < 0 when no table is called t.
std::pair<int, int> StarColumns(const BoundSelect& select,
                                const parser::Select& ast,
                                const parser::SelectItem& item) {
  const int width = static_cast<int>(select.table->columns.size());
  if (item.star_table.empty()) return {0, width};
  if (select.from.empty()) {
    const bool named =
        item.star_table == (ast.alias.empty() ? ast.table : ast.alias);
    return named ? std::pair{0, width} : std::pair{-1, -1};
  }
  for (size_t i = 0; i < select.from.size(); ++i) {
    if (select.from[i].name != item.star_table) continue;
    const int end =
        i + 1 < select.from.size() ? select.from[i + 1].offset : width;
    return {select.from[i].offset, end};
  }
  return {-1, -1};
}

// A join's tables, and the table of its rows: every FROM table's columns in
// turn, its primary key all of theirs.
Status Binder::BindFrom(const parser::Select& select, BoundSelect* out) {
  auto joined = std::make_shared<TableSchema>();
  auto add = [&](const std::string& name, const parser::Select* subquery,
                 const parser::Position& pos, const std::string& alias,
                 const parser::IndexHint& hint) -> Status {
    LQ_ASSIGN_OR_RETURN(auto table,
                        BindFromItem(name, subquery, alias, pos, hint));
    BoundTableRef ref;
    ref.name = alias.empty() ? name : alias;
    ref.offset = static_cast<int>(joined->columns.size());
    for (const BoundTableRef& other : out->from) {
      if (other.name == ref.name) {
        return Status::InvalidArgument(
            Where(pos) + "table " + ref.name +
            " appears twice in FROM; give one of them an alias");
      }
    }
    for (const ColumnSchema& c : table->columns) {
      joined->columns.push_back(c);
      out->column_names.push_back(ref.name + "." + c.name);
    }
    for (KeyColumn k : table->primary_key) {
      k.column += ref.offset;
      joined->primary_key.push_back(k);
    }
    if (!joined->name.empty()) joined->name += " JOIN ";
    joined->name += ref.name;
    ref.table = std::move(table);
    out->from.push_back(std::move(ref));
    return Status::OK();
  };
  LQ_RETURN_IF_ERROR(add(select.table, select.from_subquery.get(),
                         select.table_pos, select.alias, select.hint));
  for (const parser::JoinTable& j : select.joins) {
    LQ_RETURN_IF_ERROR(add(j.table, j.subquery.get(), j.pos, j.alias, j.hint));
  }
  out->table = std::move(joined);
  return Status::OK();
}

Result<std::shared_ptr<const TableSchema>> Binder::BindFromItem(
    const std::string& name, const parser::Select* subquery,
    const std::string& alias, const parser::Position& pos,
    const parser::IndexHint& hint) {
  if (!subquery) return FindHinted(name, pos, hint);
  if (hint.not_indexed || !hint.index.empty()) {
    return Status::InvalidArgument(Where(pos) + alias +
                                   ": a subquery in FROM has no indexes to "
                                   "choose (INDEXED BY, NOT INDEXED)");
  }
  return BindDerived(*subquery, alias, pos);
}

// The table of a view or subquery in FROM that the inliner could not merge
// (it makes rows of its own): its result columns, named as the query reading
// it sees them, each with the affinity and collation SQLite gives a
// subquery's column (a column's own, through CAST and unary +; none for
// other expressions), and a hidden rowid numbering its rows.
Result<std::shared_ptr<const TableSchema>> Binder::BindDerived(
    const parser::Select& select, const std::string& name,
    const parser::Position& pos) {
  // A query of its own, made once before the statement runs, or, when it
  // reads a column of the row around the subquery it is in, again for each
  // such row (as SQLite makes it). The query reading it is bound after it.
  const int64_t reads = around_.empty() ? 0 : around_.back().reads;
  std::vector<int> items = std::move(item_outputs_);
  const parser::Expr* pinning = pinning_;
  pinning_ = nullptr;
  Result<BoundSelect> bound = BindSelect(select);
  item_outputs_ = std::move(items);
  pinning_ = pinning;
  if (!bound.ok()) return bound.status();
  // Whether it reads the row around the innermost subquery (a name of it
  // may share a ref an earlier one made, so the reads are counted).
  const bool per_run = !around_.empty() && around_.back().reads != reads;

  if (!select.column_names.empty() &&
      select.column_names.size() != bound->outputs.size()) {
    return Status::InvalidArgument(
        Where(pos) + name + " has " + std::to_string(bound->outputs.size()) +
        " result columns, and " + std::to_string(select.column_names.size()) +
        " names for them");
  }
  auto table = std::make_shared<TableSchema>();
  table->id = kFirstDerivedTableId - derived_tables_++;
  table->name = name;
  table->derived = true;
  for (size_t i = 0; i < bound->outputs.size(); ++i) {
    // (A compound's column has its first SELECT's affinity.)
    const BoundExpr& e = bound->compound.empty()
                             ? *bound->outputs[i]
                             : *bound->compound[0]->outputs[i];
    ColumnSchema c;
    c.name = select.column_names.empty() ? bound->output_names[i]
                                         : select.column_names[i];
    // (Any other expression, even `+a`, has no affinity in SQLite.)
    if (e.kind == BoundExpr::Kind::kColumn) {
      c.type = e.type;
      c.is_list = e.is_list;
    } else if (e.kind == BoundExpr::Kind::kCast) {
      c.type = e.cast_type;
    }
    // Its collation is its (first) SELECT's column's, binary for any other
    // expression (SQLite 3.40: the leftmost SELECT's, even where the
    // compound itself compares under a later SELECT's column's).
    c.collation = CarriedCollation(e);
    if (!c.collation) c.collation = Collation::Binary();
    table->columns.push_back(std::move(c));
  }
  table->AddHiddenRowid();
  auto sub = std::make_shared<BoundSubquery>();
  sub->kind = BoundSubquery::Kind::kTable;
  sub->pos = pos;
  sub->select = std::make_shared<const BoundSelect>(std::move(*bound));
  sub->table = table;
  if (per_run) {
    around_.back().per_run->push_back(std::move(sub));
  } else {
    params_.subqueries.push_back(std::move(sub));
  }
  return std::shared_ptr<const TableSchema>(std::move(table));
}

namespace {

// Whether `e` is a column (through CAST and unary +), which SQLite gives a
// collation (BINARY when the column has none).
bool CarriesColumn(const BoundExpr& e) {
  switch (e.kind) {
    case BoundExpr::Kind::kColumn:
    case BoundExpr::Kind::kOuterRef:
      return true;
    case BoundExpr::Kind::kCast:
      return CarriesColumn(*e.args[0]);
    case BoundExpr::Kind::kUnary:
      return e.unary_op == parser::UnaryOp::kPlus && CarriesColumn(*e.args[0]);
    default:
      return false;
  }
}

}  // namespace

const Collation* CompoundCollation(const BoundSelect& select, int column) {
  for (const auto& branch : select.compound) {
    const BoundExpr& e = *branch->outputs[column];
    if (CarriesColumn(e) || e.carried) return CarriedCollation(e);
  }
  return nullptr;
}

// A compound SELECT: each SELECT bound on its own (in one binder, so its
// parameters and subqueries share the statement's slots); ORDER BY names
// result columns, as SQLite's: an ordinal, a column's name or alias in the
// first SELECT, or an expression the first SELECT selects.
Result<BoundSelect> Binder::BindCompound(const parser::Select& select) {
  BoundSelect out;
  std::shared_ptr<parser::Select> first = parser::Clone(select);
  first->compound.clear();
  first->order_by.clear();
  first->limit.reset();
  first->offset.reset();
  LQ_ASSIGN_OR_RETURN(BoundSelect head, BindSelect(*first));
  out.compound.push_back(std::make_shared<const BoundSelect>(std::move(head)));
  const BoundSelect& h = *out.compound[0];
  for (const parser::CompoundTerm& t : select.compound) {
    LQ_ASSIGN_OR_RETURN(BoundSelect b, BindSelect(*t.select));
    if (b.outputs.size() != h.outputs.size()) {
      return Status::InvalidArgument(
          Where(t.pos) + "SELECTs to the left and right of " +
          parser::CompoundOpText(t.op) +
          " do not have the same number of result columns (" +
          std::to_string(h.outputs.size()) + " and " +
          std::to_string(b.outputs.size()) + ")");
    }
    out.compound.push_back(std::make_shared<const BoundSelect>(std::move(b)));
    out.compound_ops.push_back(t.op);
  }
  out.table = OneRowTable();
  out.output_names = h.output_names;
  out.output_types = h.output_types;
  // As a subquery's value (`x IN (...)`, a scalar) the compound compares
  // with the affinity of its last SELECT's columns, as SQLite's does.
  for (const BoundExprPtr& e : out.compound.back()->outputs) {
    out.outputs.push_back(CloneExpr(*e));
  }
  for (const parser::OrderItem& item : select.order_by) {
    const Expr& e = *item.expr;
    int k = -1;
    if (IsOrdinal(e)) {
      const int64_t n = e.literal.int_value();
      if (n < 1 || n > static_cast<int64_t>(h.outputs.size())) {
        return Status::InvalidArgument(
            Where(e.pos) + "ORDER BY term " + std::to_string(n) +
            " is out of range: the select list has " +
            std::to_string(h.outputs.size()) + " columns");
      }
      k = static_cast<int>(n - 1);
    }
    if (k < 0 && e.kind == ExprKind::kColumn) {
      const std::string written =
          e.qualifier.empty() ? e.name : e.qualifier + "." + e.name;
      for (size_t i = 0; i < h.output_names.size() && k < 0; ++i) {
        if (h.output_names[i] == written) k = static_cast<int>(i);
      }
    }
    // An expression the first SELECT selects, a column it selects named
    // with or without its table (when no `*` stands for several of its
    // columns, its items are its columns).
    const bool stars =
        std::any_of(first->items.begin(), first->items.end(),
                    [](const parser::SelectItem& si) { return !si.expr; });
    for (size_t i = 0; i < first->items.size() && k < 0 && !stars; ++i) {
      const Expr& item = *first->items[i].expr;
      const bool same_column = e.kind == ExprKind::kColumn &&
                               item.kind == ExprKind::kColumn &&
                               e.name == item.name &&
                               (e.qualifier.empty() || item.qualifier.empty() ||
                                e.qualifier == item.qualifier);
      if (same_column || parser::Equal(item, e)) k = static_cast<int>(i);
    }
    if (k < 0) {
      return Status::InvalidArgument(
          Where(e.pos) +
          "ORDER BY term of a compound SELECT does not match "
          "any column of the result (name one of the first "
          "SELECT's columns, or its number)");
    }
    BoundOrder order;
    order.output = k;
    order.desc = item.desc;
    order.collation = CompoundCollation(out, k);
    out.order_by.push_back(std::move(order));
  }
  LQ_RETURN_IF_ERROR(BindLimits(select, &out));
  return out;
}

// LIMIT and OFFSET: constants or parameters.
Status Binder::BindLimits(const parser::Select& select, BoundSelect* out) {
  Scope constant;
  constant.context = "in LIMIT";
  if (select.limit) {
    LQ_ASSIGN_OR_RETURN(out->limit, Bind(*select.limit, constant));
  }
  if (select.offset) {
    LQ_ASSIGN_OR_RETURN(out->offset, Bind(*select.offset, constant));
  }
  return Status::OK();
}

Result<BoundSelect> Binder::BindSelect(const parser::Select& select) {
  // WITH: its common tables become subqueries in FROM (common_tables.h).
  // A statement's SELECT (or a view's, or one read as a table) is checked
  // whole, so that no subquery inside is walked with a WITH left in it.
  if (!select.with.empty() ||
      (around_.empty() && parser::HasCommonTables(select))) {
    LQ_ASSIGN_OR_RETURN(std::shared_ptr<parser::Select> expanded,
                        parser::ExpandCommonTables(select));
    merged_.push_back(std::make_unique<parser::Select>(std::move(*expanded)));
    return BindSelect(*merged_.back());
  }
  if (!select.compound.empty()) return BindCompound(select);
  LQ_ASSIGN_OR_RETURN(std::unique_ptr<parser::Select> merged,
                      InlineFrom(select, *catalog_));
  if (!merged) return BindMerged(select);
  merged_.push_back(std::move(merged));
  return BindMerged(*merged_.back());
}

Result<BoundSelect> Binder::BindMerged(const parser::Select& select) {
  BoundSelect out;
  if (select.table.empty() && !select.from_subquery) {
    out.table = OneRowTable();
    for (const parser::SelectItem& item : select.items) {
      if (!item.expr) {
        return Status::InvalidArgument(Where(item.pos) +
                                       "SELECT * without FROM: no columns");
      }
    }
  } else if (select.joins.empty()) {
    LQ_ASSIGN_OR_RETURN(
        out.table, BindFromItem(select.table, select.from_subquery.get(),
                                select.alias, select.table_pos, select.hint));
  } else {
    LQ_RETURN_IF_ERROR(BindFrom(select, &out));
  }
  if (out.from.empty()) out.column_names = ColumnNames(*out.table);
  out.distinct = select.distinct;
  Scope scope;
  scope.table = out.table.get();
  scope.alias = select.alias;
  if (!out.from.empty()) scope.from = &out.from;
  // An inner join's ON conditions filter like WHERE; a LEFT JOIN's stay
  // with its table (which rows pair).
  std::vector<const Expr*> conditions;
  for (const parser::JoinTable& j : select.joins) {
    if (j.on && !j.left) conditions.push_back(j.on.get());
  }
  for (size_t i = 0; i < select.joins.size(); ++i) {
    const parser::JoinTable& j = select.joins[i];
    if (!j.left) continue;
    out.from[i + 1].outer = true;
    if (!j.on) continue;
    scope.context = "in ON";
    scope.unbound_items = &select.items;
    LQ_ASSIGN_OR_RETURN(BoundExprPtr on, Bind(*j.on, scope));
    // Its rows pair before the tables after it are joined (SQLite refuses
    // this too).
    const int end = i + 2 < out.from.size()
                        ? out.from[i + 2].offset
                        : static_cast<int>(out.table->columns.size());
    if (LastColumn(*on) >= end) {
      return Status::InvalidArgument(
          Where(j.on->pos) + "the ON clause of LEFT JOIN " +
          out.from[i + 1].name + " names a table after it in FROM");
    }
    out.from[i + 1].on = std::move(on);
  }
  for (const parser::ExprPtr& name : select.names_to_check) {
    size_t level = 0;
    int at = -1;
    LQ_RETURN_IF_ERROR(FindAround(*name, &level, &at));
  }
  if (select.where) conditions.push_back(select.where.get());
  scope.unbound_items = &select.items;
  for (const Expr* condition : conditions) {
    scope.context = condition == select.where.get() ? "in WHERE" : "in ON";
    LQ_ASSIGN_OR_RETURN(BoundExprPtr c, Bind(*condition, scope));
    out.where =
        out.where ? MakeAnd(std::move(out.where), std::move(c)) : std::move(c);
  }
  scope.unbound_items = nullptr;
  scope.aggregates = &out.aggregates;
  item_outputs_.clear();
  for (const parser::SelectItem& item : select.items) {
    item_outputs_.push_back(static_cast<int>(out.outputs.size()));
    if (!item.expr) {  // * or t.*
      auto [first, last] = StarColumns(out, select, item);
      if (first < 0) {
        return Status::NotFound(Where(item.pos) + "no table " +
                                item.star_table);
      }
      for (int i = first; i < last; ++i) {
        const ColumnSchema& c = out.table->columns[i];
        if (c.hidden) continue;
        out.outputs.push_back(MakeColumn(c, i));
        out.output_names.push_back(c.name);
        out.output_types.push_back(c.is_list ? Type::kList : c.type);
      }
      continue;
    }
    LQ_ASSIGN_OR_RETURN(BoundExprPtr e, Bind(*item.expr, scope));
    out.output_types.push_back(e->is_list ? Type::kList : e->type);
    out.outputs.push_back(std::move(e));
    out.output_names.push_back(!item.alias.empty() ? item.alias : item.text);
  }
  LQ_RETURN_IF_ERROR(BindGroupBy(select, scope, &out));
  for (size_t i = 0; i < select.items.size(); ++i) {
    const parser::SelectItem& item = select.items[i];
    if (item.expr && !item.alias.empty()) {
      scope.aliases.emplace_back(item.alias,
                                 out.outputs[item_outputs_[i]].get());
    }
  }
  if (select.having) {
    scope.context = "in HAVING";
    LQ_ASSIGN_OR_RETURN(out.having, Bind(*select.having, scope));
  }
  scope.context = "in ORDER BY";
  for (const parser::OrderItem& item : select.order_by) {
    BoundOrder order;
    order.desc = item.desc;
    // `ORDER BY 2 COLLATE nocase`, `ORDER BY alias COLLATE nocase`: the
    // term names a result column, sorted under the collation written.
    const Expr* term = item.expr.get();
    const Collation* written = nullptr;
    if (term->kind == ExprKind::kCollate &&
        (IsOrdinal(*term->args[0]) ||
         (term->args[0]->kind == ExprKind::kColumn &&
          term->args[0]->qualifier.empty()))) {
      Result<const Collation*> c = Collation::Get(term->name);
      if (!c.ok()) {
        return Status::InvalidArgument(Where(term->pos) + c.status().message());
      }
      written = *c;
      term = term->args[0].get();
    }
    const Expr& e = *term;
    if (IsOrdinal(e)) {
      int64_t k = e.literal.int_value();
      if (k < 1 || k > static_cast<int64_t>(out.outputs.size())) {
        return Status::InvalidArgument(
            Where(e.pos) + "ORDER BY term " + std::to_string(k) +
            " is out of range: the select list has " +
            std::to_string(out.outputs.size()) + " columns");
      }
      order.output = static_cast<int>(k - 1);
      order.collation = CarriedCollation(*out.outputs[order.output]);
    } else {
      // An alias of the select list wins over a table column.
      int alias_match = -1;
      if (e.kind == ExprKind::kColumn && e.qualifier.empty()) {
        for (size_t i = 0; i < select.items.size(); ++i) {
          if (select.items[i].alias == e.name) {
            alias_match = static_cast<int>(i);
            break;
          }
        }
      }
      if (alias_match >= 0) {
        const int pos = item_outputs_[alias_match];
        order.output = pos;
        order.collation = CarriedCollation(*out.outputs[pos]);
      } else {
        LQ_ASSIGN_OR_RETURN(order.expr, Bind(e, scope));
        order.collation = CarriedCollation(*order.expr);
      }
    }
    if (written) order.collation = written;
    out.order_by.push_back(std::move(order));
  }
  // An aggregate anywhere (even only in ORDER BY) aggregates the rows. A
  // HAVING clause needs groups to keep: without GROUP BY or an aggregate
  // there are none (SQLite refuses it too).
  if (out.having && out.group_by.empty() && out.aggregates.empty()) {
    return Status::InvalidArgument(
        Where(select.having->pos) +
        "HAVING clause on a non-aggregate query: add GROUP BY or an "
        "aggregate function");
  }
  out.aggregate = !out.aggregates.empty() || !out.group_by.empty();
  LQ_RETURN_IF_ERROR(BindLimits(select, &out));
  return out;
}

// GROUP BY terms: `GROUP BY 2` is the second select item, a name that is no
// column of the table may be an item's alias (SQLite's rule: columns win);
// anything else is an expression over the table row.
Status Binder::BindGroupBy(const parser::Select& select, Scope& scope,
                           BoundSelect* out) {
  for (const auto& term : select.group_by) {
    // `GROUP BY 2 COLLATE nocase`, `GROUP BY alias COLLATE nocase`: the
    // term names a result column, grouped under the collation written.
    const Expr* named = term.get();
    const Collation* written = nullptr;
    if (named->kind == ExprKind::kCollate &&
        (IsOrdinal(*named->args[0]) ||
         (named->args[0]->kind == ExprKind::kColumn &&
          named->args[0]->qualifier.empty() &&
          !scope.FindColumn(*named->args[0]).ok()))) {
      Result<const Collation*> c = Collation::Get(named->name);
      if (!c.ok()) {
        return Status::InvalidArgument(Where(named->pos) +
                                       c.status().message());
      }
      written = *c;
      named = named->args[0].get();
    }
    const Expr& e = *named;
    BoundExprPtr bound;
    int output = -1;
    if (IsOrdinal(e)) {
      int64_t k = e.literal.int_value();
      if (k < 1 || k > static_cast<int64_t>(out->outputs.size())) {
        return Status::InvalidArgument(
            Where(e.pos) + "GROUP BY term " + std::to_string(k) +
            " is out of range: the select list has " +
            std::to_string(out->outputs.size()) + " columns");
      }
      output = static_cast<int>(k - 1);
    } else if (e.kind == ExprKind::kColumn && e.qualifier.empty() &&
               !scope.FindColumn(e).ok()) {
      for (size_t i = 0; i < select.items.size(); ++i) {
        if (select.items[i].expr && select.items[i].alias == e.name) {
          output = item_outputs_[i];
          break;
        }
      }
    }
    if (output >= 0) {
      if (HasAggregate(*out->outputs[output])) {
        return Status::InvalidArgument(
            Where(e.pos) + "aggregate functions are not allowed in GROUP BY");
      }
      bound = CloneExpr(*out->outputs[output]);
      if (written) {
        bound->carried = written;
        bound->explicit_collation = true;
      }
    } else {
      std::vector<AggregateSpec>* aggregates = scope.aggregates;
      scope.aggregates = nullptr;
      scope.context = "in GROUP BY";
      Result<BoundExprPtr> r = Bind(e, scope);
      scope.aggregates = aggregates;
      if (!r.ok()) return r.status();
      bound = std::move(r).value();
    }
    out->group_by.push_back(std::move(bound));
  }
  return Status::OK();
}

namespace {

// A deep copy of a WITH (expanding one changes its tables' SELECTs).
std::vector<parser::CommonTable> CloneWith(
    const std::vector<parser::CommonTable>& with) {
  std::vector<parser::CommonTable> out;
  for (const parser::CommonTable& c : with) {
    out.push_back({c.name, c.columns, parser::Clone(*c.select), c.pos});
  }
  return out;
}

}  // namespace

Result<BoundInsert> Binder::BindInsert(const parser::Insert& insert) {
  if (!insert.with.empty()) {
    // WITH ... INSERT: the statement as if its SELECT (and the subqueries
    // of its VALUES) had the WITH.
    auto copy = std::make_shared<parser::Insert>();
    std::vector<parser::CommonTable> with = CloneWith(insert.with);
    copy->on_conflict = insert.on_conflict;
    copy->table = insert.table;
    copy->table_pos = insert.table_pos;
    copy->columns = insert.columns;
    std::vector<parser::ExprPtr*> exprs;
    for (const auto& row : insert.rows) {
      copy->rows.emplace_back();
      for (const auto& v : row) copy->rows.back().push_back(parser::Clone(*v));
    }
    for (auto& row : copy->rows) {
      for (auto& v : row) exprs.push_back(&v);
    }
    std::vector<parser::Select*> selects;
    if (insert.select) {
      copy->select = std::make_unique<parser::Select>(
          std::move(*parser::Clone(*insert.select)));
      selects.push_back(copy->select.get());
    }
    LQ_RETURN_IF_ERROR(
        parser::ExpandCommonTablesIn(&with, insert.recursive, selects, exprs));
    held_.push_back(copy);
    return BindInsert(*copy);
  }
  BoundInsert out;
  out.on_conflict = insert.on_conflict;
  LQ_ASSIGN_OR_RETURN(out.table,
                      FindTable(insert.table, insert.table_pos, true));
  const TableSchema& t = *out.table;
  if (insert.columns.empty()) {
    for (size_t i = 0; i < t.columns.size(); ++i) {
      if (!t.columns[i].hidden)
        out.target_columns.push_back(static_cast<int>(i));
    }
  } else {
    for (const std::string& name : insert.columns) {
      int col = t.FindColumn(name);
      if (col < 0) {
        return Status::NotFound(Where(insert.table_pos) + "no column " + name +
                                " in table " + t.name);
      }
      if (std::find(out.target_columns.begin(), out.target_columns.end(),
                    col) != out.target_columns.end()) {
        return Status::InvalidArgument(Where(insert.table_pos) + "column " +
                                       name + " is listed twice");
      }
      out.target_columns.push_back(col);
    }
  }
  const size_t n = out.target_columns.size();
  Scope scope;
  scope.context = "in VALUES";
  for (const auto& row : insert.rows) {
    if (row.size() != n) {
      return Status::InvalidArgument(
          Where(row.empty() ? insert.table_pos : row[0]->pos) + "INSERT has " +
          std::to_string(row.size()) + " values for " + std::to_string(n) +
          " columns of " + t.name);
    }
    std::vector<BoundExprPtr> bound;
    for (const auto& e : row) {
      LQ_ASSIGN_OR_RETURN(BoundExprPtr b, Bind(*e, scope));
      bound.push_back(std::move(b));
    }
    out.rows.push_back(std::move(bound));
  }
  if (insert.select) {
    LQ_ASSIGN_OR_RETURN(BoundSelect s, BindSelect(*insert.select));
    if (s.outputs.size() != n) {
      return Status::InvalidArgument(
          Where(insert.table_pos) + "INSERT ... SELECT has " +
          std::to_string(s.outputs.size()) + " columns for " +
          std::to_string(n) + " columns of " + t.name);
    }
    out.select = std::make_unique<BoundSelect>(std::move(s));
  }
  return out;
}

Result<BoundUpdate> Binder::BindUpdate(const parser::Update& update) {
  if (!update.with.empty()) {
    // WITH ... UPDATE: its values' and WHERE's subqueries see the WITH.
    auto copy = std::make_shared<parser::Update>();
    std::vector<parser::CommonTable> with = CloneWith(update.with);
    copy->table = update.table;
    copy->table_pos = update.table_pos;
    std::vector<parser::ExprPtr*> exprs;
    for (const parser::Assignment& a : update.assignments) {
      copy->assignments.push_back({a.column, a.pos, parser::Clone(*a.value)});
    }
    for (parser::Assignment& a : copy->assignments) exprs.push_back(&a.value);
    if (update.where) {
      copy->where = parser::Clone(*update.where);
      exprs.push_back(&copy->where);
    }
    LQ_RETURN_IF_ERROR(
        parser::ExpandCommonTablesIn(&with, update.recursive, {}, exprs));
    held_.push_back(copy);
    return BindUpdate(*copy);
  }
  BoundUpdate out;
  LQ_ASSIGN_OR_RETURN(out.table,
                      FindTable(update.table, update.table_pos, true));
  out.column_names = ColumnNames(*out.table);
  Scope scope;
  scope.table = out.table.get();
  scope.context = "in UPDATE";
  // Per assignment kept: the subqueries its value registered (an inner one
  // before the one holding it, binder.h), [first, end) of params_.
  std::vector<std::pair<size_t, size_t>> registered;
  for (const parser::Assignment& a : update.assignments) {
    int col = out.table->FindColumn(a.column);
    if (col < 0) {
      return Status::NotFound(Where(a.pos) + "no column " + a.column +
                              " in table " + out.table->name);
    }
    const size_t first = params_.subqueries.size();
    LQ_ASSIGN_OR_RETURN(BoundExprPtr e, Bind(*a.value, scope));
    const std::pair<size_t, size_t> mine{first, params_.subqueries.size()};
    // A column assigned again takes its last value: SQLite ignores all but
    // the rightmost assignment. Each is bound (names checked, parameters
    // numbered), but a dropped one's subqueries never run (their slots
    // stay NULL, read by nothing).
    auto same = std::find_if(out.assignments.begin(), out.assignments.end(),
                             [col](const auto& ce) { return ce.first == col; });
    if (same == out.assignments.end()) {
      out.assignments.emplace_back(col, std::move(e));
      registered.push_back(mine);
      continue;
    }
    const size_t at = same - out.assignments.begin();
    for (size_t k = registered[at].first; k < registered[at].second; ++k) {
      params_.subqueries[k] = nullptr;
    }
    same->second = std::move(e);
    registered[at] = mine;
  }
  if (update.where) {
    scope.context = "in WHERE";
    LQ_ASSIGN_OR_RETURN(out.where, Bind(*update.where, scope));
  }
  return out;
}

Result<BoundDelete> Binder::BindDelete(const parser::Delete& del) {
  if (!del.with.empty()) {
    // WITH ... DELETE: its WHERE's subqueries see the WITH.
    auto copy = std::make_shared<parser::Delete>();
    std::vector<parser::CommonTable> with = CloneWith(del.with);
    copy->table = del.table;
    copy->table_pos = del.table_pos;
    std::vector<parser::ExprPtr*> exprs;
    if (del.where) {
      copy->where = parser::Clone(*del.where);
      exprs.push_back(&copy->where);
    }
    LQ_RETURN_IF_ERROR(
        parser::ExpandCommonTablesIn(&with, del.recursive, {}, exprs));
    held_.push_back(copy);
    return BindDelete(*copy);
  }
  BoundDelete out;
  LQ_ASSIGN_OR_RETURN(out.table, FindTable(del.table, del.table_pos, true));
  out.column_names = ColumnNames(*out.table);
  if (del.where) {
    Scope scope;
    scope.table = out.table.get();
    scope.context = "in WHERE";
    LQ_ASSIGN_OR_RETURN(out.where, Bind(*del.where, scope));
  }
  return out;
}

}  // namespace levelql
