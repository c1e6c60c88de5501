#include "engine/plan/join_planner.h"

#include <algorithm>
#include <set>
#include <string>

#include "engine/exec/value_ops.h"
#include "engine/plan/access_planner.h"
#include "engine/plan/normalize.h"

namespace levelql {
namespace {

using Kind = PlanNode::Kind;

// Which FROM table a position of the joined row belongs to.
int SideOf(const BoundSelect& s, int position) {
  int side = 0;
  for (size_t i = 1; i < s.from.size(); ++i) {
    if (position >= s.from[i].offset) side = static_cast<int>(i);
  }
  return side;
}

int WidthOf(const BoundSelect& s, size_t side) {
  const int end = side + 1 < s.from.size()
                      ? s.from[side + 1].offset
                      : static_cast<int>(s.table->columns.size());
  return end - s.from[side].offset;
}

void Shift(BoundExpr* e, int by) {
  if (e->kind == BoundExpr::Kind::kColumn) e->index += by;
  for (auto& a : e->args) Shift(a.get(), by);
}

BoundExprPtr AndOf(std::vector<BoundExprPtr> terms) {
  BoundExprPtr out;
  for (auto& t : terms) {
    out = out ? MakeAnd(std::move(out), std::move(t)) : std::move(t);
  }
  return out;
}

// A merge join's key: a term `x = y` between a column of the table being
// joined (`right`, a position in its own row) and one of the tables before
// it (`left`, a position in the joined row), whose values compare the same
// way in both (numbers with numbers, text with text of one collation).
struct MergeKey {
  const BoundExpr* term = nullptr;
  int left = -1;
  int right = -1;
  const Collation* collation = nullptr;
  // Text columns of other collations than the term's: their orders are not
  // the term's, so only a hash join (by the term's collation) pairs them.
  bool hash_only = false;
};

bool Numeric(Type t) {
  return t == Type::kInteger || t == Type::kReal || t == Type::kBoolean;
}

// The first term of `terms` that can key a join of table `side` to the
// tables `placed` marks (joined before it): one a merge join can use, else
// (`hash_ok`) one only a hash join can.
std::optional<MergeKey> FindMergeKey(const BoundSelect& s, size_t side,
                                     const std::vector<bool>& placed,
                                     const std::vector<const BoundExpr*>& terms,
                                     bool hash_ok) {
  auto before = [&](const BoundExpr* e) { return placed[SideOf(s, e->index)]; };
  for (const bool hash_only : {false, true}) {
    if (hash_only && !hash_ok) break;
    for (const BoundExpr* t : terms) {
      if (t->kind != BoundExpr::Kind::kBinary ||
          t->binary_op != parser::BinaryOp::kEq) {
        continue;
      }
      const BoundExpr* a = t->args[0].get();
      const BoundExpr* b = t->args[1].get();
      if (a->kind != BoundExpr::Kind::kColumn ||
          b->kind != BoundExpr::Kind::kColumn || a->is_list || b->is_list) {
        continue;
      }
      if (SideOf(s, b->index) == static_cast<int>(side) && before(a)) {
        std::swap(a, b);
      }
      if (SideOf(s, a->index) != static_cast<int>(side) || !before(b)) {
        continue;
      }
      // Text compares with the term's collation; for a merge both columns
      // must have it, so that each one's own order (an index on it, an
      // equality that pins it) is the order the merge needs. A hash join
      // hashes both by it.
      const bool text = a->type == Type::kText && b->type == Type::kText;
      const bool comparable =
          (Numeric(a->type) && Numeric(b->type)) ||
          (text && (hash_only || (a->collation == t->collation &&
                                  b->collation == t->collation)));
      if (!comparable) continue;
      MergeKey k;
      k.term = t;
      k.left = b->index;
      k.right = a->index - s.from[side].offset;
      k.collation = text ? t->collation : nullptr;
      k.hash_only = hash_only;
      return k;
    }
  }
  return std::nullopt;
}

// The order tables join in (FROM indices). The FROM order, when each
// table after the first has an equality to merge on with one before it;
// else (rule join_order) the first table that has such an equality with
// any other, then repeatedly the first table in FROM order that has one
// with those placed, or, when none has, the first left (a nested loop:
// forming every pair is put off until the tables the joined ones key are
// joined). `keys` gets each table's merge key in that order (none for the
// first).
std::vector<size_t> JoinOrder(const BoundSelect& s, const RuleSet& rules,
                              const std::vector<const BoundExpr*>& across,
                              std::vector<std::optional<MergeKey>>* keys) {
  const size_t n = s.from.size();
  const bool hash_ok = rules.on(Rule::kHashJoin);
  std::vector<size_t> order;
  std::vector<bool> placed(n, false);
  keys->assign(n, std::nullopt);
  auto key_of = [&](size_t side) {
    return FindMergeKey(s, side, placed, across, hash_ok);
  };
  auto place = [&](size_t side, std::optional<MergeKey> key) {
    (*keys)[side] = key;
    order.push_back(side);
    placed[side] = true;
  };
  bool keyed = true;  // the FROM order merges every join
  for (size_t k = 0; k < n; ++k) {
    place(k, k > 0 ? key_of(k) : std::nullopt);
    if (k > 0 && !(*keys)[k]) keyed = false;
  }
  if (keyed || !rules.on(Rule::kJoinOrder)) return order;
  order.clear();
  keys->assign(n, std::nullopt);
  // The first table that has such an equality with any other.
  size_t first = 0;
  for (size_t k = 0; k < n; ++k) {
    placed.assign(n, true);
    placed[k] = false;
    if (key_of(k)) {
      first = k;
      break;
    }
  }
  placed.assign(n, false);
  place(first, std::nullopt);
  while (order.size() < n) {
    std::optional<size_t> next;
    std::optional<MergeKey> key;
    for (size_t k = 0; k < n && !next; ++k) {
      if (!placed[k] && (key = key_of(k))) next = k;
    }
    for (size_t k = 0; k < n && !next; ++k) {
      if (!placed[k]) next = k;
    }
    place(*next, key);
  }
  return order;
}

void AppendPk(const TableSchema& t, bool reverse, std::vector<SortKey>* out) {
  for (const KeyColumn& k : t.primary_key) {
    out->push_back({k.column,
                    (k.direction == keys::Direction::kDesc) != reverse,
                    k.collation});
  }
}

// The whole order an access path's rows come in, ties included (positions
// of the table's row): a table scan's is the primary key, an index scan's
// its key columns then the primary key. nullopt when the plan does not say
// (merged spans, intersections, unions: then the caller sorts).
std::optional<std::vector<SortKey>> NaturalOrder(const TableSchema& table,
                                                 const PlanNode* n) {
  while (n->kind == Kind::kFilter || n->kind == Kind::kFetch ||
         n->kind == Kind::kIndexOnly || n->kind == Kind::kSkip) {
    n = n->children[0].get();
  }
  std::vector<SortKey> out;
  if (n->kind == Kind::kEmpty) return out;
  if (n->kind == Kind::kTableScan) {
    AppendPk(table, n->reverse, &out);
    return out;
  }
  if (n->kind != Kind::kIndexScan || MergesSpans(n->path)) return std::nullopt;
  const IndexSchema* index = n->path.index;
  if (index && index->multi_valued) return std::nullopt;
  if (index) {
    for (const KeyColumn& k : index->columns) {
      out.push_back({k.column,
                     (k.direction == keys::Direction::kDesc) != n->reverse,
                     k.collation});
    }
  }
  AppendPk(table, n->reverse, &out);
  return out;
}

bool ConstantOrParam(const BoundExpr& e) {
  return e.kind == BoundExpr::Kind::kConst || e.kind == BoundExpr::Kind::kParam;
}

bool IsColumn(const BoundExpr& e, int column) {
  return e.kind == BoundExpr::Kind::kColumn && e.index == column;
}

// Whether `t` compares column `column` with constants only: `c op k`
// (=, <, <=, >, >=, either way round), `c BETWEEN k AND k`, `c IN (k, ...)`.
bool ComparesOnly(const BoundExpr& t, int column) {
  using Op = parser::BinaryOp;
  switch (t.kind) {
    case BoundExpr::Kind::kBinary: {
      const Op op = t.binary_op;
      if (op != Op::kEq && op != Op::kLt && op != Op::kLe && op != Op::kGt &&
          op != Op::kGe) {
        return false;
      }
      return (IsColumn(*t.args[0], column) && ConstantOrParam(*t.args[1])) ||
             (IsColumn(*t.args[1], column) && ConstantOrParam(*t.args[0]));
    }
    case BoundExpr::Kind::kBetween:
    case BoundExpr::Kind::kIn:
      if (t.negated || !IsColumn(*t.args[0], column)) return false;
      for (size_t i = 1; i < t.args.size(); ++i) {
        if (!ConstantOrParam(*t.args[i])) return false;
      }
      return true;
    default:
      return false;
  }
}

// Makes `e`'s references to column `from` refer to `to` (of schema `c`).
void Rename(BoundExpr* e, int from, int to, const ColumnSchema& c) {
  for (auto& a : e->args) {
    if (a->kind == BoundExpr::Kind::kColumn && a->index == from) {
      a = MakeColumn(c, to);
    } else {
      Rename(a.get(), from, to, c);
    }
  }
}

bool ReadsAll(const std::set<int>& read, const std::vector<SortKey>& keys) {
  for (const SortKey& k : keys) {
    if (!read.contains(k.column)) return false;
  }
  return true;
}

// The most rows (estimated) a hash join's right input may have; past it
// the join sorts both inputs and merges them, whose memory is bounded.
// (The hash join itself stays within sort_memory_bytes whatever the rows.)
constexpr double kHashJoinRows = 200000;

class JoinPlanner {
 public:
  JoinPlanner(const BoundSelect& s, const std::set<int>& needed,
              const PlannerInput& input, JoinPlan* out)
      : s_(s), input_(input), out_(out), needed_(needed) {}

