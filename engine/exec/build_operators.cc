#include "engine/exec/build_operators.h"

#include "engine/exec/aggregate.h"
#include "engine/exec/compound.h"
#include "engine/exec/join.h"
#include "engine/exec/row_id_stream.h"
#include "engine/exec/row_sources.h"
#include "indexes/key_codec.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

using Kind = PlanNode::Kind;

std::unique_ptr<RowIdStream> BuildKeys(PlanNode* node, ExecContext* ctx,
                                       std::shared_ptr<const TableSchema> t);

// The output of one key tree per bucket of a salted table, merged on the
// primary key (a row's entries share its bucket, so each bucket's
// intersection or union is complete on its own, and the buckets hold
// disjoint rows). Owns the per-bucket contexts, whose store sees one bucket
// (SaltedStore's pin); their read counts go to the statement's context.
class BucketMerge : public RowIdStream {
 public:
  BucketMerge(PlanNode* node, ExecContext* ctx,
              std::shared_ptr<const TableSchema> t)
      : parent_(ctx) {
    std::vector<std::unique_ptr<RowIdStream>> trees;
    for (int b = 0; b < t->salt_buckets; ++b) {
      auto c = std::make_unique<ExecContext>(*ctx);
      c->salted_store = std::make_shared<SaltedStore>(
          ctx->salted_store->base(), ctx->salted_store->layout(), b,
          ctx->salted_store->counter());
      c->store = c->salted_store.get();
      c->bucket = b;
      c->keys_read = c->seeks = 0;
      trees.push_back(BuildKeys(node, c.get(), t));
      contexts_.push_back(std::move(c));
    }
    merged_ = NewUnionStream(std::move(trees), nullptr);
  }
  ~BucketMerge() override {
    merged_.reset();
    for (const auto& c : contexts_) {
      parent_->keys_read += c->keys_read;
      parent_->seeks += c->seeks;
    }
  }
  bool Valid() const override { return merged_->Valid(); }
  void Seek(std::string_view target) override { merged_->Seek(target); }
  void Next() override { merged_->Next(); }
  bool CountRemaining(int64_t* n) override {
    return merged_->CountRemaining(n);
  }
  std::string_view pk() const override { return merged_->pk(); }
  Status status() const override { return merged_->status(); }
  std::string_view entry_key() const override { return merged_->entry_key(); }
  std::string_view entry_value() const override {
    return merged_->entry_value();
  }
  bool reads_rows() const override { return merged_->reads_rows(); }
  bool reverse() const override { return merged_->reverse(); }

 private:
  ExecContext* parent_;
  std::vector<std::unique_ptr<ExecContext>> contexts_;
  std::unique_ptr<RowIdStream> merged_;
};

