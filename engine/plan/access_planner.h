// Access planning: how to read the rows of one table that a WHERE clause
// can match, cheapest first by estimated cost: a contradiction (no scan), a
// single index or primary-key scan, a leapfrog intersection of pk-sorted
// index scans (AND), a merge union of index scans (OR), or the full table
// scan that is always correct. When the query has an ORDER BY, an index
// scan (forward or reversed) whose equality-fixed prefix is followed by the
// ORDER BY columns gives the rows in order, so LIMIT stops it early.
//
// Above the keys it puts Skip (OFFSET counted on keys), Fetch or IndexOnly,
// and a Filter unless the scan proves the WHERE clause. Every choice is
// guarded by a rule (rules.h); the select planner (planner.h) builds the
// rest of the SELECT on top. Pure functions; thread-compatible.
#ifndef LEVELQL_ENGINE_PLAN_ACCESS_PLANNER_H_
#define LEVELQL_ENGINE_PLAN_ACCESS_PLANNER_H_

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/catalog/stats.h"
#include "engine/plan/plan.h"
#include "engine/plan/rules.h"

namespace levelql {

// One ORDER BY term over a column of the table.
struct OrderColumn {
  int column;
  bool desc;
  const Collation* collation;
};

struct AccessRequest {
  const BoundExpr* where = nullptr;  // normalized (normalize.h); null: all
  const std::vector<std::string>* column_names = nullptr;  // for EXPLAIN
  // The order the rows should come in; empty: any.
  std::vector<OrderColumn> order;
  int64_t limit_hint = -1;  // rows the query reads at most; -1: all
  // Columns the query reads (null: every column, as UPDATE/DELETE need):
  // when one index holds them all, rows are read from its entries.
  const std::set<int>* needed = nullptr;
  int64_t skip = 0;  // OFFSET to count on keys when the rows allow it
  // Resuming from a token, which is past the OFFSET: `skip` still weighs
  // the choice (the plan must be the first page's), but nothing is skipped.
  bool skip_done = false;
  // The query only counts the rows (COUNT(*) and nothing else): a ranked
  // index answers it from its counts.
  bool count_only = false;
};

struct AccessPlan {
  std::unique_ptr<PlanNode> rows;
  bool ordered = false;   // rows come in the requested order
  bool filtered = false;  // a Filter re-checks the WHERE clause
  bool skipped = false;   // the OFFSET was counted on keys (a Skip node)
  // No choice depended on a range being empty (a contradiction, a
  // disjunct left out of a union): the plan holds for other values of the
  // terms' constants whose scans derive to the same shape (plan_cache.h).
  bool reusable = true;
};

AccessPlan PlanAccess(std::shared_ptr<const TableSchema> table,
                      const RuleSet& rules, const TableStats* stats,
                      const AccessRequest& request);

// Helpers for building plan trees.
std::unique_ptr<PlanNode> NewPlanNode(PlanNode::Kind kind, std::string detail,
                                      double rows);
std::unique_ptr<PlanNode> WrapPlanNode(PlanNode::Kind kind, std::string detail,
                                       std::unique_ptr<PlanNode> child);
// The EXPLAIN text of an index scan: index, spans, direction, and for a
// salted table how buckets are read (`per_bucket`: inside a part of the
// plan run once per bucket).
std::string ScanDetail(const TableSchema& table, const AccessPath& path,
                       bool reverse, bool per_bucket);
// Writes the EXPLAIN detail of every scan of a chosen key tree.
void NameScans(const TableSchema& table, PlanNode* node, bool per_bucket);
// Adds the columns `e` reads to *out.
void ColumnsUsed(const BoundExpr* e, std::set<int>* out);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_ACCESS_PLANNER_H_
