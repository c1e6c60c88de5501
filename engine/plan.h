// Plan: the tree of operators chosen for a statement, before it runs.
//
// The planner (planner.h) decides which access path and operators to use;
// the executor turns the tree into running operators. Each node renders one
// line of EXPLAIN - terse and stable: kind, what it reads (decoded spans),
// why a sort or filter is there, estimated rows - and keeps the counters that
// EXPLAIN ANALYZE adds. A plan is owned by one statement execution.
#ifndef LEVELQL_ENGINE_PLAN_H_
#define LEVELQL_ENGINE_PLAN_H_

#include <memory>
#include <string>
#include <vector>

#include "engine/access_path.h"
#include "engine/row_id_stream.h"

namespace levelql {

struct PlanNode {
  enum class Kind {
    kEmpty,      // the WHERE clause contradicts itself: no row
    kTableScan,  // every row, in primary-key order
    kIndexScan,  // spans of an index or of the primary key -> keys
    kIntersect,  // AND of pk-sorted key streams
    kUnion,      // OR of key streams
    kSortKeys,   // materialize and sort a key stream that is not pk-sorted
    kSkip,       // OFFSET counted on keys, before rows are fetched
    kFetch,      // keys -> rows
    kIndexOnly,  // keys -> rows from the index entries alone
    kFilter,
    kProject,
    kAggregate,
    kDistinct,
    kSort,
    kTopK,
    kLimit,
    kResumeAfter,  // rows after a continuation token's sort position
  };
  Kind kind = Kind::kTableScan;
  std::string detail;
  double estimated_rows = 0;
  std::vector<std::unique_ptr<PlanNode>> children;

  // kIndexScan
  AccessPath path;
  // kFetch over a scan that can meet a row more than once: return each row
  // at its first entry only (row_id_stream.h, NewFetch).
  bool first_entry_only = false;
  bool reverse = false;
  // kSkip / kLimit / kTopK
  int64_t count = 0;
  int64_t offset = 0;
  // kFilter: the predicate; kProject / kAggregate: the expressions.
  const BoundExpr* predicate = nullptr;
  std::vector<const BoundExpr*> exprs;
  const std::vector<AggregateSpec>* aggregates = nullptr;
  // kSort / kTopK: keys; kDistinct: width and collations.
  std::vector<SortKey> sort_keys;
  size_t width = 0;
  std::vector<const Collation*> collations;
  // kResumeAfter: the row to resume after (values at sort_keys' columns).
  Row resume_row;

  NodeStats stats;  // filled while running, for EXPLAIN ANALYZE
};

std::string_view PlanKindName(PlanNode::Kind kind);

// One line per node, children indented by two spaces. With `analyze`, each
// line ends with the actual counters.
std::string RenderPlan(const PlanNode& root, bool analyze);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_H_