  // Splits `where` into each table's terms (normalized, over its own row;
  // ranges copied across merge keys) and the terms naming several tables,
  // finds the merge keys, and puts the terms into out_->owned: each table's
  // (when it has any), then the AND of the others.
  void PrepareTerms(const BoundExpr* where) {
    const size_t n = s_.from.size();
    std::vector<std::vector<BoundExprPtr>> side_terms(n);
    std::vector<const BoundExpr*> terms;
    Conjuncts(where, &terms);
    std::vector<std::pair<int, BoundExprPtr>> single;  // side, term
    std::vector<int> origin;  // of each of `single`: its index in `terms`
    for (size_t index = 0; index < terms.size(); ++index) {
      const BoundExpr* t = terms[index];
      std::set<int> cols;
      ColumnsUsed(t, &cols);
      std::set<int> sides;
      for (int c : cols) sides.insert(SideOf(s_, c));
      if (sides.size() <= 1) {
        if (t->kind == BoundExpr::Kind::kBinary &&
            t->binary_op == parser::BinaryOp::kEq && cols.size() == 1 &&
            ComparesOnly(*t, *cols.begin())) {
          out_->pinned.insert(*cols.begin());
        }
        single.emplace_back(sides.empty() ? 0 : *sides.begin(), CloneExpr(*t));
        origin.push_back(static_cast<int>(index));
      } else {
        across_.push_back(t);
        for (int c : cols) needed_.insert(c);  // the Filter reads them
      }
    }
    sequence_ = JoinOrder(s_, *input_.rules, across_, &keys_);
    // A key's range on one side is the other side's too (a = b and a < 5:
    // b < 5), so both read only the rows that can pair: copied along the
    // join order, then back against it, so that it reaches every table
    // the keys chain to. Each term of the WHERE clause goes to a column
    // once (known by where it came from, not by its values: a plan must
    // not depend on them).
    std::set<std::pair<int, int>> written;  // origin, column
    for (size_t i = 0; i < single.size(); ++i) {
      std::set<int> cols;
      ColumnsUsed(single[i].second.get(), &cols);
      for (int c : cols) written.insert({origin[i], c});
    }
    auto copy_across = [&](size_t k) {
      const int left = keys_[k]->left;
      const int right = s_.from[k].offset + keys_[k]->right;
      for (size_t i = 0, end = single.size(); i < end; ++i) {
        const BoundExpr& t = *single[i].second;
        for (auto [from, to] :
             {std::pair{left, right}, std::pair{right, left}}) {
          if (!ComparesOnly(t, from)) continue;
          BoundExprPtr copy = CloneExpr(t);
          Rename(copy.get(), from, to, s_.table->columns[to]);
          if (out_->pinned.contains(from)) out_->pinned.insert(to);
          if (!written.insert({origin[i], to}).second) continue;
          single.emplace_back(SideOf(s_, to), std::move(copy));
          const int from_term = origin[i];
          origin.push_back(from_term);
        }
      }
    };
    // (Not across a key of other collations: equal under the term's, the
    // columns' own ranges differ.)
    auto copies = [&](size_t k) { return keys_[k] && !keys_[k]->hash_only; };
    for (size_t i = 1; i < n; ++i) {
      if (copies(sequence_[i])) copy_across(sequence_[i]);
    }
    for (size_t i = n; i-- > 1;) {
      if (copies(sequence_[i])) copy_across(sequence_[i]);
    }
    std::vector<std::vector<int>> side_origins(n);
    for (size_t i = 0; i < single.size(); ++i) {
      auto& [side, term] = single[i];
      Shift(term.get(), -s_.from[side].offset);
      side_terms[side].push_back(std::move(term));
      side_origins[side].push_back(origin[i]);
    }
    side_where_.assign(n, nullptr);
    for (size_t i = 0; i < n; ++i) {
      if (side_terms[i].empty()) continue;
      out_->owned.push_back(NormalizePredicate(AndOf(std::move(side_terms[i])),
                                               *input_.rules, *input_.params,
                                               input_.outer));
      out_->origins.push_back(std::move(side_origins[i]));
      side_where_[i] = out_->owned.back().get();
    }
    // The terms the joined rows are checked against: all but the
    // equalities merged on, which the merge compares exactly as `=` does
    // (numbers, or text under the term's collation; NULLs pair with
    // nothing). Each is checked right after the join that brings in the
    // last of its tables, so that no later join pairs rows it rejects.
    std::vector<size_t> position(n);
    for (size_t i = 0; i < n; ++i) position[sequence_[i]] = i;
    std::vector<std::vector<BoundExprPtr>> at_join(n);
    for (const BoundExpr* t : across_) {
      const bool merged = std::any_of(
          keys_.begin(), keys_.end(),
          [t](const std::optional<MergeKey>& k) { return k && k->term == t; });
      if (merged) continue;
      std::set<int> cols;
      ColumnsUsed(t, &cols);
      size_t join = 1;  // the first two tables join first, in either order
      for (int c : cols) join = std::max(join, position[SideOf(s_, c)]);
      at_join[join].push_back(CloneExpr(*t));
    }
    across_where_.assign(n, nullptr);
    for (size_t i = 1; i < n; ++i) {
      if (at_join[i].empty()) continue;
      out_->owned.push_back(AndOf(std::move(at_join[i])));
      out_->origins.emplace_back();
      across_where_[i] = out_->owned.back().get();
    }
  }

