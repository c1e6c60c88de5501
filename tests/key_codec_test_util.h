// Helpers of the key codec tests (key_codec_test.cc,
// key_codec_property_test.cc): readable renderings of encodings, the
// reference comparator on Values, and the fixed seed.
#ifndef LEVELQL_TESTS_KEY_CODEC_TEST_UTIL_H_
#define LEVELQL_TESTS_KEY_CODEC_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "indexes/key_codec.h"
#include "tests/support/env.h"
#include "tests/support/paths.h"

namespace levelql::keys {
namespace test_util {

using namespace std::string_literals;

inline constexpr Direction kAsc = Direction::kAsc;
inline constexpr Direction kDesc = Direction::kDesc;
inline constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kDenormMin = std::numeric_limits<double>::denorm_min();
inline constexpr double kSubnormalMax =
    0x0.fffffffffffffp-1022;  // below DBL_MIN

// ---- Helpers ------------------------------------------------------------

// "15 01" for the bytes 0x15 0x01.
inline std::string Hex(std::string_view s) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    if (!out.empty()) out += ' ';
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

inline std::string Unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i < hex.size(); i += hex[i] == ' ' ? 1 : 2) {
    if (hex[i] == ' ') continue;
    out += static_cast<char>(
        std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  }
  return out;
}

inline std::string Enc(const Value& v, Direction dir) {
  std::string out;
  EncodeValue(v, dir, &out);
  return out;
}

inline std::string Complemented(std::string s) {
  for (char& c : s) c = static_cast<char>(~c);
  return s;
}

inline int Sign(int x) { return (x > 0) - (x < 0); }

inline int MemCompare(std::string_view a, std::string_view b) {
  const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (c != 0) return Sign(c);
  return (a.size() > b.size()) - (a.size() < b.size());
}

// Cross-type order of the reference comparator: the order of the type tags.
inline int TypeRank(Type t) {
  // Indexed by Type: NULL, INTEGER, REAL, TEXT, BLOB, BOOLEAN, TIMESTAMP, LIST.
  static constexpr int kRank[] = {0, 1, 2, 5, 6, 3, 4, 7};
  return kRank[static_cast<int>(t)];
}

// Reference order on Values, independent of the codec: NULL first, numbers
// numerically (-0.0 == 0.0), text and blobs bytewise, lists element-wise with
// a prefix first, other types by tag order.
inline int Compare(const Value& a, const Value& b) {
  if (a.type() != b.type()) {
    return Sign(TypeRank(a.type()) - TypeRank(b.type()));
  }
  switch (a.type()) {
    case Type::kNull:
      return 0;
    case Type::kReal:
      return (a.real_value() > b.real_value()) -
             (a.real_value() < b.real_value());
    case Type::kText:
    case Type::kBlob:
      return MemCompare(a.text(), b.text());
    case Type::kList: {
      const auto& x = a.list();
      const auto& y = b.list();
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (int c = Compare(x[i], y[i]); c != 0) return c;
      }
      return (x.size() > y.size()) - (x.size() < y.size());
    }
    default:
      return (a.int_value() > b.int_value()) - (a.int_value() < b.int_value());
  }
}

inline int Compare(const Value& a, const Value& b, Direction dir) {
  return dir == kDesc ? -Compare(a, b) : Compare(a, b);
}

inline int CompareKeys(const std::vector<Value>& a, const std::vector<Value>& b,
                       const std::vector<Direction>& dirs) {
  for (size_t i = 0; i < dirs.size(); ++i) {
    if (int c = Compare(a[i], b[i], dirs[i]); c != 0) return c;
  }
  return 0;
}

// What decoding an encoding gives back: -0.0 becomes 0.0.
inline Value Canonical(const Value& v) {
  if (v.type() == Type::kReal && v.real_value() == 0) return Value::Real(0.0);
  if (v.type() != Type::kList) return v;
  std::vector<Value> elements;
  for (const Value& e : v.list()) elements.push_back(Canonical(e));
  return Value::List(std::move(elements));
}

inline std::string Show(const Value& v) {
  return KeyToString(std::span(&v, 1));
}

// The randomized round trips run one fixed seed (LEVELQL_SEED replaces it).
inline uint64_t Seed() {
  static const uint64_t seed =
      levelql::testing::TestSeeds("key_codec_test", {20120901})[0];
  return seed;
}

#define TRACE_SEED() SCOPED_TRACE("LEVELQL_SEED=" + std::to_string(Seed()))

}  // namespace test_util
}  // namespace levelql::keys

#endif  // LEVELQL_TESTS_KEY_CODEC_TEST_UTIL_H_
