#include "engine/planner.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "engine/normalize.h"

namespace levelql {
namespace {

using Kind = PlanNode::Kind;

// Relative cost of reading one row through an index (entry + fetch) versus
// one row of a table scan.
constexpr double kFetchCost = 2.0;
constexpr size_t kMaxIntersected = 3;
constexpr size_t kMaxSpanLabels = 6;

std::unique_ptr<PlanNode> Node(Kind kind, std::string detail, double rows) {
  auto n = std::make_unique<PlanNode>();
  n->kind = kind;
  n->detail = std::move(detail);
  n->estimated_rows = rows;
  return n;
}

std::unique_ptr<PlanNode> Wrap(Kind kind, std::string detail,
                               std::unique_ptr<PlanNode> child) {
  auto n = Node(kind, std::move(detail), child->estimated_rows);
  n->children.push_back(std::move(child));
  return n;
}

struct OrderColumn {
  int column;
  bool desc;
  const Collation* collation;
};

std::optional<std::vector<OrderColumn>> OrderColumns(const BoundSelect& s) {
  std::vector<OrderColumn> out;
  for (const BoundOrder& o : s.order_by) {
    const BoundExpr* e =
        o.output >= 0 ? s.outputs[o.output].get() : o.expr.get();
    if (!e || e->kind != BoundExpr::Kind::kColumn || e->is_list) {
      return std::nullopt;
    }
    out.push_back({e->index, o.desc, o.collation});
  }
  return out;
}

// Whether reading `path` forward (false) or backward (true) yields rows in
// `order`; nullopt when neither does.
std::optional<bool> ProvidesOrder(const TableSchema& table,
                                  const AccessPath& path,
                                  const std::vector<OrderColumn>& order) {
  if (path.spans.size() > 1 && path.eq_columns > 0) return std::nullopt;
  const std::vector<KeyColumn>& keys = KeyColumnsOf(table, path.index);
  size_t k = path.eq_columns;
  std::optional<bool> reverse;
  for (const OrderColumn& o : order) {
    bool fixed = false;
    for (int e = 0; e < path.eq_columns; ++e) {
      fixed = fixed || keys[e].column == o.column;
    }
    if (fixed) continue;
    if (k >= keys.size() || keys[k].column != o.column) return std::nullopt;
    const ColumnSchema& c = table.columns[o.column];
    if (c.is_list) return std::nullopt;
    if (c.type == Type::kText && o.collation != keys[k].collation) {
      return std::nullopt;
    }
    bool r = (keys[k].direction == keys::Direction::kDesc) != o.desc;
    if (reverse && *reverse != r) return std::nullopt;
    reverse = r;
    ++k;
  }
  return reverse.value_or(false);
}

std::string ScanDetail(const TableSchema& table, const AccessPath& path,
                       bool reverse) {
  std::string s = path.index ? table.name + "." + path.index->name
                             : table.name + " (primary key)";
  for (size_t i = 0; i < path.spans.size() && i < kMaxSpanLabels; ++i) {
    s += " " + path.spans[i].label;
  }
  if (path.spans.size() > kMaxSpanLabels) {
    s += " ... " + std::to_string(path.spans.size()) + " spans";
  }
  if (reverse) s += " reverse";
  if (path.pk_sorted && path.index) s += " pk-sorted";
  return s;
}

// One way to produce the keys (or rows) that may match.
struct Choice {
  std::unique_ptr<PlanNode> keys;  // null: full table scan
  bool empty = false;
  bool exact = false;    // the WHERE clause needs no re-check
  bool ordered = false;  // rows come in ORDER BY order
  bool pk_sorted = false;
  const IndexSchema* single_index = nullptr;  // one secondary index scan
  bool single_scan = false;                   // one span scan (no merge)
  bool repeats = false;  // the scan can meet a row more than once
  double rows = 0;
  double cost = 0;
};

class Planner {
 public:
  // Without statistics a table is assumed to hold this many rows.
  static constexpr double kDefaultRows = 1000;

