// Planner rules: every rewrite and access-path choice has a name and can be
// switched off (PRAGMA disable_rules = 'a,b' or 'all'). With every rule off
// a query plans as a full table scan plus filter, sort and limit: the
// always-correct reference the tests compare the optimized plans against.
#ifndef LEVELQL_ENGINE_PLAN_RULES_H_
#define LEVELQL_ENGINE_PLAN_RULES_H_

#include <bitset>
#include <string>
#include <string_view>

#include "levelql/status.h"

namespace levelql {

enum class Rule {
  kFoldConstants,    // evaluate column-free subexpressions once
  kPushNot,          // NOT pushed into comparisons, AND/OR, IN, BETWEEN
  kOrToIn,           // col = 1 OR col = 3 becomes col IN (1, 3): one scan
  kContradiction,    // a = 1 AND a = 2 answers without a scan
  kPrimaryKeyRange,  // scan a range of the table's primary key
  kIndexScan,        // scan a secondary index
  kIntersect,        // AND of pk-sorted streams: leapfrog intersection
  kUnion,            // OR: merge union of index streams
  kOrderedScan,      // ORDER BY answered by index order, no sort
  kTopK,             // ORDER BY + LIMIT with a bounded heap
  kIndexOnly,        // no row fetch when the index covers the query
  kOffsetSkip,       // OFFSET skips index entries without fetching rows
  kMinMax,           // MIN/MAX of an ordered column: its first entry
  kPlanCache,        // a prepared SELECT reuses its plan (plan_cache.h)
  kMergeSeek,        // a merge join seeks its right input to the next key
  kHashJoin,         // a join on a key neither input is ordered by: hashed
  kJoinOrder,        // tables join in an order that merges on equalities
  kCount,
};

class RuleSet {
 public:
  RuleSet() = default;  // every rule on
  // Parses "a,b" or "all" (names as in RuleName); unknown names are errors.
  static Result<RuleSet> Disabling(std::string_view names);
  bool on(Rule r) const { return !off_[static_cast<size_t>(r)]; }
  void Disable(Rule r) { off_.set(static_cast<size_t>(r)); }
  std::string DisabledNames() const;
  bool operator==(const RuleSet& other) const { return off_ == other.off_; }

 private:
  std::bitset<static_cast<size_t>(Rule::kCount)> off_;
};

std::string_view RuleName(Rule r);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_RULES_H_