  // A FROM with a LEFT JOIN: the tables in FROM order, joined by nested
  // loops; a LEFT JOIN pairs a left row with the right rows its ON allows,
  // or with NULLs. A table's own WHERE terms read through its access path,
  // except the right side of a LEFT JOIN's (they must see its NULLs),
  // whose own ON terms do instead; every other term is checked on the
  // joined rows. (Merge and hash joins, join order and ranges copied across
  // keys are for inner joins only.)
  void PlanOuter(const BoundExpr* where) {
    const size_t n = s_.from.size();
    std::vector<std::vector<BoundExprPtr>> side_terms(n), on_terms(n);
    std::vector<BoundExprPtr> rest;
    auto split = [&](const BoundExpr* e, int only,
                     std::vector<BoundExprPtr>* other) {
      std::vector<const BoundExpr*> terms;
      Conjuncts(e, &terms);
      for (const BoundExpr* t : terms) {
        std::set<int> cols;
        ColumnsUsed(t, &cols);
        std::set<int> sides;
        for (int c : cols) sides.insert(SideOf(s_, c));
        const int side = sides.size() == 1 ? *sides.begin() : -1;
        if (side >= 0 && (only < 0 ? !s_.from[side].outer : side == only)) {
          BoundExprPtr copy = CloneExpr(*t);
          Shift(copy.get(), -s_.from[side].offset);
          side_terms[side].push_back(std::move(copy));
        } else {
          other->push_back(CloneExpr(*t));
        }
      }
    };
    split(where, -1, &rest);
    for (size_t i = 1; i < n; ++i) {
      if (s_.from[i].outer && s_.from[i].on) {
        split(s_.from[i].on.get(), static_cast<int>(i), &on_terms[i]);
      }
    }
    side_where_.assign(n, nullptr);
    for (size_t i = 0; i < n; ++i) {
      if (side_terms[i].empty()) continue;
      out_->owned.push_back(NormalizePredicate(AndOf(std::move(side_terms[i])),
                                               *input_.rules, *input_.params,
                                               input_.outer));
      out_->origins.emplace_back();
      side_where_[i] = out_->owned.back().get();
    }
    sequence_.clear();
    for (size_t i = 0; i < n; ++i) sequence_.push_back(i);
    // The rows hold what the checks above them read and every key (the
    // joined rows' order).
    for (const auto& t : rest) ColumnsUsed(t.get(), &needed_);
    for (const auto& terms : on_terms) {
      for (const auto& t : terms) ColumnsUsed(t.get(), &needed_);
    }
    for (size_t i = 0; i < n; ++i) {
      for (const KeyColumn& k : s_.from[i].table->primary_key) {
        needed_.insert(s_.from[i].offset + k.column);
      }
    }
    std::vector<SortKey> order;
    std::unique_ptr<PlanNode> left = Side(0, &order);
    ShiftOrder(s_.from[0].offset, &order);
    for (size_t i = 1; i < n; ++i) {
      std::vector<SortKey> right_order;
      auto right = Side(i, &right_order);
      // An equality of ON between this table's column and one before it
      // keys a hash join: each left row meets only the right rows of its
      // key (held under a hash of it) instead of every right row.
      // An inner join's is a WHERE equality between its table and one
      // before it (still checked above with the other terms: a filter on
      // the tables joined so far commutes with the joins after them).
      std::optional<MergeKey> key;
      if (input_.rules->on(Rule::kHashJoin)) {
        std::vector<const BoundExpr*> terms;
        for (const auto& t : s_.from[i].outer ? on_terms[i] : rest) {
          terms.push_back(t.get());
        }
        std::vector<bool> placed(n, false);
        for (size_t j = 0; j < i; ++j) placed[j] = true;
        key = FindMergeKey(s_, i, placed, terms, true);
      }
      std::string detail;
      if (key) detail = " on " + ExprToString(*key->term, s_.column_names);
      std::vector<BoundExprPtr> checked;
      for (auto& t : on_terms[i]) {
        if (key && t.get() == key->term) {
          out_->owned.push_back(std::move(t));  // the key the join compares
          out_->origins.emplace_back();
        } else {
          checked.push_back(std::move(t));
        }
      }
      const BoundExpr* on = nullptr;
      if (!checked.empty()) {
        out_->owned.push_back(AndOf(std::move(checked)));
        out_->origins.emplace_back();
        on = out_->owned.back().get();
        detail += (key ? " and " : " on ") + ExprToString(*on, s_.column_names);
      }
      detail = s_.from[i].outer ? "LEFT" + detail
               : key            ? detail.substr(1)
                                : "(no equality to merge on)";
      auto node = Join(key ? Kind::kHashJoin : Kind::kNestedLoop,
                       std::move(detail), std::move(left), std::move(right), i);
      if (key) {
        node->left_key = key->left;  // (the first table's offset is 0)
        node->right_key = key->right;
        node->join_collation = key->collation;
      }
      node->outer_join = s_.from[i].outer;
      node->predicate = on;
      node->estimated_rows = key ? std::max(node->children[0]->estimated_rows,
                                            node->children[1]->estimated_rows)
                                 : node->children[0]->estimated_rows *
                                       node->children[1]->estimated_rows;
      ShiftOrder(s_.from[i].offset, &right_order);
      order.insert(order.end(), right_order.begin(), right_order.end());
      left = std::move(node);
    }
    if (!rest.empty()) {
      out_->owned.push_back(AndOf(std::move(rest)));
      out_->origins.emplace_back();
      left = Checked(std::move(left), out_->owned.back().get());
    }
    out_->order = order;
    out_->rows = std::move(left);
    out_->reusable = false;
  }

