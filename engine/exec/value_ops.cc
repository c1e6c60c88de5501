#include "engine/exec/value_ops.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace levelql {
namespace {

using parser::BinaryOp;

int Rank(const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      return 0;
    case Type::kInteger:
    case Type::kReal:
    case Type::kBoolean:
    case Type::kTimestamp:
      return 1;
    case Type::kText:
      return 2;
    case Type::kBlob:
      return 3;
    case Type::kList:
      return 4;
  }
  return 5;
}

int CompareNumeric(const Value& a, const Value& b) {
  if (a.is_int_like() && b.is_int_like()) {
    return a.int_value() < b.int_value() ? -1 : a.int_value() > b.int_value();
  }
  long double x = a.is_int_like() ? static_cast<long double>(a.int_value())
                                  : static_cast<long double>(a.real_value());
  long double y = b.is_int_like() ? static_cast<long double>(b.int_value())
                                  : static_cast<long double>(b.real_value());
  return x < y ? -1 : x > y;
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

// Parses the longest numeric prefix of `s` (SQLite's sqlite3AtoF spirit).
// Sets *consumed to the bytes used (0 when there is no number) and *is_int
// when the prefix is an integer that fits int64.
Value ParseNumericPrefix(std::string_view s, size_t* consumed) {
  size_t i = 0;
  while (i < s.size() && IsSpace(s[i])) ++i;
  size_t start = i;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits_start = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  size_t int_digits = i - digits_start;
  bool is_real = false;
  size_t frac_digits = 0;
  if (i < s.size() && s[i] == '.') {
    size_t j = i + 1;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    frac_digits = j - i - 1;
    if (int_digits + frac_digits > 0) {
      is_real = true;
      i = j;
    }
  }
  if (int_digits + frac_digits == 0) {
    *consumed = 0;
    return Value::Int(0);
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    size_t exp_start = j;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    if (j > exp_start) {
      is_real = true;
      i = j;
    }
  }
  *consumed = i;
  std::string text(s.substr(start, i - start));
  if (!is_real) {
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno != ERANGE) return Value::Int(v);
  }
  return Value::Real(std::strtod(text.c_str(), nullptr));
}

bool AddOverflow(int64_t a, int64_t b, int64_t* r) {
  return __builtin_add_overflow(a, b, r);
}
bool SubOverflow(int64_t a, int64_t b, int64_t* r) {
  return __builtin_sub_overflow(a, b, r);
}
bool MulOverflow(int64_t a, int64_t b, int64_t* r) {
  return __builtin_mul_overflow(a, b, r);
}

Status Overflow(const Value& a, BinaryOp op, const Value& b) {
  return Status::TypeError("integer overflow in " + a.ToString() + " " +
                           parser::BinaryOpText(op) + " " + b.ToString());
}

// Arithmetic has no meaning for a list (a multi-valued column's value).
Status ListOperand(std::string_view op, const Value& list) {
  return Status::TypeError("cannot apply " + std::string(op) + " to the list " +
                           list.ToSqlLiteral());
}

int64_t DoubleToInt64(double d) {
  // SQLite clamps out-of-range reals.
  if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

// Leading blanks, a sign and digits; 0 when there are none.
int64_t IntegerPrefix(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && IsSpace(s[i])) ++i;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  uint64_t magnitude = 0;
  bool overflow = false;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (magnitude > (UINT64_MAX - 9) / 10) {
      overflow = true;
    } else {
      magnitude = magnitude * 10 + static_cast<uint64_t>(s[i] - '0');
    }
  }
  const uint64_t max = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (overflow || magnitude > max) magnitude = max;
  return negative ? static_cast<int64_t>(0 - magnitude)
                  : static_cast<int64_t>(magnitude);
}

// The integer an operand of ~ & | << >> stands for, as SQLite takes it: a
// REAL clamped and truncated, TEXT and BLOB by their integer prefix, with
// no numeric affinity first ('1e1' is 1, where + reads it as 10.0).
int64_t BitOperand(const Value& v) {
  switch (v.type()) {
    case Type::kReal:
      return DoubleToInt64(v.real_value());
    case Type::kText:
    case Type::kBlob:
      return IntegerPrefix(v.text());
    default:
      return v.int_value();
  }
}

