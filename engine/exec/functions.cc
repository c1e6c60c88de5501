#include "engine/exec/functions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>

namespace levelql {
namespace {

using parser::BinaryOp;

constexpr FunctionInfo kFunctions[] = {
    {"lower", Function::kLower, 1, 1, Type::kText},
    {"upper", Function::kUpper, 1, 1, Type::kText},
    {"length", Function::kLength, 1, 1, Type::kInteger},
    {"abs", Function::kAbs, 1, 1, std::nullopt},
    {"coalesce", Function::kCoalesce, 2, 1000, std::nullopt},
    {"ifnull", Function::kIfnull, 2, 2, std::nullopt},
    {"nullif", Function::kNullif, 2, 2, std::nullopt},
    {"substr", Function::kSubstr, 2, 3, Type::kText},
    {"substring", Function::kSubstr, 2, 3, Type::kText},
    {"trim", Function::kTrim, 1, 2, Type::kText},
    {"ltrim", Function::kLtrim, 1, 2, Type::kText},
    {"rtrim", Function::kRtrim, 1, 2, Type::kText},
    {"replace", Function::kReplace, 3, 3, Type::kText},
    {"instr", Function::kInstr, 2, 2, Type::kInteger},
    {"round", Function::kRound, 1, 2, Type::kReal},
    {"typeof", Function::kTypeof, 1, 1, Type::kText},
};

std::string AsciiCase(std::string s, bool upper) {
  for (char& c : s) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return s;
}

Result<Value> Substr(const Value& s, const Value& start, const Value* len) {
  if (s.is_null() || start.is_null() || (len && len->is_null())) return Value();
  const bool blob = s.type() == Type::kBlob;
  if (blob && s.text().empty()) return Value();  // SQLite: no bytes, NULL
  std::string text = blob ? s.text() : ValueToText(s);
  std::vector<size_t> offsets;
  if (blob) {
    for (size_t i = 0; i <= text.size(); ++i) offsets.push_back(i);
  } else {
    offsets = CodePointOffsets(text);
  }
  const int64_t n = static_cast<int64_t>(offsets.size()) - 1;
  // A list has no integer value: the CAST's TypeError, not a value.
  LQ_ASSIGN_OR_RETURN(Value p1, CastValue(start, Type::kInteger));
  int64_t from = p1.int_value();
  int64_t count = 0;
  if (len) {
    LQ_ASSIGN_OR_RETURN(Value c, CastValue(*len, Type::kInteger));
    count = c.int_value();
  }
  // SQLite: negative start counts from the end; negative length takes the
  // characters before start.
  if (from < 0) {
    from = n + 1 + from;  // n + 1 > 0: no overflow
  } else if (from == 0) {
    if (count > 0) count -= 1;
    from = 1;
  }
  // Sums saturate: a length of INT64_MAX takes the rest, not nothing.
  auto add = [](int64_t a, int64_t b) {
    int64_t sum;
    if (!__builtin_add_overflow(a, b, &sum)) return sum;
    return b > 0 ? std::numeric_limits<int64_t>::max()
                 : std::numeric_limits<int64_t>::min();
  };
  int64_t begin, end;
  if (!len) {  // the rest
    begin = from - 1;
    end = n;
  } else if (count >= 0) {
    begin = from - 1;
    end = add(begin, count);
  } else {
    end = from - 1;
    begin = add(end, count);
  }
  begin = std::clamp<int64_t>(begin, 0, n);
  end = std::clamp<int64_t>(end, 0, n);
  if (end < begin) end = begin;
  std::string out = text.substr(offsets[begin], offsets[end] - offsets[begin]);
  return blob ? Value::Blob(std::move(out)) : Value::Text(std::move(out));
}

// trim(x[, chars]), ltrim, rtrim: removes the code points of `chars` (a
// space by default) from the start and/or the end of x.
Value Trim(const std::vector<Value>& args, bool left, bool right) {
  if (args[0].is_null() || (args.size() > 1 && args[1].is_null())) {
    return Value();
  }
  const std::string x = ValueToText(args[0]);
  const std::string chars = args.size() > 1 ? ValueToText(args[1]) : " ";
  std::set<std::string> set;
  const std::vector<size_t> c = CodePointOffsets(chars);
  for (size_t i = 0; i + 1 < c.size(); ++i) {
    set.insert(chars.substr(c[i], c[i + 1] - c[i]));
  }
  const std::vector<size_t> o = CodePointOffsets(x);
  size_t begin = 0, end = o.size() - 1;  // code point indexes
  auto at = [&](size_t i) { return x.substr(o[i], o[i + 1] - o[i]); };
  while (left && begin < end && set.count(at(begin))) ++begin;
  while (right && end > begin && set.count(at(end - 1))) --end;
  return Value::Text(x.substr(o[begin], o[end] - o[begin]));
}

Result<Value> Replace(const std::vector<Value>& args) {
  // SQLite: NULL for a NULL text or pattern; an empty pattern returns the
  // text as it is (its type too), before the replacement is looked at.
  if (args[0].is_null() || args[1].is_null()) return Value();
  const std::string from = ValueToText(args[1]);
  // (SQLite reads a blob as text in place: it comes back TEXT.)
  if (from.empty()) {
    return args[0].type() == Type::kBlob ? Value::Text(args[0].text())
                                         : args[0];
  }
  if (args[2].is_null()) return Value();
  const std::string x = ValueToText(args[0]);
  const std::string to = ValueToText(args[2]);
  if (to.size() > from.size()) {
    size_t hits = 0;
    for (size_t at = 0; (at = x.find(from, at)) != std::string::npos;
         at += from.size()) {
      ++hits;
    }
    LQ_RETURN_IF_ERROR(CheckValueSize(
        x.size() + hits * (to.size() - from.size()), "replace()"));
  }
  std::string out;
  size_t at = 0;
  for (size_t hit; (hit = x.find(from, at)) != std::string::npos;
       at = hit + from.size()) {
    out.append(x, at, hit - at).append(to);
  }
  out.append(x, at, std::string::npos);
  return Value::Text(std::move(out));
}

// instr(x, y): the 1-based position of the first y in x, in characters (in
// bytes when both are blobs); 0 when there is none.
Value Instr(const std::vector<Value>& args) {
  if (args[0].is_null() || args[1].is_null()) return Value();
  const bool bytes =
      args[0].type() == Type::kBlob && args[1].type() == Type::kBlob;
  const std::string x = bytes ? args[0].text() : ValueToText(args[0]);
  const std::string y = bytes ? args[1].text() : ValueToText(args[1]);
  // As text, a match starts at a character (a blob needle's bytes cannot
  // match inside one), as in SQLite.
  size_t hit = x.find(y);
  while (!bytes && hit != std::string::npos && hit < x.size() &&
         (static_cast<unsigned char>(x[hit]) & 0xC0) == 0x80) {
    hit = x.find(y, hit + 1);
  }
  if (hit == std::string::npos) return Value::Int(0);
  if (bytes) return Value::Int(static_cast<int64_t>(hit) + 1);
  return Value::Int(
      static_cast<int64_t>(CodePointOffsets(x.substr(0, hit)).size()));
}

// round(x[, n]) as SQLite computes it: a REAL; n clamped to 0..30; halves
// away from zero when n is 0, else as SQLite's printf("%.*f") then its
// text-to-real conversion: add a rounder of 0.5 in the last kept decimal
// (plus SQLite's relative nudge of 3e-16, which makes 2.675 round to 2.68),
// keep at most 16 significant digits, and cut the rest.
Result<Value> Round(const std::vector<Value>& args) {
  if (args[0].is_null() || (args.size() > 1 && args[1].is_null())) {
    return Value();
  }
  int64_t n = 0;
  if (args.size() > 1) {
    LQ_ASSIGN_OR_RETURN(Value digits, CastValue(args[1], Type::kInteger));
    n = std::clamp<int64_t>(digits.int_value(), 0, 30);
  }
  LQ_ASSIGN_OR_RETURN(Value real, CastValue(args[0], Type::kReal));
  double r = real.real_value();
  if (r < -4503599627370496.0 || r > 4503599627370496.0) {
    // No fractional part: nothing to round.
  } else if (n == 0) {
    r = static_cast<double>(static_cast<int64_t>(r + (r < 0 ? -0.5 : 0.5)));
  } else {
    const bool negative = r < 0;
    long double v = std::fabs(r);
    // SQLite's table of rounders, then 1e-10 per ten more decimals.
    static constexpr double kRound[] = {5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04,
                                        5.0e-05, 5.0e-06, 5.0e-07, 5.0e-08,
                                        5.0e-09, 5.0e-10};
    double rounder = kRound[n % 10];
    for (int64_t i = n; i >= 10; i -= 10) rounder *= 1.0e-10;
    int exponent;
    std::frexp(std::fabs(r), &exponent);  // |r| = m * 2^exponent, m in [0.5, 1)
    if (n + (exponent - 1) / 3 < 15) {
      rounder = static_cast<double>(rounder + v * 3e-16L);
    }
    v += rounder;
    // Significant digits before the point limit the decimals kept.
    int64_t decimals = n;
    if (v >= 1) {
      const int64_t int_digits =
          static_cast<int64_t>(std::floor(std::log10(static_cast<double>(v)))) +
          1;
      decimals =
          std::min<int64_t>(decimals, std::max<int64_t>(0, 16 - int_digits));
    }
    const long double scale =
        std::pow(10.0L, static_cast<long double>(decimals));
    const long double cut = std::floor(v * scale) / scale;
    char buf[96];
    std::snprintf(buf, sizeof(buf), "%.*Lf", static_cast<int>(decimals), cut);
    r = std::strtod(buf, nullptr);
    if (negative) r = -r;
  }
  if (r == 0) r = 0;  // no -0.0
  return Value::Real(r);
}

Value Typeof(const Value& v) {
  std::string name(TypeName(v.type()));
  return Value::Text(AsciiCase(std::move(name), false));
}

}  // namespace

std::vector<size_t> CodePointOffsets(const std::string& s) {
  std::vector<size_t> offsets;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) offsets.push_back(i);
  }
  offsets.push_back(s.size());
  return offsets;
}

