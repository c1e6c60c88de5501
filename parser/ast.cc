// Structural equality of syntax trees: what the round-trip tests and the
// fuzzer compare after ToSql and a second parse. Positions and source text
// are ignored; every other field is compared, including those the node kind
// does not use (the parser leaves them at their defaults).
#include "parser/ast.h"

namespace levelql::parser {
namespace {

bool EqualSelect(const Select& a, const Select& b);

bool EqualSubquery(const std::shared_ptr<Select>& a,
                   const std::shared_ptr<Select>& b) {
  if (!a || !b) return !a && !b;
  return EqualSelect(*a, *b);
}

bool EqualPtr(const ExprPtr& a, const ExprPtr& b) {
  if (!a || !b) return !a && !b;
  return Equal(*a, *b);
}

bool EqualExprs(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!EqualPtr(a[i], b[i])) return false;
  }
  return true;
}

bool EqualIndexColumns(const std::vector<IndexColumn>& a,
                       const std::vector<IndexColumn>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].collation != b[i].collation ||
        a[i].desc != b[i].desc) {
      return false;
    }
  }
  return true;
}

bool EqualSelect(const Select& a, const Select& b) {
  if (a.distinct != b.distinct || a.table != b.table || a.alias != b.alias ||
      !(a.hint == b.hint) || a.items.size() != b.items.size() ||
      a.order_by.size() != b.order_by.size() ||
      a.group_by.size() != b.group_by.size() ||
      a.joins.size() != b.joins.size() ||
      !EqualSubquery(a.from_subquery, b.from_subquery) ||
      a.compound.size() != b.compound.size() ||
      a.with.size() != b.with.size() || a.recursive != b.recursive) {
    return false;
  }
  for (size_t i = 0; i < a.with.size(); ++i) {
    if (a.with[i].name != b.with[i].name ||
        a.with[i].columns != b.with[i].columns ||
        !EqualSubquery(a.with[i].select, b.with[i].select)) {
      return false;
    }
  }
  for (size_t i = 0; i < a.compound.size(); ++i) {
    if (a.compound[i].op != b.compound[i].op ||
        !EqualSubquery(a.compound[i].select, b.compound[i].select)) {
      return false;
    }
  }
  for (size_t i = 0; i < a.joins.size(); ++i) {
    if (a.joins[i].table != b.joins[i].table ||
        a.joins[i].left != b.joins[i].left ||
        a.joins[i].right != b.joins[i].right ||
        a.joins[i].full != b.joins[i].full ||
        !EqualSubquery(a.joins[i].subquery, b.joins[i].subquery) ||
        a.joins[i].alias != b.joins[i].alias ||
        !(a.joins[i].hint == b.joins[i].hint) ||
        !EqualPtr(a.joins[i].on, b.joins[i].on)) {
      return false;
    }
  }
  for (size_t i = 0; i < a.group_by.size(); ++i) {
    if (!EqualPtr(a.group_by[i], b.group_by[i])) return false;
  }
  for (size_t i = 0; i < a.items.size(); ++i) {
    if (a.items[i].alias != b.items[i].alias ||
        a.items[i].star_table != b.items[i].star_table ||
        !EqualPtr(a.items[i].expr, b.items[i].expr)) {
      return false;
    }
  }
  for (size_t i = 0; i < a.order_by.size(); ++i) {
    if (a.order_by[i].desc != b.order_by[i].desc ||
        !EqualPtr(a.order_by[i].expr, b.order_by[i].expr)) {
      return false;
    }
  }
  return EqualPtr(a.where, b.where) && EqualPtr(a.having, b.having) &&
         EqualPtr(a.limit, b.limit) && EqualPtr(a.offset, b.offset);
}

bool EqualColumnDef(const ColumnDef& x, const ColumnDef& y) {
  return x.name == y.name && x.type == y.type &&
         x.primary_key == y.primary_key &&
         x.primary_key_desc == y.primary_key_desc && x.not_null == y.not_null &&
         x.unique == y.unique && x.collation == y.collation &&
         EqualPtr(x.default_value, y.default_value);
}

// One overload per statement node; std::visit picks them below.
bool EqualNode(const CreateTable& a, const CreateTable& b) {
  if (a.name != b.name || a.if_not_exists != b.if_not_exists ||
      a.columns.size() != b.columns.size() ||
      !EqualIndexColumns(a.primary_key, b.primary_key)) {
    return false;
  }
  for (size_t i = 0; i < a.columns.size(); ++i) {
    if (!EqualColumnDef(a.columns[i], b.columns[i])) return false;
  }
  if (a.options.size() != b.options.size()) return false;
  for (size_t i = 0; i < a.options.size(); ++i) {
    if (a.options[i].name != b.options[i].name ||
        !(a.options[i].value == b.options[i].value)) {
      return false;
    }
  }
  return true;
}

bool EqualNode(const CreateIndex& a, const CreateIndex& b) {
  return a.name == b.name && a.table == b.table && a.unique == b.unique &&
         a.if_not_exists == b.if_not_exists && a.include == b.include &&
         a.ranked == b.ranked && EqualIndexColumns(a.columns, b.columns);
}

