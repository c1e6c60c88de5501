#include "engine/plan/inline_from.h"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/plan/binder.h"
#include "parser/common_tables.h"
#include "parser/parse_error.h"

namespace levelql {
namespace {

using parser::Expr;
using parser::ExprKind;
using parser::ExprPtr;
using parser::Select;
using parser::SelectItem;

// Views reading views: deeper than this is a view reading itself (one
// dropped and made again over another that reads it).
constexpr int kMaxDepth = 64;

std::string Where(const parser::Position& pos) {
  return pos.line > 0 ? parser::Place(pos) + ": " : "";
}

// A merged item's column `e` where the query names it: a column as it is;
// an expression pinned to carry its collation (binary unless a column's,
// as SQLite's flattening adds a COLLATE), and an integer literal behind a
// unary + so that ORDER BY and GROUP BY do not read it as an ordinal.
ExprPtr Substituted(const Expr& e) {
  ExprPtr out = parser::Clone(e);
  if (out->kind == ExprKind::kColumn) return out;
  if (out->kind == ExprKind::kLiteral &&
      out->literal.type() == Type::kInteger) {
    auto plus = std::make_unique<Expr>();
    plus->kind = ExprKind::kUnary;
    plus->unary_op = parser::UnaryOp::kPlus;
    plus->pos = out->pos;
    plus->args.push_back(std::move(out));
    out = std::move(plus);
  }
  out->pin_collation = true;
  return out;
}

// The name a select item gives its column: its alias, else a column's name,
// else the expression as written.
const std::string& ColumnName(const SelectItem& item) {
  if (!item.alias.empty()) return item.alias;
  return item.expr->kind == ExprKind::kColumn ? item.expr->name : item.text;
}

ExprPtr And(ExprPtr a, ExprPtr b) {
  if (!a) return b;
  if (!b) return a;
  auto out = std::make_unique<Expr>();
  out->kind = ExprKind::kBinary;
  out->binary_op = parser::BinaryOp::kAnd;
  out->pos = a->pos;
  out->args.push_back(std::move(a));
  out->args.push_back(std::move(b));
  return out;
}

// One item of a FROM clause.
struct FromItem {
  std::string table;                 // empty: `subquery`
  std::shared_ptr<Select> subquery;  // `(SELECT ...)`
  std::string alias;
  parser::IndexHint hint;
  parser::Position pos;
  ExprPtr on;         // joins only
  bool left = false;  // LEFT JOIN
};

std::vector<FromItem> TakeFrom(Select* s) {
  std::vector<FromItem> out;
  if (s->table.empty() && !s->from_subquery) return out;
  out.push_back({std::move(s->table), std::move(s->from_subquery),
                 std::move(s->alias), s->hint, s->table_pos, nullptr, false});
  for (parser::JoinTable& j : s->joins) {
    out.push_back({std::move(j.table), std::move(j.subquery),
                   std::move(j.alias), j.hint, j.pos, std::move(j.on), j.left});
  }
  s->table.clear();
  s->from_subquery.reset();
  s->alias.clear();
  s->hint = {};
  s->joins.clear();
  return out;
}

// Puts `items` back as the FROM of `s`; the first one's ON (it joins to
// nothing before it) goes to WHERE.
void PutFrom(std::vector<FromItem> items, Select* s) {
  for (size_t i = 0; i < items.size(); ++i) {
    FromItem& f = items[i];
    if (i == 0) {
      s->table = std::move(f.table);
      s->from_subquery = std::move(f.subquery);
      s->alias = std::move(f.alias);
      s->hint = f.hint;
      s->table_pos = f.pos;
      s->where = And(std::move(f.on), std::move(s->where));
      continue;
    }
    parser::JoinTable j;
    j.table = std::move(f.table);
    j.subquery = std::move(f.subquery);
    j.alias = std::move(f.alias);
    j.hint = f.hint;
    j.pos = f.pos;
    j.on = std::move(f.on);
    j.left = f.left;
    s->joins.push_back(std::move(j));
  }
}

// The names of the result columns of `s` read as a table (a view's or
// subquery's): its column list when given, else each item's name, `*` and
// `t.*` standing for the columns of the FROM items they name.
std::vector<std::string> OutputNames(const Select& s,
                                     const CatalogState& catalog,
                                     int depth = 0) {
  if (!s.column_names.empty()) return s.column_names;
  std::vector<std::string> out;
  auto add_item = [&](const std::string& table, const Select* subquery) {
    for (const parser::CommonTable& c : s.with) {
      if (c.name == table && !subquery) {
        subquery = c.select.get();
        if (!c.columns.empty()) {
          out.insert(out.end(), c.columns.begin(), c.columns.end());
          return;
        }
      }
    }
    if (subquery) {
      if (depth >= kMaxDepth) return;
      for (std::string& n : OutputNames(*subquery, catalog, depth + 1)) {
        out.push_back(std::move(n));
      }
    } else if (const TableSchema* t = catalog.FindTable(table)) {
      for (const ColumnSchema& c : t->columns) {
        if (!c.hidden) out.push_back(c.name);
      }
    } else if (const ViewSchema* v = catalog.FindView(table);
               v && depth < kMaxDepth) {
      std::vector<std::string> names =
          v->columns.empty() ? OutputNames(*v->select, catalog, depth + 1)
                             : v->columns;
      for (std::string& n : names) out.push_back(std::move(n));
    }
  };
  for (const SelectItem& item : s.items) {
    if (item.expr) {
      out.push_back(ColumnName(item));
      continue;
    }
    if (item.star_table.empty() || item.star_table == s.alias ||
        (s.alias.empty() && item.star_table == s.table)) {
      add_item(s.table, s.from_subquery.get());
    }
    for (const parser::JoinTable& j : s.joins) {
      if (item.star_table.empty() || item.star_table == j.alias ||
          (j.alias.empty() && item.star_table == j.table)) {
        add_item(j.table, j.subquery.get());
      }
    }
  }
  return out;
}

bool HasAggregateExpr(const Expr& e) {
  if (IsAggregateCall(e)) return true;
  for (const ExprPtr& a : e.args) {
    if (a && HasAggregateExpr(*a)) return true;
  }
  return false;
}

bool HasAggregate(const Select& s) {
  for (const SelectItem& item : s.items) {
    if (item.expr && HasAggregateExpr(*item.expr)) return true;
  }
  for (const parser::OrderItem& o : s.order_by) {
    if (HasAggregateExpr(*o.expr)) return true;
  }
  return false;
}

// Whether `e` holds a group_concat, whose value depends on the order its
// rows come in.
bool HasOrderedAggregate(const Expr& e) {
  if (e.kind == ExprKind::kFunction && e.name == "group_concat") return true;
  for (const ExprPtr& a : e.args) {
    if (a && HasOrderedAggregate(*a)) return true;
  }
  return false;
}

// Whether `s` reads its one FROM item, a SELECT `inner`, through an
// aggregate that depends on the order of its rows, which inner's ORDER BY
// gives (as in SQLite: group_concat over an ordered subquery joins its
// values in that order, within each group too). A merged inner would lose
// the order; a table of its rows keeps it.
bool OrdersAnAggregate(const Select& s, const Select& inner) {
  if (inner.order_by.empty()) return false;
  for (const SelectItem& item : s.items) {
    if (item.expr && HasOrderedAggregate(*item.expr)) return true;
  }
  return s.having && HasOrderedAggregate(*s.having);
}

// Whether `s`, a view's or subquery's SELECT, makes rows of its own
// (DISTINCT, a compound, GROUP BY, HAVING, an aggregate, LIMIT, OFFSET), so
// that it cannot be merged into the query reading it: that query reads it
// as a table of its rows (binder.h, BindDerived).
bool Unmergeable(const Select& s) {
  return s.distinct || !s.compound.empty() || !s.group_by.empty() || s.having ||
         HasAggregate(s) || s.limit || s.offset;
}

// The name a query knows FROM item `i` (from 0) by: its alias, else its
// table's name; an unnamed subquery gets one no query can write.
std::string ItemName(const std::string& alias, const std::string& table,
                     size_t i) {
  if (!alias.empty()) return alias;
  return table.empty() ? "(subquery " + std::to_string(i + 1) + ")" : table;
}

// The select item `table.*`.
SelectItem StarOf(const std::string& table, const parser::Position& pos) {
  SelectItem star;
  star.star_table = table;
  star.text = "*";
  star.pos = pos;
  return star;
}

// `A RIGHT JOIN B ON c ...` as `B LEFT JOIN A ON c ...`: the same pairs
// of rows (every row of B, with the rows of A c pairs it with, or NULLs),
// with `*` spelled out as each FROM item's `t.*` in the order written, so
// the columns come as written. A RIGHT JOIN after the second FROM item
// would need the join before it as one side: NotSupported.
Status RightToLeft(Select* s) {
  bool any = false;
  for (size_t i = 0; i < s->joins.size(); ++i) {
    if (!s->joins[i].right) continue;
    if (i > 0) {
      return Status::NotSupported(
          Where(s->joins[i].pos) +
          "RIGHT JOIN after the second table in FROM (write it as a LEFT "
          "JOIN with the tables the other way round)");
    }
    any = true;
  }
  if (!any) return Status::OK();
  // Each item's name, as the query reads it (an unnamed subquery gets the
  // one it would have had).
  auto name = [](std::string* alias, const std::string& table, size_t i) {
    *alias = ItemName(*alias, table, i);
    return *alias;
  };
  std::vector<std::string> names;
  names.push_back(name(&s->alias, s->table, 0));
  for (size_t i = 0; i < s->joins.size(); ++i) {
    names.push_back(name(&s->joins[i].alias, s->joins[i].table, i + 1));
  }
  std::vector<SelectItem> items;
  for (SelectItem& item : s->items) {
    if (item.expr || !item.star_table.empty()) {
      items.push_back(std::move(item));
      continue;
    }
    for (const std::string& n : names) items.push_back(StarOf(n, item.pos));
  }
  s->items = std::move(items);
  parser::JoinTable& b = s->joins[0];
  std::swap(s->table, b.table);
  std::swap(s->from_subquery, b.subquery);
  std::swap(s->alias, b.alias);
  std::swap(s->hint, b.hint);
  std::swap(s->table_pos, b.pos);
  b.right = false;
  b.left = true;
  return Status::OK();
}

// What a name of a query sees of one FROM item: a table's columns, a merged
// view's or subquery's columns and the expression of each, or the columns
// of one read as a table of its rows.
struct Source {
  enum class Kind { kTable, kMerged, kDerived, kMissing };
  Kind kind = Kind::kMissing;  // kMissing: no such table (the binder says)
  std::string name;            // as the query names it
  const TableSchema* table = nullptr;     // kTable
  std::vector<std::string> names;         // kMerged, kDerived: column names
  std::vector<const Expr*> exprs;         // kMerged: each one's expression
  std::vector<const TableSchema*> under;  // kMerged: the tables it reads
  // kMerged: the columns of the tables of rows it reads (a grouped or
  // LIMITed subquery of its own FROM).
  std::vector<std::vector<std::string>> under_rows;

