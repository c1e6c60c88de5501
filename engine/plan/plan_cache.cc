#include "engine/plan/plan_cache.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <utility>
#include <vector>

#include "engine/exec/operators.h"
#include "engine/exec/value_ops.h"
#include "engine/plan/access_path.h"
#include "engine/plan/join_planner.h"
#include "engine/plan/normalize.h"
#include "indexes/key_codec.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

// Expressions paired with others: each node of the template's WHERE clause
// with its counterpart in the new one (Match), or a point term with the
// statement's value expression (PointScansOf). Filled, then sorted once for
// lookups: a handful of nodes, so a sorted vector beats a hash table's
// allocation per node.
class ExprMap {
 public:
  ExprMap() { pairs_.reserve(32); }
  void Add(const BoundExpr* then, const BoundExpr* now) {
    pairs_.emplace_back(then, now);
  }
  void Seal() {
    std::sort(pairs_.begin(), pairs_.end(), [](const auto& a, const auto& b) {
      return std::less<const BoundExpr*>()(a.first, b.first);
    });
  }
  // The counterpart of `then`, or null.
  const BoundExpr* Find(const BoundExpr* then) const {
    auto it =
        std::lower_bound(pairs_.begin(), pairs_.end(), then,
                         [](const auto& pair, const BoundExpr* e) {
                           return std::less<const BoundExpr*>()(pair.first, e);
                         });
    return it != pairs_.end() && it->first == then ? it->second : nullptr;
  }

 private:
  std::vector<std::pair<const BoundExpr*, const BoundExpr*>> pairs_;
};

std::atomic<uint64_t> reuses{0};
std::atomic<uint64_t> spares_taken{0};
std::atomic<uint64_t> point_reuses{0};

// Whether the constants `a` compares its first operand with (a comparison,
// BETWEEN, IN) become values of the same types in `b` once that operand's
// affinity applies, as the planner applies it: 'zz' and '1e1' are both
// TEXT, but against an INTEGER column only the second is a number an index
// can seek, so the plans made for them differ.
bool SameConversions(const BoundExpr& a, const BoundExpr& b) {
  using K = BoundExpr::Kind;
  const bool compares =
      (a.kind == K::kBinary && parser::IsComparison(a.binary_op)) ||
      a.kind == K::kBetween || a.kind == K::kIn;
  if (!compares || a.args.empty()) return true;
  const Affinity affinity = a.args[0]->affinity;
  if (affinity == Affinity::kNone) return true;
  for (size_t i = 1; i < a.args.size(); ++i) {
    const BoundExpr& x = *a.args[i];
    const BoundExpr& y = *b.args[i];
    if (x.kind != K::kConst || y.kind != K::kConst) continue;
    if (ApplyAffinity(x.value, affinity).type() !=
        ApplyAffinity(y.value, affinity).type()) {
      return false;
    }
  }
  return true;
}

// Whether `b` is `a` but for the values of its constants, each of the same
// type as in `a`; a constant that stands as a condition (the whole clause,
// an operand of AND, OR or NOT: `condition`) must also be as true, false or
// NULL as in `a`, since the planner drops, or answers without a scan, terms
// that are constant. Maps every node of `a` to its counterpart.
bool Match(const BoundExpr& a, const BoundExpr& b, ExprMap* map,
           bool condition = true) {
  if (a.kind != b.kind || a.index != b.index || a.unary_op != b.unary_op ||
      a.binary_op != b.binary_op || a.negated != b.negated ||
      a.function != b.function || a.cast_type != b.cast_type ||
      a.type != b.type || a.is_list != b.is_list || a.affinity != b.affinity ||
      a.collation != b.collation || a.case_operand != b.case_operand ||
      a.case_else != b.case_else || a.args.size() != b.args.size()) {
    return false;
  }
  if (a.kind == BoundExpr::Kind::kConst) {
    const Type type = a.value.type();
    if (type != b.value.type()) return false;
    if ((type == Type::kNull || type == Type::kBoolean) &&
        !(a.value == b.value)) {
      return false;
    }
    if (condition && Truth(a.value) != Truth(b.value)) return false;
  }
  if (!SameConversions(a, b)) return false;
  map->Add(&a, &b);
  using parser::BinaryOp;
  const bool logic =
      (a.kind == BoundExpr::Kind::kBinary &&
       (a.binary_op == BinaryOp::kAnd || a.binary_op == BinaryOp::kOr)) ||
      (a.kind == BoundExpr::Kind::kUnary &&
       a.unary_op == parser::UnaryOp::kNot);
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (!Match(*a.args[i], *b.args[i], map, logic)) return false;
  }
  return true;
}

