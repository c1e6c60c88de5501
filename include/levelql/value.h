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
#include <new>
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
  Value() noexcept : i_(0) {}  // NULL
  Value(const Value& other) { CopyFrom(other); }
  Value(Value&& other) noexcept { MoveFrom(std::move(other)); }
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value() { Destroy(); }

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

  // The value of the matching type; of another type, 0, 0.0, empty bytes
  // or an empty list.
  int64_t int_value() const { return is_int_like() ? i_ : 0; }
  bool bool_value() const { return int_value() != 0; }
  double real_value() const { return type_ == Type::kReal ? d_ : 0; }
  const std::string& text() const {  // TEXT or BLOB bytes
    return holds_bytes() ? s_ : EmptyBytes();
  }
  const std::vector<Value>& list() const {
    return type_ == Type::kList ? *list_ : EmptyList();
  }

  // Numeric value as a double (INTEGER-like or REAL).
  double AsDouble() const {
    return type_ == Type::kReal ? d_ : static_cast<double>(int_value());
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
  using ListPtr = std::shared_ptr<const std::vector<Value>>;

  Value(Type t, int64_t v) : type_(t), i_(v) {}
  Value(Type t, std::string s) : type_(t), s_(std::move(s)) {}

  bool holds_bytes() const {
    return type_ == Type::kText || type_ == Type::kBlob;
  }
  // A value of one word (NULL, a number, BOOLEAN, TIMESTAMP): copying one
  // over another is copying that word and the type.
  bool is_word() const { return !holds_bytes() && type_ != Type::kList; }
  void CopyWord(const Value& other) noexcept {
    if (other.type_ == Type::kReal) {
      d_ = other.d_;
    } else {
      i_ = other.i_;
    }
    type_ = other.type_;
  }
  static const std::string& EmptyBytes();
  static const std::vector<Value>& EmptyList();

  // The member `type_` names is the live one of the union (i_ for NULL and
  // the int-like types). Destroy leaves a NULL; CopyFrom and MoveFrom
  // require one (they construct the member, then set the type).
  void Destroy() noexcept {
    if (holds_bytes()) {
      s_.~basic_string();
    } else if (type_ == Type::kList) {
      list_.~ListPtr();
    }
    type_ = Type::kNull;
    i_ = 0;
  }
  void CopyFrom(const Value& other) {
    if (other.holds_bytes()) {
      new (&s_) std::string(other.s_);
    } else if (other.type_ == Type::kList) {
      new (&list_) ListPtr(other.list_);
    } else {
      CopyWord(other);
      return;
    }
    type_ = other.type_;
  }
  void MoveFrom(Value&& other) noexcept {
    if (other.holds_bytes()) {
      new (&s_) std::string(std::move(other.s_));
    } else if (other.type_ == Type::kList) {
      new (&list_) ListPtr(std::move(other.list_));
    } else {
      CopyWord(other);
      return;
    }
    type_ = other.type_;
  }

  // One word of scalar or the bytes or the list: a Value is 40 bytes, and
  // copying, moving or dropping a number touches no string.
  Type type_ = Type::kNull;
  union {
    int64_t i_;
    double d_;
    std::string s_;
    ListPtr list_;
  };
};

inline Value& Value::operator=(const Value& other) {
  if (is_word() && other.is_word()) {
    CopyWord(other);
    return *this;
  }
  if (this == &other) return *this;
  if (holds_bytes() && other.holds_bytes()) {
    s_ = other.s_;  // keeps the capacity
    type_ = other.type_;
    return *this;
  }
  Destroy();
  CopyFrom(other);
  return *this;
}

inline Value& Value::operator=(Value&& other) noexcept {
  if (is_word() && other.is_word()) {
    CopyWord(other);
    return *this;
  }
  if (this == &other) return *this;
  if (holds_bytes() && other.holds_bytes()) {
    s_ = std::move(other.s_);
    type_ = other.type_;
    return *this;
  }
  Destroy();
  MoveFrom(std::move(other));
  return *this;
}

using Row = std::vector<Value>;

}  // namespace levelql

#endif  // LEVELQL_VALUE_H_