  void Plan(const BoundExpr* where) {
    PrepareTerms(where);
    const size_t n = s_.from.size();
    const auto& keys = keys_;
    for (size_t i = 0; i < n; ++i) {
      for (const KeyColumn& k : s_.from[i].table->primary_key) {
        needed_.insert(s_.from[i].offset + k.column);
      }
    }
    if (n > 1 && keys[sequence_[1]] && !keys[sequence_[1]]->hash_only &&
        input_.rules->on(Rule::kJoinOrder)) {
      SmallerFirst();
    }
    // The first table, ordered for the first join (positions of its own
    // row; Side makes them the whole order, then they become positions of
    // the joined row).
    const size_t first = sequence_[0];
    const int first_at = s_.from[first].offset;
    std::vector<SortKey> order;
    if (n > 1 && keys[sequence_[1]] && !keys[sequence_[1]]->hash_only) {
      const MergeKey& key = *keys[sequence_[1]];
      order.push_back({key.left - first_at, false, key.collation});
    }
    bool left_sorted = false;
    std::unique_ptr<PlanNode> left = Side(first, &order, &left_sorted);
    ShiftOrder(first_at, &order);
    for (size_t i = 1; i < n; ++i) {
      const size_t k = sequence_[i];
      std::vector<SortKey> right_order;
      std::unique_ptr<PlanNode> node;
      if (keys[k]) {
        const MergeKey& key = *keys[k];
        if (!key.hash_only) {
          right_order.push_back({key.right, false, key.collation});
        }
        bool right_sorted = false;
        auto right = Side(k, &right_order, &right_sorted);
        // Neither input comes in key order (the joined rows after the
        // first join never do): a hash join sorts neither, while the right
        // rows are few enough to hold.
        const bool hash =
            key.hash_only || (right_sorted && (i > 1 || left_sorted) &&
                              input_.rules->on(Rule::kHashJoin) &&
                              right->estimated_rows <= kHashJoinRows);
        if (hash && !key.hash_only) {  // (a hash-only key asked no order)
          if (i == 1) {
            order.clear();
            left = Side(first, &order);
            ShiftOrder(first_at, &order);
          }
          right_order.clear();
          right = Side(k, &right_order);
        } else if (!hash && i > 1) {
          // Re-order the joined rows by this key, then every primary key.
          std::vector<SortKey> by_key = {{key.left, false, key.collation}};
          for (size_t j = 0; j < i; ++j) AppendKey(sequence_[j], &by_key);
          left = WrapPlanNode(Kind::kSort, "(JOIN)", std::move(left));
          left->sort_keys = by_key;
          order = std::move(by_key);
        }
        node = Join(hash ? Kind::kHashJoin : Kind::kMergeJoin,
                    "on " + ExprToString(*key.term, s_.column_names),
                    std::move(left), std::move(right), i);
        // The first join's left rows are the first table's own.
        node->left_key = i == 1 ? key.left - first_at : key.left;
        node->right_key = key.right;
        node->seek_right = !hash && input_.rules->on(Rule::kMergeSeek);
        if (!key.hash_only) {  // equal values also order alike
          out_->equal.emplace_back(key.left, s_.from[k].offset + key.right);
        }
        node->join_collation = key.collation;
        node->estimated_rows = std::max(node->children[0]->estimated_rows,
                                        node->children[1]->estimated_rows);
      } else {
        auto right = Side(k, &right_order);
        node = Join(Kind::kNestedLoop, "(no equality to merge on)",
                    std::move(left), std::move(right), i);
        node->estimated_rows = node->children[0]->estimated_rows *
                               node->children[1]->estimated_rows;
      }
      // The order is now that, then the right rows' order within a key.
      ShiftOrder(s_.from[k].offset, &right_order);
      order.insert(order.end(), right_order.begin(), right_order.end());
      left = std::move(node);
      if (const BoundExpr* p = across_where_[i]) {
        left = Checked(std::move(left), p);
      }
    }
    out_->order = order;
    out_->rows = std::move(left);
  }

