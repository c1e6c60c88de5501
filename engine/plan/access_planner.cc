#include "engine/plan/access_planner.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/exec/value_ops.h"
#include "engine/plan/normalize.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

using Kind = PlanNode::Kind;

// Relative cost of reading one row through an index (entry + fetch) versus
// one row of a table scan.
constexpr double kFetchCost = 2.0;
constexpr size_t kMaxIntersected = 3;
constexpr size_t kMaxSpanLabels = 6;

std::unique_ptr<PlanNode> Node(Kind kind, std::string detail, double rows) {
  return NewPlanNode(kind, std::move(detail), rows);
}

std::unique_ptr<PlanNode> Wrap(Kind kind, std::string detail,
                               std::unique_ptr<PlanNode> child) {
  return WrapPlanNode(kind, std::move(detail), std::move(child));
}

// Whether reading `path` forward (false) or backward (true) yields rows in
// `order`; nullopt when neither does. The entries of an index come in the
// order of its columns, then the primary key (KEY_FORMAT.md): a non-unique
// index's entries end with it, and a UNIQUE index's entries of equal
// indexed values are those with a NULL among them, which keep it in the key
// too (the others are alone with their values). So `WHERE a = ? ORDER BY
// b, id` over an index on (a, b) needs no sort. Not for a multi-valued
// index, which meets a row once per element.
std::optional<bool> ProvidesOrder(const TableSchema& table,
                                  const AccessPath& path,
                                  const std::vector<OrderColumn>& order) {
  if (path.spans.size() > 1 && path.eq_columns > 0) return std::nullopt;
  std::vector<KeyColumn> keys = KeyColumnsOf(table, path.index);
  if (path.index && !path.index->multi_valued) {
    keys.insert(keys.end(), table.primary_key.begin(), table.primary_key.end());
  }
  size_t k = path.eq_columns;
  std::optional<bool> reverse;
  for (const OrderColumn& o : order) {
    // An equality fixes the column for an order by the key's collation
    // only: under nocase, 'x' and 'X' both match and are not one value in
    // binary order.
    const bool text = table.columns[o.column].type == Type::kText;
    bool fixed = false;
    for (int e = 0; e < path.eq_columns; ++e) {
      fixed = fixed || (keys[e].column == o.column &&
                        (!text || keys[e].collation == o.collation));
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

// Whether each point of a full-equality `path` over a UNIQUE index is one
// row: its entry keeps the primary key in the value (EntryLayoutOf), which
// it does when it holds no NULL - NULLs are never duplicates, so `u IS
// NULL` may match any number of rows.
bool UniquePoints(const AccessPath& path) {
  for (const KeySpan& span : path.spans) {
    rows::EntryLayout layout;
    if (!rows::EntryLayoutOf(*path.index, span.lo, &layout).ok() ||
        layout != rows::EntryLayout::kPkInValue) {
      return false;
    }
  }
  return true;
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
  // An intersection whose streams answer every term exactly: exact when
  // it never continues with its driver alone (PlanNode::exact_keys).
  bool exact_if_kept = false;
  double rows = 0;
  double cost = 0;
};
class Planner {
 public:
  // Without statistics a table is assumed to hold this many rows.
  static constexpr double kDefaultRows = 1000;

  Planner(std::shared_ptr<const TableSchema> table, const RuleSet& rules,
          const TableStats* stats)
      : table_(std::move(table)),
        rules_(rules),
        stats_(stats),
        n_(stats ? std::max<double>(1, stats->rows) : kDefaultRows) {}

  // Estimated rows a path reads: exact for unique points, from distinct
  // counts of the equality prefix when ANALYZE ran, else default
  // selectivities.
  double Rows(const AccessPath& p) const {
    if (p.empty) return 0;
    const auto& keys = KeyColumnsOf(*table_, p.index);
    if (p.eq_columns == static_cast<int>(keys.size()) &&
        (p.index == nullptr || (p.index->unique && UniquePoints(p)))) {
      return static_cast<double>(p.prefix_points);
    }
    if (double h = FromHistogram(p); h >= 0) return h;
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

  // Rows estimated from the first key column's histogram and common
  // values (ANALYZE): one value of it, or ranges of it. -1 when they do not
  // apply (no statistics, or the path is shaped otherwise).
  double FromHistogram(const AccessPath& p) const {
    if (!stats_ || p.spans.empty() || p.used_columns == 0) return -1;
    auto it = stats_->indexes.find(p.index ? p.index->name : "");
    if (it == stats_->indexes.end() || it->second.samples.empty()) return -1;
    const IndexStats& s = it->second;
    const std::string prefix = rows::IdPrefix(KeyspaceId(*table_, p.index));
    const KeyColumn& first = KeyColumnsOf(*table_, p.index)[0];
    auto suffix = [&](const std::string& bound) -> std::string {
      if (bound.compare(0, prefix.size(), prefix) != 0) {
        return std::string(2, '\xff');  // past the whole index
      }
      return bound.substr(prefix.size());
    };
    if (p.eq_columns == 1 && p.prefix_points == 1) {
      // One value of the first column: its count when it is a common one,
      // else an even share of what the common ones leave.
      std::string_view rest =
          std::string_view(p.spans[0].lo).substr(prefix.size());
      const size_t before = rest.size();
      if (!keys::SkipComponent(&rest, first.direction).ok()) return -1;
      const std::string value(
          p.spans[0].lo.substr(prefix.size(), before - rest.size()));
      double rows = static_cast<double>(s.CommonCount(value));
      if (rows < 0) {
        int64_t common = 0;
        for (const auto& [v, n] : s.common) common += n;
        const int64_t others =
            s.distinct.empty()
                ? 1
                : std::max<int64_t>(
                      1, s.distinct[0] - static_cast<int64_t>(s.common.size()));
        rows = static_cast<double>(std::max<int64_t>(0, s.entries - common)) /
               static_cast<double>(others);
      }
      return std::min(n_, std::max(1.0, rows * p.range_selectivity));
    }
    if (p.eq_columns == 0) {
      // Ranges of the first column: the samples inside them.
      double rows = 0;
      for (const KeySpan& span : p.spans) {
        rows += s.EntriesBetween(suffix(span.lo), suffix(span.hi));
      }
      return std::min(n_, std::max(1.0, rows));
    }
    return -1;
  }

  double PathCost(const AccessPath& p) const {
    double rows = Rows(p);
    if (Counted(p)) {
      // A ranked index counts its entries, and skips OFFSET rows, without
      // reading them: a few seeks per span.
      if (count_only_) return static_cast<double>(p.spans.size()) * 4 + 1;
      rows = std::max(0.0, rows - static_cast<double>(skip_));
    }
    // An index that holds every column the query reads is read like the
    // table: one entry per row, no fetch.
    return p.index && !Covers(p) ? rows * kFetchCost + 1 : rows + 1;
  }

  // Whether `p` can be answered from its index entries alone.
  bool Covers(const AccessPath& p) const {
    if (!p.index || !read_ || p.may_repeat_rows ||
        !rules_.on(Rule::kIndexOnly)) {
      return false;
    }
    for (int col : *read_) {
      if (!IndexProvidesColumn(*table_, p.index, col)) return false;
    }
    return true;
  }

  // Whether a single scan of `p` can use a ranked index's counts.
  static bool Counted(const AccessPath& p) {
    return p.index != nullptr && p.index->ranked && !p.may_repeat_rows &&
           !MergesSpans(p);
  }

  // What the query does with the rows, for the counts of ranked indexes.
  // `read`: every column the query reads, WHERE included (null: unknown).
  void set_usage(int64_t skip, bool count_only, const std::set<int>* read) {
    skip_ = skip;
    count_only_ = count_only;
    read_ = read;
  }

  // The EXPLAIN detail is written once the plan is chosen (NameScans).
  std::unique_ptr<PlanNode> ScanNode(AccessPath path, bool reverse) const {
    auto n = Node(Kind::kIndexScan, "", Rows(path));
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
      saw_empty_ = saw_empty_ || p.empty;
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
          c.exact_if_kept =
              std::all_of(sorted.begin(), sorted.end(),
                          [](const AccessPath* p) { return p->exact; }) &&
              std::all_of(terms.begin(), terms.end(),
                          [&](const BoundExpr* t) { return covered.count(t); });
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
        // Exact branches answer this OR term exactly: the whole WHERE
        // clause when it is the only term.
        u.exact = u.exact && terms.size() == 1;
        if (u.cost < best.cost) best = std::move(u);
      }
    }
    // ORDER BY answered by index order, so LIMIT can stop the scan.
    if (order && !order->empty() && !best.ordered &&
        rules_.on(Rule::kOrderedScan)) {
      std::optional<Choice> ordered;
      // The rows the query matches, at most: the best single path's.
      double matches = n_;
      for (const AccessPath& p : paths) {
        if (!p.spans.empty()) matches = std::min(matches, Rows(p));
      }
      auto consider = [&](AccessPath p) {
        std::optional<bool> reverse = ProvidesOrder(*table_, p, *order);
        if (!reverse) return;
        double cost = PathCost(p);
        if (limit_hint >= 0 && Rows(p) > 0) {
          // The scan stops after about limit_hint matches, reading more
          // rows than that when terms it does not answer reject some: a
          // share matches/Rows(p) of them passes. A ranked index skips the
          // OFFSET part without reading only when it answers every term.
          const bool answers_all = p.exact && p.consumed.size() == terms.size();
          const double wanted = std::max<double>(
              0, static_cast<double>(limit_hint) -
                     (Counted(p) && answers_all ? static_cast<double>(skip_)
                                                : 0.0));
          const double share = std::clamp(matches / Rows(p), 1e-9, 1.0);
          cost = std::min(cost, wanted / share * kFetchCost + 1);
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
      // A whole index gives the order only if it starts with the first
      // ORDER BY column (checked before building its path).
      auto leads = [&](const IndexSchema* index) {
        return KeyColumnsOf(*table_, index)[0].column == (*order)[0].column;
      };
      if (rules_.on(Rule::kPrimaryKeyRange) && leads(nullptr)) {
        consider(FullIndexPath(*table_, nullptr));
      }
      if (rules_.on(Rule::kIndexScan)) {
        for (const auto& index : table_->indexes) {
          if (!index->needs_reindex.empty()) continue;  // quarantined
          if (!leads(index.get())) continue;
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

  // The merge union of one plan per disjunct; exact when every branch
  // reads exactly the rows its disjunct is true for (then so does the
  // union for the OR: duplicates are merged away).
  Choice PlanUnion(const std::vector<const BoundExpr*>& disjuncts) {
    Choice u;
    u.pk_sorted = true;
    u.exact = true;
    auto node = Node(Kind::kUnion, "", 0);
    for (const BoundExpr* d : disjuncts) {
      std::vector<const BoundExpr*> terms;
      Conjuncts(d, &terms);
      Choice c = PlanAnd(terms, nullptr, -1, false);
      if (c.empty) continue;
      if (!c.keys) return Choice();  // a disjunct needs a full scan
      u.exact = u.exact && c.exact;
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
  // Whether some derived range was empty (the values decided a choice).
  bool saw_empty() const { return saw_empty_; }

 private:
  std::shared_ptr<const TableSchema> table_;
  const RuleSet& rules_;
  const TableStats* stats_;
  double n_;
  int64_t skip_ = 0;
  bool count_only_ = false;
  const std::set<int>* read_ = nullptr;
  bool saw_empty_ = false;
};
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

}  // namespace

std::unique_ptr<PlanNode> NewPlanNode(PlanNode::Kind kind, std::string detail,
                                      double rows) {
  auto n = std::make_unique<PlanNode>();
  n->kind = kind;
  n->detail = std::move(detail);
  n->estimated_rows = rows;
  return n;
}

std::unique_ptr<PlanNode> WrapPlanNode(PlanNode::Kind kind, std::string detail,
                                       std::unique_ptr<PlanNode> child) {
  auto n = NewPlanNode(kind, std::move(detail), child->estimated_rows);
  n->children.push_back(std::move(child));
  return n;
}

std::string MergeBucketsLabel(const TableSchema& table,
                              const IndexSchema* index, bool reverse) {
  if (table.salt_buckets == 0) return "";
  std::string s =
      " MergeBuckets " + std::to_string(table.salt_buckets) + " by (";
  bool first = true;
  std::set<int> named;  // a primary-key column an index holds is named once
  auto add = [&](const std::vector<KeyColumn>& columns) {
    for (const KeyColumn& k : columns) {
      if (!named.insert(k.column).second) continue;
      if (!first) s += ", ";
      first = false;
      s += table.columns[k.column].name;
      if ((k.direction == keys::Direction::kDesc) != reverse) s += " DESC";
    }
  };
  if (index) add(index->columns);
  add(table.primary_key);
  return s + ")";
}

std::string ScanDetail(const TableSchema& table, const AccessPath& path,
                       bool reverse, bool per_bucket) {
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
  if (path.index && path.index->ranked) s += " ranked";
  if (table.salt_buckets > 0 && path.index == nullptr &&
      path.eq_columns == static_cast<int>(table.primary_key.size()) &&
      path.used_columns == path.eq_columns) {
    s += " (one bucket per key)";  // point reads: the key gives the bucket
  } else if (per_bucket) {
    s += " (in each bucket)";
  } else {
    s += MergeBucketsLabel(table, path.index, reverse);
  }
  return s;
}

void ColumnsUsed(const BoundExpr* e, std::set<int>* out) {
  if (!e) return;
  if (e->kind == BoundExpr::Kind::kColumn) out->insert(e->index);
  for (const auto& a : e->args) ColumnsUsed(a.get(), out);
}

void NameScans(const TableSchema& table, PlanNode* node, bool per_bucket) {
  if (!node->join_tables.empty()) {
    // A join: each input reads its own table.
    for (size_t i = 0; i < node->children.size(); ++i) {
      const auto& t = node->join_tables[i];
      NameScans(t ? *t : table, node->children[i].get(), per_bucket);
    }
    return;
  }
  if (node->kind == Kind::kIndexScan) {
    node->detail = ScanDetail(table, node->path, node->reverse, per_bucket);
  }
  if (node->kind == Kind::kTableScan) {
    node->detail = table.name + (node->reverse ? " reverse" : "") +
                   MergeBucketsLabel(table, nullptr, node->reverse);
  }
  if ((node->kind == Kind::kIntersect || node->kind == Kind::kUnion) &&
      table.salt_buckets > 1 && !per_bucket) {
    // Executed once per bucket and merged on the primary key (BucketMerge).
    node->detail = "per bucket," + MergeBucketsLabel(table, nullptr, false);
    per_bucket = true;
  }
  for (auto& c : node->children) NameScans(table, c.get(), per_bucket);
}

AccessPlan PlanAccess(std::shared_ptr<const TableSchema> table_ptr,
                      const RuleSet& rules, const TableStats* stats,
                      const AccessRequest& request) {
  Planner planner(table_ptr, rules, stats);
  std::set<int> read;
  if (request.needed) {
    read = *request.needed;
    ColumnsUsed(request.where, &read);
  }
  planner.set_usage(request.skip, request.count_only,
                    request.needed ? &read : nullptr);
  const TableSchema& table = *table_ptr;
  const BoundExpr* where = request.where;
  std::optional<std::vector<const BoundExpr*>> terms = Terms(where, rules);
  Choice c;
  if (!terms) {
    c.empty = true;
  } else {
    c = planner.PlanAnd(*terms, &request.order, request.limit_hint, true);
  }
  AccessPlan out;
  out.ordered = c.ordered || request.order.empty();
  out.reusable = terms.has_value() && !c.empty && !planner.saw_empty();
  if (c.empty) {
    out.rows = Node(Kind::kEmpty, "", 0);
    return out;
  }
  // Rows that need only their primary keys (COUNT(*), key columns) come
  // from the keys of a union or intersection, not from the table: when
  // the keys answer the WHERE clause exactly, nothing re-checks a row.
  bool keys_only = false;
  if (c.keys && !c.repeats && request.needed && rules.on(Rule::kIndexOnly) &&
      ((c.keys->kind == Kind::kUnion && c.exact) ||
       (c.keys->kind == Kind::kIntersect && c.exact_if_kept))) {
    keys_only = std::all_of(
        request.needed->begin(), request.needed->end(),
        [&](int col) { return PrimaryKeyProvidesColumn(*table_ptr, col); });
  }
  if (keys_only) {
    c.exact = true;
    c.keys->exact_keys = true;
  }
  const bool need_filter = where && !c.exact;
  if (c.keys) NameScans(table, c.keys.get(), false);
  // What rows are decoded into: the columns the query and the filter
  // read, except where the Fetch needs a whole row to tell its first entry.
  auto decode_read = [&](PlanNode* n) {
    if (request.needed && !c.repeats) {
      n->decode_mask = rows::DecodeMaskFor(table, read);
    }
  };
  if (!c.keys) {
    out.rows = Node(Kind::kTableScan, "", planner.n());
    NameScans(table, out.rows.get(), false);
    decode_read(out.rows.get());
  } else {
    std::unique_ptr<PlanNode> keys = std::move(c.keys);
    // OFFSET is counted on keys when they are the rows, in their final
    // order, all kept. Entries of a scan that repeats rows are not rows:
    // they can be neither skipped as rows nor read without the row that
    // says which is first.
    if (request.skip > 0 && !request.skip_done && out.ordered && !need_filter &&
        !c.repeats && rules.on(Rule::kOffsetSkip)) {
      keys = Wrap(Kind::kSkip, std::to_string(request.skip), std::move(keys));
      keys->skip_rows = request.skip;
      keys->estimated_rows = std::max(
          0.0, keys->estimated_rows - static_cast<double>(request.skip));
      out.skipped = true;
    }
    bool index_only = false;
    std::set<int> all;  // columns the query reads
    if (c.single_index && request.needed && !c.repeats &&
        rules.on(Rule::kIndexOnly)) {
      index_only = true;
      all = *request.needed;
      if (need_filter) ColumnsUsed(where, &all);
      for (int col : all) {
        if (!IndexProvidesColumn(table, c.single_index, col)) {
          index_only = false;
        }
      }
    }
    if (index_only || keys_only) {
      if (keys_only) all = *request.needed;
      auto n = Wrap(Kind::kIndexOnly,
                    table.name + (keys_only ? " (primary keys)"
                                            : "." + c.single_index->name),
                    std::move(keys));
      n->index = keys_only ? nullptr : c.single_index;
      n->read_columns.assign(all.begin(), all.end());  // none: COUNT(*)
      out.rows = std::move(n);
    } else {
      out.rows = Wrap(Kind::kFetch,
                      table.name + (c.repeats ? " (first entry per row)" : ""),
                      std::move(keys));
      out.rows->first_entry_only = c.repeats;
      decode_read(out.rows.get());
    }
  }
  if (need_filter) {
    auto f = Wrap(Kind::kFilter, ExprToString(*where, *request.column_names),
                  std::move(out.rows));
    f->predicate = where;
    f->estimated_rows = f->children[0]->estimated_rows * 0.5;
    out.rows = std::move(f);
    out.filtered = true;
  }
  return out;
}

}  // namespace levelql
