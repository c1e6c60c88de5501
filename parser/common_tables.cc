#include "parser/common_tables.h"

#include <string>
#include <vector>

#include "parser/parse_error.h"

namespace levelql::parser {
namespace {

std::string Where(const Position& pos) {
  return pos.line > 0 ? Place(pos) + ": " : "";
}

bool HasIn(const ExprPtr& e) {
  if (!e) return false;
  if (e->subquery && HasCommonTables(*e->subquery)) return true;
  for (const ExprPtr& a : e->args) {
    if (HasIn(a)) return true;
  }
  return false;
}

// The common tables of one WITH, and the scopes around it. Each one's
// SELECT is expanded once, when first read (it may read one written after
// it); reading one whose SELECT is being expanded is a circular reference.
struct Scope {
  std::vector<CommonTable>* list = nullptr;
  std::vector<int>* state = nullptr;  // per table: 0, 1 expanding, 2 done
  const Scope* outer = nullptr;
};

Status Expand(Select* s, const Scope* outer);

Status ExpandTable(const Scope* owner, size_t i) {
  int& state = (*owner->state)[i];
  if (state == 2) return Status::OK();
  const CommonTable& c = (*owner->list)[i];
  if (state == 1) {
    return Status::InvalidArgument(Where(c.pos) +
                                   "circular reference: " + c.name +
                                   " (WITH RECURSIVE is not supported)");
  }
  state = 1;
  LQ_RETURN_IF_ERROR(Expand(c.select.get(), owner));
  state = 2;
  return Status::OK();
}

Status ExpandExpr(const ExprPtr& e, const Scope* scope) {
  if (!e) return Status::OK();
  if (e->subquery) LQ_RETURN_IF_ERROR(Expand(e->subquery.get(), scope));
  for (const ExprPtr& a : e->args) LQ_RETURN_IF_ERROR(ExpandExpr(a, scope));
  return Status::OK();
}

// A FROM item: `table` naming a common table in scope becomes a copy of its
// SELECT, called by the item's alias or else by the table's name.
Status ExpandItem(std::string* table, std::shared_ptr<Select>* subquery,
                  std::string* alias, const Scope* scope) {
  if (*subquery) return Expand(subquery->get(), scope);
  for (const Scope* s = scope; s; s = s->outer) {
    for (size_t i = 0; i < s->list->size(); ++i) {
      const CommonTable& c = (*s->list)[i];
      if (c.name != *table) continue;
      LQ_RETURN_IF_ERROR(ExpandTable(s, i));
      *subquery = Clone(*c.select);
      (*subquery)->column_names = c.columns;
      if (alias->empty()) *alias = *table;
      table->clear();
      return Status::OK();
    }
  }
  return Status::OK();
}

// Checks a WITH and expands each of its tables' SELECTs (`scope` is its).
Status ExpandOwnTables(bool recursive, Scope* scope) {
  const std::vector<CommonTable>& with = *scope->list;
  if (with.empty()) return Status::OK();
  if (recursive) {
    return Status::NotSupported(Where(with[0].pos) + "WITH RECURSIVE");
  }
  for (size_t i = 0; i < with.size(); ++i) {
    for (size_t k = 0; k < i; ++k) {
      if (with[k].name == with[i].name) {
        return Status::InvalidArgument(Where(with[i].pos) + "WITH names " +
                                       with[i].name + " twice");
      }
    }
  }
  for (size_t i = 0; i < with.size(); ++i) {
    LQ_RETURN_IF_ERROR(ExpandTable(scope, i));
  }
  return Status::OK();
}

Status Expand(Select* s, const Scope* outer) {
  std::vector<int> state(s->with.size(), 0);
  Scope scope{&s->with, &state, outer};
  LQ_RETURN_IF_ERROR(ExpandOwnTables(s->recursive, &scope));
  const Scope* in = s->with.empty() ? outer : &scope;
  for (SelectItem& item : s->items)
    LQ_RETURN_IF_ERROR(ExpandExpr(item.expr, in));
  if (!s->table.empty() || s->from_subquery) {
    LQ_RETURN_IF_ERROR(ExpandItem(&s->table, &s->from_subquery, &s->alias, in));
  }
  for (JoinTable& j : s->joins) {
    LQ_RETURN_IF_ERROR(ExpandItem(&j.table, &j.subquery, &j.alias, in));
    LQ_RETURN_IF_ERROR(ExpandExpr(j.on, in));
  }
  LQ_RETURN_IF_ERROR(ExpandExpr(s->where, in));
  for (const ExprPtr& g : s->group_by) LQ_RETURN_IF_ERROR(ExpandExpr(g, in));
  LQ_RETURN_IF_ERROR(ExpandExpr(s->having, in));
  for (CompoundTerm& t : s->compound) {
    LQ_RETURN_IF_ERROR(Expand(t.select.get(), in));
  }
  for (OrderItem& o : s->order_by) LQ_RETURN_IF_ERROR(ExpandExpr(o.expr, in));
  LQ_RETURN_IF_ERROR(ExpandExpr(s->limit, in));
  LQ_RETURN_IF_ERROR(ExpandExpr(s->offset, in));
  s->with.clear();
  s->recursive = false;
  return Status::OK();
}

}  // namespace

bool HasCommonTables(const Select& s) {
  if (!s.with.empty()) return true;
  for (const SelectItem& item : s.items) {
    if (HasIn(item.expr)) return true;
  }
  if (s.from_subquery && HasCommonTables(*s.from_subquery)) return true;
  for (const JoinTable& j : s.joins) {
    if ((j.subquery && HasCommonTables(*j.subquery)) || HasIn(j.on)) {
      return true;
    }
  }
  if (HasIn(s.where) || HasIn(s.having) || HasIn(s.limit) || HasIn(s.offset)) {
    return true;
  }
  for (const ExprPtr& g : s.group_by) {
    if (HasIn(g)) return true;
  }
  for (const CompoundTerm& t : s.compound) {
    if (HasCommonTables(*t.select)) return true;
  }
  for (const OrderItem& o : s.order_by) {
    if (HasIn(o.expr)) return true;
  }
  return false;
}

Status ExpandCommonTablesIn(std::vector<CommonTable>* with, bool recursive,
                            const std::vector<Select*>& selects,
                            const std::vector<ExprPtr*>& exprs) {
  std::vector<int> state(with->size(), 0);
  Scope scope{with, &state, nullptr};
  LQ_RETURN_IF_ERROR(ExpandOwnTables(recursive, &scope));
  const Scope* in = with->empty() ? nullptr : &scope;
  for (Select* s : selects) LQ_RETURN_IF_ERROR(Expand(s, in));
  for (ExprPtr* e : exprs) LQ_RETURN_IF_ERROR(ExpandExpr(*e, in));
  return Status::OK();
}

Result<std::shared_ptr<Select>> ExpandCommonTables(const Select& select) {
  std::shared_ptr<Select> out = Clone(select);
  LQ_RETURN_IF_ERROR(Expand(out.get(), nullptr));
  return out;
}

}  // namespace levelql::parser