 private:
  // Appends table `side`'s primary key to an order over joined rows.
  void AppendKey(size_t side, std::vector<SortKey>* order) const {
    const int at = s_.from[side].offset;
    for (const KeyColumn& k : s_.from[side].table->primary_key) {
      order->push_back(
          {at + k.column, k.direction == keys::Direction::kDesc, k.collation});
    }
  }

  // Makes the second table the first when its rows are estimated at a
  // quarter of the first's or fewer, the first's come in key order without
  // a sort, and the key is not fixed to one value: the merge then reads the
  // few rows and, past each key, seeks the many (an index nested-loop
  // join), and ends with the few.
  void SmallerFirst() {
    const size_t a = sequence_[0], b = sequence_[1];
    const MergeKey& key = *keys_[b];
    // One key value: nothing to seek past, and the first's rows (in their
    // order within the key) stream while the second's of the key are held.
    if (out_->pinned.contains(key.left)) return;
    std::vector<SortKey> a_order = {
        {key.left - s_.from[a].offset, false, key.collation}};
    std::vector<SortKey> b_order = {{key.right, false, key.collation}};
    bool a_sorted = false;
    const double a_rows = Side(a, &a_order, &a_sorted)->estimated_rows;
    const double b_rows = Side(b, &b_order)->estimated_rows;
    if (a_sorted || b_rows * 4 > a_rows) return;
    // The same term keys the join the other way round.
    MergeKey swapped = key;
    swapped.left = s_.from[b].offset + key.right;
    swapped.right = key.left - s_.from[a].offset;
    std::swap(sequence_[0], sequence_[1]);
    keys_[a] = swapped;
    keys_[b].reset();
  }