  bool merged() const { return kind == Kind::kMerged; }
  // The position of column `column` (the first of that name), or -1.
  int Find(const std::string& column) const {
    if (kind == Kind::kTable) return table->FindColumn(column);
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == column) return static_cast<int>(i);
    }
    return -1;
  }
  // A column of a table underneath that the merged item does not show.
  bool Hides(const std::string& column) const {
    if (Find(column) >= 0) return false;
    for (const TableSchema* t : under) {
      if (t->FindColumn(column) >= 0) return true;
    }
    for (const std::vector<std::string>& names : under_rows) {
      if (std::find(names.begin(), names.end(), column) != names.end()) {
        return true;
      }
    }
    return false;
  }
};

// The column references of an expression tree that belong to the query at
// the walk's level: not those a subquery inside it resolves to its own
// FROM. `visit` may replace the reference it is given.
class RefWalker {
 public:
  using Visit = std::function<Status(ExprPtr& ref)>;
  RefWalker(const CatalogState& catalog, Visit visit)
      : catalog_(catalog), visit_(std::move(visit)) {}

  Status Walk(ExprPtr& slot) {
    if (!slot) return Status::OK();
    Expr& e = *slot;
    if (e.kind == ExprKind::kColumn) {
      if (e.outer_only || Shadowed(e)) return Status::OK();
      return visit_(slot);
    }
    for (ExprPtr& a : e.args) LQ_RETURN_IF_ERROR(Walk(a));
    if (e.subquery) LQ_RETURN_IF_ERROR(WalkSubquery(*e.subquery));
    return Status::OK();
  }

  // How many subqueries deep the column being visited is (0: in the walked
  // query's own clauses).
  size_t depth() const { return shadow_.size(); }

 private:
  // The names each FROM item of a subquery makes visible: a table's
  // columns, a view's or subquery's output names.
  struct Names {
    std::string name;
    std::vector<std::string> columns;
  };

