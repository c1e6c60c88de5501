#include "engine/plan/planner.h"

#include <algorithm>
#include <optional>
#include <set>

#include "engine/plan/access_planner.h"
#include "engine/plan/grouping.h"
#include "engine/plan/join_planner.h"
#include "engine/plan/normalize.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

using Kind = PlanNode::Kind;

// A top-k heap holds limit + offset rows in memory; past this many the
// spilling sort is the safer choice.
constexpr int64_t kMaxTopK = 100000;

std::unique_ptr<PlanNode> Wrap(Kind kind, std::string detail,
                               std::unique_ptr<PlanNode> child) {
  return WrapPlanNode(kind, std::move(detail), std::move(child));
}

// The ORDER BY as columns of the table, or nullopt when a term is an
// expression (then only a sort gives the order).
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

// The values each result row carries: the outputs, then the ORDER BY
// expressions that are not outputs, then hidden sort keys; and the sort
// keys over those positions that make the order total.
struct RowShape {
  std::vector<const BoundExpr*> exprs;
  std::vector<SortKey> sort_keys;
};

// A plan whose rows stream in their order, a token naming a position in
// the stream, reads no ORDER BY value and no primary key of its own (the
// planner asked its scan for both before it knew): the scan under `top`
// decodes only what the outputs and the filters on the way read.
void DecodeOnlyWhatIsRead(const BoundSelect& select, PlanNode* top) {
  std::set<int> read;
  for (const auto& e : select.outputs) ColumnsUsed(e.get(), &read);
  for (PlanNode* n = top;; n = n->children[0].get()) {
    if (n->kind == Kind::kFilter) ColumnsUsed(n->predicate, &read);
    if (n->kind == Kind::kIndexOnly) {
      n->read_columns.assign(read.begin(), read.end());
      return;
    }
    if (n->kind == Kind::kFetch || n->kind == Kind::kTableScan) {
      if (!n->decode_mask.empty()) {
        n->decode_mask = rows::DecodeMaskFor(*select.table, read);
      }
      return;
    }
    if (n->kind != Kind::kFilter && n->kind != Kind::kSkip) return;
  }
}

// Whether every joined row holds the same value of column `column`, as
// the order compares values: an equality with a constant fixes it (`pinned`,
// JoinPlan) in every row of an inner join, and it is a number, which equals
// that constant only by comparing equal to it. (Equal text under a
// collation may still differ, and a LEFT JOIN's NULL row is not fixed.)
bool SameInEveryRow(const BoundSelect& select, const std::set<int>& pinned,
                    int column) {
  if (!pinned.contains(column)) return false;
  for (const BoundTableRef& t : select.from) {
    if (t.outer) return false;
  }
  const ColumnSchema& c = select.table->columns[column];
  return !c.is_list && (c.type == Type::kInteger || c.type == Type::kReal ||
                        c.type == Type::kBoolean || c.type == Type::kTimestamp);
}