  // Joins the rows joined so far (the first table's, for the first join,
  // the `i`-th in sequence_) with those of the `i`-th table.
  std::unique_ptr<PlanNode> Join(Kind kind, std::string detail,
                                 std::unique_ptr<PlanNode> left,
                                 std::unique_ptr<PlanNode> right, size_t i) {
    auto node = NewPlanNode(kind, std::move(detail), 0);
    const BoundTableRef& first = s_.from[sequence_[0]];
    const BoundTableRef& joined = s_.from[sequence_[i]];
    node->join_tables = {i == 1 ? first.table : nullptr, joined.table};
    node->join_left_at = i == 1 ? first.offset : 0;
    node->join_right_at = joined.offset;
    node->children.push_back(std::move(left));
    node->children.push_back(std::move(right));
    return node;
  }

  // Joined rows checked against `p` (terms naming several tables).
  std::unique_ptr<PlanNode> Checked(std::unique_ptr<PlanNode> rows,
                                    const BoundExpr* p) const {
    rows = WrapPlanNode(Kind::kFilter, ExprToString(*p, s_.column_names),
                        std::move(rows));
    rows->predicate = p;
    rows->estimated_rows = rows->children[0]->estimated_rows * 0.5;
    return rows;
  }

  static void ShiftOrder(int by, std::vector<SortKey>* order) {
    for (SortKey& k : *order) k.column += by;
  }