  Status WalkSubquery(Select& s) {
    std::vector<Names> level;
    auto add = [&](const std::string& table,
                   const std::shared_ptr<Select>& subquery,
                   const std::string& alias) {
      Names n;
      n.name = alias.empty() ? table : alias;
      if (const TableSchema* t =
              subquery ? nullptr : catalog_.FindTable(table)) {
        for (const ColumnSchema& c : t->columns) n.columns.push_back(c.name);
      } else if (const ViewSchema* v =
                     subquery ? nullptr : catalog_.FindView(table)) {
        n.columns =
            v->columns.empty() ? OutputNames(*v->select, catalog_) : v->columns;
      } else if (subquery) {
        n.columns = OutputNames(*subquery, catalog_);
      }
      level.push_back(std::move(n));
    };
    if (!s.table.empty() || s.from_subquery) {
      add(s.table, s.from_subquery, s.alias);
    }
    for (const parser::JoinTable& j : s.joins)
      add(j.table, j.subquery, j.alias);
    shadow_.push_back(std::move(level));
    Status st = WalkSelect(s);
    shadow_.pop_back();
    // Its subqueries in FROM, its common tables and its compound's other
    // SELECTs see the queries around it, never its own FROM (at its depth).
    if (s.from_subquery && st.ok()) st = WalkSubquery(*s.from_subquery);
    for (parser::JoinTable& j : s.joins) {
      if (j.subquery && st.ok()) st = WalkSubquery(*j.subquery);
    }
    for (parser::CommonTable& c : s.with) {
      if (c.select && st.ok()) st = WalkSubquery(*c.select);
    }
    for (parser::CompoundTerm& t : s.compound) {
      if (t.select && st.ok()) st = WalkSubquery(*t.select);
    }
    return st;
  }

  Status WalkSelect(Select& s) {
    for (SelectItem& item : s.items) LQ_RETURN_IF_ERROR(Walk(item.expr));
    for (parser::JoinTable& j : s.joins) LQ_RETURN_IF_ERROR(Walk(j.on));
    LQ_RETURN_IF_ERROR(Walk(s.where));
    for (ExprPtr& g : s.group_by) LQ_RETURN_IF_ERROR(Walk(g));
    LQ_RETURN_IF_ERROR(Walk(s.having));
    for (parser::OrderItem& o : s.order_by) LQ_RETURN_IF_ERROR(Walk(o.expr));
    return Status::OK();
  }

  // Resolved by a subquery's own FROM (or a select-list alias of one,
  // which its names may read): not the walked query's.
  bool Shadowed(const Expr& e) const {
    for (const std::vector<Names>& level : shadow_) {
      for (const Names& n : level) {
        if (!e.qualifier.empty()) {
          if (n.name == e.qualifier) return true;
          continue;
        }
        for (const std::string& c : n.columns) {
          if (c == e.name) return true;
        }
      }
    }
    return false;
  }

  const CatalogState& catalog_;
  Visit visit_;
  std::vector<std::vector<Names>> shadow_;
};

// The names of the columns one FROM item shows: a table's, or a view's or
// subquery's result columns.
std::vector<std::string> ItemColumns(const std::string& table,
                                     const std::shared_ptr<Select>& subquery,
                                     const CatalogState& catalog) {
  Select one;
  one.table = table;
  one.from_subquery = subquery;
  SelectItem star;
  star.text = "*";
  one.items.push_back(std::move(star));
  return OutputNames(one, catalog);
}

ExprPtr ColumnRef(const std::string& qualifier, const std::string& name,
                  const parser::Position& pos) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kColumn;
  e->qualifier = qualifier;
  e->name = name;
  e->pos = pos;
  return e;
}

