// SortKey: one key of an ORDER BY (or of a token's total order), as plans
// and the sort operators use it: a position in the row, a direction and the
// collation its values compare under. Plain data.
#ifndef LEVELQL_ENGINE_PLAN_SORT_KEY_H_
#define LEVELQL_ENGINE_PLAN_SORT_KEY_H_

namespace levelql {

class Collation;

struct SortKey {
  int column = 0;  // position in the row
  bool desc = false;
  const Collation* collation = nullptr;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_SORT_KEY_H_