RowShape ShapeRows(const BoundSelect& select, bool distinct, bool sorting,
                   const GroupPlan* groups,
                   const std::vector<SortKey>* join_order,
                   const std::set<int>* join_pinned,
                   std::vector<BoundExprPtr>* hidden) {
  RowShape shape;
  for (const auto& e : select.outputs) shape.exprs.push_back(e.get());
  if (!sorting && !groups && !join_order) {
    // The rows stream in their order and a token names a position in the
    // stream (TokenMode::kStream), or there is one row (kDone): no sort
    // key is read.
    return shape;
  }
  for (const BoundOrder& o : select.order_by) {
    SortKey k;
    k.desc = o.desc;
    k.collation = o.collation;
    if (o.output >= 0) {
      k.column = o.output;
    } else {
      k.column = static_cast<int>(shape.exprs.size());
      shape.exprs.push_back(o.expr.get());
    }
    shape.sort_keys.push_back(k);
  }
  if (distinct) {
    // DISTINCT rows are identified by their values, not by a scan position:
    // every output, after the ORDER BY, makes the order total.
    for (size_t i = 0; i < select.outputs.size(); ++i) {
      shape.sort_keys.push_back(
          {static_cast<int>(i), false, CarriedCollation(*select.outputs[i])});
    }
  } else if (groups) {
    // Groups are identified by their keys, in the order they come in.
    for (const GroupKey& g : groups->keys) {
      shape.sort_keys.push_back(
          {static_cast<int>(shape.exprs.size()), g.desc, g.collation});
      shape.exprs.push_back(g.expr);
    }
  } else if (join_order && !sorting) {
    // Joined rows come in their join order (a total one). A key column the
    // row already carries (an output or ORDER BY term that is that column)
    // is read from there; one with the same value in every row orders
    // nothing and is left out, unless it is the last and no key is left:
    // a token names its row by at least one value (every row then has the
    // same ones, and there is at most one row).
    for (size_t j = 0; j < join_order->size(); ++j) {
      const SortKey& k = (*join_order)[j];
      const bool last_chance =
          j + 1 == join_order->size() && shape.sort_keys.empty();
      if (!last_chance && SameInEveryRow(select, *join_pinned, k.column)) {
        continue;
      }
      int at = -1;
      for (size_t i = 0; i < shape.exprs.size() && at < 0; ++i) {
        const BoundExpr& e = *shape.exprs[i];
        if (e.kind == BoundExpr::Kind::kColumn && e.index == k.column) {
          at = static_cast<int>(i);
        }
      }
      if (at < 0) {
        BoundExprPtr e = MakeColumn(select.table->columns[k.column], k.column);
        at = static_cast<int>(shape.exprs.size());
        shape.exprs.push_back(e.get());
        hidden->push_back(std::move(e));
      }
      shape.sort_keys.push_back({at, k.desc, k.collation});
    }
  } else if (sorting) {
    // Ties are broken by primary key.
    for (const KeyColumn& pk : select.table->primary_key) {
      BoundExprPtr e = MakeColumn(select.table->columns[pk.column], pk.column);
      SortKey k;
      k.column = static_cast<int>(shape.exprs.size());
      k.desc = pk.direction == keys::Direction::kDesc;
      k.collation = pk.collation;
      shape.sort_keys.push_back(k);
      shape.exprs.push_back(e.get());
      hidden->push_back(std::move(e));
    }
  }
  return shape;
}

// Reverses every scan and sort of a plan, for a backward read: the rows
// come in exactly the opposite order. Below a sort (whose keys order its
// rows totally, ShapeRows), groups and DISTINCT rows are made as the
// forward read made them: which row of a group a bare column or
// group_concat reads, and which spelling of equal collated values DISTINCT
// keeps, depend on the order rows come in; the sort alone reverses.
// NameScans writes the scans' EXPLAIN detail afterwards.
void ReversePlan(PlanNode* node, bool sorted_above = false) {
  // A compound's rows are numbered as its SELECTs return them (the
  // numbers break ties between equal rows): read as the forward read does.
  if (node->kind == Kind::kCompound) return;
  if (sorted_above &&
      (node->kind == Kind::kAggregate || node->kind == Kind::kDistinct)) {
    return;
  }
  const bool sorts = node->kind == Kind::kSort || node->kind == Kind::kTopK;
  switch (node->kind) {
    case Kind::kIndexScan:
    case Kind::kTableScan:
    case Kind::kSortKeys:
      node->reverse = !node->reverse;
      break;
    case Kind::kMergeJoin:
    case Kind::kNestedLoop:
    case Kind::kHashJoin:
      node->reverse = !node->reverse;
      for (SortKey& k : node->sort_keys) k.desc = !k.desc;
      break;
    case Kind::kSort:
    case Kind::kTopK:
    case Kind::kResumeAfter:
    case Kind::kAggregate:
      for (SortKey& k : node->sort_keys) k.desc = !k.desc;
      break;
    default:
      break;
  }
  for (auto& c : node->children) ReversePlan(c.get(), sorted_above || sorts);
}

std::unique_ptr<PlanNode> LimitNode(std::unique_ptr<PlanNode> root,
                                    int64_t limit, int64_t offset) {
  if (limit < 0 && offset == 0) return root;
  std::string d = limit >= 0 ? std::to_string(limit) : "all";
  if (offset > 0) d += " offset " + std::to_string(offset);
  auto l = Wrap(Kind::kLimit, d, std::move(root));
  l->limit = limit;
  l->offset = offset;
  if (limit >= 0) {
    l->estimated_rows = std::min(l->estimated_rows, static_cast<double>(limit));
  }
  return l;
}