// `A FULL JOIN B ON c ...` as one FROM item read as a table of its rows:
// the rows of `A LEFT JOIN B ON c`, then each row of B that c pairs with no
// row of A, with NULLs for A's columns (SQLite's FULL JOIN):
//
//   SELECT A's columns, B's columns FROM A LEFT JOIN B ON c
//   UNION ALL SELECT NULL..., B's columns FROM B
//             WHERE NOT EXISTS (SELECT 1 FROM A WHERE c)
//
// Its columns are named by side and place ("1.0", "2.3"); the query's
// names of A's and B's columns are rewritten to read them (in its
// subqueries too), and `*`, `A.*` and `B.*` are spelled out in the written
// order. A FULL JOIN after the second FROM item: NotSupported.
Status FullToDerived(Select* s, const CatalogState& catalog) {
  if (s->joins.empty()) return Status::OK();
  for (size_t i = 1; i < s->joins.size(); ++i) {
    if (s->joins[i].full) {
      return Status::NotSupported(
          Where(s->joins[i].pos) +
          "FULL JOIN after the second table in FROM (a FULL JOIN joins the "
          "first two)");
    }
  }
  parser::JoinTable& b = s->joins[0];
  if (!b.full) return Status::OK();
  const std::string a_name = ItemName(s->alias, s->table, 0);
  const std::string b_name = ItemName(b.alias, b.table, 1);
  if (a_name == b_name) {
    return Status::InvalidArgument(Where(b.pos) +
                                   "FULL JOIN of two tables "
                                   "both named " +
                                   a_name + ": give one an alias");
  }
  const std::vector<std::string> a_cols =
      ItemColumns(s->table, s->from_subquery, catalog);
  const std::vector<std::string> b_cols =
      ItemColumns(b.table, b.subquery, catalog);
  const std::string joined = "(" + a_name + " FULL JOIN " + b_name + ")";
  // Its columns are named by side and place ("1.0" is A's first): distinct
  // whatever A's and B's columns are called (two may share a name).
  auto mangled = [](int side, size_t column) {
    return std::to_string(side) + "." + std::to_string(column);
  };
  // The place of A's (side 1) or B's (side 2) column `name`: its first.
  auto place = [&](int side, const std::string& name) -> int {
    const std::vector<std::string>& cols = side == 1 ? a_cols : b_cols;
    for (size_t i = 0; i < cols.size(); ++i) {
      if (cols[i] == name) return static_cast<int>(i);
    }
    return -1;
  };
  // The two SELECTs of the compound.
  auto item = [](ExprPtr e, std::string alias) {
    SelectItem i;
    i.text = alias;
    i.alias = std::move(alias);
    i.pos = e->pos;
    i.expr = std::move(e);
    return i;
  };
  auto left = std::make_shared<Select>();
  auto right = std::make_shared<Select>();
  // A side's columns are read by name: a subquery two of whose columns
  // share one is given names by place (its ON may then not name them).
  auto by_place = [](const std::shared_ptr<Select>& sub,
                     const std::vector<std::string>& cols) {
    if (!sub || !sub->column_names.empty()) return;
    std::vector<std::string> sorted = cols;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) {
      return;
    }
    for (size_t i = 0; i < cols.size(); ++i) {
      sub->column_names.push_back("(" + std::to_string(i) + ")");
    }
  };
  std::vector<std::string> a_read = a_cols, b_read = b_cols;
  if (s->from_subquery) {
    by_place(s->from_subquery, a_cols);
    if (!s->from_subquery->column_names.empty()) {
      a_read = s->from_subquery->column_names;
    }
  }
  if (b.subquery) {
    by_place(b.subquery, b_cols);
    if (!b.subquery->column_names.empty()) {
      b_read = b.subquery->column_names;
    }
  }
  for (size_t i = 0; i < a_cols.size(); ++i) {
    left->items.push_back(
        item(ColumnRef(a_name, a_read[i], s->table_pos), mangled(1, i)));
    auto null = std::make_unique<Expr>();
    null->kind = ExprKind::kLiteral;
    null->pos = s->table_pos;
    right->items.push_back(item(std::move(null), mangled(1, i)));
  }
  for (size_t i = 0; i < b_cols.size(); ++i) {
    left->items.push_back(
        item(ColumnRef(b_name, b_read[i], b.pos), mangled(2, i)));
    right->items.push_back(
        item(ColumnRef(b_name, b_read[i], b.pos), mangled(2, i)));
  }
  auto a_from = [&](Select* into) {
    into->table = s->table;
    into->from_subquery =
        s->from_subquery ? parser::Clone(*s->from_subquery) : nullptr;
    into->alias = a_name;
    into->hint = s->hint;
    into->table_pos = s->table_pos;
  };
  a_from(left.get());
  parser::JoinTable lj;
  lj.left = true;
  lj.table = b.table;
  lj.subquery = b.subquery ? parser::Clone(*b.subquery) : nullptr;
  lj.alias = b_name;
  lj.hint = b.hint;
  lj.pos = b.pos;
  lj.on = b.on ? parser::Clone(*b.on) : nullptr;
  left->joins.push_back(std::move(lj));
  right->table = b.table;
  right->from_subquery = b.subquery;
  right->alias = b_name;
  right->hint = b.hint;
  right->table_pos = b.pos;
  auto none = std::make_shared<Select>();
  {
    auto one = std::make_unique<Expr>();
    one->kind = ExprKind::kLiteral;
    one->literal = Value::Int(1);
    one->pos = b.pos;
    none->items.push_back(item(std::move(one), "1"));
  }
  a_from(none.get());
  none->where = std::move(b.on);
  auto exists = std::make_unique<Expr>();
  exists->kind = ExprKind::kExists;
  exists->pos = b.pos;
  exists->subquery = std::move(none);
  auto not_exists = std::make_unique<Expr>();
  not_exists->kind = ExprKind::kUnary;
  not_exists->unary_op = parser::UnaryOp::kNot;
  not_exists->pos = b.pos;
  not_exists->args.push_back(std::move(exists));
  right->where = std::move(not_exists);
  left->compound.push_back({parser::CompoundOp::kUnionAll, right, b.pos});
  for (const SelectItem& i : left->items) left->column_names.push_back(i.alias);

  // The query reads the compound in their place.
  std::vector<std::string> later;  // names of the FROM items after them
  for (size_t i = 1; i < s->joins.size(); ++i) {
    const parser::JoinTable& j = s->joins[i];
    later.push_back(ItemName(j.alias, j.table, i + 1));
  }
  std::vector<std::vector<std::string>> later_cols;
  for (size_t i = 1; i < s->joins.size(); ++i) {
    later_cols.push_back(
        ItemColumns(s->joins[i].table, s->joins[i].subquery, catalog));
  }
  s->table.clear();
  s->from_subquery = left;
  s->alias = joined;
  s->hint = parser::IndexHint();
  s->joins.erase(s->joins.begin());

  // `*`, `A.*` and `B.*` spelled out.
  std::vector<SelectItem> items;
  auto spell = [&](int side, const std::vector<std::string>& cols,
                   const parser::Position& pos) {
    for (size_t c = 0; c < cols.size(); ++c) {
      SelectItem i;
      i.expr = ColumnRef(joined, mangled(side, c), pos);
      i.text = cols[c];
      i.alias = cols[c];
      i.pos = pos;
      items.push_back(std::move(i));
    }
  };
  for (SelectItem& i : s->items) {
    if (i.expr) {
      items.push_back(std::move(i));
    } else if (i.star_table.empty()) {
      spell(1, a_cols, i.pos);
      spell(2, b_cols, i.pos);
      for (const std::string& n : later) items.push_back(StarOf(n, i.pos));
    } else if (i.star_table == a_name) {
      spell(1, a_cols, i.pos);
    } else if (i.star_table == b_name) {
      spell(2, b_cols, i.pos);
    } else {
      items.push_back(std::move(i));
    }
  }
  s->items = std::move(items);

  // Names of A's and B's columns, read from the compound.
  auto has = [](const std::vector<std::string>& cols, const std::string& c) {
    return std::find(cols.begin(), cols.end(), c) != cols.end();
  };
  bool ordering = false;  // rewriting ORDER BY (where an alias comes first)
  const RefWalker* walking = nullptr;  // the walker calling rewrite
  auto rewrite = [&](ExprPtr& ref) -> Status {
    Expr& e = *ref;
    if (e.qualifier == a_name || e.qualifier == b_name) {
      const int side = e.qualifier == a_name ? 1 : 2;
      if (const int at = place(side, e.name); at >= 0) {
        e.name = mangled(side, at);
        e.qualifier = joined;
      }
      return Status::OK();
    }
    if (!e.qualifier.empty()) return Status::OK();
    // (ORDER BY's own name of a result column; one in a subquery there
    // names a column.)
    if (ordering && walking->depth() == 0) {
      for (const SelectItem& i : s->items) {
        if (i.expr && i.alias == e.name) return Status::OK();
      }
    }
    const bool in_a = has(a_cols, e.name), in_b = has(b_cols, e.name);
    if (!in_a && !in_b) return Status::OK();
    bool ambiguous = in_a && in_b;
    for (const auto& cols : later_cols)
      ambiguous = ambiguous || has(cols, e.name);
    if (ambiguous) {
      return Status::InvalidArgument(Where(e.pos) + "ambiguous column " +
                                     e.name + ": more than one table has it");
    }
    const int side = in_a ? 1 : 2;
    e.name = mangled(side, place(side, e.name));
    e.qualifier = joined;
    return Status::OK();
  };
  RefWalker walker(catalog, rewrite);
  walking = &walker;
  for (SelectItem& i : s->items) {
    // A column keeps the name it was read by (`SELECT a.k` names it k).
    const std::string name =
        i.expr && i.alias.empty() && i.expr->kind == ExprKind::kColumn
            ? i.expr->name
            : "";
    LQ_RETURN_IF_ERROR(walker.Walk(i.expr));
    if (!name.empty() && i.expr->name != name) i.alias = name;
  }
  for (parser::JoinTable& j : s->joins) LQ_RETURN_IF_ERROR(walker.Walk(j.on));
  LQ_RETURN_IF_ERROR(walker.Walk(s->where));
  for (ExprPtr& g : s->group_by) LQ_RETURN_IF_ERROR(walker.Walk(g));
  LQ_RETURN_IF_ERROR(walker.Walk(s->having));
  ordering = true;
  for (parser::OrderItem& o : s->order_by)
    LQ_RETURN_IF_ERROR(walker.Walk(o.expr));
  return Status::OK();
}

