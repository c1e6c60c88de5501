#include "parser/rename_table.h"

#include <algorithm>
#include <vector>

namespace levelql::parser {
namespace {

class Renamer {
 public:
  Renamer(const std::string& from, const std::string& to)
      : from_(from), to_(to) {}

  bool changed() const { return changed_; }
  bool to_taken() const { return to_taken_; }

  void Walk(Select* s) {
    for (const CommonTable& t : s->with) {
      ctes_.push_back(t.name);
      to_taken_ |= t.name == to_;
    }
    for (CommonTable& t : s->with) {
      if (t.select) Walk(t.select.get());
    }
    // The FROM items this SELECT makes visible: (name, names the table).
    Scope scope;
    AddItem(&s->table, s->from_subquery.get(), s->alias, &scope);
    for (JoinTable& j : s->joins) {
      AddItem(&j.table, j.subquery.get(), j.alias, &scope);
    }
    scopes_.push_back(std::move(scope));
    for (SelectItem& item : s->items) {
      if (item.expr) WalkExpr(item.expr.get());
      if (!item.star_table.empty()) Qualifier(&item.star_table);
    }
    for (JoinTable& j : s->joins) {
      if (j.on) WalkExpr(j.on.get());
    }
    for (ExprPtr* e : {&s->where, &s->having, &s->limit, &s->offset}) {
      if (*e) WalkExpr(e->get());
    }
    for (ExprPtr& e : s->group_by) WalkExpr(e.get());
    for (OrderItem& o : s->order_by) WalkExpr(o.expr.get());
    scopes_.pop_back();
    // A compound's other SELECTs see the same WITH, not this one's FROM.
    for (CompoundTerm& term : s->compound) {
      if (term.select) Walk(term.select.get());
    }
    ctes_.resize(ctes_.size() - s->with.size());
  }

 private:
  struct Item {
    std::string name;  // the alias, else the table's name
    bool renamed;      // it is the table renamed, under its own name
  };
  using Scope = std::vector<Item>;

  // A FROM item: `*table` (renamed when it names the table) or `subquery`,
  // with `alias`. A subquery in FROM sees the SELECTs around this one, not
  // its siblings, so it is walked before this SELECT's scope is pushed.
  void AddItem(std::string* table, Select* subquery, const std::string& alias,
               Scope* scope) {
    if (subquery) Walk(subquery);
    to_taken_ |= alias == to_;
    if (table->empty()) {
      if (!alias.empty()) scope->push_back({alias, false});
      return;
    }
    const bool is_it = *table == from_ && !HiddenByCte();
    if (is_it) {
      *table = to_;
      changed_ = true;
    }
    scope->push_back({alias.empty() ? *table : alias, is_it && alias.empty()});
  }

  bool HiddenByCte() const {
    return std::find(ctes_.begin(), ctes_.end(), from_) != ctes_.end();
  }

  // `*q` names the innermost visible item of that name (a renamed one is
  // already under its new name in the scopes).
  void Qualifier(std::string* q) {
    if (*q != from_) return;
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      for (const Item& item : *scope) {
        if (item.renamed && item.name == to_) {
          *q = to_;
          changed_ = true;
          return;
        }
        if (item.name == from_) return;  // another item of that name
      }
    }
  }

  void WalkExpr(Expr* e) {
    if (e->kind == ExprKind::kColumn && !e->qualifier.empty()) {
      Qualifier(&e->qualifier);
    }
    for (ExprPtr& a : e->args) {
      if (a) WalkExpr(a.get());
    }
    if (e->subquery) Walk(e->subquery.get());
  }

  const std::string& from_;
  const std::string& to_;
  std::vector<std::string> ctes_;  // common tables in scope, innermost last
  std::vector<Scope> scopes_;      // FROM items of the SELECTs around
  bool changed_ = false;
  bool to_taken_ = false;
};

}  // namespace

TableRename RenameTableIn(Select* select, const std::string& from,
                          const std::string& to) {
  Renamer renamer(from, to);
  renamer.Walk(select);
  return {renamer.changed(), renamer.to_taken()};
}

}  // namespace levelql::parser