// a << b (a >> b when !left) on 64 bits, as SQLite shifts: a negative b
// shifts the other way, 64 places or more leave 0 (-1 for a negative a
// shifted right), and a right shift keeps the sign.
int64_t Shift(int64_t a, int64_t b, bool left) {
  if (b < 0) {
    left = !left;
    b = b > -64 ? -b : 64;
  }
  if (b >= 64) return (a >= 0 || left) ? 0 : -1;
  uint64_t u = static_cast<uint64_t>(a);
  if (left) {
    u <<= b;
  } else {
    u >>= b;
    if (a < 0 && b > 0) u |= ~uint64_t{0} << (64 - b);
  }
  return static_cast<int64_t>(u);
}

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

}  // namespace

int CompareOtherValues(const Value& a, const Value& b,
                       const Collation* collation) {
  int ra = Rank(a), rb = Rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return 0;
    case 1:
      return CompareNumeric(a, b);
    case 2:
      if (collation && !collation->is_binary()) {
        int c = collation->Compare(a.text(), b.text());
        return c < 0 ? -1 : c > 0;
      }
      [[fallthrough]];
    case 3: {
      int c = a.text().compare(b.text());
      return c < 0 ? -1 : c > 0;
    }
    case 4: {
      const auto& x = a.list();
      const auto& y = b.list();
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        int c = CompareValues(x[i], y[i], collation);
        if (c != 0) return c;
      }
      return x.size() < y.size() ? -1 : x.size() > y.size();
    }
  }
  return 0;
}

Affinity AffinityOf(Type declared) {
  switch (declared) {
    case Type::kInteger:
    case Type::kReal:
    case Type::kBoolean:
    case Type::kTimestamp:
      return Affinity::kNumeric;
    case Type::kText:
      return Affinity::kText;
    case Type::kBlob:
      return Affinity::kBlob;
    default:
      return Affinity::kNone;
  }
}

Value WhollyNumeric(const Value& v) {
  if (v.type() != Type::kText) return v;
  size_t consumed = 0;
  Value n = ParseNumericPrefix(v.text(), &consumed);
  if (consumed == 0) return v;
  size_t i = consumed;
  while (i < v.text().size() && IsSpace(v.text()[i])) ++i;
  if (i != v.text().size()) return v;  // not entirely a number
  return n;
}

Value ApplyAffinity(const Value& v, Affinity affinity) {
  if (affinity == Affinity::kNumeric && v.type() == Type::kText) {
    Value n = WhollyNumeric(v);
    if (n.type() == Type::kReal) {
      double d = n.real_value();
      if (d == std::floor(d) && std::fabs(d) < 9.2e18) {
        return Value::Int(static_cast<int64_t>(d));
      }
    }
    return n;
  }
  if (affinity == Affinity::kText && v.is_numeric()) {
    return Value::Text(ValueToText(v));
  }
  return v;
}

void ApplyAffinityTo(Value* v, Affinity affinity) {
  if ((affinity == Affinity::kNumeric && v->type() == Type::kText) ||
      (affinity == Affinity::kText && v->is_numeric())) {
    *v = ApplyAffinity(*v, affinity);
  }
}

Value CompareOp(BinaryOp op, const Value& a0, const Value& b0, Affinity aff_a,
                Affinity aff_b, const Collation* collation) {
  if (a0.is_null() || b0.is_null()) return Value();
  Value a = a0, b = b0;
  // A TIMESTAMP compares with a timestamp literal as a timestamp.
  if (a.type() == Type::kTimestamp && b.type() == Type::kText) {
    if (auto t = ParseTimestamp(b.text())) b = Value::Timestamp(*t);
  } else if (b.type() == Type::kTimestamp && a.type() == Type::kText) {
    if (auto t = ParseTimestamp(a.text())) a = Value::Timestamp(*t);
  }
  // The comparison's affinity (SQLite's sqlite3CompareAffinity) applies to
  // both operands: a column's own values already have it, except in a
  // subquery's column that a compound's later SELECT filled.
  Affinity both = Affinity::kNone;
  if (aff_a == Affinity::kNumeric || aff_b == Affinity::kNumeric) {
    both = Affinity::kNumeric;
  } else if ((aff_a == Affinity::kText && aff_b == Affinity::kNone) ||
             (aff_b == Affinity::kText && aff_a == Affinity::kNone)) {
    both = Affinity::kText;
  }
  if (both != Affinity::kNone) {
    ApplyAffinityTo(&a, both);
    ApplyAffinityTo(&b, both);
  }
  int c = CompareValues(a, b, collation);
  bool r = false;
  switch (op) {
    case BinaryOp::kEq:
      r = c == 0;
      break;
    case BinaryOp::kNe:
      r = c != 0;
      break;
    case BinaryOp::kLt:
      r = c < 0;
      break;
    case BinaryOp::kLe:
      r = c <= 0;
      break;
    case BinaryOp::kGt:
      r = c > 0;
      break;
    case BinaryOp::kGe:
      r = c >= 0;
      break;
    default:
      break;
  }
  return Value::Int(r ? 1 : 0);
}

