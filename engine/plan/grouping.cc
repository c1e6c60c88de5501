#include "engine/plan/grouping.h"

#include <algorithm>
#include <set>

namespace levelql {
namespace {

// Whether `columns` holds `column` compared with `collation`.
bool Holds(const std::vector<OrderColumn>& columns, int column,
           const Collation* collation) {
  return std::any_of(columns.begin(), columns.end(), [&](const OrderColumn& o) {
    return o.column == column && o.collation == collation;
  });
}

// Without an ORDER BY to follow, the group columns in the order of a key
// (the primary key first, then each index) that starts with exactly them,
// so that the key's scan gives the groups; as written when none does.
void FollowAKey(const TableSchema& table, std::vector<OrderColumn>* columns) {
  auto try_key = [&](const std::vector<KeyColumn>& key) {
    if (key.size() < columns->size()) return false;
    std::vector<OrderColumn> ordered;
    for (size_t i = 0; i < columns->size(); ++i) {
      auto it = std::find_if(
          columns->begin(), columns->end(), [&](const OrderColumn& c) {
            return c.column == key[i].column &&
                   (c.collation == key[i].collation ||
                    table.columns[c.column].type != Type::kText);
          });
      if (it == columns->end()) return false;
      ordered.push_back({it->column, key[i].direction == keys::Direction::kDesc,
                         it->collation});
    }
    *columns = std::move(ordered);
    return true;
  };
  if (try_key(table.primary_key)) return;
  for (const auto& index : table.indexes) {
    if (index->multi_valued || !index->needs_reindex.empty()) continue;
    if (try_key(index->columns)) return;
  }
}

}  // namespace

GroupPlan PlanGroups(const BoundSelect& select,
                     const std::optional<std::vector<OrderColumn>>& order_by) {
  GroupPlan out;
  std::vector<OrderColumn> columns;
  bool all_columns = true;
  for (const auto& e : select.group_by) {
    if (e->kind != BoundExpr::Kind::kColumn || e->is_list) {
      all_columns = false;
      break;
    }
    const Collation* c = CarriedCollation(*e);
    if (!Holds(columns, e->index, c)) columns.push_back({e->index, false, c});
  }
  if (!all_columns) {
    // Expression terms: sorted as written, ascending.
    for (const auto& e : select.group_by) {
      out.keys.push_back({e.get(), false, CarriedCollation(*e)});
    }
    return out;
  }
  if (select.order_by.empty()) FollowAKey(*select.table, &columns);
  // The ORDER BY's leading group columns first, in its directions.
  std::vector<OrderColumn> ordered;
  size_t matched = 0;
  if (order_by) {
    for (const OrderColumn& o : *order_by) {
      if (Holds(ordered, o.column, o.collation)) {
        ++matched;  // ORDER BY a, a: the second term changes nothing
        continue;
      }
      if (!Holds(columns, o.column, o.collation)) break;
      ordered.push_back({o.column, o.desc, o.collation});
      ++matched;
    }
  }
  out.covers_order_by = order_by && matched == order_by->size();
  // The other columns follow in the ORDER BY's direction, so that one
  // ascending index read backwards can give the whole order.
  // (Without one, each column keeps the direction of the key it follows.)
  const bool follow_key = ordered.empty();
  const bool desc = !ordered.empty() && ordered.front().desc;
  for (const OrderColumn& c : columns) {
    if (!Holds(ordered, c.column, c.collation)) {
      ordered.push_back({c.column, follow_key ? c.desc : desc, c.collation});
    }
  }
  for (const OrderColumn& c : ordered) {
    out.owned.push_back(MakeColumn(select.table->columns[c.column], c.column));
    out.keys.push_back({out.owned.back().get(), c.desc, c.collation});
  }
  out.order = std::move(ordered);
  return out;
}

double EstimateGroups(const TableSchema& table, const GroupPlan& groups,
                      const TableStats* stats, double input_rows) {
  if (!stats || !groups.order || input_rows <= 0) return input_rows;
  const size_t n = groups.order->size();
  auto distinct_of = [&](const std::string& name,
                         const std::vector<KeyColumn>& key) -> double {
    if (key.size() < n) return -1;
    for (size_t i = 0; i < n; ++i) {
      const bool in_groups = std::any_of(
          groups.order->begin(), groups.order->end(),
          [&](const OrderColumn& o) { return o.column == key[i].column; });
      if (!in_groups) return -1;
    }
    auto it = stats->indexes.find(name);
    if (it == stats->indexes.end() || it->second.distinct.size() < n) {
      return -1;
    }
    return static_cast<double>(it->second.distinct[n - 1]);
  };
  double best = distinct_of("", table.primary_key);
  for (const auto& index : table.indexes) {
    if (index->multi_valued) continue;
    double d = distinct_of(index->name, index->columns);
    if (d >= 0 && (best < 0 || d < best)) best = d;
  }
  if (best < 0) return input_rows;
  // Of the table's groups, those the filtered rows fall in (at most).
  return std::max(1.0, std::min(best, input_rows));
}

size_t RunComponents(const BoundSelect& select, const GroupPlan& groups,
                     const PlanNode& rows,
                     const std::vector<const BoundExpr*>& exprs) {
  if (rows.kind != PlanNode::Kind::kIndexOnly || !rows.index || !groups.order) {
    return 0;
  }
  for (const AggregateSpec& a : select.aggregates) {
    if (a.kind != AggregateKind::kCountStar) return 0;
  }
  std::set<int> read;
  for (const BoundExpr* e : exprs) ColumnsUsed(e, &read);
  ColumnsUsed(select.having.get(), &read);
  for (int col : read) {
    // A run shares key bytes: a nocase key's rows may differ in case.
    auto it =
        std::find_if(groups.order->begin(), groups.order->end(),
                     [&](const OrderColumn& o) { return o.column == col; });
    if (it == groups.order->end()) return 0;
    if (it->collation && !it->collation->is_binary()) return 0;
  }
  size_t components = 0;
  for (const OrderColumn& o : *groups.order) {
    const auto& key = rows.index->columns;
    auto at = std::find_if(key.begin(), key.end(), [&](const KeyColumn& k) {
      return k.column == o.column && k.collation == o.collation;
    });
    if (at == key.end()) return 0;
    components = std::max<size_t>(components, at - key.begin() + 1);
  }
  return components;
}

std::unique_ptr<PlanNode> SortIntoGroups(const TableSchema& table,
                                         const GroupPlan& groups,
                                         std::unique_ptr<PlanNode> input,
                                         std::vector<BoundExprPtr>* owned) {
  auto project = WrapPlanNode(PlanNode::Kind::kProject, "", std::move(input));
  for (size_t i = 0; i < table.columns.size(); ++i) {
    owned->push_back(MakeColumn(table.columns[i], static_cast<int>(i)));
    project->exprs.push_back(owned->back().get());
  }
  std::vector<SortKey> keys;
  for (const GroupKey& g : groups.keys) {
    SortKey k;
    k.column = static_cast<int>(project->exprs.size());
    k.desc = g.desc;
    k.collation = g.collation;
    keys.push_back(k);
    project->exprs.push_back(g.expr);
  }
  auto sort =
      WrapPlanNode(PlanNode::Kind::kSort, "(GROUP BY)", std::move(project));
  sort->sort_keys = std::move(keys);
  return sort;
}

}  // namespace levelql
