// The model-based randomized test's model of a table (model_round.h):
// its columns and indexes, rows by primary key, and how values print.
#ifndef LEVELQL_TESTS_DIFFERENTIAL_MODEL_TYPES_H_
#define LEVELQL_TESTS_DIFFERENTIAL_MODEL_TYPES_H_

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "indexes/collation.h"
#include "levelql/database.h"
#include "tests/differential/engines.h"
#include "tests/differential/generator.h"
#include "tests/differential/model_order.h"
#include "tests/differential/sql_ast.h"
#include "tests/support/env.h"
#include "tests/support/report.h"
#include "tests/support/temp_dir.h"

namespace levelql::difftest::model {

inline std::string Render(const Value& v) {
  return RenderCell(Cell::FromValue(v));
}

inline std::string RenderRows(const std::vector<std::vector<Value>>& rows) {
  std::string out;
  for (const auto& r : rows) {
    out += "(";
    for (size_t i = 0; i < r.size(); ++i) out += (i ? ", " : "") + Render(r[i]);
    out += ")";
  }
  return out;
}

struct Col {
  std::string name;
  ColType type;  // the element type of a list
  bool list = false;
  bool not_null = false;
  std::string collate;              // "" (binary), nocase, search, icu:de
  const Collation* coll = nullptr;  // null for binary

  static Col Make(std::string name, ColType type, bool list, bool not_null) {
    Col c;
    c.name = std::move(name);
    c.type = type;
    c.list = list;
    c.not_null = not_null;
    return c;
  }
};

struct Index {
  std::string name;
  std::vector<int> cols;
  std::vector<bool> desc;
  bool unique = false;
  std::vector<int> include;
};

using Rows = std::map<std::vector<Value>, std::vector<Value>, KeyLess>;

// Transactions ended (committed, rolled back, or by a reopen), for the
// summary.
inline int64_t g_transactions = 0;

}  // namespace levelql::difftest::model

#endif  // LEVELQL_TESTS_DIFFERENTIAL_MODEL_TYPES_H_