  Planner(std::shared_ptr<const TableSchema> table, const PlannerInput& input)
      : table_(std::move(table)),
        rules_(*input.rules),
        stats_(input.stats),
        n_(input.stats ? std::max<double>(1, input.stats->rows)
                       : kDefaultRows) {}

  // Estimated rows a path reads: exact for unique points, from distinct
  // counts of the equality prefix when ANALYZE ran, else default
  // selectivities.
  double Rows(const AccessPath& p) const {
    if (p.empty) return 0;
    const auto& keys = KeyColumnsOf(*table_, p.index);
    const bool unique = p.index == nullptr || p.index->unique;
    if (unique && p.eq_columns == static_cast<int>(keys.size())) {
      return static_cast<double>(p.prefix_points);
    }
    if (stats_ && p.eq_columns > 0) {
      auto it = stats_->indexes.find(p.index ? p.index->name : "");
      if (it != stats_->indexes.end() &&
          it->second.distinct.size() >= static_cast<size_t>(p.eq_columns) &&
          it->second.distinct[p.eq_columns - 1] > 0) {
        const IndexStats& s = it->second;
        double per_prefix = static_cast<double>(s.entries) /
                            static_cast<double>(s.distinct[p.eq_columns - 1]);
        return std::min(n_, per_prefix * static_cast<double>(p.prefix_points) *
                                p.range_selectivity);
      }
    }
    return n_ * p.selectivity;
  }

  double PathCost(const AccessPath& p) const {
    double rows = Rows(p);
    return p.index ? rows * kFetchCost + 1 : rows + 1;
  }

  std::unique_ptr<PlanNode> ScanNode(AccessPath path, bool reverse) const {
    auto n =
        Node(Kind::kIndexScan, ScanDetail(*table_, path, reverse), Rows(path));
    n->path = std::move(path);
    n->reverse = reverse;
    return n;
  }

  Choice FromPath(AccessPath path, size_t term_count, bool reverse,
                  bool ordered) const {
    Choice c;
    c.rows = Rows(path);
    c.cost = PathCost(path);
    c.exact = path.exact && path.consumed.size() == term_count;
    c.ordered = ordered;
    c.pk_sorted = path.pk_sorted && !reverse;
    c.single_index = path.index;
    c.single_scan = true;
    // A merge of pk-sorted spans already drops repeats; other scans of a
    // multi-valued index may meet a row once per element.
    c.repeats = path.may_repeat_rows && (reverse || !path.pk_sorted);
    c.keys = ScanNode(std::move(path), reverse);
    return c;
  }

  // Candidate single-index paths for the AND of `terms`.
  std::vector<AccessPath> Paths(const std::vector<const BoundExpr*>& terms) {
    std::vector<AccessPath> paths;
    if (rules_.on(Rule::kPrimaryKeyRange)) {
      paths.push_back(DeriveAccessPath(*table_, nullptr, terms));
    }
    if (rules_.on(Rule::kIndexScan)) {
      for (const auto& index : table_->indexes) {
        if (!index->needs_reindex.empty()) continue;  // quarantined
        paths.push_back(DeriveAccessPath(*table_, index.get(), terms));
      }
    }
    return paths;
  }

