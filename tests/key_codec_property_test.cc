// Randomized tests of the key codec: memcmp order against a reference
// comparator on Values for every type, both directions and composite keys,
// prefix ranges, and decoding arbitrary bytes. A fixed seed that
// LEVELQL_SEED overrides; failures print it.
#include <gtest/gtest.h>

#include "tests/key_codec_test_util.h"

namespace levelql::keys {
namespace {

using namespace test_util;
using namespace std::string_literals;

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
