// How the model of model_test.cc orders and compares values: numbers by
// value, text under a column's collation (indexes/collation.h, the engine's
// own), NULL first; keys and index entries column by column. Header-only,
// for model_test.cc alone; thread-compatible.
#ifndef LEVELQL_TESTS_DIFFERENTIAL_MODEL_ORDER_H_
#define LEVELQL_TESTS_DIFFERENTIAL_MODEL_ORDER_H_

#include <string>
#include <vector>

#include "indexes/collation.h"
#include "levelql/value.h"

namespace levelql::difftest {

// SQL order of two non-NULL values of one column's type: numbers by value,
// text by `coll` (bytes when null), lists by their rendering (never keys).
inline int Compare(const Value& a, const Value& b,
                   const Collation* coll = nullptr) {
  if (a.type() == Type::kInteger && b.type() == Type::kInteger) {
    return a.int_value() < b.int_value() ? -1 : a.int_value() > b.int_value();
  }
  if (a.is_numeric() && b.is_numeric()) {
    double x = a.AsDouble(), y = b.AsDouble();
    return x < y ? -1 : x > y;
  }
  if (coll != nullptr && a.type() == Type::kText && b.type() == Type::kText) {
    int c = coll->Compare(a.text(), b.text());
    return c < 0 ? -1 : c > 0;
  }
  const std::string sa = a.type() == Type::kList ? a.ToString() : a.text();
  const std::string sb = b.type() == Type::kList ? b.ToString() : b.text();
  return sa.compare(sb) < 0 ? -1 : sa.compare(sb) > 0;
}

inline int CompareNullsFirst(const Value& a, const Value& b,
                             const Collation* coll = nullptr) {
  if (a.is_null() || b.is_null()) {
    return a.is_null() == b.is_null() ? 0 : (a.is_null() ? -1 : 1);
  }
  return Compare(a, b, coll);
}

// Order of keys (or index entries) whose i-th value compares under
// colls[i] (binary where colls is shorter or the entry is null).
struct KeyLess {
  std::vector<const Collation*> colls;
  bool operator()(const std::vector<Value>& a,
                  const std::vector<Value>& b) const {
    for (size_t i = 0; i < a.size(); ++i) {
      int c =
          CompareNullsFirst(a[i], b[i], i < colls.size() ? colls[i] : nullptr);
      if (c) return c < 0;
    }
    return false;
  }
};

}  // namespace levelql::difftest

#endif  // LEVELQL_TESTS_DIFFERENTIAL_MODEL_ORDER_H_
