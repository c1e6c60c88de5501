// Value: one SQL value as the engine, the key codec and the API see it.
//
// A Value is NULL, INTEGER (int64), REAL (double), TEXT (UTF-8 bytes), BLOB
// (bytes), BOOLEAN, TIMESTAMP (int64 microseconds since 1970 UTC) or LIST (the
// value of a multi-valued `T[]` column). Values are immutable once built,
// cheap to copy for scalars, and thread-compatible.
#ifndef LEVELQL_VALUE_H_
#define LEVELQL_VALUE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace levelql {

// Scalar types. Stored on disk in catalog records - do not renumber.
enum class Type : uint8_t {
  kNull = 0,
  kInteger = 1,
  kReal = 2,
  kText = 3,
  kBlob = 4,
  kBoolean = 5,
  kTimestamp = 6,
  kList = 7,
};

std::string_view TypeName(Type type);  // "INTEGER", "REAL", ...

class Value {
 public:
  Value() = default;  // NULL

  static Value Null() { return Value(); }
  static Value Int(int64_t v) { return Value(Type::kInteger, v); }
  static Value Real(double v);  // NaN becomes NULL
  static Value Text(std::string v) { return Value(Type::kText, std::move(v)); }
  static Value Blob(std::string v) { return Value(Type::kBlob, std::move(v)); }
  static Value Bool(bool v) { return Value(Type::kBoolean, v ? 1 : 0); }
  static Value Timestamp(int64_t micros) {
    return Value(Type::kTimestamp, micros);
  }
  static Value List(std::vector<Value> elements);

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  // INTEGER, BOOLEAN and TIMESTAMP all hold an int64.
  bool is_int_like() const {
    return type_ == Type::kInteger || type_ == Type::kBoolean ||
           type_ == Type::kTimestamp;
  }
  bool is_numeric() const { return is_int_like() || type_ == Type::kReal; }

  // REQUIRES: the matching type.
  int64_t int_value() const { return i_; }
  bool bool_value() const { return i_ != 0; }
  double real_value() const { return d_; }
  const std::string& text() const { return s_; }  // TEXT or BLOB bytes
  const std::vector<Value>& list() const { return *list_; }

  // Numeric value as a double (INTEGER-like or REAL).
  double AsDouble() const {
    return type_ == Type::kReal ? d_ : static_cast<double>(i_);
  }

  // Human-readable rendering: NULL, 42, 2.5, text unquoted, x'00ff' for
  // blobs, TRUE/FALSE, '2012-09-01 12:30:00' for timestamps, [a, b] lists.
  std::string ToString() const;
  // SQL literal that parses back to this value ('it''s', x'00', NULL, ...).
  std::string ToSqlLiteral() const;

  // Exact structural equality (same type and bytes); not SQL equality.
  friend bool operator==(const Value& a, const Value& b);

 private:
  friend class ValueSlot;  // in-place writes by levelql's decoders

  Value(Type t, int64_t v) : type_(t), i_(v) {}
  Value(Type t, std::string s) : type_(t), s_(std::move(s)) {}

  Type type_ = Type::kNull;
  int64_t i_ = 0;
  double d_ = 0;
  std::string s_;
  std::shared_ptr<const std::vector<Value>> list_;
};

using Row = std::vector<Value>;

}  // namespace levelql

#endif  // LEVELQL_VALUE_H_