class Inliner {
 public:
  explicit Inliner(const CatalogState& catalog) : catalog_(catalog) {}

  // Merges every view and subquery of `s`'s FROM into `s`; `changed` says
  // whether there was one.
  Status Merge(Select* s, int depth, bool* changed) {
    if (depth > kMaxDepth) {
      return Status::InvalidArgument("views read views more than " +
                                     std::to_string(kMaxDepth) +
                                     " deep: does a view read itself?");
    }
    LQ_RETURN_IF_ERROR(FullToDerived(s, catalog_));
    LQ_RETURN_IF_ERROR(RightToLeft(s));
    std::vector<FromItem> from = TakeFrom(s);
    std::vector<Source> sources;
    std::vector<std::shared_ptr<Select>> inners(from.size());
    for (size_t i = 0; i < from.size(); ++i) {
      FromItem& f = from[i];
      Source src;
      src.name = ItemName(f.alias, f.table, i);
      const ViewSchema* view = nullptr;
      if (f.subquery) {
        inners[i] = std::move(f.subquery);
      } else if (const TableSchema* t = catalog_.FindTable(f.table)) {
        src.kind = Source::Kind::kTable;
        src.table = t;
      } else if ((view = catalog_.FindView(f.table))) {
        inners[i] = parser::Clone(*view->select);
      }
      if (inners[i] && parser::HasCommonTables(*inners[i])) {
        LQ_ASSIGN_OR_RETURN(inners[i], parser::ExpandCommonTables(*inners[i]));
      }
      if (inners[i] &&
          (Unmergeable(*inners[i]) ||
           (from.size() == 1 && OrdersAnAggregate(*s, *inners[i])))) {
        // Read as a table of its rows, made before the query runs.
        *changed = true;
        // Its columns are named as a merged one's would be (a view's own
        // list first), whatever the binder calls its outputs.
        src.kind = Source::Kind::kDerived;
        src.names = OutputNames(*inners[i], catalog_);
        if (view && !view->columns.empty()) {
          if (view->columns.size() != src.names.size()) {
            return Status::InvalidArgument(
                "expected " + std::to_string(view->columns.size()) +
                " columns for view " + view->name + " but its SELECT has " +
                std::to_string(src.names.size()));
          }
          src.names = view->columns;
        }
        inners[i]->column_names = src.names;
      } else if (inners[i]) {
        *changed = true;
        src.kind = Source::Kind::kMerged;
        Status st =
            PrepareInner(inners[i].get(), src.name, depth,
                         view ? &view->columns : &inners[i]->column_names,
                         /*reads_around=*/view == nullptr, &src);
        if (!st.ok()) {
          return view ? st.WithPrefix("in view " + view->name + ": ") : st;
        }
      }
      sources.push_back(std::move(src));
    }
    if (!*changed) {
      PutFrom(std::move(from), s);
      return Status::OK();
    }
    bool left_after = false;  // a LEFT JOIN after item i
    for (size_t i = from.size(); i-- > 0;) {
      // On the right of a LEFT JOIN a row of NULLs stands for no row: a
      // column the view computes (`1 AS one`) would not be NULL there, and
      // its tables' join would not be one table's rows. Such a one is read
      // as a table of its rows instead; so is one with no FROM before a
      // LEFT JOIN, which would leave that join no table to join to.
      const bool left = from[i].left;
      const bool before_left = left_after;
      left_after = left_after || left;
      if (!sources[i].merged()) continue;
      const Select& inner = *inners[i];
      const bool has_from = !inner.table.empty() || inner.from_subquery;
      if (!left && (has_from || !before_left)) continue;
      bool one_table = left && inner.joins.empty() && has_from;
      for (const Expr* e : sources[i].exprs) {
        one_table = one_table && e->kind == ExprKind::kColumn && !e->outer_only;
      }
      if (one_table) continue;
      inners[i]->column_names = sources[i].names;
      sources[i].kind = Source::Kind::kDerived;
      sources[i].exprs.clear();
      sources[i].under.clear();
      sources[i].under_rows.clear();
    }
    LQ_RETURN_IF_ERROR(Substitute(s, sources, &from));
    for (size_t i = 0; i < from.size(); ++i) {
      if (sources[i].kind == Source::Kind::kDerived && !from[i].left) {
        PushDown(*s, sources, i, inners[i].get());
      }
    }
    // The FROM of the merged query: each merged item's tables in its place.
    std::vector<FromItem> merged;
    ExprPtr where;
    for (size_t i = 0; i < from.size(); ++i) {
      if (from[i].left && merged.empty()) {
        // (The items before it were SELECTs without FROM.)
        return Status::NotSupported(Where(from[i].pos) +
                                    "a LEFT JOIN after no table in FROM");
      }
      if (!inners[i]) {
        merged.push_back(std::move(from[i]));
        continue;
      }
      if (!sources[i].merged()) {
        from[i].table.clear();
        from[i].subquery = std::move(inners[i]);
        from[i].alias = sources[i].name;
        merged.push_back(std::move(from[i]));
        continue;
      }
      Select& inner = *inners[i];
      // (Its select list's names of queries around: PrepareInner.)
      for (ExprPtr& n : inner.names_to_check) {
        s->names_to_check.push_back(std::move(n));
      }
      std::vector<FromItem> tables = TakeFrom(&inner);
      if (from[i].left) {
        // The right side of a LEFT JOIN: its WHERE chooses the rows that
        // pair, as its ON does; its one table takes its place.
        tables[0].left = true;
        tables[0].on = And(std::move(inner.where), std::move(from[i].on));
        merged.push_back(std::move(tables[0]));
        continue;
      }
      if (tables.empty()) {
        where = And(std::move(where), std::move(from[i].on));
      } else {
        tables[0].on = std::move(from[i].on);
      }
      for (FromItem& t : tables) merged.push_back(std::move(t));
      where = And(std::move(where), std::move(inner.where));
    }
    s->where = And(std::move(where), std::move(s->where));
    // A merged item's ORDER BY orders the rows only as the query's whole
    // FROM, with no order, grouping or DISTINCT of its own.
    if (from.size() == 1 && sources[0].merged() &&
        !inners[0]->order_by.empty() && s->order_by.empty() &&
        s->group_by.empty() && !s->distinct && !s->having &&
        !HasAggregate(*s)) {
      s->order_by = std::move(inners[0]->order_by);
    }
    PutFrom(std::move(merged), s);
    return Status::OK();
  }

