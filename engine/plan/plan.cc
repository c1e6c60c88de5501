#include "engine/plan/plan.h"

#include <cmath>

namespace levelql {

std::unique_ptr<PlanNode> ClonePlan(const PlanNode& root) {
  auto copy = std::make_unique<PlanNode>(root);
  copy->stats = NodeStats();
  for (const auto& child : root.children) {
    copy->children.push_back(ClonePlan(*child));
  }
  return copy;
}

std::string_view PlanKindName(PlanNode::Kind kind) {
  switch (kind) {
    case PlanNode::Kind::kEmpty:
      return "Empty";
    case PlanNode::Kind::kOneRow:
      return "OneRow";
    case PlanNode::Kind::kTableScan:
      return "TableScan";
    case PlanNode::Kind::kIndexScan:
      return "IndexScan";
    case PlanNode::Kind::kIntersect:
      return "Intersect";
    case PlanNode::Kind::kUnion:
      return "Union";
    case PlanNode::Kind::kSortKeys:
      return "SortKeys";
    case PlanNode::Kind::kSkip:
      return "Skip";
    case PlanNode::Kind::kFetch:
      return "Fetch";
    case PlanNode::Kind::kIndexOnly:
      return "IndexOnly";
    case PlanNode::Kind::kFilter:
      return "Filter";
    case PlanNode::Kind::kProject:
      return "Project";
    case PlanNode::Kind::kAggregate:
      return "Aggregate";
    case PlanNode::Kind::kDistinct:
      return "Distinct";
    case PlanNode::Kind::kSort:
      return "Sort";
    case PlanNode::Kind::kTopK:
      return "TopK";
    case PlanNode::Kind::kLimit:
      return "Limit";
    case PlanNode::Kind::kResumeAfter:
      return "ResumeAfter";
    case PlanNode::Kind::kMergeJoin:
      return "MergeJoin";
    case PlanNode::Kind::kNestedLoop:
      return "NestedLoop";
    case PlanNode::Kind::kHashJoin:
      return "HashJoin";
    case PlanNode::Kind::kCompound:
      return "Compound";
  }
  return "?";
}

namespace {

void Render(const PlanNode& node, int depth, bool analyze, std::string* out) {
  out->append(static_cast<size_t>(depth) * 2, ' ');
  out->append(PlanKindName(node.kind));
  if (!node.detail.empty()) {
    out->push_back(' ');
    out->append(node.detail);
  }
  if (node.kind != PlanNode::Kind::kProject) {
    out->append("  (est ");
    out->append(std::to_string(
        static_cast<int64_t>(std::llround(node.estimated_rows))));
    out->append(" rows");
    if (analyze) {
      out->append("; actual ");
      out->append(std::to_string(node.stats.rows));
      out->append(" rows, ");
      out->append(std::to_string(node.stats.keys));
      out->append(" keys, ");
      out->append(std::to_string(node.stats.seeks));
      out->append(" seeks");
      if (node.stats.spilled_runs > 0) {
        out->append(", ");
        out->append(std::to_string(node.stats.spilled_runs));
        out->append(" spilled runs");
      }
    }
    out->push_back(')');
  }
  out->push_back('\n');
  for (const auto& child : node.children) {
    Render(*child, depth + 1, analyze, out);
  }
}

}  // namespace

const PlanNode* FindOnSpine(const PlanNode& root, PlanNode::Kind kind) {
  for (const PlanNode* n = &root; n;
       n = n->children.empty() ? nullptr : n->children[0].get()) {
    if (n->kind == kind) return n;
  }
  return nullptr;
}

const PlanNode* OrderingNode(const PlanNode& root) {
  for (const PlanNode* n = &root; n;
       n = n->children.empty() ? nullptr : n->children[0].get()) {
    if (n->kind == PlanNode::Kind::kSort || n->kind == PlanNode::Kind::kTopK ||
        n->kind == PlanNode::Kind::kAggregate ||
        n->kind == PlanNode::Kind::kMergeJoin ||
        n->kind == PlanNode::Kind::kNestedLoop ||
        n->kind == PlanNode::Kind::kHashJoin) {
      return n;
    }
  }
  return nullptr;
}

std::string RenderPlan(const PlanNode& root, bool analyze, int depth) {
  std::string out;
  Render(root, depth, analyze, &out);
  return out;
}

}  // namespace levelql