// Whether `now` (derived for the new values) has the shape every choice
// about `then` rested on.
bool SameShape(const AccessPath& then, const AccessPath& now,
               const ExprMap& map) {
  if (now.empty || then.index != now.index ||
      then.spans.size() != now.spans.size() ||
      then.eq_columns != now.eq_columns ||
      then.used_columns != now.used_columns ||
      then.prefix_points != now.prefix_points ||
      then.pk_sorted != now.pk_sorted || then.exact != now.exact ||
      then.may_repeat_rows != now.may_repeat_rows ||
      then.consumed.size() != now.consumed.size()) {
    return false;
  }
  for (size_t i = 0; i < then.consumed.size(); ++i) {
    if (map.Find(then.consumed[i]) != now.consumed[i]) return false;
  }
  return true;
}

// Makes `node`, a copy of the template's `then` (reading `table`), the
// plan for the new WHERE clause: each scan's ranges derived again, each
// filter pointed at its counterpart, the counts of the last run cleared.
// Reads the template's expressions, never the copy's (a copy given back
// by a run still points into that run's). False when a range changed
// shape.
bool Rederive(const PlanNode& then, PlanNode* node, const TableSchema& table,
              const ExprMap& map) {
  node->stats = NodeStats();
  if (then.kind == PlanNode::Kind::kIndexScan && !then.path.inputs.empty()) {
    std::vector<const BoundExpr*> terms;
    terms.reserve(then.path.inputs.size());
    for (const BoundExpr* t : then.path.inputs) {
      const BoundExpr* now = map.Find(t);
      if (now == nullptr) return false;
      terms.push_back(now);
    }
    // No EXPLAIN text: a reused plan is run, never shown.
    AccessPath path = DeriveAccessPath(table, then.path.index, std::move(terms),
                                       /*labels=*/false);
    if (!SameShape(then.path, path, map)) return false;
    node->path = std::move(path);
  }
  if (then.predicate) {
    // A filter's WHERE clause (HAVING points into the statement: kept).
    const BoundExpr* now = map.Find(then.predicate);
    node->predicate = now ? now : then.predicate;
  }
  for (size_t i = 0; i < then.children.size(); ++i) {
    // A join's inputs read their own tables (null: a join below).
    const bool own = i < then.join_tables.size() && then.join_tables[i];
    if (!Rederive(*then.children[i], node->children[i].get(),
                  own ? *then.join_tables[i] : table, map)) {
      return false;
    }
  }
  return true;
}

void ForgetExplainText(PlanNode* node) {
  node->detail.clear();
  node->detail.shrink_to_fit();
  for (KeySpan& span : node->path.spans) {
    span.label.clear();
    span.label.shrink_to_fit();
  }
  for (auto& child : node->children) ForgetExplainText(child.get());
}

void NodesOf(const BoundExpr* e, std::vector<const BoundExpr*>* out) {
  out->push_back(e);
  for (const auto& a : e->args) NodesOf(a.get(), out);
}

// Finds the recipe (PointScan) of each scan of a template's plan that has
// terms; false when some part of the plan reads the WHERE clause otherwise.
class PointScanFinder {
 public:
  // `values`: each normalized `column = constant` term the plan's scans
  // may read (the WHERE clause's, a join's copies of them), with the
  // statement's expression its constant was computed from. `read`: every
  // node of the expressions the plan reads terms from.
  PointScanFinder(const ExprMap& values, std::vector<const BoundExpr*> read)
      : values_(values), read_(std::move(read)) {
    std::sort(read_.begin(), read_.end(), std::less<const BoundExpr*>());
  }

