// SQL semantics of single values: comparison, arithmetic, casts, and the
// coercion of a value into a column of a declared type.
//
// Follows SQLite where DIALECT.md is silent: NULL sorts before numbers,
// numbers (INTEGER, REAL, BOOLEAN, TIMESTAMP) compare numerically and before
// TEXT, TEXT before BLOB; integer division truncates toward zero; division or
// modulo by zero yields NULL; integer overflow is an error (unlike SQLite,
// which switches to REAL). Stateless and thread-safe.
#ifndef LEVELQL_ENGINE_EXEC_VALUE_OPS_H_
#define LEVELQL_ENGINE_EXEC_VALUE_OPS_H_

#include <optional>
#include <string>

#include "indexes/collation.h"
#include "levelql/status.h"
#include "levelql/value.h"
#include "parser/ast.h"

namespace levelql {

// Total order used by ORDER BY, DISTINCT, MIN/MAX and index keys: NULL <
// numbers < TEXT (by `collation`, binary when null) < BLOB < LIST.
// Two INTEGERs, the most common pair a join or sort compares, are compared
// in place.
int CompareOtherValues(const Value& a, const Value& b,
                       const Collation* collation);
inline int CompareValues(const Value& a, const Value& b,
                         const Collation* collation = nullptr) {
  if (a.type() == Type::kInteger && b.type() == Type::kInteger) {
    const int64_t x = a.int_value(), y = b.int_value();
    return (x > y) - (x < y);
  }
  return CompareOtherValues(a, b, collation);
}

// The affinity of an operand in a comparison (SQLite's rule): a column or
// CAST has its type's affinity; other expressions have none.
enum class Affinity { kNone, kNumeric, kText, kBlob };
Affinity AffinityOf(Type declared);

// Converts `v` as SQLite's affinity would before a comparison: numeric
// affinity turns numeric-looking TEXT into a number; text affinity turns a
// number into its TEXT rendering.
Value ApplyAffinity(const Value& v, Affinity affinity);
// The same in place, touching `*v` only when the affinity changes it (no
// copy per comparison of a value that already has it).
void ApplyAffinityTo(Value* v, Affinity affinity);
// TEXT that is wholly a number (spaces around it aside) as that number,
// INTEGER or REAL as written (SQLite's sqlite3_value_numeric_type); any
// other value as it is.
Value WhollyNumeric(const Value& v);

// Three-valued comparison for = <> < <= > >=: NULL when either side is NULL.
// `aff_a`/`aff_b` are the operands' affinities, applied as SQLite does.
Value CompareOp(parser::BinaryOp op, const Value& a, const Value& b,
                Affinity aff_a, Affinity aff_b, const Collation* collation);

// The longest TEXT or BLOB an expression may produce (`||`, replace()):
// longer is LimitExceeded (SQLite's SQLITE_MAX_LENGTH is 1e9 by default;
// an embedded engine holding rows in memory takes less).
inline constexpr size_t kMaxValueBytes = size_t{64} << 20;

// LimitExceeded naming the size when `bytes` exceed kMaxValueBytes.
Status CheckValueSize(size_t bytes, const char* what);

// + - * / %, ||, and & | << >>. Errors on integer overflow and on a ||
// result longer than kMaxValueBytes.
Result<Value> Arithmetic(parser::BinaryOp op, const Value& a, const Value& b);
Result<Value> Negate(const Value& v);
Result<Value> BitNot(const Value& v);  // ~v

// SQL truth of a value: NULL -> nullopt; numbers -> != 0; text -> its
// numeric prefix != 0 (SQLite).
std::optional<bool> Truth(const Value& v);

// CAST(v AS type) with SQLite's conversions (text prefix parsing, REAL
// truncation toward zero). Never fails except for invalid UTF-8 on BLOB->TEXT.
Result<Value> CastValue(const Value& v, Type type);

// Numeric view of a value for arithmetic: INTEGER-like stay integers, REAL
// stays REAL, TEXT/BLOB parse their numeric prefix (SQLite), NULL stays NULL.
Value ToNumeric(const Value& v);

// The text SQLite reads a value as (REAL as %.15g with a ".0", a blob as
// its bytes).
std::string ValueToText(const Value& v);

// Coerces a value for storage in a column of `type` (is_list for T[]):
// exact numeric conversions, numeric text into numbers, numbers into TEXT,
// timestamp text into TIMESTAMP. Anything else is a TypeError naming the
// value and the column.
Result<Value> CoerceForColumn(const Value& v, Type type, bool is_list,
                              const std::string& column_name);

// Parses a timestamp literal: 'YYYY-MM-DD[ HH:MM[:SS[.ffffff]]][Z|+HH:MM]'.
std::optional<int64_t> ParseTimestamp(std::string_view text);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_VALUE_OPS_H_
