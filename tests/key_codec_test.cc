// Tests for the order-preserving key codec (indexes/key_codec.h): tables
// of values in sorted order pin the exact bytes of indexes/KEY_FORMAT.md
// (cockroachdb pkg/util/encoding/encoding_test.go style), every test vector
// of the spec is checked, and malformed input is Corruption. The randomized
// order checks are in key_codec_property_test.cc.
#include "indexes/key_codec.h"

#include <gtest/gtest.h>

#include "tests/key_codec_test_util.h"

namespace levelql::keys {
namespace {

using namespace test_util;
using namespace std::string_literals;

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

// An INTEGER's body is read in one load when 8 bytes follow its tag and
// byte by byte otherwise: both give the value, in both directions, for
// every body length, whatever follows it.
TEST(KeyCodecFixed, IntegersDecodeAtEveryLengthWithAnyTail) {
  std::vector<int64_t> values = {0, INT64_MIN, INT64_MAX};
  for (int bytes = 1; bytes <= 8; ++bytes) {
    const uint64_t top =
        bytes == 8 ? ~uint64_t{0} >> 1 : (uint64_t{1} << (8 * bytes)) - 1;
    const uint64_t low = uint64_t{1} << (8 * (bytes - 1));
    for (uint64_t mag : {low, low | 0x5a, top}) {
      values.push_back(static_cast<int64_t>(mag));
      values.push_back(-static_cast<int64_t>(mag));
    }
  }
  for (const std::string& tail : {""s, "\x01"s, "\x7e\x00\xff"s,
                                  "\xff\xff\xff\xff\xff\xff\xff\xff\xff"s}) {
    for (int64_t v : values) {
      for (Direction dir : {kAsc, kDesc}) {
        SCOPED_TRACE(std::to_string(v) + " tail " +
                     std::to_string(tail.size()));
        const std::string bytes = Enc(Value::Int(v), dir) + tail;
        std::string_view in = bytes;
        Value out = Value::Text("was text");
        ASSERT_TRUE(DecodeValue(&in, dir, &out).ok());
        EXPECT_EQ(out, Value::Int(v));
        EXPECT_EQ(in, tail);
      }
    }
  }
}

}  // namespace
}  // namespace levelql::keys