bool EqualNode(const DropTable& a, const DropTable& b) {
  return a.name == b.name && a.if_exists == b.if_exists;
}

bool EqualNode(const AlterTable& a, const AlterTable& b) {
  return a.name == b.name && a.action == b.action &&
         EqualColumnDef(a.column, b.column) && a.from == b.from && a.to == b.to;
}

bool EqualNode(const DropIndex& a, const DropIndex& b) {
  return a.name == b.name && a.if_exists == b.if_exists;
}

bool EqualNode(const CreateView& a, const CreateView& b) {
  return a.name == b.name && a.if_not_exists == b.if_not_exists &&
         a.columns == b.columns && EqualSubquery(a.select, b.select);
}

bool EqualNode(const DropView& a, const DropView& b) {
  return a.name == b.name && a.if_exists == b.if_exists;
}

bool EqualWith(const std::vector<CommonTable>& a, bool ar,
               const std::vector<CommonTable>& b, bool br) {
  if (a.size() != b.size() || ar != br) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].columns != b[i].columns ||
        !EqualSubquery(a[i].select, b[i].select)) {
      return false;
    }
  }
  return true;
}

bool EqualNode(const Insert& a, const Insert& b) {
  if (!EqualWith(a.with, a.recursive, b.with, b.recursive)) return false;
  if (a.on_conflict != b.on_conflict || a.table != b.table ||
      a.columns != b.columns || a.rows.size() != b.rows.size()) {
    return false;
  }
  for (size_t i = 0; i < a.rows.size(); ++i) {
    if (!EqualExprs(a.rows[i], b.rows[i])) return false;
  }
  if (!a.select || !b.select) return !a.select && !b.select;
  return EqualSelect(*a.select, *b.select);
}

bool EqualNode(const Update& a, const Update& b) {
  if (!EqualWith(a.with, a.recursive, b.with, b.recursive)) return false;
  if (a.table != b.table || a.assignments.size() != b.assignments.size()) {
    return false;
  }
  for (size_t i = 0; i < a.assignments.size(); ++i) {
    if (a.assignments[i].column != b.assignments[i].column ||
        !EqualPtr(a.assignments[i].value, b.assignments[i].value)) {
      return false;
    }
  }
  return EqualPtr(a.where, b.where);
}

bool EqualNode(const Delete& a, const Delete& b) {
  return EqualWith(a.with, a.recursive, b.with, b.recursive) &&
         a.table == b.table && EqualPtr(a.where, b.where);
}

bool EqualNode(const Select& a, const Select& b) { return EqualSelect(a, b); }

bool EqualNode(const Explain& a, const Explain& b) {
  if (a.analyze != b.analyze) return false;
  if (!a.statement || !b.statement) return !a.statement && !b.statement;
  return Equal(*a.statement, *b.statement);
}

bool EqualNode(const Analyze& a, const Analyze& b) {
  return a.table == b.table;
}

bool EqualNode(const Reindex& a, const Reindex& b) { return a.name == b.name; }

bool EqualNode(const Check& a, const Check& b) {
  return a.target == b.target && a.name == b.name;
}

bool EqualNode(const Begin& a, const Begin& b) { return a.mode == b.mode; }
bool EqualNode(const Commit&, const Commit&) { return true; }
bool EqualNode(const Rollback&, const Rollback&) { return true; }

bool EqualNode(const Pragma& a, const Pragma& b) {
  return a.name == b.name && a.value == b.value;
}

}  // namespace

Expr::~Expr() {
  std::vector<ExprPtr> pending = std::move(args);
  while (!pending.empty()) {
    ExprPtr e = std::move(pending.back());
    pending.pop_back();
    for (ExprPtr& a : e->args) pending.push_back(std::move(a));
    e->args.clear();
  }  // each node freed with no children left
}

bool Equal(const Expr& a, const Expr& b) {
  return a.kind == b.kind && a.literal == b.literal && a.name == b.name &&
         a.qualifier == b.qualifier && a.param_index == b.param_index &&
         a.unary_op == b.unary_op && a.binary_op == b.binary_op &&
         a.negated == b.negated && a.distinct == b.distinct &&
         a.star == b.star && a.cast_type == b.cast_type &&
         a.case_operand == b.case_operand && a.case_else == b.case_else &&
         a.outer_only == b.outer_only && a.via_from == b.via_from &&
         EqualExprs(a.args, b.args) &&
         (a.subquery && b.subquery ? EqualSelect(*a.subquery, *b.subquery)
                                   : !a.subquery && !b.subquery);
}

bool Equal(const Statement& a, const Statement& b) {
  if (a.node.index() != b.node.index()) return false;
  return std::visit(
      [&b](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        return EqualNode(x, std::get<T>(b.node));
      },
      a.node);
}

