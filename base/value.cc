#include "levelql/value.h"

#include <cmath>
#include <cstdio>
#include <ctime>

namespace levelql {

std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kNull:
      return "NULL";
    case Type::kInteger:
      return "INTEGER";
    case Type::kReal:
      return "REAL";
    case Type::kText:
      return "TEXT";
    case Type::kBlob:
      return "BLOB";
    case Type::kBoolean:
      return "BOOLEAN";
    case Type::kTimestamp:
      return "TIMESTAMP";
    case Type::kList:
      return "LIST";
  }
  return "UNKNOWN";
}

Value Value::Real(double v) {
  if (std::isnan(v)) return Value();
  Value out;
  out.d_ = v;
  out.type_ = Type::kReal;
  return out;
}

Value Value::List(std::vector<Value> elements) {
  Value out;
  new (&out.list_)
      ListPtr(std::make_shared<const std::vector<Value>>(std::move(elements)));
  out.type_ = Type::kList;
  return out;
}

const std::string& Value::EmptyBytes() {
  static const std::string* empty = new std::string();
  return *empty;
}

const std::vector<Value>& Value::EmptyList() {
  static const std::vector<Value>* empty = new std::vector<Value>();
  return *empty;
}

namespace {

// As SQLite prints a REAL (and levelql converts one to text): 15
// significant digits, always with a '.' (1.0, 1.0e+20), -0.0 as 0.0.
std::string FormatReal(double d) {
  if (std::isinf(d)) return d > 0 ? "Inf" : "-Inf";
  if (std::isnan(d)) return "NaN";
  if (d == 0) d = 0;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.15g", d);
  std::string s(buf);
  if (s.find('.') == std::string::npos) {
    const size_t e = s.find('e');
    if (e == std::string::npos) {
      s += ".0";
    } else {
      s.insert(e, ".0");
    }
  }
  return s;
}

std::string FormatTimestamp(int64_t micros) {
  int64_t secs = micros / 1000000;
  int64_t frac = micros % 1000000;
  if (frac < 0) {
    frac += 1000000;
    secs -= 1;
  }
  std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&t, &tm);
  // The year with at least four digits, so that the text reads back
  // (ParseTimestamp) and sorts as the value does within years 0-9999.
  const long long year = static_cast<long long>(tm.tm_year) + 1900;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s%04lld-", year < 0 ? "-" : "",
                year < 0 ? -year : year);
  std::string s(buf);
  std::strftime(buf, sizeof(buf), "%m-%d %H:%M:%S", &tm);
  s += buf;
  if (frac != 0) {
    char f[16];
    std::snprintf(f, sizeof(f), ".%06lld", static_cast<long long>(frac));
    s += f;
    while (s.back() == '0') s.pop_back();
  }
  return s;
}

std::string HexBlob(const std::string& bytes) {
  static const char* kHex = "0123456789abcdef";
  std::string out = "x'";
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  out += '\'';
  return out;
}

}  // namespace

std::string Value::ToString() const {
  switch (type_) {
    case Type::kNull:
      return "NULL";
    case Type::kInteger:
      return std::to_string(i_);
    case Type::kReal:
      return FormatReal(d_);
    case Type::kText:
      return s_;
    case Type::kBlob:
      return HexBlob(s_);
    case Type::kBoolean:
      return i_ ? "TRUE" : "FALSE";
    case Type::kTimestamp:
      return FormatTimestamp(i_);
    case Type::kList: {
      std::string out = "[";
      for (size_t i = 0; i < list_->size(); ++i) {
        if (i) out += ", ";
        out += (*list_)[i].ToString();
      }
      return out + "]";
    }
  }
  return "?";
}

std::string Value::ToSqlLiteral() const {
  switch (type_) {
    case Type::kText:
    case Type::kTimestamp: {
      std::string text = type_ == Type::kText ? s_ : FormatTimestamp(i_);
      std::string out = "'";
      for (char c : text) {
        if (c == '\'') out += '\'';
        out += c;
      }
      out += '\'';
      if (type_ == Type::kTimestamp) return "CAST(" + out + " AS TIMESTAMP)";
      return out;
    }
    case Type::kReal: {
      if (std::isinf(d_)) return d_ > 0 ? "1e999" : "-1e999";
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", d_);
      std::string s(buf);
      if (s.find_first_of(".eE") == std::string::npos) s += ".0";
      return s;
    }
    case Type::kList: {
      std::string out = "ARRAY[";
      for (size_t i = 0; i < list_->size(); ++i) {
        if (i) out += ", ";
        out += (*list_)[i].ToSqlLiteral();
      }
      return out + "]";
    }
    default:
      return ToString();
  }
}

bool operator==(const Value& a, const Value& b) {
  if (a.type_ != b.type_) return false;
  switch (a.type_) {
    case Type::kNull:
      return true;
    case Type::kReal:
      return a.d_ == b.d_ && std::signbit(a.d_) == std::signbit(b.d_);
    case Type::kText:
    case Type::kBlob:
      return a.s_ == b.s_;
    case Type::kList:
      return *a.list_ == *b.list_;
    default:
      return a.i_ == b.i_;
  }
}

}  // namespace levelql
