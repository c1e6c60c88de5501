// Plan: the tree of operators chosen for a statement, before it runs.
//
// The planner (planner.h) decides which access path and operators to use;
// the executor (build_operators.h) turns the tree into running operators.
// Each node renders one line of EXPLAIN - terse and stable: kind, what it
// reads (decoded spans), why a sort or filter is there, estimated rows - and
// keeps the counters that EXPLAIN ANALYZE adds. A plan is plain data owned
// by one statement execution; it points into the bound statement and the
// planned expressions, which must outlive it.
#ifndef LEVELQL_ENGINE_PLAN_PLAN_H_
#define LEVELQL_ENGINE_PLAN_PLAN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/exec/expr.h"
#include "engine/plan/access_path.h"
#include "engine/plan/sort_key.h"

namespace levelql {

// Counters one plan node keeps for EXPLAIN ANALYZE.
struct NodeStats {
  uint64_t rows = 0;
  uint64_t keys = 0;
  uint64_t seeks = 0;
  uint64_t spilled_runs = 0;  // Sort: runs written to temporary files
};

struct PlanNode;

// A node's children. Copying a node copies none of them (ClonePlan copies
// a whole tree); moving moves them.
struct PlanChildren : std::vector<std::unique_ptr<PlanNode>> {
  PlanChildren() = default;
  PlanChildren(const PlanChildren&)
      : std::vector<std::unique_ptr<PlanNode>>() {}
  PlanChildren& operator=(const PlanChildren&) { return *this; }
  PlanChildren(PlanChildren&&) = default;
  PlanChildren& operator=(PlanChildren&&) = default;
};

struct PlanNode {
  enum class Kind {
    kEmpty,        // the WHERE clause contradicts itself: no row
    kOneRow,       // SELECT without FROM: one row of no columns
    kTableScan,    // every row, in primary-key order
    kIndexScan,    // spans of an index or of the primary key -> keys
    kIntersect,    // AND of pk-sorted key streams
    kUnion,        // OR of key streams
    kSortKeys,     // materialize and sort a key stream that is not pk-sorted
    kSkip,         // OFFSET counted on keys, before rows are fetched
    kFetch,        // keys -> rows
    kIndexOnly,    // keys -> rows from the index entries alone (no
                   // `index`: from the primary keys of a key stream)
    kFilter,       // rows for which `predicate` holds
    kProject,      // `exprs` over each row
    kAggregate,    // per group of `group_keys` (one group without), the
                   // `aggregates`, then `exprs` over them
    kDistinct,     // rows whose first `width` values are new
    kSort,         // every row, ordered by `sort_keys`
    kTopK,         // the first `top_rows` rows by `sort_keys`
    kLimit,        // `offset` rows skipped, then at most `limit`
    kResumeAfter,  // rows after `resume_row` in the order of `sort_keys`
    kMergeJoin,    // rows of children[0] and [1] with equal join keys
    kNestedLoop,   // every row of children[0] with every one of [1]
    kHashJoin,     // rows of children[0], each with the rows of [1] of an
                   // equal key, held under a hash of the key
    kCompound,     // a compound SELECT's rows: each child is one SELECT's
                   // plan, joined to those before by `compound_ops`
  };
  Kind kind = Kind::kTableScan;
  std::string detail;
  double estimated_rows = 0;
  PlanChildren children;