const FunctionInfo* FindFunction(std::string_view name) {
  for (const FunctionInfo& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

const char* FunctionName(Function function) {
  for (const FunctionInfo& f : kFunctions) {
    if (f.function == function) return f.name;
  }
  return "?";
}

Result<Value> ApplyFunction(const BoundExpr& e, std::vector<Value> args) {
  if (e.function == Function::kAbs || e.function == Function::kRound) {
    // A number's function has no meaning for a list.
    for (const Value& a : args) {
      if (a.type() == Type::kList) {
        return Status::TypeError(std::string(FunctionName(e.function)) +
                                 "() of the list " + a.ToSqlLiteral());
      }
    }
  }
  switch (e.function) {
    case Function::kLower:
    case Function::kUpper:
      if (args[0].is_null()) return Value();
      return Value::Text(
          AsciiCase(ValueToText(args[0]), e.function == Function::kUpper));
    case Function::kLength: {
      const Value& v = args[0];
      if (v.is_null()) return Value();
      if (v.type() == Type::kBlob) {
        return Value::Int(static_cast<int64_t>(v.text().size()));
      }
      // SQLite counts the characters of a TEXT up to its first NUL.
      std::string text = ValueToText(v);
      if (v.type() == Type::kText) text = text.substr(0, text.find('\0'));
      return Value::Int(
          static_cast<int64_t>(CodePointOffsets(text).size() - 1));
    }
    case Function::kAbs: {
      // SQLite: an INTEGER stays one; anything else (text and blobs too,
      // whatever their prefix) is read as a REAL.
      if (args[0].type() == Type::kText || args[0].type() == Type::kBlob) {
        return Value::Real(std::fabs(ToNumeric(args[0]).AsDouble()));
      }
      Value v = ToNumeric(args[0]);
      if (v.is_null()) return Value();
      if (v.type() == Type::kReal)
        return Value::Real(std::fabs(v.real_value()));
      if (v.int_value() == std::numeric_limits<int64_t>::min()) {
        return Status::TypeError("integer overflow in abs(" +
                                 std::to_string(v.int_value()) + ")");
      }
      if (v.int_value() < 0) return Value::Int(-v.int_value());
      return v;
    }
    case Function::kCoalesce:
    case Function::kIfnull:
      // CallFunction (expr.cc) evaluates these itself, lazily: never here.
      return Status::InvalidArgument(std::string(FunctionName(e.function)) +
                                     "() takes unevaluated arguments");
    case Function::kNullif: {
      // SQLite compares the two values as they are: no affinity applies.
      Value eq = CompareOp(BinaryOp::kEq, args[0], args[1], Affinity::kNone,
                           Affinity::kNone, e.collation);
      if (!eq.is_null() && eq.int_value() == 1) return Value();
      return args[0];
    }
    case Function::kSubstr:
      return Substr(args[0], args[1], args.size() > 2 ? &args[2] : nullptr);
    case Function::kTrim:
      return Trim(args, true, true);
    case Function::kLtrim:
      return Trim(args, true, false);
    case Function::kRtrim:
      return Trim(args, false, true);
    case Function::kReplace:
      return Replace(args);
    case Function::kInstr:
      return Instr(args);
    case Function::kRound:
      return Round(args);
    case Function::kTypeof:
      return Typeof(args[0]);
  }
  return Status::NotSupported("unknown function");
}

}  // namespace levelql