  bool Walk(const PlanNode& node, const TableSchema& table,
            std::vector<PointScan>* out) const {
    if (node.predicate &&
        std::binary_search(read_.begin(), read_.end(), node.predicate,
                           std::less<const BoundExpr*>())) {
      return false;  // a filter over WHERE terms: they change per run
    }
    if (node.kind == PlanNode::Kind::kIndexScan && !node.path.inputs.empty()) {
      PointScan scan;
      if (!Scan(table, node.path, &scan)) return false;
      out->push_back(std::move(scan));
    }
    for (size_t i = 0; i < node.children.size(); ++i) {
      // A join's inputs read their own tables (null: a join below).
      const bool own = i < node.join_tables.size() && node.join_tables[i];
      if (!Walk(*node.children[i], own ? *node.join_tables[i] : table, out)) {
        return false;
      }
    }
    return true;
  }

 private:
  // The recipe of `path`, proven by rebuilding the path's key from the
  // template's own values.
  bool Scan(const TableSchema& table, const AccessPath& path,
            PointScan* scan) const {
    if (path.empty || path.spans.size() != 1 || path.prefix_points != 1 ||
        path.eq_columns != path.used_columns || !path.exact ||
        path.may_repeat_rows ||
        path.consumed.size() != static_cast<size_t>(path.eq_columns)) {
      return false;
    }
    const std::vector<KeyColumn>& keys = KeyColumnsOf(table, path.index);
    scan->table = &table;
    scan->prefix = rows::IdPrefix(KeyspaceId(table, path.index));
    std::string key = scan->prefix;
    for (int k = 0; k < path.eq_columns; ++k) {
      const KeyColumn& column = keys[k];
      auto term = std::find_if(
          path.consumed.begin(), path.consumed.end(), [&](const BoundExpr* t) {
            return t->args[0]->kind == BoundExpr::Kind::kColumn &&
                   t->args[0]->index == column.column;
          });
      if (term == path.consumed.end()) return false;
      const BoundExpr* value = values_.Find(*term);
      if (value == nullptr) return false;
      const BoundExpr& folded = *(*term)->args[1];
      const Type type = folded.value.type();
      // NULL and booleans shape plans by their value (plan_cache.cc Match).
      if (type == Type::kNull || type == Type::kBoolean ||
          folded.affinity != value->affinity ||
          !AppendPointKey(table, column, folded.value, folded.affinity, &key)) {
        return false;
      }
      scan->columns.push_back({column, value, type});
    }
    const KeySpan& span = path.spans[0];
    return span.lo == key && span.hi == keys::PrefixSuccessor(key);
  }

  const ExprMap& values_;               // sealed
  std::vector<const BoundExpr*> read_;  // sorted
};