 private:
  // The column of sources[at] that `e` (a column reference of the query
  // reading it) names, or -1 when it names another item's or none.
  static int ColumnOf(const Expr& e, const std::vector<Source>& sources,
                      size_t at) {
    if (e.outer_only) return -1;  // a column of a query around
    if (!e.qualifier.empty()) {
      return e.qualifier == sources[at].name ? sources[at].Find(e.name) : -1;
    }
    for (size_t i = 0; i < sources.size(); ++i) {
      if (i != at && (sources[i].kind == Source::Kind::kMissing ||
                      sources[i].Find(e.name) >= 0)) {
        return -1;  // another item's, or ambiguous (the binder says)
      }
    }
    return sources[at].Find(e.name);
  }

  // Whether `e` (part of a WHERE term) reads only columns of sources[at]
  // that `inner` (its SELECT) gives as its grouping columns, as plain
  // columns: then the term holds for a row of its rows exactly when it
  // holds for the rows of the tables that make it. `*reads` is set when it
  // reads one.
  static bool OnGroupColumns(const Expr& e, const std::vector<Source>& sources,
                             size_t at, const Select& inner, bool* reads) {
    if (e.subquery) return false;
    if (IsAggregateCall(e)) return false;
    if (e.kind == ExprKind::kColumn) {
      const int c = ColumnOf(e, sources, at);
      if (c < 0 || static_cast<size_t>(c) >= inner.items.size()) return false;
      const Expr* item = inner.items[c].expr.get();
      if (!item || item->kind != ExprKind::kColumn) return false;
      if (!inner.distinct) {
        // GROUP BY: the item must be a grouping term (by its name or its
        // ordinal).
        bool grouped = false;
        for (const ExprPtr& g : inner.group_by) {
          grouped |= (g->kind == ExprKind::kColumn && g->name == item->name &&
                      g->qualifier == item->qualifier) ||
                     (g->kind == ExprKind::kLiteral &&
                      g->literal.type() == Type::kInteger &&
                      g->literal.int_value() == c + 1);
        }
        if (!grouped) return false;
      }
      *reads = true;
      return true;
    }
    for (const ExprPtr& a : e.args) {
      if (a && !OnGroupColumns(*a, sources, at, inner, reads)) return false;
    }
    return true;
  }

  // Pushes each term of `s`'s WHERE that reads only grouping columns of
  // sources[at] (a view or subquery read as a table of its rows, with
  // GROUP BY or DISTINCT and no LIMIT) into that SELECT's WHERE, written
  // over its own columns: its rows are then made from the rows the term
  // keeps only (SQLite's push-down). The term stays in `s` too.
  static void PushDown(const Select& s, const std::vector<Source>& sources,
                       size_t at, Select* inner) {
    if (!inner->compound.empty() || inner->limit || inner->offset ||
        (inner->group_by.empty() && !inner->distinct) || !s.where) {
      return;
    }
    // Its columns are its items, one each (no `*`).
    for (const SelectItem& item : inner->items) {
      if (!item.expr) return;
    }
    std::vector<const Expr*> terms;
    std::function<void(const Expr&)> split = [&](const Expr& e) {
      if (e.kind == ExprKind::kBinary &&
          e.binary_op == parser::BinaryOp::kAnd) {
        split(*e.args[0]);
        split(*e.args[1]);
        return;
      }
      terms.push_back(&e);
    };
    split(*s.where);
    for (const Expr* t : terms) {
      bool reads = false;
      if (!OnGroupColumns(*t, sources, at, *inner, &reads) || !reads) {
        continue;
      }
      ExprPtr pushed = parser::Clone(*t);
      std::function<void(ExprPtr&)> rewrite = [&](ExprPtr& e) {
        if (e->kind == ExprKind::kColumn) {
          e = parser::Clone(*inner->items[ColumnOf(*e, sources, at)].expr);
          return;
        }
        for (ExprPtr& a : e->args) {
          if (a) rewrite(a);
        }
      };
      rewrite(pushed);
      inner->where = And(std::move(inner->where), std::move(pushed));
    }
  }