  // The best plan for the AND of `terms` (order: what ORDER BY needs, if
  // anything; limit_hint: rows the query will read at most, or -1).
  Choice PlanAnd(const std::vector<const BoundExpr*>& terms,
                 const std::vector<OrderColumn>* order, int64_t limit_hint,
                 bool allow_union) {
    std::vector<AccessPath> paths = Paths(terms);
    for (AccessPath& p : paths) {
      if (p.empty && rules_.on(Rule::kContradiction)) {
        Choice c;
        c.empty = true;
        c.exact = true;
        c.ordered = true;
        return c;
      }
    }
    Choice best;  // the full scan
    best.cost = n_;
    best.rows = n_;
    best.pk_sorted = true;
    best.ordered = order == nullptr || order->empty();
    if (order && !order->empty()) {
      // A table scan is in primary-key order.
      AccessPath full = FullIndexPath(*table_, nullptr);
      if (rules_.on(Rule::kOrderedScan) && rules_.on(Rule::kPrimaryKeyRange) &&
          ProvidesOrder(*table_, full, *order) == false) {
        best.ordered = true;
      }
    }
    for (AccessPath& p : paths) {
      if (p.spans.empty()) continue;
      double cost = PathCost(p);
      if (cost < best.cost) best = FromPath(p, terms.size(), false, false);
    }
    // AND of pk-sorted streams: leapfrog intersection.
    if (rules_.on(Rule::kIntersect)) {
      std::vector<const AccessPath*> sorted;
      for (const AccessPath& p : paths) {
        if (p.index && p.pk_sorted && !p.spans.empty() && p.eq_columns > 0) {
          sorted.push_back(&p);
        }
      }
      std::sort(sorted.begin(), sorted.end(),
                [&](const AccessPath* a, const AccessPath* b) {
                  return Rows(*a) < Rows(*b);
                });
      // Greedy: most selective first; a further stream joins only if it
      // answers a term the chosen ones do not.
      std::vector<const AccessPath*> chosen;
      std::set<const BoundExpr*> covered;
      for (const AccessPath* p : sorted) {
        bool adds = false;
        for (const BoundExpr* t : p->consumed) adds = adds || !covered.count(t);
        if (!adds || chosen.size() == kMaxIntersected) continue;
        chosen.push_back(p);
        covered.insert(p->consumed.begin(), p->consumed.end());
      }
      sorted = std::move(chosen);
      if (sorted.size() >= 2) {
        double sel = 1, driver = Rows(*sorted[0]);
        for (const AccessPath* p : sorted) sel *= Rows(*p) / n_;
        double cost = driver + n_ * sel * kFetchCost + 1;
        if (cost < best.cost && driver > 1) {
          Choice c;
          c.rows = n_ * sel;
          c.cost = cost;
          c.pk_sorted = true;
          auto node = Node(Kind::kIntersect, "", c.rows);
          for (const AccessPath* p : sorted) {
            node->children.push_back(ScanNode(*p, false));
          }
          c.keys = std::move(node);
          best = std::move(c);
        }
      }
    }
    // OR terms: a merge union of one plan per disjunct.
    if (allow_union && rules_.on(Rule::kUnion)) {
      for (const BoundExpr* t : terms) {
        std::vector<const BoundExpr*> ors;
        Disjuncts(t, &ors);
        if (ors.size() < 2) continue;
        Choice u = PlanUnion(ors);
        if (!u.keys && !u.empty) continue;
        if (u.cost < best.cost) best = std::move(u);
      }
    }
    // ORDER BY answered by index order, so LIMIT can stop the scan.
    if (order && !order->empty() && !best.ordered &&
        rules_.on(Rule::kOrderedScan)) {
      std::optional<Choice> ordered;
      auto consider = [&](AccessPath p) {
        std::optional<bool> reverse = ProvidesOrder(*table_, p, *order);
        if (!reverse) return;
        double cost = PathCost(p);
        if (limit_hint >= 0 && Rows(p) > 0) {
          // The scan stops after about limit_hint matches.
          cost =
              std::min(cost, static_cast<double>(limit_hint) * kFetchCost + 1);
        }
        if (!ordered || cost < ordered->cost) {
          Choice c = FromPath(std::move(p), terms.size(), *reverse, true);
          c.cost = cost;
          ordered = std::move(c);
        }
      };
      for (const AccessPath& p : paths) {
        if (!p.spans.empty()) consider(p);
      }
      if (rules_.on(Rule::kPrimaryKeyRange)) {
        consider(FullIndexPath(*table_, nullptr));
      }
      if (rules_.on(Rule::kIndexScan)) {
        for (const auto& index : table_->indexes) {
          if (!index->needs_reindex.empty()) continue;  // quarantined
          AccessPath full = FullIndexPath(*table_, index.get());
          full.selectivity = 1.0;
          consider(std::move(full));
        }
      }
      double sort_cost = best.rows * std::log2(best.rows + 2) * 0.1;
      if (ordered &&
          (limit_hint >= 0 ? ordered->cost <= 10 * best.cost + sort_cost
                           : ordered->cost <= best.cost + sort_cost)) {
        best = std::move(*ordered);
      }
    }
    return best;
  }