  // kTableScan, kIndexScan, kSortKeys: read backwards (previous pages,
  // ORDER BY ... DESC over an ascending key).
  bool reverse = false;
  // kIndexScan: which keys.
  AccessPath path;
  // kIntersect: nothing above re-checks its keys, so it must stay an
  // intersection (never continue with its first stream alone).
  bool exact_keys = false;
  // kFetch over a scan that can meet a row more than once: return each row
  // at its first entry only (row_id_stream.h, NewFetch).
  bool first_entry_only = false;
  // kIndexOnly: the index whose entries give the rows, and the columns the
  // query reads from them (none: COUNT(*)).
  const IndexSchema* index = nullptr;
  std::vector<int> read_columns;
  // kFetch, kTableScan: one flag per table column, set for the columns
  // anything above reads from the rows (the others are not decoded);
  // empty: every column (rows::DecodeRowColumns).
  std::vector<char> decode_mask;
  // kSkip
  int64_t skip_rows = 0;
  // kTopK
  int64_t top_rows = 0;
  // kLimit (-1: no limit)
  int64_t limit = -1;
  int64_t offset = 0;
  // kFilter; kAggregate: HAVING
  const BoundExpr* predicate = nullptr;
  // kProject, kAggregate
  std::vector<const BoundExpr*> exprs;
  const std::vector<AggregateSpec>* aggregates = nullptr;
  // kAggregate: GROUP BY, compared with `collations`; the index key
  // components a run of one group shares (aggregate.h), or 0.
  std::vector<const BoundExpr*> group_keys;
  size_t run_components = 0;
  // kSort, kTopK, kResumeAfter; kAggregate: the order groups come in, when
  // no sort follows (for tokens)
  std::vector<SortKey> sort_keys;
  // kDistinct: how many leading values identify a row, and their collations
  // (kAggregate: of the group keys).
  size_t width = 0;
  std::vector<const Collation*> collations;
  // kResumeAfter: the row to resume after (values at sort_keys' columns).
  Row resume_row;
  // kMergeJoin, kNestedLoop, kHashJoin: the table each child reads (null:
  // a child that is itself a join); kMergeJoin, kHashJoin: where the key
  // is in the left rows
  // and in the right rows, and how it compares (`reverse`: both children
  // come in descending key order). Their `sort_keys` (for tokens): the
  // order of the result rows when nothing sorts them again.
  std::vector<std::shared_ptr<const TableSchema>> join_tables;
  // kCompound: how each child after the first joins the ones before it
  // (its `width` values are the result's; `collations` compare them; its
  // `join_tables` are the tables its children read).
  std::vector<parser::CompoundOp> compound_ops;
  // The joined row's columns its `sort_keys` stand for (the join's order:
  // which columns it is differs between plans of one query, so tokens sign
  // it).
  std::vector<int> order_columns;
  // Where the left and the right rows' values go in the joined row, which
  // has the FROM clause's layout (exec/join.h, JoinLayout); `left_key` is a
  // position in the left rows (a table's own row for the first join).
  int join_left_at = 0;
  int join_right_at = 0;
  int left_key = -1;
  int right_key = -1;
  // kMergeJoin: the right input may seek to a left key (when it is one
  // scan whose next key column is the join key) instead of stepping.
  bool seek_right = false;
  // kNestedLoop of a LEFT JOIN: a left row pairs with the right rows for
  // which `predicate` (its ON, over the joined row; null: every one) is
  // true, or once with NULLs when none is.
  bool outer_join = false;
  const Collation* join_collation = nullptr;

  NodeStats stats;  // filled while running, for EXPLAIN ANALYZE
};

std::string_view PlanKindName(PlanNode::Kind kind);

// A copy of the tree under `root`, with counters at zero. It points at
// what `root` points at.
std::unique_ptr<PlanNode> ClonePlan(const PlanNode& root);

// One line per node, children indented by two spaces (the root by two
// per `depth`). With `analyze`, each line ends with the actual counters.
std::string RenderPlan(const PlanNode& root, bool analyze, int depth = 0);

// The nodes from `root` down its first children (the spine every plan of
// one table has), for finding a node of a kind.
const PlanNode* FindOnSpine(const PlanNode& root, PlanNode::Kind kind);

// The node whose sort keys give the order of a plan's result rows: the
// topmost Sort, TopK, Aggregate or join on the spine (a sort below an
// aggregate only groups its input, one below a join orders a join input).
const PlanNode* OrderingNode(const PlanNode& root);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_PLAN_H_