// The recipes of a plan whose WHERE clause (with a join's ON terms) is an
// AND of `column = value` terms on distinct columns, each value an
// expression of parameters and constants, and of `column = column` terms
// that join tables; nullopt for any other plan.
std::optional<std::vector<PointScan>> PointScansOf(
    const BoundSelect& select, const PlannedSelect& planned) {
  if (!select.where || !planned.where || !planned.plan ||
      planned.join_origins.size() != planned.join_terms) {
    return std::nullopt;
  }
  // Normalizing folds each value into a constant and puts the column on
  // the left, keeping the AND's shape: terms pair up by position.
  std::vector<const BoundExpr*> bound, terms;
  Conjuncts(select.where.get(), &bound);
  Conjuncts(planned.where.get(), &terms);
  if (bound.size() != terms.size()) return std::nullopt;
  ExprMap values;  // each value term (and a join's copies) -> its value
  std::vector<const BoundExpr*> value_of(terms.size(), nullptr);
  std::vector<int> columns;  // those set to values
  using BK = BoundExpr::Kind;
  for (size_t i = 0; i < bound.size(); ++i) {
    const BoundExpr& t = *terms[i];
    const BoundExpr& b = *bound[i];
    if (t.kind != BK::kBinary || t.binary_op != parser::BinaryOp::kEq ||
        t.args[0]->kind != BK::kColumn || b.kind != BK::kBinary ||
        b.binary_op != parser::BinaryOp::kEq) {
      return std::nullopt;
    }
    const BoundExpr* column = b.args[0].get();
    const BoundExpr* value = b.args[1].get();
    if (column->kind != BK::kColumn) std::swap(column, value);
    if (column->kind != BK::kColumn) return std::nullopt;
    if (t.args[1]->kind == BK::kColumn) {
      // Joins two columns: the plan reads it as a join key, or a filter.
      if (value->kind != BK::kColumn) return std::nullopt;
      continue;
    }
    if (t.args[1]->kind != BK::kConst || column->index != t.args[0]->index ||
        !IsKnownPerRun(*value) ||
        std::find(columns.begin(), columns.end(), column->index) !=
            columns.end()) {
      return std::nullopt;
    }
    columns.push_back(column->index);
    values.Add(terms[i], value);
    value_of[i] = value;
  }
  std::vector<const BoundExpr*> read;
  NodesOf(planned.where.get(), &read);
  // A join's tables' terms: copies of the WHERE clause's, their columns
  // counted in their own table's row.
  for (size_t k = 0; k < planned.join_terms; ++k) {
    const BoundExpr* side = planned.hidden[k].get();
    NodesOf(side, &read);
    const std::vector<int>& origins = planned.join_origins[k];
    if (origins.empty()) continue;  // the terms naming several tables
    std::vector<const BoundExpr*> copies;
    Conjuncts(side, &copies);
    if (copies.size() != origins.size()) return std::nullopt;
    for (size_t j = 0; j < copies.size(); ++j) {
      const BoundExpr* value = value_of[origins[j]];
      if (value == nullptr) continue;  // not a value term
      const BoundExpr& copy = *copies[j];
      const BoundExpr& from = *terms[origins[j]];
      if (copy.kind != BK::kBinary || copy.binary_op != parser::BinaryOp::kEq ||
          copy.args[0]->kind != BK::kColumn ||
          copy.args[1]->kind != BK::kConst ||
          copy.args[1]->value.type() != from.args[1]->value.type() ||
          !(copy.args[1]->value == from.args[1]->value)) {
        return std::nullopt;
      }
      values.Add(copies[j], value);
    }
  }
  values.Seal();
  std::vector<PointScan> scans;
  PointScanFinder finder(values, std::move(read));
  if (!finder.Walk(*planned.plan, *select.table, &scans)) return std::nullopt;
  return scans;
}

// Makes `node`, a copy of the template's `then`, the plan for `params`:
// each scan's key built from its recipe, the counts of the last run
// cleared. False when a value makes no point key of the template's kind.
bool SetPointKeys(const PlanNode& then, PlanNode* node,
                  const std::vector<PointScan>& scans, size_t* next,
                  const EvalContext& eval) {
  node->stats = NodeStats();
  if (then.kind == PlanNode::Kind::kIndexScan && !then.path.inputs.empty()) {
    const PointScan& scan = scans[(*next)++];
    KeySpan& span = node->path.spans[0];
    span.lo.assign(scan.prefix);
    for (const PointScan::Column& c : scan.columns) {
      Result<Value> v = Evaluate(*c.value, eval);
      if (!v.ok() || v->type() != c.type ||
          !AppendPointKey(*scan.table, c.key, std::move(v).value(),
                          c.value->affinity, &span.lo)) {
        return false;
      }
    }
    span.hi = keys::PrefixSuccessor(span.lo);
  }
  for (size_t i = 0; i < then.children.size(); ++i) {
    if (!SetPointKeys(*then.children[i], node->children[i].get(), scans, next,
                      eval)) {
      return false;
    }
  }
  return true;
}

// `out` made from `t`: what the template decided, and `t` kept alive.
PlannedSelect Reused(std::shared_ptr<const PlanTemplate> t, PlannedSelect out) {
  const PlannedSelect& then = t->planned;
  out.token_mode = then.token_mode;
  out.order_signature =
      then.order_signature;  // names no value (OrderSignature)
  out.join_terms = then.join_terms;
  out.spares = t.get();
  out.keep = std::move(t);  // the plan points into its other expressions
  reuses.fetch_add(1, std::memory_order_relaxed);
  return out;
}

// Sets the point keys of `plan`, a copy of t's plan, from its recipes for
// `params` (counted as a reuse by points); false when they do not take them.
bool SetPointsOf(const PlanTemplate& t, PlanNode* plan,
                 const std::vector<Value>& params, const ExecContext* run) {
  size_t next = 0;
  const EvalContext eval{nullptr, &params, nullptr, run};
  if (!SetPointKeys(*t.planned.plan, plan, *t.point_scans, &next, eval)) {
    return false;
  }
  point_reuses.fetch_add(1, std::memory_order_relaxed);
  return true;
}