  // The rows of table `side` its own terms allow, ordered by `*order`
  // (positions of its row; empty: any order), which becomes the whole order
  // they come in, ties included (a total one).
  // *sorted (when given) tells whether a Sort had to give that order.
  std::unique_ptr<PlanNode> Side(size_t side, std::vector<SortKey>* order,
                                 bool* sorted = nullptr) {
    const BoundTableRef& ref = s_.from[side];
    const int width = WidthOf(s_, side);
    const BoundExpr* where = side_where_[side];
    std::set<int> needed;
    for (int c : needed_) {
      if (c >= ref.offset && c < ref.offset + width)
        needed.insert(c - ref.offset);
    }
    std::vector<std::string> names(
        s_.column_names.begin() + ref.offset,
        s_.column_names.begin() + ref.offset + width);
    AccessRequest request;
    request.where = where;
    request.column_names = &names;
    request.needed = &needed;
    for (const SortKey& k : *order) {
      request.order.push_back({k.column, k.desc, k.collation});
    }
    const TableStats* stats =
        input_.stats_of ? input_.stats_of(*ref.table) : nullptr;
    AccessPlan access = PlanAccess(ref.table, *input_.rules, stats, request);
    out_->reusable = out_->reusable && access.reusable;
    std::optional<std::vector<SortKey>> natural;
    if (access.ordered) natural = NaturalOrder(*ref.table, access.rows.get());
    if (natural && !ReadsAll(needed, *natural)) {
      // The rows must hold the columns their order is told by (tokens
      // compare them): read them too, and check the plan still gives it.
      for (const SortKey& k : *natural) needed.insert(k.column);
      access = PlanAccess(ref.table, *input_.rules, stats, request);
      out_->reusable = out_->reusable && access.reusable;
      natural.reset();
      if (access.ordered) natural = NaturalOrder(*ref.table, access.rows.get());
      if (natural && !ReadsAll(needed, *natural)) natural.reset();
    }
    std::unique_ptr<PlanNode> rows = std::move(access.rows);
    if (natural) {
      // The scan's order starts with the one asked for.
      *order = std::move(*natural);
    } else {
      AppendPk(*ref.table, false, order);
      rows = WrapPlanNode(Kind::kSort, "(JOIN)", std::move(rows));
      rows->sort_keys = *order;
      if (sorted) *sorted = true;
    }
    return rows;
  }