Value ToNumeric(const Value& v) {
  switch (v.type()) {
    case Type::kNull:
    case Type::kInteger:
    case Type::kReal:
      return v;
    case Type::kBoolean:
    case Type::kTimestamp:
      return Value::Int(v.int_value());
    case Type::kText:
    case Type::kBlob: {
      size_t consumed = 0;
      return ParseNumericPrefix(v.text(), &consumed);
    }
    case Type::kList:
      return Value::Int(0);
  }
  return Value();
}

std::string ValueToText(const Value& v) {
  switch (v.type()) {
    case Type::kNull:
      return "";
    case Type::kInteger:
    case Type::kBoolean:
      return std::to_string(v.int_value());
    case Type::kReal:
      return v.ToString();  // as SQLite: 1.0, 1.0e+20, -0.0 as 0.0
    case Type::kText:       // 'NULL' too: only a NULL Value is empty text
    case Type::kBlob:
      // Its bytes, as SQLite reads a blob as text (which need not be
      // UTF-8: a write of TEXT checks that).
      return v.text();
    default:
      return v.ToString();
  }
}

std::optional<bool> Truth(const Value& v) {
  if (v.is_null()) return std::nullopt;
  Value n = ToNumeric(v);
  if (n.type() == Type::kReal) return n.real_value() != 0.0;
  return n.int_value() != 0;
}

Status CheckValueSize(size_t bytes, const char* what) {
  if (bytes <= kMaxValueBytes) return Status::OK();
  return Status::LimitExceeded(std::string(what) + " would make a value of " +
                               std::to_string(bytes) + " bytes; the limit is " +
                               std::to_string(kMaxValueBytes) + " (64 MiB)");
}

Result<Value> Arithmetic(BinaryOp op, const Value& a0, const Value& b0) {
  if (a0.is_null() || b0.is_null()) return Value();
  if (op == BinaryOp::kConcat) {
    std::string a = ValueToText(a0), b = ValueToText(b0);
    LQ_RETURN_IF_ERROR(CheckValueSize(a.size() + b.size(), "||"));
    return Value::Text(std::move(a) + b);
  }
  if (a0.type() == Type::kList)
    return ListOperand(parser::BinaryOpText(op), a0);
  if (b0.type() == Type::kList)
    return ListOperand(parser::BinaryOpText(op), b0);
  switch (op) {
    case BinaryOp::kBitAnd:
      return Value::Int(BitOperand(a0) & BitOperand(b0));
    case BinaryOp::kBitOr:
      return Value::Int(BitOperand(a0) | BitOperand(b0));
    case BinaryOp::kShiftLeft:
    case BinaryOp::kShiftRight:
      return Value::Int(
          Shift(BitOperand(a0), BitOperand(b0), op == BinaryOp::kShiftLeft));
    default:
      break;
  }
  Value a = ToNumeric(a0), b = ToNumeric(b0);
  if (a.type() == Type::kInteger && b.type() == Type::kInteger) {
    int64_t x = a.int_value(), y = b.int_value(), r = 0;
    switch (op) {
      case BinaryOp::kAdd:
        if (AddOverflow(x, y, &r)) return Overflow(a, op, b);
        return Value::Int(r);
      case BinaryOp::kSub:
        if (SubOverflow(x, y, &r)) return Overflow(a, op, b);
        return Value::Int(r);
      case BinaryOp::kMul:
        if (MulOverflow(x, y, &r)) return Overflow(a, op, b);
        return Value::Int(r);
      case BinaryOp::kDiv:
        if (y == 0) return Value();
        if (x == std::numeric_limits<int64_t>::min() && y == -1) {
          return Overflow(a, op, b);
        }
        return Value::Int(x / y);
      case BinaryOp::kMod:
        if (y == 0) return Value();
        if (y == -1) return Value::Int(0);
        return Value::Int(x % y);
      default:
        break;
    }
    return Status::InvalidArgument("not an arithmetic operator");
  }
  if (op == BinaryOp::kMod) {
    // SQLite: both operands become integers as CAST makes them (text by
    // its integer prefix: '1e1' is 1, though it reads as the REAL 10 above);
    // the result is REAL.
    auto as_integer = [](const Value& original, const Value& n) {
      if (original.type() == Type::kText || original.type() == Type::kBlob) {
        return IntegerPrefix(original.text());
      }
      return n.type() == Type::kReal ? DoubleToInt64(n.real_value())
                                     : n.int_value();
    };
    int64_t x = as_integer(a0, a);
    int64_t y = as_integer(b0, b);
    if (y == 0) return Value();
    if (y == -1) y = 1;
    return Value::Real(static_cast<double>(x % y));
  }
  double x = a.AsDouble(), y = b.AsDouble();
  switch (op) {
    case BinaryOp::kAdd:
      return Value::Real(x + y);
    case BinaryOp::kSub:
      return Value::Real(x - y);
    case BinaryOp::kMul:
      return Value::Real(x * y);
    case BinaryOp::kDiv:
      if (y == 0.0) return Value();
      return Value::Real(x / y);
    default:
      break;
  }
  return Status::InvalidArgument("not an arithmetic operator");
}