// The rows of `root` in the order of `keys`: the first limit + offset only
// when that few (top-k, rule topk), else all of them (a sort, whose
// EXPLAIN detail is `why`).
std::unique_ptr<PlanNode> OrderNode(std::unique_ptr<PlanNode> root,
                                    std::vector<SortKey> keys, int64_t limit,
                                    int64_t offset, const RuleSet& rules,
                                    std::string why) {
  if (limit >= 0 && offset <= kMaxTopK && limit <= kMaxTopK - offset &&
      rules.on(Rule::kTopK)) {
    root = Wrap(Kind::kTopK, std::to_string(limit + offset), std::move(root));
    root->top_rows = limit + offset;
    root->estimated_rows =
        std::min(root->estimated_rows, static_cast<double>(limit + offset));
  } else {
    root = Wrap(Kind::kSort, std::move(why), std::move(root));
  }
  root->sort_keys = std::move(keys);
  return root;
}

// Turns the plan of a forward read into the same plan read backwards from
// the resume position (a previous page of `rows` rows; NameScans and the
// page's limit are the caller's): the rows the query's LIMIT allows do not
// matter here, only the page size. A top-k kept as many rows as the
// forward read still had to return (none once it was done); backwards it
// keeps what the read needs, or past kMaxTopK rows becomes a sort (which
// spills within its budget).
void ReverseForPage(std::unique_ptr<PlanNode>* root, int64_t rows) {
  if ((*root)->kind == Kind::kLimit) *root = std::move((*root)->children[0]);
  PlanNode& top = **root;
  if (top.kind == Kind::kTopK && rows > kMaxTopK) {
    top.kind = Kind::kSort;
    top.detail.clear();
  } else if (top.kind == Kind::kTopK) {
    top.top_rows = rows;
    top.detail = std::to_string(rows);
  }
  ReversePlan(root->get());
}

// MIN or MAX of one column alone is the first non-NULL value in the
// column's order (last for MAX): ask for that order and one row, and let
// the aggregate read it. Without an index giving that order nothing
// changes (the NOT NULL test only drops rows MIN/MAX ignore).
std::optional<OrderColumn> Extreme(const BoundSelect& select,
                                   const RuleSet& rules) {
  if (rules.on(Rule::kMinMax) && select.single_row() && select.from.empty() &&
      select.aggregates.size() == 1 && !select.aggregates[0].distinct &&
      (select.aggregates[0].kind == AggregateKind::kMin ||
       select.aggregates[0].kind == AggregateKind::kMax) &&
      select.aggregates[0].arg->kind == BoundExpr::Kind::kColumn &&
      !select.aggregates[0].arg->is_list && !select.table->one_row) {
    const AggregateSpec& a = select.aggregates[0];
    return OrderColumn{a.arg->index, a.kind == AggregateKind::kMax,
                       a.collation};
  }
  return std::nullopt;
}

}  // namespace

BoundExprPtr PlannedWhere(const BoundSelect& select, const RuleSet& rules,
                          const std::vector<Value>& params,
                          const std::vector<Value>* outer) {
  BoundExprPtr where;
  if (select.where) {
    where = NormalizePredicate(CloneExpr(*select.where), rules, params, outer);
  }
  if (Extreme(select, rules)) {
    auto not_null = std::make_unique<BoundExpr>();
    not_null->kind = BoundExpr::Kind::kIsNull;
    not_null->negated = true;
    not_null->args.push_back(CloneExpr(*select.aggregates[0].arg));
    where = where ? MakeAnd(std::move(where), std::move(not_null))
                  : std::move(not_null);
  }
  return where;
}

