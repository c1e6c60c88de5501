// Tests for the order-preserving key codec (indexes/key_codec.h).
//
// Tables of values in sorted order pin the exact bytes of indexes/KEY_FORMAT.md
// (cockroachdb pkg/util/encoding/encoding_test.go style); randomized tests
// check memcmp order against a reference comparator on Values for every type,
// both directions, and composite keys. Randomized tests use a fixed seed that
// LEVELQL_SEED overrides; failures print the seed.
#include "indexes/key_codec.h"

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

#include "tests/support/env.h"
#include "tests/support/paths.h"

namespace levelql::keys {
namespace {

using namespace std::string_literals;

constexpr Direction kAsc = Direction::kAsc;
constexpr Direction kDesc = Direction::kDesc;
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kDenormMin = std::numeric_limits<double>::denorm_min();
constexpr double kSubnormalMax = 0x0.fffffffffffffp-1022;  // below DBL_MIN

// ---- Helpers ------------------------------------------------------------

// "15 01" for the bytes 0x15 0x01.
std::string Hex(std::string_view s) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    if (!out.empty()) out += ' ';
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

std::string Unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i < hex.size(); i += hex[i] == ' ' ? 1 : 2) {
    if (hex[i] == ' ') continue;
    out += static_cast<char>(
        std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  }
  return out;
}

std::string Enc(const Value& v, Direction dir) {
  std::string out;
  EncodeValue(v, dir, &out);
  return out;
}

std::string Complemented(std::string s) {
  for (char& c : s) c = static_cast<char>(~c);
  return s;
}

int Sign(int x) { return (x > 0) - (x < 0); }

int MemCompare(std::string_view a, std::string_view b) {
  const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (c != 0) return Sign(c);
  return (a.size() > b.size()) - (a.size() < b.size());
}

// Cross-type order of the reference comparator: the order of the type tags.
int TypeRank(Type t) {
  // Indexed by Type: NULL, INTEGER, REAL, TEXT, BLOB, BOOLEAN, TIMESTAMP, LIST.
  static constexpr int kRank[] = {0, 1, 2, 5, 6, 3, 4, 7};
  return kRank[static_cast<int>(t)];
}

// Reference order on Values, independent of the codec: NULL first, numbers
// numerically (-0.0 == 0.0), text and blobs bytewise, lists element-wise with
// a prefix first, other types by tag order.
int Compare(const Value& a, const Value& b) {
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

int Compare(const Value& a, const Value& b, Direction dir) {
  return dir == kDesc ? -Compare(a, b) : Compare(a, b);
}

int CompareKeys(const std::vector<Value>& a, const std::vector<Value>& b,
                const std::vector<Direction>& dirs) {
  for (size_t i = 0; i < dirs.size(); ++i) {
    if (int c = Compare(a[i], b[i], dirs[i]); c != 0) return c;
  }
  return 0;
}

// What decoding an encoding gives back: -0.0 becomes 0.0.
Value Canonical(const Value& v) {
  if (v.type() == Type::kReal && v.real_value() == 0) return Value::Real(0.0);
  if (v.type() != Type::kList) return v;
  std::vector<Value> elements;
  for (const Value& e : v.list()) elements.push_back(Canonical(e));
  return Value::List(std::move(elements));
}

std::string Show(const Value& v) { return KeyToString(std::span(&v, 1)); }

// The randomized round trips run one fixed seed (LEVELQL_SEED replaces it).
uint64_t Seed() {
  static const uint64_t seed =
      levelql::testing::TestSeeds("key_codec_test", {20120901})[0];
  return seed;
}

#define TRACE_SEED() SCOPED_TRACE("LEVELQL_SEED=" + std::to_string(Seed()))

// ---- Sorted tables: exact bytes, order, round trip, trailing bytes ------

struct Vector {
  Value value;
  std::string asc_hex;
};

// REQUIRES: table strictly increasing.
void CheckSortedTable(const std::vector<Vector>& table) {
  const std::string trailing = "\x7e\x00\xff"s;
  for (size_t i = 0; i < table.size(); ++i) {
    const Value& v = table[i].value;
    SCOPED_TRACE(Show(v));
    const std::string asc = Enc(v, kAsc);
    const std::string desc = Enc(v, kDesc);
    EXPECT_EQ(Hex(asc), table[i].asc_hex);
    EXPECT_EQ(desc, Complemented(asc));
    if (i > 0) {
      const Value& prev = table[i - 1].value;
      EXPECT_LT(Compare(prev, v), 0) << "table not sorted";
      EXPECT_LT(MemCompare(Enc(prev, kAsc), asc), 0);
      EXPECT_GT(MemCompare(Enc(prev, kDesc), desc), 0);
    }
    for (Direction dir : {kAsc, kDesc}) {
      const std::string bytes = (dir == kAsc ? asc : desc) + trailing;
      std::string_view in = bytes;
      Value out;
      ASSERT_TRUE(DecodeValue(&in, dir, &out).ok());
      EXPECT_EQ(out, Canonical(v)) << Show(out);
      EXPECT_EQ(in, trailing);
    }
  }
}

TEST(KeyCodecTable, NullIsOneByteFirstAscendingLastDescending) {
  EXPECT_EQ(Hex(Enc(Value::Null(), kAsc)), "01");
  EXPECT_EQ(Hex(Enc(Value::Null(), kDesc)), "fe");
  const std::vector<Value> others = {Value::Int(kMin),   Value::Real(-kInf),
                                     Value::Bool(false), Value::Timestamp(kMin),
                                     Value::Text(""),    Value::Blob(""),
                                     Value::List({})};
  for (const Value& v : others) {
    EXPECT_LT(MemCompare(Enc(Value::Null(), kAsc), Enc(v, kAsc)), 0) << Show(v);
    EXPECT_GT(MemCompare(Enc(Value::Null(), kDesc), Enc(v, kDesc)), 0)
        << Show(v);
  }
}

TEST(KeyCodecTable, IntegersUseOneTagPerByteLength) {
  CheckSortedTable({
      {Value::Int(kMin), "0c 7f ff ff ff ff ff ff ff"},
      {Value::Int(kMin + 1), "0c 80 00 00 00 00 00 00 00"},
      {Value::Int(-(int64_t{1} << 56)), "0c fe ff ff ff ff ff ff ff"},
      {Value::Int(-(int64_t{1} << 56) + 1), "0d 00 00 00 00 00 00 00"},
      {Value::Int(-65536), "11 fe ff ff"},
      {Value::Int(-65535), "12 00 00"},
      {Value::Int(-256), "12 fe ff"},
      {Value::Int(-255), "13 00"},
      {Value::Int(-2), "13 fd"},
      {Value::Int(-1), "13 fe"},
      {Value::Int(0), "14"},
      {Value::Int(1), "15 01"},
      {Value::Int(255), "15 ff"},
      {Value::Int(256), "16 01 00"},
      {Value::Int(65535), "16 ff ff"},
      {Value::Int(65536), "17 01 00 00"},
      {Value::Int((int64_t{1} << 56) - 1), "1b ff ff ff ff ff ff ff"},
      {Value::Int(int64_t{1} << 56), "1c 01 00 00 00 00 00 00 00"},
      {Value::Int(kMax), "1c 7f ff ff ff ff ff ff ff"},
  });
}

TEST(KeyCodecTable, RealsFlipTheSignBitOrAllBits) {
  CheckSortedTable({
      {Value::Real(-kInf), "21 00 0f ff ff ff ff ff ff"},
      {Value::Real(-DBL_MAX), "21 00 10 00 00 00 00 00 00"},
      {Value::Real(-1.0), "21 40 0f ff ff ff ff ff ff"},
      {Value::Real(-DBL_MIN), "21 7f ef ff ff ff ff ff ff"},
      {Value::Real(-kDenormMin), "21 7f ff ff ff ff ff ff fe"},
      {Value::Real(0.0), "21 80 00 00 00 00 00 00 00"},
      {Value::Real(kDenormMin), "21 80 00 00 00 00 00 00 01"},
      {Value::Real(kSubnormalMax), "21 80 0f ff ff ff ff ff ff"},
      {Value::Real(DBL_MIN), "21 80 10 00 00 00 00 00 00"},
      {Value::Real(0.1), "21 bf b9 99 99 99 99 99 9a"},
      {Value::Real(1.0), "21 bf f0 00 00 00 00 00 00"},
      {Value::Real(1.5), "21 bf f8 00 00 00 00 00 00"},
      {Value::Real(2.5), "21 c0 04 00 00 00 00 00 00"},
      {Value::Real(DBL_MAX), "21 ff ef ff ff ff ff ff ff"},
      {Value::Real(kInf), "21 ff f0 00 00 00 00 00 00"},
  });
}

TEST(KeyCodecTable, NegativeZeroEncodesAndDecodesAsZero) {
  EXPECT_EQ(Enc(Value::Real(-0.0), kAsc), Enc(Value::Real(0.0), kAsc));
  EXPECT_EQ(Enc(Value::Real(-0.0), kDesc), Enc(Value::Real(0.0), kDesc));
  std::string bytes = Enc(Value::Real(-0.0), kAsc);
  std::string_view in = bytes;
  Value out;
  ASSERT_TRUE(DecodeValue(&in, kAsc, &out).ok());
  EXPECT_EQ(out, Value::Real(0.0));
  EXPECT_FALSE(std::signbit(out.real_value()));
}

TEST(KeyCodecTable, NaNRealEncodesAsNull) {
  EXPECT_EQ(Hex(Enc(Value::Real(std::nan("")), kAsc)), "01");
}

TEST(KeyCodecTable, BooleansUseTwoTagsFalseFirst) {
  CheckSortedTable({{Value::Bool(false), "26"}, {Value::Bool(true), "27"}});
}

TEST(KeyCodecTable, TimestampsAreBigEndianWithSignBitFlipped) {
  CheckSortedTable({
      {Value::Timestamp(kMin), "30 00 00 00 00 00 00 00 00"},
      {Value::Timestamp(-1), "30 7f ff ff ff ff ff ff ff"},
      {Value::Timestamp(0), "30 80 00 00 00 00 00 00 00"},
      {Value::Timestamp(1), "30 80 00 00 00 00 00 00 01"},
      // 2012-09-01 12:30:00 UTC
      {Value::Timestamp(1346502600000000), "30 80 04 c8 a3 11 29 82 00"},
      {Value::Timestamp(kMax), "30 ff ff ff ff ff ff ff ff"},
  });
}

TEST(KeyCodecTable, TextEscapesZeroBytesAndEndsWithTerminator) {
  CheckSortedTable({
      {Value::Text(""), "40 00 01"},
      {Value::Text("\0"s), "40 00 ff 00 01"},
      {Value::Text("\0\0"s), "40 00 ff 00 ff 00 01"},
      {Value::Text("\x01"), "40 01 00 01"},
      {Value::Text("a"), "40 61 00 01"},
      {Value::Text("ab"), "40 61 62 00 01"},
      {Value::Text("ab\0"s), "40 61 62 00 ff 00 01"},
      {Value::Text("ab\0a"s), "40 61 62 00 ff 61 00 01"},
      {Value::Text("ab\x01"), "40 61 62 01 00 01"},
      {Value::Text("abc"), "40 61 62 63 00 01"},
      {Value::Text("b"), "40 62 00 01"},
      {Value::Text("中"), "40 e4 b8 ad 00 01"},
      {Value::Text("\xff"), "40 ff 00 01"},
      {Value::Text("\xff\xff"), "40 ff ff 00 01"},
  });
}

TEST(KeyCodecTable, BlobsLikeTextUnderTheirOwnTag) {
  CheckSortedTable({
      {Value::Blob(""), "41 00 01"},
      {Value::Blob("\0"s), "41 00 ff 00 01"},
      {Value::Blob("\0\xff"s), "41 00 ff ff 00 01"},
      {Value::Blob("\x01"), "41 01 00 01"},
      {Value::Blob("\xfe\0"s), "41 fe 00 ff 00 01"},
      {Value::Blob("\xff"), "41 ff 00 01"},
  });
}

TEST(KeyCodecTable, ListsAreElementsBetweenTagAndEndMarker) {
  CheckSortedTable({
      {Value::List({}), "50 00"},
      {Value::List({Value::Null()}), "50 01 00"},
      {Value::List({Value::Null(), Value::Int(1)}), "50 01 15 01 00"},
      {Value::List({Value::Int(1)}), "50 15 01 00"},
      {Value::List({Value::Int(1), Value::Int(2)}), "50 15 01 15 02 00"},
      {Value::List({Value::Int(2)}), "50 15 02 00"},
      {Value::List({Value::Text("a")}), "50 40 61 00 01 00"},
      {Value::List({Value::Text("a"), Value::Text("")}),
       "50 40 61 00 01 40 00 01 00"},
      {Value::List({Value::Text("a\0"s)}), "50 40 61 00 ff 00 01 00"},
      {Value::List({Value::List({})}), "50 50 00 00"},
  });
}

// The case a single-byte terminator gets wrong: a descending TEXT or BLOB as
// the last component of a key, where nothing follows the terminator.
TEST(KeyCodecTable, DescendingTextOrdersCorrectlyAtEndOfKey) {
  const std::vector<Direction> dirs = {kAsc, kDesc};
  for (Type t : {Type::kText, Type::kBlob}) {
    SCOPED_TRACE(TypeName(t));
    // Descending order within user 1: "abc" > "ab\0" > "ab" > "".
    std::vector<std::string> keys;
    for (const std::string& s : {"abc"s, "ab\0"s, "ab"s, ""s}) {
      const std::vector<Value> key = {
          Value::Int(1), t == Type::kText ? Value::Text(s) : Value::Blob(s)};
      keys.emplace_back();
      EncodeKey(key, dirs, &keys.back());
    }
    for (size_t i = 1; i < keys.size(); ++i) {
      EXPECT_LT(MemCompare(keys[i - 1], keys[i]), 0) << Hex(keys[i]);
    }
  }
  EXPECT_EQ(Hex(Enc(Value::Text("ab"), kDesc)), "bf 9e 9d ff fe");
  EXPECT_EQ(Hex(Enc(Value::Text("ab\0"s), kDesc)), "bf 9e 9d ff 00 ff fe");
}

TEST(KeyCodecTable, CompositeKeyConcatenatesComponentsInTheirDirections) {
  const std::vector<Value> key = {Value::Int(1), Value::Text("abc"),
                                  Value::Null()};
  const std::vector<Direction> dirs = {kAsc, kDesc, kAsc};
  std::string enc;
  EncodeKey(key, dirs, &enc);
  EXPECT_EQ(Hex(enc), "15 01 bf 9e 9d 9c ff fe 01");
  std::vector<Value> out;
  ASSERT_TRUE(DecodeKey(enc, dirs, &out).ok());
  EXPECT_EQ(KeyToString(out), "(1, 'abc', NULL)");
}

TEST(KeyCodecTable, Int64HelpersMatchIntegerComponents) {
  for (int64_t v : {kMin, int64_t{-300}, int64_t{0}, int64_t{7}, kMax}) {
    for (Direction dir : {kAsc, kDesc}) {
      std::string enc;
      EncodeInt64(v, dir, &enc);
      EXPECT_EQ(enc, Enc(Value::Int(v), dir));
      std::string_view in = enc;
      int64_t out = 42;
      ASSERT_TRUE(DecodeInt64(&in, dir, &out).ok());
      EXPECT_EQ(out, v);
      EXPECT_TRUE(in.empty());
    }
  }
  std::string text = Enc(Value::Text("1"), kAsc);
  std::string_view in = text;
  int64_t out;
  EXPECT_EQ(DecodeInt64(&in, kAsc, &out).code(), Status::Code::kCorruption);
}

TEST(KeyCodecTable, NoComponentStartsWithTheMetadataPrefix) {
  EXPECT_EQ(kMetadataPrefix, '\0');
  EXPECT_EQ(static_cast<int>(Direction::kDesc), 1);
  for (int tag = 0; tag < 256; ++tag) {
    std::string bytes(10, '\x01');  // a tag, then some body
    bytes[0] = static_cast<char>(tag);
    for (Direction dir : {kAsc, kDesc}) {
      std::string_view in = bytes;
      Value out;
      if (!DecodeValue(&in, dir, &out).ok()) continue;
      EXPECT_NE(tag, 0x00) << Show(out);
      EXPECT_NE(tag, 0xff) << Show(out);
    }
  }
}

TEST(KeyCodecTable, DeepListsDecodeUpToTheNestingLimit) {
  Value v = Value::List({});
  for (int i = 1; i < kMaxListDepth; ++i) v = Value::List({v});
  std::string enc = Enc(v, kDesc);
  std::vector<Value> out;
  ASSERT_TRUE(DecodeKey(enc, std::vector<Direction>{kDesc}, &out).ok());
  EXPECT_EQ(out[0], v);
  enc = Enc(Value::List({v}), kAsc);
  EXPECT_EQ(DecodeKey(enc, std::vector<Direction>{kAsc}, &out).code(),
            Status::Code::kCorruption);
}

// ---- The spec: every test vector in indexes/KEY_FORMAT.md ---------------

std::string ReadKeyFormatMd() {
  std::string path = levelql::testing::SourceDir() + "/indexes/KEY_FORMAT.md";
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return "";
  std::string text;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof(buf), f)) > 0;) {
    text.append(buf, n);
  }
  std::fclose(f);
  return text;
}