Result<Value> BitNot(const Value& v) {
  if (v.is_null()) return Value();
  if (v.type() == Type::kList) return ListOperand("~", v);
  return Value::Int(~BitOperand(v));
}

Result<Value> Negate(const Value& v0) {
  if (v0.is_null()) return Value();
  if (v0.type() == Type::kList) return ListOperand("unary -", v0);
  Value v = ToNumeric(v0);
  if (v.type() == Type::kReal) return Value::Real(-v.real_value());
  if (v.int_value() == std::numeric_limits<int64_t>::min()) {
    return Status::TypeError("integer overflow in -(" + v.ToString() + ")");
  }
  return Value::Int(-v.int_value());
}

Result<Value> CastValue(const Value& v, Type type) {
  if (v.is_null()) return Value();
  if (v.type() == Type::kList && type != Type::kText) {
    return Status::TypeError("cannot cast the list " + v.ToSqlLiteral() +
                             " to " + std::string(TypeName(type)));
  }
  switch (type) {
    case Type::kInteger: {
      if (v.type() == Type::kReal) {
        return Value::Int(DoubleToInt64(v.real_value()));
      }
      if (v.is_int_like()) return Value::Int(v.int_value());
      // Text: the longest integer prefix, as SQLite ('12.7' and '1e3' give
      // 12 and 1); beyond int64 it saturates.
      return Value::Int(IntegerPrefix(v.text()));
    }
    case Type::kReal: {
      Value n = ToNumeric(v);
      return Value::Real(n.AsDouble());
    }
    case Type::kText:
      if (v.type() == Type::kBlob) {
        LQ_RETURN_IF_ERROR(ValidateUtf8(v.text()));
        return Value::Text(v.text());
      }
      return Value::Text(ValueToText(v));
    case Type::kBlob:
      if (v.type() == Type::kText || v.type() == Type::kBlob) {
        return Value::Blob(v.text());
      }
      return Value::Blob(ValueToText(v));
    case Type::kBoolean: {
      std::optional<bool> t = Truth(v);
      return t ? Value::Bool(*t) : Value();
    }
    case Type::kTimestamp: {
      if (v.is_int_like()) return Value::Timestamp(v.int_value());
      if (v.type() == Type::kReal) {
        return Value::Timestamp(DoubleToInt64(v.real_value()));
      }
      if (v.type() == Type::kText) {
        if (auto t = ParseTimestamp(v.text())) return Value::Timestamp(*t);
      }
      return Status::TypeError("cannot cast " + v.ToSqlLiteral() +
                               " to TIMESTAMP");
    }
    default:
      break;
  }
  return Status::TypeError("cannot cast to " + std::string(TypeName(type)));
}