namespace {

// A compound SELECT: each SELECT planned on its own (every index it can
// use), their rows combined (exec/compound.h: each row carries its
// SELECT's number and its place among that SELECT's rows), then sorted
// by the ORDER BY terms, the result's columns and those two numbers, a
// total order continuation tokens name a row by. Without ORDER BY the
// rows come in the order of their values.
Result<PlannedSelect> PlanCompound(const BoundSelect& select, int64_t limit,
                                   int64_t offset, const PlannerInput& input) {
  const ResumePoint* resume = input.resume;
  PlannedSelect out;
  const size_t width = select.outputs.size();
  std::string detail;
  for (size_t i = 0; i < select.compound_ops.size(); ++i) {
    if (i) detail += ", ";
    detail += parser::CompoundOpText(select.compound_ops[i]);
  }
  auto node = NewPlanNode(Kind::kCompound, detail, 0);
  for (const auto& branch : select.compound) {
    PlannerInput in = input;
    in.resume = nullptr;
    in.backward_rows = 0;
    in.stats = input.stats_of ? input.stats_of(*branch->table) : nullptr;
    LQ_ASSIGN_OR_RETURN(PlannedSelect p, PlanSelect(*branch, -1, 0, in));
    node->estimated_rows += p.plan->estimated_rows;
    node->join_tables.push_back(branch->table);
    node->children.push_back(std::move(p.plan));
    // The branch's plan points into its expressions: kept with this one.
    if (p.where) out.hidden.push_back(std::move(p.where));
    for (auto& e : p.hidden) out.hidden.push_back(std::move(e));
  }
  node->compound_ops = select.compound_ops;
  node->width = width;
  for (size_t c = 0; c < width; ++c) {
    node->collations.push_back(CompoundCollation(select, static_cast<int>(c)));
  }
  std::vector<SortKey> keys;
  for (const BoundOrder& o : select.order_by) {
    keys.push_back({o.output, o.desc, o.collation});
  }
  for (size_t c = 0; c < width; ++c) {
    keys.push_back({static_cast<int>(c), false, node->collations[c]});
  }
  keys.push_back({static_cast<int>(width), false, nullptr});      // SELECT
  keys.push_back({static_cast<int>(width + 1), false, nullptr});  // place
  std::unique_ptr<PlanNode> root = std::move(node);
  if (resume) {
    if (limit >= 0) limit = std::max<int64_t>(0, limit - resume->emitted);
    offset = 0;
    if (resume->kind == ResumePoint::Kind::kSortKey) {
      if (resume->sort_key.size() != keys.size()) return PlanChangedError();
      const double rows = root->estimated_rows;
      root = Wrap(Kind::kResumeAfter, "", std::move(root));
      root->estimated_rows = rows;
      root->sort_keys = keys;
      root->resume_row.assign(width + 2, Value());
      for (size_t i = 0; i < keys.size(); ++i) {
        root->resume_row[keys[i].column] = resume->sort_key[i];
      }
    }
  }
  root = OrderNode(
      std::move(root), std::move(keys), limit, offset, *input.rules,
      "(" + std::string(parser::CompoundOpText(select.compound_ops.back())) +
          ")");
  root = LimitNode(std::move(root), limit, offset);
  out.token_mode = TokenMode::kSortKey;
  out.order_signature = OrderSignature(*root, out.token_mode);
  if (input.backward_rows > 0) {
    ReverseForPage(&root, input.backward_rows);
    root = LimitNode(std::move(root), input.backward_rows, 0);
  }
  out.plan = std::move(root);
  return out;
}

}  // namespace