// ReusePlan by the template's PointScan recipes.
std::optional<PlannedSelect> ReuseByPoints(
    std::shared_ptr<const PlanTemplate> t, const std::vector<Value>& params,
    const ExecContext* run) {
  PlannedSelect out;
  out.plan = t->TakeSpare();
  if (!out.plan) out.plan = ClonePlan(*t->planned.plan);
  if (!SetPointsOf(*t, out.plan.get(), params, run)) {
    t->GiveBack(std::move(out.plan));
    return std::nullopt;
  }
  out.point_keys = true;
  return Reused(std::move(t), std::move(out));
}

}  // namespace

std::shared_ptr<const PlanTemplate> MakePlanTemplate(const BoundSelect& select,
                                                     RuleSet rules,
                                                     int64_t limit,
                                                     int64_t offset,
                                                     PlannedSelect planned) {
  auto made = std::make_shared<PlanTemplate>();
  made->rules = std::move(rules);
  made->limit = limit;
  made->offset = offset;
  made->planned = std::move(planned);
  if (made->planned.plan) ForgetExplainText(made->planned.plan.get());
  if (made->planned.reusable) {
    made->point_scans = PointScansOf(select, made->planned);
  }
  return made;
}

void PlanTemplate::GiveBack(std::unique_ptr<PlanNode> plan) const noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  if (spares_.size() < kMaxSpares) spares_.push_back(std::move(plan));
}

std::unique_ptr<PlanNode> PlanTemplate::TakeSpare() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (spares_.empty()) return nullptr;
  std::unique_ptr<PlanNode> plan = std::move(spares_.back());
  spares_.pop_back();
  spares_taken.fetch_add(1, std::memory_order_relaxed);
  return plan;
}

std::optional<PlannedSelect> ReusePlan(std::shared_ptr<const PlanTemplate> t,
                                       const BoundSelect& select,
                                       const std::vector<Value>& params,
                                       const ExecContext* run) {
  const std::vector<Value>* outer = run ? run->outer : nullptr;
  const PlannedSelect& then = t->planned;
  if (!then.reusable) return std::nullopt;
  if (t->point_scans) {
    if (auto out = ReuseByPoints(t, params, run)) return out;
  }
  PlannedSelect out;
  out.where = PlannedWhere(select, t->rules, params, outer);
  ExprMap map;
  if ((then.where == nullptr) != (out.where == nullptr)) return std::nullopt;
  if (then.where && !Match(*then.where, *out.where, &map)) return std::nullopt;
  if (then.join_terms > 0) {
    // The tables' own terms, made again from the new WHERE clause.
    RuleSet rules = t->rules;
    PlannerInput input;
    input.rules = &rules;
    input.params = &params;
    input.outer = outer;
    out.hidden = JoinTerms(select, out.where.get(), input);
    if (out.hidden.size() != then.join_terms) return std::nullopt;
    for (size_t i = 0; i < then.join_terms; ++i) {
      if (!Match(*then.hidden[i], *out.hidden[i], &map)) return std::nullopt;
    }
  }
  map.Seal();
  out.plan = t->TakeSpare();
  if (!out.plan) out.plan = ClonePlan(*then.plan);
  if (!Rederive(*then.plan, out.plan.get(), *select.table, map)) {
    return std::nullopt;
  }
  return Reused(std::move(t), std::move(out));
}

bool SetKeptPointKeys(const PlanTemplate& t, PlanNode* plan,
                      const std::vector<Value>& params) {
  if (!t.planned.reusable || !t.point_scans ||
      !SetPointsOf(t, plan, params, nullptr)) {
    return false;
  }
  reuses.fetch_add(1, std::memory_order_relaxed);
  return true;
}

uint64_t PlanReuses() { return reuses.load(std::memory_order_relaxed); }

uint64_t PlanSparesTaken() {
  return spares_taken.load(std::memory_order_relaxed);
}

uint64_t PlanPointReuses() {
  return point_reuses.load(std::memory_order_relaxed);
}

}  // namespace levelql