// Hex of the components joined by " | ", for the layout example.
std::string Parts(const std::vector<std::pair<Value, Direction>>& parts) {
  std::string out;
  for (const auto& [v, dir] : parts) {
    if (!out.empty()) out += " | ";
    out += Hex(Enc(v, dir));
  }
  return out;
}

TEST(KeyCodecSpec, EveryTestVectorInKeyFormatMdMatchesTheCodec) {
  const std::string doc = ReadKeyFormatMd();
  ASSERT_FALSE(doc.empty()) << "not found: " << levelql::testing::SourceDir()
                            << "/indexes/KEY_FORMAT.md";
  const std::vector<std::pair<std::string, Value>> vectors = {
      {"NULL", Value::Null()},
      {"INTEGER -9223372036854775808", Value::Int(kMin)},
      {"INTEGER -281474976710656", Value::Int(-(int64_t{1} << 48))},
      {"INTEGER -1099511627776", Value::Int(-(int64_t{1} << 40))},
      {"INTEGER -4294967296", Value::Int(-(int64_t{1} << 32))},
      {"INTEGER -16777216", Value::Int(-(int64_t{1} << 24))},
      {"INTEGER -65536", Value::Int(-65536)},
      {"INTEGER -256", Value::Int(-256)},
      {"INTEGER -1", Value::Int(-1)},
      {"INTEGER 0", Value::Int(0)},
      {"INTEGER 1", Value::Int(1)},
      {"INTEGER 256", Value::Int(256)},
      {"INTEGER 65536", Value::Int(65536)},
      {"INTEGER 16777216", Value::Int(int64_t{1} << 24)},
      {"INTEGER 4294967296", Value::Int(int64_t{1} << 32)},
      {"INTEGER 1099511627776", Value::Int(int64_t{1} << 40)},
      {"INTEGER 281474976710656", Value::Int(int64_t{1} << 48)},
      {"INTEGER 9223372036854775807", Value::Int(kMax)},
      {"REAL -Inf", Value::Real(-kInf)},
      {"REAL -1.0", Value::Real(-1.0)},
      {"REAL -0.0", Value::Real(-0.0)},
      {"REAL 0.0", Value::Real(0.0)},
      {"REAL 4.9406564584124654e-324", Value::Real(kDenormMin)},
      {"REAL 2.5", Value::Real(2.5)},
      {"REAL Inf", Value::Real(kInf)},
      {"BOOLEAN FALSE", Value::Bool(false)},
      {"BOOLEAN TRUE", Value::Bool(true)},
      {"TIMESTAMP -1", Value::Timestamp(-1)},
      {"TIMESTAMP '2012-09-01 12:30:00'", Value::Timestamp(1346502600000000)},
      {"TEXT ''", Value::Text("")},
      {"TEXT 'ab'", Value::Text("ab")},
      {"TEXT 'ab\\0'", Value::Text("ab\0"s)},
      {"TEXT 'abc'", Value::Text("abc")},
      {"TEXT '中国'", Value::Text("中国")},
      {"BLOB x'00ff'", Value::Blob("\0\xff"s)},
      {"LIST []", Value::List({})},
      {"LIST [1, 'a']", Value::List({Value::Int(1), Value::Text("a")})},
  };
  for (const auto& [label, v] : vectors) {
    const std::string row = "| `" + label + "` | `" + Hex(Enc(v, kAsc)) +
                            "` | `" + Hex(Enc(v, kDesc)) + "` |";
    EXPECT_NE(doc.find(row), std::string::npos) << "missing row: " << row;
  }
  // And the table has no rows the list above lacks.
  const size_t start = doc.find("## Test vectors");
  ASSERT_NE(start, std::string::npos);
  const size_t end = doc.find("\n## ", start + 1);
  size_t rows = 0;
  for (size_t at = doc.find("\n| `", start); at < end;
       at = doc.find("\n| `", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, vectors.size());

  std::string composite;
  EncodeKey(
      std::vector<Value>{Value::Int(1), Value::Text("abc"), Value::Null()},
      std::vector<Direction>{kAsc, kDesc, kAsc}, &composite);
  EXPECT_NE(doc.find("`(1, 'abc' DESC, NULL)` is `" + Hex(composite) + "`"),
            std::string::npos);

  const Value stamp = Value::Timestamp(1346502600000000);
  const std::string row_key = Parts({{Value::Int(5), kAsc},
                                     {Value::Int(1), kAsc},
                                     {stamp, kDesc},
                                     {Value::Int(7), kAsc}});
  const std::string index_key = Parts({{Value::Int(6), kAsc},
                                       {Value::Text("login"), kAsc},
                                       {Value::Int(1), kAsc},
                                       {stamp, kDesc},
                                       {Value::Int(7), kAsc}});
  EXPECT_NE(doc.find("row key      " + row_key + "\n"), std::string::npos)
      << row_key;
  EXPECT_NE(
      doc.find("row value    01 | " + Hex(Enc(Value::Text("login"), kAsc))),
      std::string::npos);
  EXPECT_NE(doc.find("index key    " + index_key + "\n"), std::string::npos)
      << index_key;
  EXPECT_NE(doc.find("`" + Hex("\0format"s) + "` (`\\x00format`)"),
            std::string::npos);
}

// ---- Malformed input ----------------------------------------------------

TEST(KeyCodecMalformed, BadInputIsCorruption) {
  struct Case {
    std::string hex;
    Direction dir;
    const char* what;
  };
  const std::vector<Case> cases = {
      {"", kAsc, "empty"},
      {"00", kAsc, "0x00 is not a tag"},
      {"ff", kAsc, "0xff is not an ascending tag"},
      {"ff", kDesc, "0x00 complemented"},
      {"01", kDesc, "ascending NULL read as descending"},
      {"02", kAsc, "unassigned tag"},
      {"20", kAsc, "unassigned tag"},
      {"60", kAsc, "unassigned tag"},
      {"15", kAsc, "truncated INTEGER"},
      {"16 01", kAsc, "truncated INTEGER"},
      {"0c 7f ff ff ff ff ff ff", kAsc, "truncated 8-byte INTEGER"},
      {"16 00 01", kAsc, "INTEGER with a leading zero byte"},
      {"12 ff 00", kAsc, "negative INTEGER with a leading 0xff byte"},
      {"13 ff", kAsc, "negative zero INTEGER"},
      {"1c 80 00 00 00 00 00 00 00", kAsc, "INTEGER above INT64_MAX"},
      {"0c 7f ff ff ff ff ff ff fe", kAsc, "INTEGER below INT64_MIN"},
      {"21 80 00", kAsc, "truncated REAL"},
      {"21 ff f8 00 00 00 00 00 00", kAsc, "NaN REAL"},
      {"21 00 07 ff ff ff ff ff ff", kAsc, "negative NaN REAL"},
      {"21 7f ff ff ff ff ff ff ff", kAsc, "non-canonical -0.0"},
      {"30 80 00 00 00 00 00 00", kAsc, "truncated TIMESTAMP"},
      {"40", kAsc, "TEXT without a body"},
      {"40 61 62", kAsc, "TEXT without a terminator"},
      {"40 61 62 00", kAsc, "TEXT with a truncated escape"},
      {"40 61 00 02", kAsc, "TEXT with a bad escape"},
      {"40 61 00 00", kAsc, "TEXT with a bad escape"},
      {"41 61 00 ff", kAsc, "BLOB without a terminator"},
      {"bf 9e ff", kDesc, "descending TEXT with a truncated escape"},
      {"bf 9e ff 00", kDesc, "descending TEXT without a terminator"},
      {"bf 9e ff 01", kDesc, "descending TEXT with a bad escape"},
      {"bf 9e 00 fe", kDesc, "ascending terminator in descending TEXT"},
      {"50", kAsc, "unterminated LIST"},
      {"50 15 01", kAsc, "unterminated LIST"},
      {"50 02 00", kAsc, "LIST with a bad element"},
      {"50 15", kAsc, "LIST with a truncated element"},
      {"50 15 00", kAsc, "LIST with a non-canonical element"},
  };
  for (const Case& c : cases) {
    const std::string bytes = Unhex(c.hex);
    SCOPED_TRACE(std::string(c.what) + ": " + c.hex.substr(0, 40));
    std::string_view in = bytes;
    Value out;
    EXPECT_EQ(DecodeValue(&in, c.dir, &out).code(), Status::Code::kCorruption);
    std::vector<Value> values;
    EXPECT_EQ(DecodeKey(bytes, std::vector<Direction>{c.dir}, &values).code(),
              Status::Code::kCorruption);
  }
}

TEST(KeyCodecMalformed, HostileListNestingIsCorruptionNotStackOverflow) {
  for (Direction dir : {kAsc, kDesc}) {
    const std::string bytes(100000, dir == kAsc ? '\x50' : '\xaf');
    std::string_view in = bytes;
    Value out;
    EXPECT_EQ(DecodeValue(&in, dir, &out).code(), Status::Code::kCorruption);
  }
}

TEST(KeyCodecMalformed, DecodeKeyRejectsTrailingAndMissingComponents) {
  std::string enc;
  const std::vector<Value> key = {Value::Int(1), Value::Text("x")};
  EncodeKey(key, std::vector<Direction>{kAsc, kDesc}, &enc);
  std::vector<Value> out;
  EXPECT_TRUE(DecodeKey(enc, std::vector<Direction>{kAsc, kDesc}, &out).ok());
  EXPECT_EQ(DecodeKey(enc, std::vector<Direction>{kAsc}, &out).code(),
            Status::Code::kCorruption);
  EXPECT_EQ(
      DecodeKey(enc, std::vector<Direction>{kAsc, kDesc, kAsc}, &out).code(),
      Status::Code::kCorruption);
  EXPECT_EQ(DecodeKey(enc, std::vector<Direction>{kAsc, kAsc}, &out).code(),
            Status::Code::kCorruption);
  EXPECT_TRUE(DecodeKey("", std::vector<Direction>{}, &out).ok());
  EXPECT_TRUE(out.empty());
}

// ---- Prefix helpers and rendering ---------------------------------------

TEST(KeyCodecPrefix, PrefixSuccessorIncrementsTheLastNonFFByte) {
  EXPECT_EQ(PrefixSuccessor(""), "");
  EXPECT_EQ(PrefixSuccessor("a"), "b");
  EXPECT_EQ(PrefixSuccessor("a\xff\xff"), "b");
  EXPECT_EQ(PrefixSuccessor("a\0"s), "a\x01");
  EXPECT_EQ(PrefixSuccessor("\xff\xff"), "");
  EXPECT_EQ(Hex(PrefixSuccessor(Unhex("40 61 fe"))), "40 61 ff");
}

TEST(KeyCodecPrefix, TextPrefixIsTheEncodingWithoutTerminator) {
  std::string p;
  EncodeTextPrefix("ab\0"s, Type::kText, &p);
  EXPECT_EQ(Hex(p), "40 61 62 00 ff");
  p.clear();
  EncodeTextPrefix("", Type::kBlob, &p);
  EXPECT_EQ(Hex(p), "41");
  // LIKE 'ab%' covers "ab", "ab\0..." and "abc" but not "aa" or "b".
  p.clear();
  EncodeTextPrefix("ab", Type::kText, &p);
  const std::string end = PrefixSuccessor(p);
  for (const std::string& s : {"ab"s, "ab\0"s, "abc"s, "ab\xff"s}) {
    const std::string e = Enc(Value::Text(s), kAsc);
    EXPECT_TRUE(e >= p && e < end) << Hex(e);
  }
  for (const std::string& s : {"a"s, "aa"s, "b"s, "a\xff"s, ""s}) {
    const std::string e = Enc(Value::Text(s), kAsc);
    EXPECT_FALSE(e >= p && e < end) << Hex(e);
  }
}

TEST(KeyCodecRender, KeyToStringRendersEveryType) {
  const std::vector<Value> key = {
      Value::Int(-7),
      Value::Real(2.5),
      Value::Real(0.1),
      Value::Real(3),
      Value::Real(-0.0),
      Value::Real(-kInf),
      Value::Text("it's"),
      Value::Blob("\0\xff"s),
      Value::Bool(true),
      Value::Timestamp(1346502600000000),
      Value::List({Value::Int(1), Value::Text("a")}),
      Value::Null()};
  EXPECT_EQ(KeyToString(key),
            "(-7, 2.5, 0.1, 3.0, 0.0, -Inf, 'it''s', x'00ff', TRUE, "
            "'2012-09-01 12:30:00', [1, 'a'], NULL)");
  EXPECT_EQ(KeyToString({}), "()");
}

TEST(KeyCodecFixed, BigEndianHelpersRoundTrip) {
  std::string out;
  EncodeFixed64BigEndian(0x0102030405060708, &out);
  EXPECT_EQ(Hex(out), "01 02 03 04 05 06 07 08");
  EXPECT_EQ(DecodeFixed64BigEndian(out.data()), uint64_t{0x0102030405060708});
  out.clear();
  EncodeFixed64BigEndian(~uint64_t{0}, &out);
  EXPECT_EQ(DecodeFixed64BigEndian(out.data()), ~uint64_t{0});
}

// ---- Randomized -------------------------------------------------------

class RandomValues {
 public:
  explicit RandomValues(uint64_t seed) : rng_(seed) {
    for (int k = 0; k < 8; ++k) {
      const uint64_t b = uint64_t{1} << (8 * k);
      for (uint64_t m : {b - 1, b, b + 1}) {
        ints_.push_back(static_cast<int64_t>(m));
        ints_.push_back(static_cast<int64_t>(0 - m));
      }
    }
    for (int64_t v : {kMin, kMin + 1, kMax, kMax - 1}) ints_.push_back(v);
    reals_ = {0.0,      -0.0,          kInf,
              -kInf,    kDenormMin,    -kDenormMin,
              DBL_MIN,  -DBL_MIN,      DBL_MAX,
              -DBL_MAX, kSubnormalMax, -kSubnormalMax,
              1.0,      -1.0,          1.0 + DBL_EPSILON,
              0.1};
  }

  uint64_t Uniform(uint64_t n) { return rng_() % n; }
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

  int64_t Int() {
    switch (Uniform(4)) {
      case 0:
        return ints_[Uniform(ints_.size())];
      case 1:
        return static_cast<int64_t>(Uniform(7)) - 3;
      default: {
        // Uniform over bit widths rather than over values.
        const uint64_t u = rng_() >> Uniform(64);
        return static_cast<int64_t>(OneIn(2) ? u : 0 - u);
      }
    }
  }

  double Real() {
    switch (Uniform(4)) {
      case 0:
        return reals_[Uniform(reals_.size())];
      case 1:
        return static_cast<double>(Uniform(7)) - 3.0;
      default: {
        double d;
        do {
          d = std::bit_cast<double>(rng_());
        } while (std::isnan(d));
        return d;
      }
    }
  }

  std::string Bytes() {
    static const char kAlphabet[] = {'\0', '\x01', '\xff', '\xfe', 'a', 'b'};
    std::string s(Uniform(4) == 0 ? Uniform(20) : Uniform(5), '\0');
    for (char& c : s) {
      c = OneIn(4) ? static_cast<char>(rng_()) : kAlphabet[Uniform(6)];
    }
    return s;
  }

  // A random non-NULL value of type t (lists nest at most three deep).
  Value Of(Type t, int depth = 0) {
    switch (t) {
      case Type::kNull:
        return Value::Null();
      case Type::kInteger:
        return Value::Int(Int());
      case Type::kReal:
        return Value::Real(Real());
      case Type::kText:
        return Value::Text(Bytes());
      case Type::kBlob:
        return Value::Blob(Bytes());
      case Type::kBoolean:
        return Value::Bool(OneIn(2));
      case Type::kTimestamp:
        return Value::Timestamp(Int());
      case Type::kList: {
        std::vector<Value> elements(Uniform(4));
        const Type elem = depth < 2 && OneIn(8) ? Type::kList : ScalarType();
        for (Value& e : elements) e = NullOr(elem, depth + 1);
        return Value::List(std::move(elements));
      }
    }
    return Value::Null();
  }

  // NULL one time in ten, else a value of type t.
  Value NullOr(Type t, int depth = 0) {
    return OneIn(10) ? Value::Null() : Of(t, depth);
  }

  // A value likely to be close to `a`: equal, a neighbour, a prefix or an
  // extension; otherwise fresh.
  Value Near(const Value& a, Type t) {
    if (OneIn(8)) return a;
    if (a.is_null() || OneIn(3)) return NullOr(t);
    switch (t) {
      case Type::kInteger:
      case Type::kTimestamp: {
        const int64_t v = a.int_value();
        const int64_t d = static_cast<int64_t>(Uniform(3)) - 1;
        const int64_t n =
            (d > 0 && v == kMax) || (d < 0 && v == kMin) ? v : v + d;
        return t == Type::kInteger ? Value::Int(n) : Value::Timestamp(n);
      }
      case Type::kReal: {
        const double to = OneIn(2) ? kInf : -kInf;
        return Value::Real(OneIn(4) ? -a.real_value()
                                    : std::nextafter(a.real_value(), to));
      }
      case Type::kText:
      case Type::kBlob: {
        std::string s = a.text();
        if (OneIn(2)) {
          s.resize(Uniform(s.size() + 1));
        } else {
          s += Bytes();
        }
        return t == Type::kText ? Value::Text(s) : Value::Blob(s);
      }
      case Type::kList: {
        // Truncated, extended, or with its last element moved nearby.
        std::vector<Value> e = a.list();
        if (OneIn(3)) {
          e.resize(Uniform(e.size() + 1));
        } else if (OneIn(2) || e.empty()) {
          e.push_back(NullOr(e.empty() ? ScalarType() : e[0].type()));
        } else {
          e.back() = Near(e.back(), e.back().type());
        }
        return Value::List(std::move(e));
      }
      default:
        return Of(t);
    }
  }

  Type ScalarType() {
    static const Type kScalars[] = {Type::kInteger, Type::kReal,
                                    Type::kText,    Type::kBlob,
                                    Type::kBoolean, Type::kTimestamp};
    return kScalars[Uniform(6)];
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
  std::vector<int64_t> ints_;
  std::vector<double> reals_;
};

::testing::AssertionResult OrderAgrees(const Value& a, const Value& b,
                                       Direction dir) {
  const std::string ea = Enc(a, dir);
  const std::string eb = Enc(b, dir);
  const int want = Compare(a, b, dir);
  const int got = MemCompare(ea, eb);
  if (want == got) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << Show(a) << " vs " << Show(b) << (dir == kDesc ? " DESC" : " ASC")
         << ": compare " << want << ", memcmp " << got << " (" << Hex(ea)
         << " vs " << Hex(eb) << ")";
}

::testing::AssertionResult RoundTrips(const Value& v, Direction dir) {
  const std::string enc = Enc(v, dir);
  std::string_view in = enc;
  Value out;
  Status s = DecodeValue(&in, dir, &out);
  if (s.ok() && in.empty() && out == Canonical(v)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << Show(v) << " -> " << Hex(enc) << " -> " << s.ToString() << " "
         << Show(out);
}

// 7 types x 2 directions x 60,000 pairs = 840,000 pairs.
TEST(KeyCodecProperty, MemcmpOrderMatchesValueOrderForEveryTypeAndDirection) {
  TRACE_SEED();
  RandomValues rnd(Seed());
  for (Type t : {Type::kInteger, Type::kReal, Type::kText, Type::kBlob,
                 Type::kBoolean, Type::kTimestamp, Type::kList}) {
    for (Direction dir : {kAsc, kDesc}) {
      SCOPED_TRACE(std::string(TypeName(t)) + (dir == kDesc ? " DESC" : ""));
      for (int i = 0; i < 60000; ++i) {
        const Value a = rnd.NullOr(t);
        const Value b = rnd.Near(a, t);
        ASSERT_TRUE(OrderAgrees(a, b, dir));
        ASSERT_TRUE(RoundTrips(a, dir));
      }
    }
  }
}

// 400 schemas x 500 pairs = 200,000 composite pairs (1,040,000 in all).
TEST(KeyCodecProperty, CompositeKeysMixingDirectionsSortComponentWise) {
  TRACE_SEED();
  RandomValues rnd(Seed() + 1);
  for (int schema = 0; schema < 400; ++schema) {
    std::vector<Type> types(1 + rnd.Uniform(4));
    std::vector<Direction> dirs(types.size());
    std::string desc = "schema";
    for (size_t i = 0; i < types.size(); ++i) {
      types[i] = rnd.ScalarType();
      dirs[i] = rnd.OneIn(2) ? kDesc : kAsc;
      desc += std::string(" ") + std::string(TypeName(types[i])) +
              (dirs[i] == kDesc ? " DESC" : "");
    }
    SCOPED_TRACE(desc);
    for (int i = 0; i < 500; ++i) {
      std::vector<Value> a, b;
      for (Type t : types) a.push_back(rnd.NullOr(t));
      // b shares a prefix of a, then differs (or not) from a random point.
      const size_t k = rnd.Uniform(types.size() + 1);
      for (size_t j = 0; j < types.size(); ++j) {
        b.push_back(j < k ? a[j] : rnd.Near(a[j], types[j]));
      }
      std::string ea, eb;
      EncodeKey(a, dirs, &ea);
      EncodeKey(b, dirs, &eb);
      ASSERT_EQ(Sign(CompareKeys(a, b, dirs)), MemCompare(ea, eb))
          << KeyToString(a) << " vs " << KeyToString(b) << ": " << Hex(ea)
          << " vs " << Hex(eb);
      std::vector<Value> out;
      ASSERT_TRUE(DecodeKey(ea, dirs, &out).ok()) << KeyToString(a);
      ASSERT_EQ(out.size(), a.size());
      for (size_t j = 0; j < a.size(); ++j) ASSERT_EQ(out[j], Canonical(a[j]));
    }
  }
}

TEST(KeyCodecProperty, TextPrefixRangeHoldsExactlyTheExtensions) {
  TRACE_SEED();
  RandomValues rnd(Seed() + 2);
  for (int i = 0; i < 50000; ++i) {
    const Type t = rnd.OneIn(2) ? Type::kText : Type::kBlob;
    const std::string prefix = rnd.Bytes();
    std::string p;
    EncodeTextPrefix(prefix, t, &p);
    const std::string s = rnd.OneIn(2) ? prefix + rnd.Bytes() : rnd.Bytes();
    const Value v = t == Type::kText ? Value::Text(s) : Value::Blob(s);
    const bool starts = s.compare(0, prefix.size(), prefix) == 0;
    const std::string asc = Enc(v, kAsc);
    ASSERT_EQ(asc.compare(0, p.size(), p) == 0, starts)
        << Hex(p) << " " << Hex(asc);
    const bool in_range =
        MemCompare(asc, p) >= 0 && MemCompare(asc, PrefixSuccessor(p)) < 0;
    ASSERT_EQ(in_range, starts) << Hex(p) << " " << Hex(asc);
    // Descending: the complemented prefix bounds the same values.
    const std::string dp = Complemented(p);
    const std::string desc = Enc(v, kDesc);
    ASSERT_EQ(desc.compare(0, dp.size(), dp) == 0, starts);
  }
}

// Random and mutated byte strings: DecodeKey returns a Status, never crashes,
// and whatever it accepts re-encodes to the same bytes (encodings are
// canonical).
TEST(KeyCodecFuzz, DecodeKeyNeverCrashesAndAcceptsOnlyCanonicalBytes) {
  TRACE_SEED();
  RandomValues rnd(Seed() + 3);
  static const uint8_t kTags[] = {0x01, 0x0c, 0x10, 0x13, 0x14, 0x15,
                                  0x18, 0x1c, 0x21, 0x26, 0x27, 0x30,
                                  0x40, 0x41, 0x50, 0x00, 0xff, 0x02};
  int accepted = 0;
  for (int i = 0; i < 200000; ++i) {
    std::vector<Direction> dirs(1 + rnd.Uniform(3));
    for (Direction& d : dirs) d = rnd.OneIn(2) ? kDesc : kAsc;
    std::string bytes;
    bool unchanged = false;
    if (rnd.OneIn(2)) {
      bytes.resize(rnd.Uniform(24));
      for (char& c : bytes) {
        c = static_cast<char>(rnd.OneIn(3) ? kTags[rnd.Uniform(18)]
                                           : rnd.rng()());
        if (dirs[0] == kDesc && rnd.OneIn(2)) c = static_cast<char>(~c);
      }
    } else {
      std::vector<Value> key;
      for (size_t j = 0; j < dirs.size(); ++j) {
        key.push_back(
            rnd.NullOr(rnd.OneIn(10) ? Type::kList : rnd.ScalarType()));
      }
      EncodeKey(key, dirs, &bytes);
      switch (rnd.Uniform(4)) {
        case 0:
          bytes.resize(rnd.Uniform(bytes.size() + 1));
          break;
        case 1:
          bytes[rnd.Uniform(bytes.size())] = static_cast<char>(rnd.rng()());
          break;
        case 2:
          bytes.insert(rnd.Uniform(bytes.size() + 1), 1,
                       static_cast<char>(rnd.rng()()));
          break;
        default:
          unchanged = true;
          break;
      }
    }
    std::vector<Value> out;
    const Status s = DecodeKey(bytes, dirs, &out);
    if (unchanged) {
      ASSERT_TRUE(s.ok()) << s.ToString() << " " << Hex(bytes);
    }
    if (!s.ok()) {
      ASSERT_EQ(s.code(), Status::Code::kCorruption) << Hex(bytes);
      continue;
    }
    ++accepted;
    ASSERT_EQ(out.size(), dirs.size());
    std::string again;
    EncodeKey(out, dirs, &again);
    ASSERT_EQ(Hex(again), Hex(bytes)) << KeyToString(out);
  }
  EXPECT_GT(accepted, 20000);
}

}  // namespace
}  // namespace levelql::keys