  Choice PlanUnion(const std::vector<const BoundExpr*>& disjuncts) {
    Choice u;
    u.pk_sorted = true;
    auto node = Node(Kind::kUnion, "", 0);
    for (const BoundExpr* d : disjuncts) {
      std::vector<const BoundExpr*> terms;
      Conjuncts(d, &terms);
      Choice c = PlanAnd(terms, nullptr, -1, false);
      if (c.empty) continue;
      if (!c.keys) return Choice();  // a disjunct needs a full scan
      std::unique_ptr<PlanNode> keys = std::move(c.keys);
      if (!c.pk_sorted) {
        keys = Wrap(Kind::kSortKeys, "", std::move(keys));
      }
      u.rows += c.rows;
      u.cost += c.cost;
      node->children.push_back(std::move(keys));
    }
    if (node->children.empty()) {
      u.empty = true;
      return u;
    }
    node->estimated_rows = std::min(u.rows, n_);
    u.rows = node->estimated_rows;
    if (node->children.size() == 1) {
      u.keys = std::move(node->children[0]);
    } else {
      u.keys = std::move(node);
    }
    return u;
  }

  const TableSchema& table() const { return *table_; }
  const RuleSet& rules() const { return rules_; }
  double n() const { return n_; }

 private:
  std::shared_ptr<const TableSchema> table_;
  const RuleSet& rules_;
  const TableStats* stats_;
  double n_;
};

void ColumnsUsed(const BoundExpr* e, std::set<int>* out) {
  if (!e) return;
  if (e->kind == BoundExpr::Kind::kColumn) out->insert(e->index);
  for (const auto& a : e->args) ColumnsUsed(a.get(), out);
}

// Splits WHERE into terms and drops constant TRUE ones; nullopt when a
// constant term is FALSE or NULL (the query matches nothing).
std::optional<std::vector<const BoundExpr*>> Terms(const BoundExpr* where,
                                                   const RuleSet& rules) {
  std::vector<const BoundExpr*> terms, kept;
  if (!where) return kept;
  Conjuncts(where, &terms);
  for (const BoundExpr* t : terms) {
    if (t->kind == BoundExpr::Kind::kConst) {
      std::optional<bool> truth = Truth(t->value);
      if (truth.value_or(false)) continue;
      if (rules.on(Rule::kContradiction)) return std::nullopt;
    }
    kept.push_back(t);
  }
  return kept;
}

// Rows of the table that may match, with a Filter when the scan does not
// prove the WHERE clause. Sets *ordered and *exact.
std::unique_ptr<PlanNode> AccessRows(Planner& planner, const BoundExpr* where,
                                     const std::vector<std::string>& columns,
                                     const std::vector<OrderColumn>* order,
                                     int64_t limit_hint,
                                     const std::set<int>* needed, int64_t skip,
                                     bool* ordered, bool* filtered) {
  const TableSchema& table = planner.table();
  std::optional<std::vector<const BoundExpr*>> terms =
      Terms(where, planner.rules());
  Choice c;
  if (!terms) {
    c.empty = true;
  } else {
    c = planner.PlanAnd(*terms, order, limit_hint, true);
  }
  *ordered = c.ordered || order == nullptr || order->empty();
  *filtered = false;
  if (c.empty) return Node(Kind::kEmpty, "", 0);
  std::unique_ptr<PlanNode> rows;
  const bool need_filter = where && !c.exact;
  if (!c.keys) {
    rows = Node(Kind::kTableScan, table.name, planner.n());
  } else {
    std::unique_ptr<PlanNode> keys = std::move(c.keys);
    // Entries of a scan that repeats rows are not rows: they can be neither
    // skipped as rows nor read without the row that says which is first.
    if (skip > 0 && !need_filter && !c.repeats &&
        planner.rules().on(Rule::kOffsetSkip)) {
      keys = Wrap(Kind::kSkip, std::to_string(skip), std::move(keys));
      keys->count = skip;
      keys->estimated_rows =
          std::max(0.0, keys->estimated_rows - static_cast<double>(skip));
    }
    bool index_only = false;
    std::set<int> all;  // columns the query reads
    if (c.single_index && needed && !c.repeats &&
        planner.rules().on(Rule::kIndexOnly)) {
      index_only = true;
      all = *needed;
      if (need_filter) ColumnsUsed(where, &all);
      for (int col : all) {
        if (!IndexProvidesColumn(table, c.single_index, col)) {
          index_only = false;
        }
      }
    }
    if (index_only) {
      auto n = Wrap(Kind::kIndexOnly, table.name + "." + c.single_index->name,
                    std::move(keys));
      n->path.index = c.single_index;
      n->count = all.empty() ? 0 : 1;  // 0: no column is read
      rows = std::move(n);
    } else {
      rows = Wrap(Kind::kFetch,
                  table.name + (c.repeats ? " (first entry per row)" : ""),
                  std::move(keys));
      rows->first_entry_only = c.repeats;
    }
  }
  if (need_filter) {
    auto f =
        Wrap(Kind::kFilter, ExprToString(*where, columns), std::move(rows));
    f->predicate = where;
    f->estimated_rows = f->children[0]->estimated_rows * 0.5;
    rows = std::move(f);
    *filtered = true;
  }
  return rows;
}

// Index-only nodes need the index pointer; find it in the subtree.
const IndexSchema* IndexOf(const PlanNode& n) { return n.path.index; }

std::unique_ptr<RowIdStream> BuildKeys(PlanNode* node, ExecContext* ctx,
                                       std::shared_ptr<const TableSchema> t) {
  switch (node->kind) {
    case Kind::kIndexScan:
      return NewSpanStream(ctx, t, node->path, node->reverse, &node->stats);
    case Kind::kIntersect:
    case Kind::kUnion: {
      std::vector<std::unique_ptr<RowIdStream>> children;
      for (auto& c : node->children)
        children.push_back(BuildKeys(c.get(), ctx, t));
      return node->kind == Kind::kIntersect
                 ? NewIntersectStream(std::move(children), &node->stats)
                 : NewUnionStream(std::move(children), &node->stats);
    }
    case Kind::kSortKeys:
      return NewSortedStream(BuildKeys(node->children[0].get(), ctx, t),
                             node->reverse, &node->stats);
    case Kind::kSkip:
      return NewSkipStream(BuildKeys(node->children[0].get(), ctx, t),
                           node->count);
    default:
      return nullptr;
  }
}

// Counts the rows an operator hands out, for EXPLAIN ANALYZE.
class Counted : public RowSource {
 public:
  Counted(std::unique_ptr<RowSource> input, NodeStats* stats)
      : input_(std::move(input)), stats_(stats) {}
  bool Next(Row* row) override {
    if (!input_->Next(row)) return false;
    ++stats_->rows;
    return true;
  }
  Status status() const override { return input_->status(); }
  bool Position(ResumePoint::Kind* kind, std::string* key) const override {
    return input_->Position(kind, key);
  }

