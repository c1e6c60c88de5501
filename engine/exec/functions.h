// Scalar functions: the table of names the binder looks up, and their
// evaluation with SQLite's semantics (NULL in, NULL out, except coalesce and
// ifnull; numbers given to text functions are read as their text).
// Stateless; thread-safe.
#ifndef LEVELQL_ENGINE_EXEC_FUNCTIONS_H_
#define LEVELQL_ENGINE_EXEC_FUNCTIONS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/exec/expr.h"

namespace levelql {

struct FunctionInfo {
  const char* name;
  Function function;
  size_t min_args;
  size_t max_args;
  std::optional<Type> result;  // when the result always has one type
};

// Byte offsets of each UTF-8 code point in `s` (plus s.size() at the end).
std::vector<size_t> CodePointOffsets(const std::string& s);

// The function called `name` (lower case), or null when there is none.
const FunctionInfo* FindFunction(std::string_view name);

// The name EXPLAIN and error messages use.
const char* FunctionName(Function function);

// `e.function` of the evaluated `args` (e gives nullif() its collation).
// Not coalesce() or ifnull(): CallFunction evaluates those lazily.
Result<Value> ApplyFunction(const BoundExpr& e, std::vector<Value> args);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_FUNCTIONS_H_