  // Makes `inner` (a view's or subquery's SELECT, called `name` in the
  // query reading it) ready to merge: its own FROM merged first, its `*`
  // spelled out, its tables renamed and every name of it qualified; and
  // describes its columns in `src`. A subquery (`reads_around`; a view
  // never) may name a column of a query around the one reading it: such a
  // name, found in none of its tables, is marked outer_only, so that once
  // merged no table beside it can take it.
  Status PrepareInner(Select* inner, const std::string& name, int depth,
                      const std::vector<std::string>* view_columns,
                      bool reads_around, Source* src) {
    bool changed = false;
    LQ_RETURN_IF_ERROR(Merge(inner, depth + 1, &changed));
    // Its tables, as its names see them, and what each is called now.
    std::vector<FromItem> tables = TakeFrom(inner);
    std::vector<Source> own;
    for (FromItem& t : tables) {
      Source s;
      s.name = !t.alias.empty() ? t.alias : t.table;
      if (t.subquery) {
        // Its own merging left it a table of its rows.
        s.kind = Source::Kind::kDerived;
        s.names = OutputNames(*t.subquery, catalog_);
        src->under_rows.push_back(s.names);
        own.push_back(std::move(s));
        continue;
      }
      s.kind = Source::Kind::kTable;
      s.table = catalog_.FindTable(t.table);
      if (!s.table) {
        return Status::NotFound(Where(t.pos) + "no table " + t.table);
      }
      own.push_back(std::move(s));
      src->under.push_back(own.back().table);
    }
    std::vector<std::string> renamed;
    for (size_t i = 0; i < tables.size(); ++i) {
      renamed.push_back(tables.size() == 1 ? name : name + "." + own[i].name);
      tables[i].alias = renamed.back();
    }
    // `*` and `t.*`, spelled out.
    std::vector<SelectItem> items;
    for (SelectItem& item : inner->items) {
      if (item.expr) {
        items.push_back(std::move(item));
        continue;
      }
      bool named = item.star_table.empty();
      for (size_t i = 0; i < own.size(); ++i) {
        if (!item.star_table.empty() && item.star_table != own[i].name) {
          continue;
        }
        named = true;
        std::vector<std::string> names = own[i].names;
        if (own[i].table) {
          for (const ColumnSchema& c : own[i].table->columns) {
            if (!c.hidden) names.push_back(c.name);
          }
        }
        for (const std::string& n : names) {
          SelectItem col;
          col.expr = std::make_unique<Expr>();
          col.expr->kind = ExprKind::kColumn;
          col.expr->name = n;
          col.expr->qualifier = own[i].name;
          col.expr->pos = item.pos;
          col.text = n;
          col.pos = item.pos;
          items.push_back(std::move(col));
        }
      }
      if (!named) {
        return Status::NotFound(Where(item.pos) + "no table " +
                                item.star_table);
      }
      if (own.empty()) {
        return Status::InvalidArgument(Where(item.pos) +
                                       "SELECT * without FROM: no columns");
      }
    }
    inner->items = std::move(items);
    // Every name qualified by its table's new name; a select-list alias
    // read in WHERE or ORDER BY replaced by its expression.
    const RefWalker* walking = nullptr;  // the walker calling qualify
    bool in_items = false;               // walking the select list
    auto qualify = [&](ExprPtr& ref) -> Status {
      Expr& e = *ref;
      int found = -1;
      for (size_t i = 0; i < own.size(); ++i) {
        if (!e.qualifier.empty() && e.qualifier != own[i].name) continue;
        if (own[i].Find(e.name) < 0) continue;
        if (found >= 0) {
          return Status::InvalidArgument(Where(e.pos) + "ambiguous column " +
                                         e.name +
                                         ": more than one table has it");
        }
        found = static_cast<int>(i);
      }
      if (found >= 0) {
        e.qualifier = renamed[found];
        return Status::OK();
      }
      // (A select-list alias is read in WHERE and ORDER BY, not in the
      // select list itself.)
      if (e.qualifier.empty() && !in_items) {
        for (const SelectItem& item : inner->items) {
          if (item.alias == e.name && item.expr.get() != ref.get()) {
            ref = parser::Clone(*item.expr);
            return Status::OK();
          }
        }
      }
      if (reads_around) {
        // The binder finds it around the reading query, or says not.
        e.outer_only = static_cast<int>(walking->depth()) + 1;
        e.via_from = walking->depth() == 0;
        return Status::OK();
      }
      return Status::NotFound(
          Where(e.pos) + "no column " +
          (e.qualifier.empty() ? e.name : e.qualifier + "." + e.name) +
          " in the tables of " + name +
          " (a view or subquery in FROM reads its own tables only)");
    };
    RefWalker walker(catalog_, qualify);
    walking = &walker;
    in_items = true;
    for (SelectItem& item : inner->items) {
      LQ_RETURN_IF_ERROR(walker.Walk(item.expr));
    }
    in_items = false;
    // Every name of a query around in its select list (marked here, or by
    // its own merging) reaches the reading query through its columns, and
    // is checked where that query is bound, read or not.
    std::function<void(Expr&)> through = [&](Expr& e) {
      if (e.kind == ExprKind::kColumn && e.outer_only) {
        e.via_from = true;
        inner->names_to_check.push_back(parser::Clone(e));
      }
      for (ExprPtr& a : e.args) {
        if (a) through(*a);
      }
    };
    for (SelectItem& item : inner->items) {
      if (item.expr) through(*item.expr);
    }
    for (FromItem& t : tables) LQ_RETURN_IF_ERROR(walker.Walk(t.on));
    LQ_RETURN_IF_ERROR(walker.Walk(inner->where));
    for (parser::OrderItem& o : inner->order_by) {
      if (o.expr->kind == ExprKind::kLiteral &&
          o.expr->literal.type() == Type::kInteger) {
        const int64_t k = o.expr->literal.int_value();
        if (k >= 1 && k <= static_cast<int64_t>(inner->items.size())) {
          o.expr = Substituted(*inner->items[k - 1].expr);
          continue;
        }
      }
      // In ORDER BY a select-list alias wins over a table's column.
      const SelectItem* aliased = nullptr;
      if (o.expr->kind == ExprKind::kColumn && o.expr->qualifier.empty()) {
        for (const SelectItem& item : inner->items) {
          if (item.alias == o.expr->name) {
            aliased = &item;
            break;
          }
        }
      }
      if (aliased) {
        o.expr = Substituted(*aliased->expr);
        continue;
      }
      LQ_RETURN_IF_ERROR(walker.Walk(o.expr));
    }
    PutFrom(std::move(tables), inner);
    // Its columns: names (the view's own list first), expressions.
    if (view_columns && !view_columns->empty() &&
        view_columns->size() != inner->items.size()) {
      return Status::InvalidArgument(
          "expected " + std::to_string(view_columns->size()) + " columns for " +
          name + " but its SELECT has " + std::to_string(inner->items.size()));
    }
    for (size_t i = 0; i < inner->items.size(); ++i) {
      const SelectItem& item = inner->items[i];
      src->names.push_back(view_columns && !view_columns->empty()
                               ? (*view_columns)[i]
                               : ColumnName(item));
      src->exprs.push_back(item.expr.get());
    }
    return Status::OK();
  }