 private:
  std::unique_ptr<RowSource> input_;
  NodeStats* stats_;
};

// Moves the root key stream of a resumed query past the token's position.
std::unique_ptr<RowIdStream> Resumed(std::unique_ptr<RowIdStream> ids,
                                     const ResumePoint* r) {
  if (!r) return ids;
  if (r->kind == ResumePoint::Kind::kEntry && ids->position_is_entry()) {
    ids->SeekAfterEntry(r->key);
  } else if (r->kind == ResumePoint::Kind::kPk) {
    SeekAfterPk(ids.get(), r->key);
  }
  return ids;
}

}  // namespace

std::unique_ptr<RowSource> BuildOperators(
    PlanNode* node, ExecContext* ctx, std::shared_ptr<const TableSchema> t) {
  auto child = [&](size_t i) {
    return BuildOperators(node->children[i].get(), ctx, t);
  };
  std::unique_ptr<RowSource> out;
  switch (node->kind) {
    case Kind::kEmpty:
      out = NewValues({});
      break;
    case Kind::kTableScan:
      out = NewTableScan(ctx, t, node->reverse);
      break;
    case Kind::kFetch:
      return NewFetch(
          ctx, t,
          Resumed(BuildKeys(node->children[0].get(), ctx, t), ctx->resume),
          &node->stats,
          node->first_entry_only ? &node->children[0]->path : nullptr);
    case Kind::kIndexOnly:
      return NewIndexOnly(
          ctx, t, IndexOf(*node),
          Resumed(BuildKeys(node->children[0].get(), ctx, t), ctx->resume),
          &node->stats, node->count != 0);
    case Kind::kResumeAfter:
      out = NewResumeFilter(child(0), node->sort_keys, node->resume_row);
      break;
    case Kind::kFilter:
      out = NewFilter(ctx, child(0), node->predicate);
      break;
    case Kind::kProject:
      out = NewProject(ctx, child(0), node->exprs);
      break;
    case Kind::kAggregate:
      out = NewAggregate(ctx, child(0), node->aggregates, node->exprs,
                         t->columns.size());
      break;
    case Kind::kDistinct:
      out = NewDistinct(child(0), node->width, node->collations);
      break;
    case Kind::kSort:
      out = NewSort(ctx, child(0), node->sort_keys, -1);
      break;
    case Kind::kTopK:
      out = NewSort(ctx, child(0), node->sort_keys, node->count);
      break;
    case Kind::kLimit:
      out = NewLimit(child(0), node->offset, node->count);
      break;
    default:
      return NewValues({});
  }
  return std::make_unique<Counted>(std::move(out), &node->stats);
}

namespace {

// Reverses every scan and sort of a plan, for a backward read: the rows
// come in exactly the opposite order.
void ReversePlan(PlanNode* node, const TableSchema& table) {
  switch (node->kind) {
    case Kind::kIndexScan:
    case Kind::kTableScan:
    case Kind::kSortKeys:
      node->reverse = !node->reverse;
      break;
    case Kind::kSort:
    case Kind::kTopK:
    case Kind::kResumeAfter:
      for (SortKey& k : node->sort_keys) k.desc = !k.desc;
      break;
    default:
      break;
  }
  if (node->kind == Kind::kIndexScan) {
    node->detail = ScanDetail(table, node->path, node->reverse);
  }
  for (auto& c : node->children) ReversePlan(c.get(), table);
}

}  // namespace

Result<PlannedSelect> PlanSelect(BoundSelect* select, int64_t limit,
                                 int64_t offset, const PlannerInput& input) {
  const ResumePoint* resume = input.resume;
  const RuleSet& rules = *input.rules;
  select->where =
      NormalizePredicate(std::move(select->where), rules, *input.params);
  Planner planner(select->table, input);

  std::optional<std::vector<OrderColumn>> order = OrderColumns(*select);
  const bool has_order = !select->order_by.empty() && !select->aggregate;
  std::vector<OrderColumn> no_order;
  const std::vector<OrderColumn>* wanted = nullptr;
  if (has_order && order) wanted = &*order;
  if (!has_order) wanted = &no_order;

  std::set<int> needed;
  for (const auto& e : select->outputs) ColumnsUsed(e.get(), &needed);
  for (const auto& o : select->order_by) ColumnsUsed(o.expr.get(), &needed);
  for (const auto& a : select->aggregates) ColumnsUsed(a.arg.get(), &needed);
  // A sort breaks ties by primary key (a total order for tokens).
  if (has_order) {
    for (const KeyColumn& k : select->table->primary_key) {
      needed.insert(k.column);
    }
  }

  const bool streams = !select->aggregate && !select->distinct;
  int64_t limit_hint = -1;
  if (limit >= 0 && streams && offset <= INT64_MAX - limit) {
    limit_hint = limit + offset;
  }
  bool ordered = false, filtered = false;
  // OFFSET counted on keys needs rows that arrive in their final order and
  // are all kept (no filter, no sort, no distinct).
  // (An ORDER BY over expressions always sorts, so it cannot skip.)
  const bool sortable_by_index = !has_order || order.has_value();
  int64_t skip =
      (streams && resume == nullptr && sortable_by_index) ? offset : 0;
  std::unique_ptr<PlanNode> root =
      AccessRows(planner, select->where.get(), select->column_names,
                 has_order ? wanted : &no_order, limit_hint, &needed, skip,
                 &ordered, &filtered);
  bool skipped = false;
  for (const PlanNode* n = root.get(); n;
       n = n->children.empty() ? nullptr : n->children[0].get()) {
    if (n->kind == Kind::kSkip) skipped = true;
  }
  if (skipped && (!ordered || filtered)) {
    // Not usable after all: plan again without the skip.
    root = AccessRows(planner, select->where.get(), select->column_names,
                      has_order ? wanted : &no_order, limit_hint, &needed, 0,
                      &ordered, &filtered);
    skipped = false;
  }
  if (has_order && !order) ordered = false;

  // DISTINCT rows are identified by their values, not by a scan position:
  // they are put in a total order (ORDER BY, then every output column), so a
  // token can name the last one.
  const bool distinct = select->distinct && !select->aggregate;
  const bool sorting = (has_order && !ordered) || distinct;
  PlannedSelect out;
  if (select->aggregate) {
    out.token_mode = TokenMode::kDone;
  } else if (sorting) {
    out.token_mode = TokenMode::kSortKey;
  } else {
    out.token_mode = TokenMode::kStream;
  }

  std::vector<const BoundExpr*> exprs;
  for (const auto& e : select->outputs) exprs.push_back(e.get());
  std::vector<SortKey> sort_keys;
  for (const BoundOrder& o : select->order_by) {
    SortKey k;
    k.desc = o.desc;
    k.collation = o.collation;
    if (o.output >= 0) {
      k.column = o.output;
    } else {
      k.column = static_cast<int>(exprs.size());
      exprs.push_back(o.expr.get());
    }
    sort_keys.push_back(k);
  }
  if (distinct) {
    for (size_t i = 0; i < select->outputs.size(); ++i) {
      sort_keys.push_back(
          {static_cast<int>(i), false, CarriedCollation(*select->outputs[i])});
    }
  } else if (sorting) {
    // Ties are broken by primary key, so the order is total and a token
    // can name a position in it.
    select->hidden.clear();
    for (const KeyColumn& pk : select->table->primary_key) {
      auto e = std::make_unique<BoundExpr>();
      e->kind = BoundExpr::Kind::kColumn;
      e->index = pk.column;
      e->type = select->table->columns[pk.column].type;
      e->collation = pk.collation;
      SortKey k;
      k.column = static_cast<int>(exprs.size());
      k.desc = pk.direction == keys::Direction::kDesc;
      k.collation = pk.collation;
      sort_keys.push_back(k);
      exprs.push_back(e.get());
      select->hidden.push_back(std::move(e));
    }
  }
  // What is left to return when resuming.
  if (resume) {
    const int64_t done = resume->emitted;
    if (out.token_mode == TokenMode::kDone) {
      limit = 0;
    } else {
      if (limit >= 0) limit = std::max<int64_t>(0, limit - done);
      offset = 0;
    }
  }
  if (select->aggregate) {
    auto a = Wrap(Kind::kAggregate,
                  std::to_string(select->aggregates.size()) + " functions",
                  std::move(root));
    a->aggregates = &select->aggregates;
    a->exprs = exprs;
    a->estimated_rows = 1;
    root = std::move(a);
  } else {
    auto p = Wrap(Kind::kProject, "", std::move(root));
    p->exprs = exprs;
    root = std::move(p);
  }
  if (select->distinct) {
    auto d = Wrap(Kind::kDistinct, "", std::move(root));
    d->width = select->outputs.size();
    for (const auto& e : select->outputs)
      d->collations.push_back(CarriedCollation(*e));
    root = std::move(d);
  }
  if (sorting && resume && resume->kind == ResumePoint::Kind::kSortKey) {
    if (resume->sort_key.size() != sort_keys.size()) {
      return Status::InvalidArgument(
          "continuation token does not fit this query's order; restart it");
    }
    auto r = Wrap(Kind::kResumeAfter, "", std::move(root));
    r->sort_keys = sort_keys;
    r->resume_row.assign(exprs.size(), Value());
    for (size_t i = 0; i < sort_keys.size(); ++i) {
      r->resume_row[sort_keys[i].column] = resume->sort_key[i];
    }
    root = std::move(r);
  }
  if (sorting) {
    std::string why = !has_order || ordered ? "(DISTINCT)"
                      : order               ? ""
                                            : "(ORDER BY an expression)";
    // A top-k heap holds limit + offset rows in memory; past kMaxTopK the
    // spilling sort is the safer choice.
    constexpr int64_t kMaxTopK = 100000;
    if (limit >= 0 && offset <= kMaxTopK && limit <= kMaxTopK - offset &&
        rules.on(Rule::kTopK)) {
      auto s =
          Wrap(Kind::kTopK, std::to_string(limit + offset), std::move(root));
      s->count = limit + offset;
      s->sort_keys = sort_keys;
      s->estimated_rows =
          std::min(s->estimated_rows, static_cast<double>(limit + offset));
      root = std::move(s);
    } else {
      auto s = Wrap(Kind::kSort, why, std::move(root));
      s->sort_keys = sort_keys;
      root = std::move(s);
    }
  }
  int64_t row_offset = skipped ? 0 : offset;
  if (limit >= 0 || row_offset > 0) {
    std::string d = limit >= 0 ? std::to_string(limit) : "all";
    if (row_offset > 0) d += " offset " + std::to_string(row_offset);
    auto l = Wrap(Kind::kLimit, d, std::move(root));
    l->count = limit;
    l->offset = row_offset;
    if (limit >= 0) {
      l->estimated_rows =
          std::min(l->estimated_rows, static_cast<double>(limit));
    }
    root = std::move(l);
  }
  out.order_signature = OrderSignature(*root, out.token_mode);
  if (input.backward_rows > 0) {
    // The same plan read backwards from the resume position; the rows the
    // query's LIMIT allows do not matter here, only the page size.
    if (root->kind == Kind::kLimit) root = std::move(root->children[0]);
    ReversePlan(root.get(), *select->table);
    auto l = Wrap(Kind::kLimit, std::to_string(input.backward_rows),
                  std::move(root));
    l->count = input.backward_rows;
    root = std::move(l);
  }
  out.plan = std::move(root);
  return out;
}

std::unique_ptr<PlanNode> PlanRows(std::shared_ptr<const TableSchema> table,
                                   const std::vector<std::string>& columns,
                                   BoundExprPtr* where,
                                   const PlannerInput& input) {
  *where = NormalizePredicate(std::move(*where), *input.rules, *input.params);
  Planner planner(table, input);
  bool ordered = false, filtered = false;
  std::vector<OrderColumn> no_order;
  return AccessRows(planner, where->get(), columns, &no_order, -1, nullptr, 0,
                    &ordered, &filtered);
}

}  // namespace levelql