Result<PlannedSelect> PlanSelect(const BoundSelect& select, int64_t limit,
                                 int64_t offset, const PlannerInput& input) {
  if (!select.compound.empty()) {
    return PlanCompound(select, limit, offset, input);
  }
  const ResumePoint* resume = input.resume;
  const RuleSet& rules = *input.rules;
  PlannedSelect out;
  out.where = PlannedWhere(select, rules, *input.params, input.outer);

  // 1. Access: which rows, in which order.
  const std::optional<std::vector<OrderColumn>> order = OrderColumns(select);
  const bool single = select.single_row() || select.table->one_row;
  const bool joined = !select.from.empty();
  const bool grouped = select.aggregate && !single;
  const bool has_order = !select.order_by.empty() && !single;
  const bool streams = !select.aggregate && !select.distinct;
  std::optional<GroupPlan> groups;
  if (grouped) groups = PlanGroups(select, order);
  std::set<int> needed;
  for (const auto& e : select.outputs) ColumnsUsed(e.get(), &needed);
  for (const auto& o : select.order_by) ColumnsUsed(o.expr.get(), &needed);
  for (const auto& a : select.aggregates) {
    ColumnsUsed(a.arg.get(), &needed);
    ColumnsUsed(a.separator.get(), &needed);
  }
  for (const auto& g : select.group_by) ColumnsUsed(g.get(), &needed);
  ColumnsUsed(select.having.get(), &needed);
  if (has_order && !grouped) {
    // A sort breaks ties by primary key (a total order for tokens).
    for (const KeyColumn& k : select.table->primary_key) {
      needed.insert(k.column);
    }
  }
  const std::optional<OrderColumn> extreme = Extreme(select, rules);
  AccessRequest request;
  request.where = out.where.get();
  request.column_names = &select.column_names;
  if (has_order && order) request.order = *order;
  if (groups && groups->order) request.order = *groups->order;
  if (limit >= 0 && streams && offset <= INT64_MAX - limit) {
    request.limit_hint = limit + offset;
  }
  if (extreme) {
    request.order = {*extreme};
    request.limit_hint = 1;
  }
  request.needed = &needed;
  request.count_only =
      select.single_row() && needed.empty() && !select.aggregates.empty() &&
      std::all_of(select.aggregates.begin(), select.aggregates.end(),
                  [](const AggregateSpec& a) {
                    return a.kind == AggregateKind::kCountStar;
                  });
  // OFFSET counted on keys needs rows that arrive in their final order and
  // are all kept: no distinct, no aggregate, no sort by an expression.
  // Resuming, the token's position is past it: it is not skipped again,
  // but weighs the choice as it did for the first page, whose index the
  // token names.
  if (streams && (!has_order || order)) {
    request.skip = offset;
    request.skip_done = resume != nullptr;
  }
  AccessPlan access;
  JoinPlan joins;
  PlanNode* top_join = nullptr;
  if (joined) {
    joins = PlanJoins(select, out.where.get(), needed, input);
    out.join_terms = joins.owned.size();
    out.join_origins = std::move(joins.origins);
    for (auto& e : joins.owned) out.hidden.push_back(std::move(e));
    access.rows = std::move(joins.rows);
    top_join = access.rows.get();
    if (top_join->kind == Kind::kFilter) top_join = top_join->children[0].get();
  } else if (select.table->one_row) {
    access.rows = NewPlanNode(Kind::kOneRow, "", 1);
    access.ordered = true;
    if (request.where) {
      access.rows = WrapPlanNode(
          Kind::kFilter, ExprToString(*request.where, select.column_names),
          std::move(access.rows));
      access.rows->predicate = request.where;
      access.filtered = true;
    }
  } else {
    access = PlanAccess(select.table, rules, input.stats, request);
  }
  // Groups stream from the access path when it reads them in order.
  const bool group_stream = groups && groups->order && access.ordered;
  // Groups come in their keys' order, streamed or sorted into it; joined
  // rows in the join's order, read backwards if that is the one asked for.
  bool join_reversed = false;
  const bool join_ordered = joined && !grouped && has_order && order &&
                            JoinGivesOrder(joins, *order, &join_reversed);
  if (join_reversed) {
    ReversePlan(access.rows.get());
    NameScans(*select.table, access.rows.get(), false);
    for (SortKey& k : joins.order) k.desc = !k.desc;
  }
  const bool ordered = grouped  ? groups->covers_order_by
                       : joined ? join_ordered
                                : access.ordered && (!has_order || order);
  std::unique_ptr<PlanNode> root = std::move(access.rows);
  if (extreme && access.ordered) {
    root = LimitNode(std::move(root), 1, 0);  // the first is the extreme
  }
  if (grouped && !group_stream) {
    root = SortIntoGroups(*select.table, *groups, std::move(root), &out.hidden);
  }

  const bool distinct = select.distinct && !single;
  const bool sorting = (has_order && !ordered) || distinct;
  // At most one row: after it, nothing is left. Groups come in the order
  // of their keys, so a token names the last group's keys.
  out.token_mode = single                         ? TokenMode::kDone
                   : sorting || grouped || joined ? TokenMode::kSortKey
                                                  : TokenMode::kStream;
  RowShape shape =
      ShapeRows(select, distinct, sorting, groups ? &*groups : nullptr,
                joined ? &joins.order : nullptr, &joins.pinned, &out.hidden);
  if (out.token_mode == TokenMode::kStream) {
    DecodeOnlyWhatIsRead(select, root.get());
  }
  if (top_join && !sorting && !grouped) {
    top_join->sort_keys = shape.sort_keys;
    for (const SortKey& k : joins.order) {
      top_join->order_columns.push_back(k.column);
    }
  }

  // What is left to return when resuming.
  if (resume) {
    if (out.token_mode == TokenMode::kDone) {
      limit = 0;
    } else {
      if (limit >= 0) limit = std::max<int64_t>(0, limit - resume->emitted);
      offset = 0;
    }
  }

  // 2. Projection (or the aggregates).
  if (select.aggregate) {
    const size_t runs =
        group_stream ? RunComponents(select, *groups, *root, shape.exprs) : 0;
    std::string detail;
    double rows = 1;
    if (grouped) {
      detail = "by (";
      for (size_t i = 0; i < groups->keys.size(); ++i) {
        if (i) detail += ", ";
        detail += ExprToString(*groups->keys[i].expr, select.column_names);
        if (groups->keys[i].desc) detail += " DESC";
      }
      detail += group_stream ? ") in key order, " : "), ";
      if (runs > 0) detail += "counting runs of keys, ";
      rows = EstimateGroups(*select.table, *groups, input.stats,
                            root->estimated_rows);
    }
    detail += std::to_string(select.aggregates.size()) + " functions";
    if (select.having) detail += ", HAVING";
    root = Wrap(Kind::kAggregate, detail, std::move(root));
    root->aggregates = &select.aggregates;
    root->estimated_rows = rows;
    if (groups) {
      for (const GroupKey& g : groups->keys) {
        root->group_keys.push_back(g.expr);
        root->collations.push_back(g.collation);
      }
      for (auto& e : groups->owned) out.hidden.push_back(std::move(e));
      root->run_components = runs;
      // Without a sort above, the groups' order is the rows' order.
      if (!sorting) root->sort_keys = shape.sort_keys;
    }
    root->predicate = select.having.get();
  } else {
    root = Wrap(Kind::kProject, "", std::move(root));
  }
  root->exprs = shape.exprs;

  // 3. Distinct.
  if (select.distinct) {
    root = Wrap(Kind::kDistinct, "", std::move(root));
    root->width = select.outputs.size();
    for (const auto& e : select.outputs) {
      root->collations.push_back(CarriedCollation(*e));
    }
  }

  // 4. Resume after a token's sort position.
  if ((sorting || grouped || joined) && resume &&
      resume->kind == ResumePoint::Kind::kSortKey) {
    // The same query (the token's fingerprint says so) ordered by other
    // keys: its plan changed.
    if (resume->sort_key.size() != shape.sort_keys.size()) {
      return PlanChangedError();
    }
    root = Wrap(Kind::kResumeAfter, "", std::move(root));
    root->sort_keys = shape.sort_keys;
    root->resume_row.assign(shape.exprs.size(), Value());
    for (size_t i = 0; i < shape.sort_keys.size(); ++i) {
      root->resume_row[shape.sort_keys[i].column] = resume->sort_key[i];
    }
  }

  // 5. Order.
  if (sorting) {
    root = OrderNode(std::move(root), shape.sort_keys, limit, offset, rules,
                     !has_order || ordered ? "(DISTINCT)"
                     : order               ? ""
                                           : "(ORDER BY an expression)");
  }

  // 6. Limit.
  root = LimitNode(std::move(root), limit, access.skipped ? 0 : offset);

  out.order_signature = OrderSignature(*root, out.token_mode);
  if (input.backward_rows > 0) {
    ReverseForPage(&root, input.backward_rows);
    NameScans(*select.table, root.get(), false);
    root = LimitNode(std::move(root), input.backward_rows, 0);
  }
  out.plan = std::move(root);
  out.reusable = !select.table->one_row && resume == nullptr &&
                 input.backward_rows == 0 && access.reusable &&
                 (!joined || joins.reusable);
  return out;
}

PlannedRows PlanRows(std::shared_ptr<const TableSchema> table,
                     const std::vector<std::string>& columns,
                     const BoundExpr* where, const PlannerInput& input,
                     bool pk_order) {
  PlannedRows out;
  if (where) {
    out.where =
        NormalizePredicate(CloneExpr(*where), *input.rules, *input.params);
  }
  AccessRequest request;
  request.where = out.where.get();
  request.column_names = &columns;
  if (pk_order) {
    for (const KeyColumn& k : table->primary_key) {
      request.order.push_back(
          {k.column, k.direction == keys::Direction::kDesc, k.collation});
    }
  }
  AccessPlan access =
      PlanAccess(std::move(table), *input.rules, input.stats, request);
  out.plan = std::move(access.rows);
  if (pk_order && !access.ordered) {
    out.plan = Wrap(Kind::kSort, "(primary key)", std::move(out.plan));
    for (const OrderColumn& o : request.order) {
      out.plan->sort_keys.push_back({o.column, o.desc, o.collation});
    }
  }
  return out;
}

}  // namespace levelql