  const BoundSelect& s_;
  const PlannerInput& input_;
  JoinPlan* out_;
  std::set<int> needed_;
  std::vector<const BoundExpr*> across_;       // terms naming several tables
  std::vector<size_t> sequence_;               // the order tables join in
  std::vector<std::optional<MergeKey>> keys_;  // of each table but the first
  std::vector<const BoundExpr*> side_where_;   // each table's terms, or null
  // For each join (by position in sequence_), the AND of the terms of
  // across_ checked after it, or null.
  std::vector<const BoundExpr*> across_where_;
};

}  // namespace

bool JoinGivesOrder(const JoinPlan& join,
                    const std::vector<OrderColumn>& order_by, bool* reverse) {
  for (bool flip : {false, true}) {
    size_t next = 0;
    std::set<int> placed;  // columns in order so far, with their equals
    auto place = [&](int column) {
      placed.insert(column);
      for (auto [a, b] : join.equal) {
        if (a == column) placed.insert(b);
        if (b == column) placed.insert(a);
      }
    };
    for (const SortKey& k : join.order) {
      if (next == order_by.size()) break;
      const OrderColumn& o = order_by[next];
      if (k.column == o.column && (k.desc != flip) == o.desc &&
          k.collation == o.collation) {
        ++next;
        place(k.column);
      } else if (!join.pinned.contains(k.column) &&
                 !placed.contains(k.column)) {
        break;
      }
    }
    if (next == order_by.size()) {
      *reverse = flip;
      return true;
    }
  }
  return false;
}

JoinPlan PlanJoins(const BoundSelect& select, const BoundExpr* where,
                   const std::set<int>& needed, const PlannerInput& input) {
  JoinPlan out;
  const bool outer =
      std::any_of(select.from.begin(), select.from.end(),
                  [](const BoundTableRef& t) { return t.outer; });
  if (outer) {
    JoinPlanner(select, needed, input, &out).PlanOuter(where);
  } else {
    JoinPlanner(select, needed, input, &out).Plan(where);
  }
  return out;
}

std::vector<BoundExprPtr> JoinTerms(const BoundSelect& select,
                                    const BoundExpr* where,
                                    const PlannerInput& input) {
  JoinPlan out;
  JoinPlanner(select, {}, input, &out).PrepareTerms(where);
  return std::move(out.owned);
}

}  // namespace levelql
