// Plan reuse: a prepared SELECT is planned once and later executions with
// other parameter values reuse the plan.
//
// A plan is made for values: they are folded into the WHERE clause, and the
// folded constants shape each scan's key ranges. A reused plan keeps every
// choice made for the first values (which index, intersection or union,
// order, index-only, OFFSET on keys) and derives again what the new values
// decide: the normalized WHERE clause and each scan's key ranges. The
// choices rest on facts about the ranges (how many leading columns are
// points, whether the ranges prove the terms, how many spans, which terms
// they answer); when the new values give a range of another shape, or an
// empty one, or the WHERE clause folds to another tree, the plan is not
// reused and the statement is planned afresh. So a reused plan is correct
// for every value it accepts, and the plan a fresh planning would choose
// for values of the same shape, but for estimates: like SQLite's plans, it
// does not look at how many rows the new values select.
//
// A plan whose WHERE clause is only equalities `column = <parameters and
// constants>`, each answered exactly by a scan's point key, reuses faster:
// each value is computed and encoded into the scan's key directly, without
// normalizing the clause again (PointScan below). The template proves the
// recipe when it is made: encoding its own values must give the very keys
// its plan holds, or the recipe is not kept.
//
// Thread-safety: a PlanTemplate is shared. What it plans from is immutable;
// the copies of its plan that ended runs give back (below) are held under a
// mutex, so threads running one prepared statement each take their own.
#ifndef LEVELQL_ENGINE_PLAN_PLAN_CACHE_H_
#define LEVELQL_ENGINE_PLAN_PLAN_CACHE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/plan/planner.h"
#include "engine/plan/rules.h"

namespace levelql {

// The key of an equality-only scan of a kept plan, from parameter values:
// the keyspace's prefix, then for each key column in order the value the
// WHERE clause sets it to (an expression of parameters and constants, and
// in a correlated subquery of the row around it).
struct PointScan {
  struct Column {
    KeyColumn key;
    const BoundExpr* value = nullptr;  // in the statement's WHERE clause
    Type type = Type::kNull;  // of the template's value (another: planned anew)
  };
  const TableSchema* table = nullptr;  // the scan's (a join: one of them)
  std::string prefix;
  std::vector<Column> columns;
};

// A plan kept for reuse, and what it was made under besides the catalog
// (the prepared statement's binding is per catalog, statistics included).
// The copies of its plan that runs have ended are kept for the next runs
// (a handful: one per run at once), so a run neither copies nor frees one.
struct PlanTemplate : PlanSpares {
  PlanTemplate() { spares_.reserve(kMaxSpares); }  // GiveBack never allocates

  RuleSet rules;
  int64_t limit = -1;  // evaluated LIMIT (-1: none) and OFFSET
  int64_t offset = 0;
  PlannedSelect planned;  // planned.reusable
  // Set when the plan reads the WHERE clause only through point keys: one
  // per scan that has terms, in the order of a depth-first walk.
  std::optional<std::vector<PointScan>> point_scans;

  // The spares are a cache: handing them out and back leaves what the
  // template plans from unchanged, hence const.
  void GiveBack(std::unique_ptr<PlanNode> plan) const noexcept override;
  // A copy of planned.plan that a run gave back, or null. Its scans' ranges
  // and filters still point into that run's WHERE clause: ReusePlan sets
  // them from the template before the copy runs again.
  std::unique_ptr<PlanNode> TakeSpare() const;

 private:
  static constexpr size_t kMaxSpares = 4;
  mutable std::mutex mu_;
  mutable std::vector<std::unique_ptr<PlanNode>> spares_;
};

// Makes `planned` a template: a kept plan is only run, never shown, so its
// EXPLAIN text (node details, span labels) is dropped rather than copied
// into every run made from it.
// `select` is the statement `planned` was made for; it outlives the template.
std::shared_ptr<const PlanTemplate> MakePlanTemplate(const BoundSelect& select,
                                                     RuleSet rules,
                                                     int64_t limit,
                                                     int64_t offset,
                                                     PlannedSelect planned);

// A plan for `params` made from `t`: the WHERE clause normalized for them
// and every scan's ranges derived from it; the result keeps `t` alive.
// Nullopt when the values shape the plan differently (above). A correlated
// subquery's plan is reused the same way for other values of the row
// around it: `run` is its run's context, whose `outer` holds them (null
// for a statement).
std::optional<PlannedSelect> ReusePlan(std::shared_ptr<const PlanTemplate> t,
                                       const BoundSelect& select,
                                       const std::vector<Value>& params,
                                       const ExecContext* run = nullptr);

// Sets the point keys of `plan`, a plan ReusePlan made from `t` by its
// PointScan recipes (PlannedSelect::point_keys) for earlier values, for
// `params`: the plan a reuse would make for them. False (the plan then
// half set: end it) when the recipes do not take these values.
bool SetKeptPointKeys(const PlanTemplate& t, PlanNode* plan,
                      const std::vector<Value>& params);

// Plans ReusePlan has made in this process, and of them those made from a
// copy an ended run gave back (tests check both happen).
uint64_t PlanReuses();
uint64_t PlanSparesTaken();
// Of PlanReuses(), those whose keys were built from a PointScan recipe.
uint64_t PlanPointReuses();

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_PLAN_CACHE_H_