std::unique_ptr<RowIdStream> BuildKeys(PlanNode* node, ExecContext* ctx,
                                       std::shared_ptr<const TableSchema> t) {
  switch (node->kind) {
    case Kind::kIndexScan:
      return NewSpanStream(ctx, t, node->path, node->reverse, &node->stats);
    case Kind::kIntersect:
    case Kind::kUnion: {
      if (t->salt_buckets > 1 && ctx->bucket < 0 && ctx->salted_store) {
        return std::make_unique<BucketMerge>(node, ctx, t);
      }
      std::vector<std::unique_ptr<RowIdStream>> children;
      for (auto& c : node->children)
        children.push_back(BuildKeys(c.get(), ctx, t));
      return node->kind == Kind::kIntersect
                 ? NewIntersectStream(std::move(children), &node->stats,
                                      node->exact_keys)
                 : NewUnionStream(std::move(children), &node->stats);
    }
    case Kind::kSortKeys:
      return NewSortedStream(BuildKeys(node->children[0].get(), ctx, t),
                             node->reverse, &node->stats);
    case Kind::kSkip:
      return NewSkipStream(BuildKeys(node->children[0].get(), ctx, t),
                           node->skip_rows, &node->stats);
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
  bool CountAll(int64_t* n) override {
    if (!input_->CountAll(n)) return false;
    stats_->rows += static_cast<uint64_t>(*n);
    return true;
  }
  bool SeekEntry(std::string_view target) override {
    if (!input_->SeekEntry(target)) return false;
    ++stats_->seeks;
    return true;
  }
  bool Park() override { return input_->Park(); }
  void Rewind() override { input_->Rewind(); }

 private:
  std::unique_ptr<RowSource> input_;
  NodeStats* stats_;
};

// The columns of the rows `node` hands out that hold values: those its
// scan decodes (the query reads no others), through filters; nullopt when
// any may.
std::optional<std::vector<int>> HeldColumns(const PlanNode& node) {
  const PlanNode* n = &node;
  while (n->kind == Kind::kFilter) n = n->children[0].get();
  if (n->kind == Kind::kIndexOnly) return n->read_columns;
  if ((n->kind == Kind::kFetch || n->kind == Kind::kTableScan) &&
      !n->decode_mask.empty()) {
    std::vector<int> columns;
    for (size_t c = 0; c < n->decode_mask.size(); ++c) {
      if (n->decode_mask[c]) columns.push_back(static_cast<int>(c));
    }
    return columns;
  }
  return std::nullopt;
}

// Moves the root key stream of a resumed query past the token's position.
std::unique_ptr<RowIdStream> Resumed(std::unique_ptr<RowIdStream> ids,
                                     const ResumePoint* r) {
  if (!r) return ids;
  if (r->kind == ResumePoint::Kind::kEntry && ids->position_is_entry()) {
    ids->ResumeAtEntry(r->key, r->inclusive);
  } else if (r->kind == ResumePoint::Kind::kPk) {
    ResumeAtPk(ids.get(), r->key, r->inclusive);
  }
  return ids;
}

// How the right input of merge join `join` seeks to a key value: when it
// is one scan (under filters, and a fetch) of the table, an index or the
// primary key whose first column after the equality-fixed ones is the join
// key, the entry key prefix a key value's entries start with (the span's
// fixed part, then the value's key form); null otherwise.
SeekTarget RightSeekTarget(const PlanNode& join) {
  const PlanNode* n = join.children[1].get();
  while (n->kind == Kind::kFilter) n = n->children[0].get();
  const std::shared_ptr<const TableSchema>& table = join.join_tables[1];
  if (!table || table->salt_buckets > 0) return nullptr;
  const AccessPath* path = nullptr;  // null: a table scan
  bool backward = n->reverse;
  if (n->kind == Kind::kFetch || n->kind == Kind::kIndexOnly) {
    const PlanNode& scan = *n->children[0];
    if (n->first_entry_only || scan.kind != Kind::kIndexScan ||
        scan.path.spans.size() != 1 || MergesSpans(scan.path) ||
        (scan.path.index && scan.path.index->multi_valued)) {
      return nullptr;
    }
    path = &scan.path;
    backward = scan.reverse;
  } else if (n->kind != Kind::kTableScan) {
    return nullptr;
  }
  const IndexSchema* index = path ? path->index : nullptr;
  const std::vector<KeyColumn>& keys = KeyColumnsOf(*table, index);
  const size_t fixed = path ? static_cast<size_t>(path->eq_columns) : 0;
  if (fixed >= keys.size() || keys[fixed].column != join.right_key) {
    return nullptr;
  }
  const KeyColumn key = keys[fixed];
  const Type type = table->columns[key.column].type;
  if (table->columns[key.column].is_list ||
      (type == Type::kText && key.collation != join.join_collation)) {
    return nullptr;
  }
  // The keyspace, then the fixed columns (the span's first bytes).
  std::string prefix = rows::IdPrefix(KeyspaceId(*table, index));
  if (path) {
    const std::string& lo = path->spans[0].lo;
    if (lo.compare(0, prefix.size(), prefix) != 0) return nullptr;
    std::string_view rest = std::string_view(lo).substr(prefix.size());
    for (size_t i = 0; i < fixed; ++i) {
      if (!keys::SkipComponent(&rest, keys[i].direction).ok()) return nullptr;
    }
    prefix = lo.substr(0, lo.size() - rest.size());
  }
  return [prefix = std::move(prefix), table, key, type, backward](
             const Value& v, std::string* target) {
    if (v.type() != type) return false;  // another type: another order
    *target = prefix;
    rows::EncodeKeyColumn(*table, key, v, target);
    if (backward) *target = keys::PrefixSuccessor(*target);
    return true;
  };
}

// Whether reading a join's input again costs only its reads (scans,
// filters, fetches), not a sort or another join's work.
bool ReadsAgainCheaply(const PlanNode& node) {
  switch (node.kind) {
    case Kind::kSortKeys:
    case Kind::kAggregate:
    case Kind::kDistinct:
    case Kind::kSort:
    case Kind::kTopK:
    case Kind::kMergeJoin:
    case Kind::kNestedLoop:
    case Kind::kHashJoin:
      return false;
    default:
      break;
  }
  for (const auto& child : node.children) {
    if (!ReadsAgainCheaply(*child)) return false;
  }
  return true;
}

// Builds join `node` (a merge, hash or nested-loop join); `outputs`: the
// projection a merge join makes (JoinLayout::outputs), or none.
std::unique_ptr<RowSource> BuildJoin(
    PlanNode* node, ExecContext* ctx,
    const std::shared_ptr<const TableSchema>& t,
    std::vector<JoinLayout::Output> outputs) {
  auto input = [node, ctx, t](size_t i) {
    const auto& table = node->join_tables[i];
    return BuildOperators(node->children[i].get(), ctx, table ? table : t);
  };
  JoinLayout layout{node->join_left_at,
                    node->join_right_at,
                    static_cast<int>(t->columns.size()),
                    HeldColumns(*node->children[0]),
                    HeldColumns(*node->children[1]),
                    std::move(outputs)};
  if (node->kind == Kind::kMergeJoin) {
    // A key's right rows past the memory budget are read again per left
    // row when that is only reading (a sorted input is held instead).
    RowSourceFactory reopen;
    if (ReadsAgainCheaply(*node->children[1])) {
      reopen = [input] { return input(1); };
    }
    return NewMergeJoin(ctx, input(0), input(1), std::move(reopen),
                        node->left_key, node->right_key, node->join_collation,
                        node->reverse, ctx->sort_memory_bytes,
                        node->seek_right ? RightSeekTarget(*node) : nullptr,
                        std::move(layout));
  }
  if (node->kind == Kind::kHashJoin) {
    return NewHashJoin(
        ctx, input(0), [input] { return input(1); }, node->left_key,
        node->right_key, node->join_collation, ctx->sort_memory_bytes,
        std::move(layout), node->outer_join, node->predicate);
  }
  return NewNestedLoop(
      ctx, input(0), [input] { return input(1); }, ctx->sort_memory_bytes,
      std::move(layout), node->outer_join, node->predicate);
}

// The values of projection `project` as JoinLayout::outputs of the merge
// join it reads, when that join can make its rows: every value is a column
// (of the FROM clause's layout `t`) and no node's rows are counted
// (EXPLAIN ANALYZE shows the projection's). Empty otherwise. A hash or
// nested-loop join keeps its wide row: its ON reads that row.
std::vector<JoinLayout::Output> JoinOutputs(const PlanNode& project,
                                            const ExecContext& ctx,
                                            const TableSchema& t) {
  const PlanNode& join = *project.children[0];
  if (ctx.count_rows || join.kind != Kind::kMergeJoin ||
      project.exprs.empty()) {
    return {};
  }
  auto width = [&](size_t i) {
    const auto& table = join.join_tables[i];
    return static_cast<int>((table ? *table : t).columns.size());
  };
  const int left_width = width(0), right_width = width(1);
  std::vector<JoinLayout::Output> outputs;
  for (const BoundExpr* e : project.exprs) {
    if (e->kind != BoundExpr::Kind::kColumn) return {};
    // Where both rows would be placed, the right row's value is the one.
    JoinLayout::Output o;
    const int right = e->index - join.join_right_at;
    const int left = e->index - join.join_left_at;
    if (right >= 0 && right < right_width) {
      o = {true, right};
    } else if (left >= 0 && left < left_width) {
      o = {false, left};
    }
    outputs.push_back(o);
  }
  return outputs;
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
    case Kind::kOneRow:
      out = NewValues({Row{}});
      break;
    case Kind::kTableScan:
      out = NewTableScan(ctx, t, node->reverse, &node->decode_mask);
      break;
    case Kind::kFetch:
      return NewFetch(
          ctx, t,
          Resumed(BuildKeys(node->children[0].get(), ctx, t), ctx->resume),
          &node->stats,
          node->first_entry_only ? &node->children[0]->path : nullptr,
          &node->decode_mask);
    case Kind::kIndexOnly:
      return NewIndexOnly(
          t, node->index,
          Resumed(BuildKeys(node->children[0].get(), ctx, t), ctx->resume),
          &node->stats, node->read_columns);
    case Kind::kCompound: {
      // Each SELECT reads from its start: a token's position is the sort's
      // above (kResumeAfter), not a place in one SELECT's scan.
      auto own = std::make_shared<ExecContext>(*ctx);
      own->resume = nullptr;
      std::vector<std::unique_ptr<RowSource>> inputs;
      for (size_t i = 0; i < node->children.size(); ++i) {
        inputs.push_back(BuildOperators(node->children[i].get(), own.get(),
                                        node->join_tables[i]));
      }
      out = NewCompound(ctx, std::move(own), std::move(inputs),
                        node->compound_ops, node->width, node->collations);
      break;
    }
    case Kind::kResumeAfter:
      out = NewResumeFilter(child(0), node->sort_keys, node->resume_row,
                            ctx->resume && ctx->resume->inclusive);
      break;
    case Kind::kFilter:
      out = NewFilter(ctx, child(0), node->predicate);
      break;
    case Kind::kProject: {
      std::vector<JoinLayout::Output> outputs = JoinOutputs(*node, *ctx, *t);
      if (!outputs.empty()) {  // the join below makes the projected rows
        return BuildJoin(node->children[0].get(), ctx, t, std::move(outputs));
      }
      out = NewProject(ctx, child(0), node->exprs);
      break;
    }
    case Kind::kAggregate:
      out = NewAggregate(
          ctx, child(0),
          GroupSpec{node->aggregates, node->exprs, node->group_keys,
                    node->collations, node->predicate, t->columns.size(),
                    node->run_components});
      break;
    case Kind::kMergeJoin:
    case Kind::kNestedLoop:
    case Kind::kHashJoin:
      out = BuildJoin(node, ctx, t, {});
      break;
    case Kind::kDistinct:
      out = NewDistinct(child(0), node->width, node->collations);
      break;
    case Kind::kSort:
      out = NewSort(ctx, child(0), node->sort_keys, -1);
      break;
    case Kind::kTopK:
      out = NewSort(ctx, child(0), node->sort_keys, node->top_rows);
      break;
    case Kind::kLimit:
      out = NewLimit(child(0), node->offset, node->limit);
      break;
    default:
      return NewValues({});
  }
  if (!ctx->count_rows) return out;
  return std::make_unique<Counted>(std::move(out), &node->stats);
}

}  // namespace levelql
