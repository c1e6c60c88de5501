#include "engine/plan/rules.h"

namespace levelql {

std::string_view RuleName(Rule r) {
  switch (r) {
    case Rule::kFoldConstants:
      return "fold_constants";
    case Rule::kPushNot:
      return "push_not";
    case Rule::kOrToIn:
      return "or_to_in";
    case Rule::kContradiction:
      return "contradiction";
    case Rule::kPrimaryKeyRange:
      return "pk_range";
    case Rule::kIndexScan:
      return "index_scan";
    case Rule::kIntersect:
      return "intersect";
    case Rule::kUnion:
      return "union";
    case Rule::kOrderedScan:
      return "ordered_scan";
    case Rule::kTopK:
      return "topk";
    case Rule::kIndexOnly:
      return "index_only";
    case Rule::kOffsetSkip:
      return "offset_skip";
    case Rule::kMinMax:
      return "min_max";
    case Rule::kPlanCache:
      return "plan_cache";
    case Rule::kMergeSeek:
      return "merge_seek";
    case Rule::kHashJoin:
      return "hash_join";
    case Rule::kJoinOrder:
      return "join_order";
    case Rule::kCount:
      break;
  }
  return "?";
}

Result<RuleSet> RuleSet::Disabling(std::string_view names) {
  RuleSet set;
  size_t start = 0;
  while (start <= names.size()) {
    size_t end = names.find(',', start);
    if (end == std::string_view::npos) end = names.size();
    std::string_view name = names.substr(start, end - start);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name == "all") {
      set.off_.set();
    } else if (!name.empty() && name != "none") {
      bool found = false;
      for (size_t i = 0; i < static_cast<size_t>(Rule::kCount); ++i) {
        if (RuleName(static_cast<Rule>(i)) == name) {
          set.off_.set(i);
          found = true;
        }
      }
      if (!found) {
        std::string known;
        for (size_t i = 0; i < static_cast<size_t>(Rule::kCount); ++i) {
          known +=
              (i ? ", " : "") + std::string(RuleName(static_cast<Rule>(i)));
        }
        return Status::InvalidArgument("unknown planner rule '" +
                                       std::string(name) +
                                       "' (known: " + known + ", all)");
      }
    }
    start = end + 1;
  }
  return set;
}

std::string RuleSet::DisabledNames() const {
  std::string out;
  for (size_t i = 0; i < static_cast<size_t>(Rule::kCount); ++i) {
    if (off_[i]) {
      if (!out.empty()) out += ',';
      out += RuleName(static_cast<Rule>(i));
    }
  }
  return out;
}

}  // namespace levelql