Result<Value> CoerceForColumn(const Value& v, Type type, bool is_list,
                              const std::string& column_name) {
  if (v.is_null()) return Value();
  auto fail = [&]() {
    return Status::TypeError("cannot store " + v.ToSqlLiteral() + " in " +
                             std::string(TypeName(type)) +
                             (is_list ? "[]" : "") + " column " + column_name);
  };
  if (is_list) {
    if (v.type() != Type::kList) return fail();
    std::vector<Value> elements;
    for (const Value& e : v.list()) {
      LQ_ASSIGN_OR_RETURN(Value c,
                          CoerceForColumn(e, type, false, column_name));
      elements.push_back(std::move(c));
    }
    return Value::List(std::move(elements));
  }
  if (v.type() == Type::kList) return fail();
  switch (type) {
    case Type::kInteger: {
      Value n =
          v.type() == Type::kText ? ApplyAffinity(v, Affinity::kNumeric) : v;
      if (n.is_int_like()) return Value::Int(n.int_value());
      if (n.type() == Type::kReal) {
        double d = n.real_value();
        if (d == std::floor(d) && d >= -9223372036854775808.0 &&
            d < 9223372036854775808.0) {
          return Value::Int(static_cast<int64_t>(d));
        }
      }
      return fail();
    }
    case Type::kReal: {
      Value n =
          v.type() == Type::kText ? ApplyAffinity(v, Affinity::kNumeric) : v;
      if (n.is_numeric()) return Value::Real(n.AsDouble());
      return fail();
    }
    case Type::kText:
      if (v.type() == Type::kText) return v;
      if (v.is_numeric()) return Value::Text(ValueToText(v));
      return fail();
    case Type::kBlob:
      if (v.type() == Type::kBlob) return v;
      if (v.type() == Type::kText) return Value::Blob(v.text());
      return fail();
    case Type::kBoolean:
      if (v.type() == Type::kBoolean) return v;
      if (v.is_int_like() && (v.int_value() == 0 || v.int_value() == 1)) {
        return Value::Bool(v.int_value() == 1);
      }
      return fail();
    case Type::kTimestamp:
      if (v.type() == Type::kTimestamp) return v;
      if (v.type() == Type::kInteger) return Value::Timestamp(v.int_value());
      if (v.type() == Type::kText) {
        if (auto t = ParseTimestamp(v.text())) return Value::Timestamp(*t);
      }
      return fail();
    default:
      break;
  }
  return fail();
}

std::optional<int64_t> ParseTimestamp(std::string_view s) {
  auto digits = [&](size_t pos, size_t n, int64_t* out) {
    if (pos + n > s.size()) return false;
    int64_t v = 0;
    for (size_t i = pos; i < pos + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
  };
  // The year: four digits, or as FormatTimestamp writes a year outside
  // 0-9999: a sign and/or more digits (the range of int64 microseconds
  // spans years -290308 to 294247).
  size_t b = 0;
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) b = 1;
  const size_t year_start = b;
  while (b < s.size() && b - year_start < 7 && s[b] >= '0' && s[b] <= '9') {
    ++b;
  }
  int64_t y, mo, d, h = 0, mi = 0, sec = 0, micros = 0;
  if (b - year_start < 4 || b - year_start > 6 ||
      !digits(year_start, b - year_start, &y) || s.size() < b + 6 ||
      s[b] != '-' || !digits(b + 1, 2, &mo) || s[b + 3] != '-' ||
      !digits(b + 4, 2, &d)) {
    return std::nullopt;
  }
  if (negative) y = -y;
  static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (mo < 1 || mo > 12 || d < 1 || d > kDays[mo - 1]) return std::nullopt;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (mo == 2 && d == 29 && !leap) return std::nullopt;
  size_t i = b + 6;
  if (i < s.size() && (s[i] == ' ' || s[i] == 'T')) {
    if (!digits(i + 1, 2, &h) || i + 3 >= s.size() || s[i + 3] != ':' ||
        !digits(i + 4, 2, &mi)) {
      return std::nullopt;
    }
    i += 6;
    if (i < s.size() && s[i] == ':') {
      if (!digits(i + 1, 2, &sec)) return std::nullopt;
      i += 3;
      if (i < s.size() && s[i] == '.') {
        ++i;
        int64_t scale = 100000;
        size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
          if (scale > 0) micros += (s[i] - '0') * scale;
          scale /= 10;
          ++i;
        }
        if (i == start) return std::nullopt;
      }
    }
    if (h > 23 || mi > 59 || sec > 60) return std::nullopt;
  }
  int64_t offset = 0;
  if (i < s.size() && s[i] == 'Z') {
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    int64_t oh, om;
    if (!digits(i + 1, 2, &oh) || i + 3 >= s.size() || s[i + 3] != ':' ||
        !digits(i + 4, 2, &om)) {
      return std::nullopt;
    }
    offset = (oh * 60 + om) * 60 * (s[i] == '+' ? 1 : -1);
    i += 6;
  }
  if (i != s.size()) return std::nullopt;
  int64_t days =
      DaysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  int64_t secs = days * 86400 + h * 3600 + mi * 60 + sec - offset;
  if (secs < 0 && micros > 0) {  // so the product stays in range at the low end
    secs += 1;
    micros -= 1000000;
  }
  int64_t out;
  if (__builtin_mul_overflow(secs, int64_t{1000000}, &out) ||
      __builtin_add_overflow(out, micros, &out)) {
    return std::nullopt;  // beyond what a TIMESTAMP holds
  }
  return out;
}

}  // namespace levelql