  // Replaces every name of `s` that reads a merged item's column by that
  // column's expression, and spells out `*` over merged items.
  Status Substitute(Select* s, const std::vector<Source>& sources,
                    std::vector<FromItem>* from) {
    // Names the select list gives its items (WHERE and ORDER BY may read
    // them; the binder resolves those).
    auto is_alias = [&](const std::string& name) {
      for (const SelectItem& item : s->items) {
        if (item.expr && item.alias == name) return true;
      }
      return false;
    };
    bool substituting_items = false;     // walking s's select list
    const RefWalker* walking = nullptr;  // the walker calling replace
    auto replace = [&](ExprPtr& ref) -> Status {
      Expr& e = *ref;
      const Source* hit = nullptr;
      int at = -1;
      bool table_has = false;
      for (const Source& src : sources) {
        if (!e.qualifier.empty() && e.qualifier != src.name) continue;
        if (src.kind == Source::Kind::kMissing) continue;
        const int i = src.Find(e.name);
        if (!e.qualifier.empty() && src.merged() && i < 0) {
          // Not among the columns it selects: a query around may have a
          // table of that name (SQLite looks there), else the binder says
          // there is no such column.
          e.outer_only = static_cast<int>(walking->depth()) + 1;
          return Status::OK();
        }
        if (i < 0) continue;
        if (!src.merged()) {
          table_has = true;
          continue;
        }
        if (hit || table_has) {
          return Status::InvalidArgument(Where(e.pos) + "ambiguous column " +
                                         e.name +
                                         ": more than one table has it");
        }
        hit = &src;
        at = i;
      }
      if (hit && table_has) {
        return Status::InvalidArgument(Where(e.pos) + "ambiguous column " +
                                       e.name + ": more than one table has it");
      }
      if (hit) {
        ref = Substituted(*hit->exprs[at]);
        return Status::OK();
      }
      if (!e.qualifier.empty()) return Status::OK();
      // Once merged, a merged item's tables' columns it does not show
      // would be found by a name: a column of a table (or of a table of
      // rows) beside it is named with its table, a select-list alias is
      // read as its expression (SQLite reads it so when no column has the
      // name), else it is looked for around.
      bool hidden = false;
      for (const Source& src : sources)
        hidden |= src.merged() && src.Hides(e.name);
      if (!hidden) return Status::OK();
      const Source* owner = nullptr;
      for (const Source& src : sources) {
        if (src.merged() || src.Find(e.name) < 0) continue;
        if (owner) return Status::OK();  // ambiguous: the binder says so
        owner = &src;
      }
      if (owner) {
        e.qualifier = owner->name;
        return Status::OK();
      }
      for (const SelectItem& item : s->items) {
        if (substituting_items) break;  // (an alias is not read there)
        if (item.expr && item.alias == e.name && item.expr.get() != ref.get()) {
          ref = parser::Clone(*item.expr);
          return Status::OK();
        }
      }
      // A view or subquery shows only the columns it selects: the name is
      // looked for in the queries around (SQLite), else the binder says
      // there is no such column.
      e.outer_only = static_cast<int>(walking->depth()) + 1;
      return Status::OK();
    };
    RefWalker walker(catalog_, replace);
    walking = &walker;
    std::vector<SelectItem> items;
    substituting_items = true;
    for (SelectItem& item : s->items) {
      if (item.expr) {
        // A column read through a merged item keeps the name it was read
        // by (`SELECT b FROM v` names its column b, whatever v selects).
        const std::string name =
            item.alias.empty() && item.expr->kind == ExprKind::kColumn
                ? item.expr->name
                : "";
        LQ_RETURN_IF_ERROR(walker.Walk(item.expr));
        if (!name.empty() &&
            (item.expr->kind != ExprKind::kColumn || item.expr->name != name)) {
          item.alias = name;
        }
        items.push_back(std::move(item));
        continue;
      }
      bool named = item.star_table.empty();
      for (const Source& src : sources) {
        if (!item.star_table.empty() && item.star_table != src.name) continue;
        named = true;
        if (!src.merged()) {
          items.push_back(StarOf(src.name, item.pos));
          continue;
        }
        for (size_t c = 0; c < src.names.size(); ++c) {
          SelectItem col;
          col.expr = Substituted(*src.exprs[c]);
          col.alias = src.names[c];
          col.text = src.names[c];
          col.pos = item.pos;
          items.push_back(std::move(col));
        }
      }
      if (!named) {
        return Status::NotFound(Where(item.pos) + "no table " +
                                item.star_table);
      }
    }
    s->items = std::move(items);
    substituting_items = false;
    for (FromItem& f : *from) LQ_RETURN_IF_ERROR(walker.Walk(f.on));
    LQ_RETURN_IF_ERROR(walker.Walk(s->where));
    for (ExprPtr& g : s->group_by) LQ_RETURN_IF_ERROR(walker.Walk(g));
    LQ_RETURN_IF_ERROR(walker.Walk(s->having));
    for (parser::OrderItem& o : s->order_by) {
      if (o.expr->kind == ExprKind::kColumn && o.expr->qualifier.empty() &&
          is_alias(o.expr->name)) {
        continue;
      }
      LQ_RETURN_IF_ERROR(walker.Walk(o.expr));
    }
    return Status::OK();
  }

  const CatalogState& catalog_;
};

}  // namespace

Result<std::unique_ptr<parser::Select>> InlineFrom(
    const parser::Select& select, const CatalogState& catalog) {
  bool any = select.from_subquery != nullptr;
  if (!any && !catalog.views.empty()) {
    any = catalog.FindView(select.table) != nullptr;
  }
  for (const parser::JoinTable& j : select.joins) {
    any = any || j.subquery != nullptr || j.right || j.full ||
          catalog.FindView(j.table) != nullptr;
  }
  if (!any) return std::unique_ptr<parser::Select>();
  std::shared_ptr<Select> copy = parser::Clone(select);
  Inliner inliner(catalog);
  bool changed = false;
  LQ_RETURN_IF_ERROR(inliner.Merge(copy.get(), 0, &changed));
  auto out = std::make_unique<Select>(std::move(*copy));
  return out;
}

Status RefuseParameters(const parser::Select& select, const std::string& view) {
  std::function<Status(const Select&)> walk;
  std::function<Status(const ExprPtr&)> check =
      [&](const ExprPtr& e) -> Status {
    if (!e) return Status::OK();
    if (e->kind == ExprKind::kParam) {
      return Status::InvalidArgument(Where(e->pos) + "view " + view +
                                     " reads a parameter: a view may not");
    }
    for (const ExprPtr& a : e->args) LQ_RETURN_IF_ERROR(check(a));
    return e->subquery ? walk(*e->subquery) : Status::OK();
  };
  walk = [&](const Select& s) -> Status {
    for (const SelectItem& item : s.items) LQ_RETURN_IF_ERROR(check(item.expr));
    if (s.from_subquery) LQ_RETURN_IF_ERROR(walk(*s.from_subquery));
    for (const parser::JoinTable& j : s.joins) {
      LQ_RETURN_IF_ERROR(check(j.on));
      if (j.subquery) LQ_RETURN_IF_ERROR(walk(*j.subquery));
    }
    LQ_RETURN_IF_ERROR(check(s.where));
    for (const ExprPtr& g : s.group_by) LQ_RETURN_IF_ERROR(check(g));
    LQ_RETURN_IF_ERROR(check(s.having));
    for (const parser::OrderItem& o : s.order_by) {
      LQ_RETURN_IF_ERROR(check(o.expr));
    }
    LQ_RETURN_IF_ERROR(check(s.limit));
    return check(s.offset);
  };
  return walk(select);
}

}  // namespace levelql