const char* UnaryOpText(UnaryOp op) {
  switch (op) {
    case UnaryOp::kPlus:
      return "+";
    case UnaryOp::kMinus:
      return "-";
    case UnaryOp::kNot:
      return "NOT";
    case UnaryOp::kBitNot:
      return "~";
  }
  return "?";
}

bool IsComparison(BinaryOp op) {
  return op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt ||
         op == BinaryOp::kLe || op == BinaryOp::kGt || op == BinaryOp::kGe;
}

const char* BinaryOpText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kMod:
      return "%";
    case BinaryOp::kConcat:
      return "||";
    case BinaryOp::kEq:
      return "=";
    case BinaryOp::kNe:
      return "<>";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLe:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGe:
      return ">=";
    case BinaryOp::kAnd:
      return "AND";
    case BinaryOp::kOr:
      return "OR";
    case BinaryOp::kBitAnd:
      return "&";
    case BinaryOp::kBitOr:
      return "|";
    case BinaryOp::kShiftLeft:
      return "<<";
    case BinaryOp::kShiftRight:
      return ">>";
  }
  return "?";
}

ExprPtr Clone(const Expr& e) {
  auto out = std::make_unique<Expr>();
  out->kind = e.kind;
  out->pos = e.pos;
  out->literal = e.literal;
  out->name = e.name;
  out->qualifier = e.qualifier;
  out->param_index = e.param_index;
  out->unary_op = e.unary_op;
  out->binary_op = e.binary_op;
  out->negated = e.negated;
  out->distinct = e.distinct;
  out->star = e.star;
  out->cast_type = e.cast_type;
  out->case_operand = e.case_operand;
  out->case_else = e.case_else;
  for (const ExprPtr& a : e.args) out->args.push_back(a ? Clone(*a) : nullptr);
  if (e.subquery) out->subquery = Clone(*e.subquery);
  out->pin_collation = e.pin_collation;
  out->outer_only = e.outer_only;
  out->via_from = e.via_from;
  return out;
}

namespace {
ExprPtr CloneOrNull(const ExprPtr& e) { return e ? Clone(*e) : nullptr; }
}  // namespace

ColumnDef Clone(const ColumnDef& c) {
  ColumnDef out;
  out.name = c.name;
  out.pos = c.pos;
  out.type = c.type;
  out.primary_key = c.primary_key;
  out.primary_key_desc = c.primary_key_desc;
  out.not_null = c.not_null;
  out.unique = c.unique;
  out.collation = c.collation;
  out.default_value = CloneOrNull(c.default_value);
  return out;
}

std::shared_ptr<Select> Clone(const Select& s) {
  auto out = std::make_shared<Select>();
  for (const CommonTable& c : s.with) {
    out->with.push_back({c.name, c.columns, Clone(*c.select), c.pos});
  }
  out->recursive = s.recursive;
  out->distinct = s.distinct;
  for (const SelectItem& item : s.items) {
    SelectItem copy;
    copy.expr = CloneOrNull(item.expr);
    copy.star_table = item.star_table;
    copy.alias = item.alias;
    copy.text = item.text;
    copy.pos = item.pos;
    out->items.push_back(std::move(copy));
  }
  out->table = s.table;
  if (s.from_subquery) out->from_subquery = Clone(*s.from_subquery);
  out->table_pos = s.table_pos;
  out->alias = s.alias;
  out->hint = s.hint;
  for (const parser::JoinTable& j : s.joins) {
    parser::JoinTable copy;
    copy.left = j.left;
    copy.right = j.right;
    copy.full = j.full;
    copy.table = j.table;
    if (j.subquery) copy.subquery = Clone(*j.subquery);
    copy.pos = j.pos;
    copy.alias = j.alias;
    copy.hint = j.hint;
    copy.on = CloneOrNull(j.on);
    out->joins.push_back(std::move(copy));
  }
  out->where = CloneOrNull(s.where);
  for (const ExprPtr& g : s.group_by) out->group_by.push_back(CloneOrNull(g));
  out->having = CloneOrNull(s.having);
  out->column_names = s.column_names;
  for (const parser::OrderItem& o : s.order_by) {
    parser::OrderItem copy;
    copy.expr = CloneOrNull(o.expr);
    copy.desc = o.desc;
    out->order_by.push_back(std::move(copy));
  }
  for (const CompoundTerm& t : s.compound) {
    out->compound.push_back({t.op, Clone(*t.select), t.pos});
  }
  out->limit = CloneOrNull(s.limit);
  out->offset = CloneOrNull(s.offset);
  for (const ExprPtr& n : s.names_to_check) {
    out->names_to_check.push_back(CloneOrNull(n));
  }
  return out;
}

const char* CompoundOpText(CompoundOp op) {
  switch (op) {
    case CompoundOp::kUnion:
      return "UNION";
    case CompoundOp::kUnionAll:
      return "UNION ALL";
    case CompoundOp::kIntersect:
      return "INTERSECT";
    case CompoundOp::kExcept:
      return "EXCEPT";
  }
  return "UNION";
}

}  // namespace levelql::parser
