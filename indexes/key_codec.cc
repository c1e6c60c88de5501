#include "indexes/key_codec.h"

#include <bit>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>

#include "base/value_slot.h"

namespace levelql::keys {

namespace {

constexpr uint64_t kSignBit = uint64_t{1} << 63;

// Descending components are the ascending bytes XOR 0xff; the decoders below
// read through the same mask, so one decoder serves both directions.
uint8_t MaskFor(Direction dir) { return dir == Direction::kDesc ? 0xff : 0x00; }

void Complement(std::string* out, size_t from) {
  for (size_t i = from; i < out->size(); ++i) (*out)[i] = ~(*out)[i];
}

Status Corrupt(std::string_view what) {
  return Status::Corruption("key codec: " + std::string(what));
}

// ---- Ascending encoders -------------------------------------------------

void EncodeInt64Ascending(int64_t v, std::string* out) {
  if (v == 0) {
    out->push_back(static_cast<char>(kTagIntZero));
    return;
  }
  // Magnitude as unsigned (well defined for INT64_MIN), its byte length n,
  // and for negatives the one's complement of the magnitude in n bytes.
  const uint64_t mag =
      v > 0 ? static_cast<uint64_t>(v) : uint64_t{0} - static_cast<uint64_t>(v);
  const int n = (std::bit_width(mag) + 7) / 8;
  const uint64_t body = v > 0 ? mag : ~mag;
  out->push_back(static_cast<char>(v > 0 ? kTagIntZero + n : kTagIntZero - n));
  for (int i = n - 1; i >= 0; --i) {
    out->push_back(static_cast<char>(body >> (8 * i)));
  }
}

uint64_t RealBits(double d) {
  uint64_t bits = d == 0 ? 0 : std::bit_cast<uint64_t>(d);  // -0.0 -> 0.0
  return (bits & kSignBit) ? ~bits : bits ^ kSignBit;
}

void EncodeEscaped(std::string_view bytes, std::string* out) {
  size_t start = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != '\0') continue;
    out->append(bytes.data() + start, i - start);
    out->push_back(static_cast<char>(kEscape));
    out->push_back(static_cast<char>(kEscapedZero));
    start = i + 1;
  }
  out->append(bytes.data() + start, bytes.size() - start);
}

void EncodeAscending(const Value& v, std::string* out) {
  switch (v.type()) {
    case Type::kNull:
      out->push_back(static_cast<char>(kTagNull));
      return;
    case Type::kInteger:
      EncodeInt64Ascending(v.int_value(), out);
      return;
    case Type::kReal:
      if (std::isnan(v.real_value())) {
        out->push_back(static_cast<char>(kTagNull));
        return;
      }
      out->push_back(static_cast<char>(kTagReal));
      EncodeFixed64BigEndian(RealBits(v.real_value()), out);
      return;
    case Type::kBoolean:
      out->push_back(static_cast<char>(v.bool_value() ? kTagTrue : kTagFalse));
      return;
    case Type::kTimestamp:
      out->push_back(static_cast<char>(kTagTimestamp));
      EncodeFixed64BigEndian(static_cast<uint64_t>(v.int_value()) ^ kSignBit,
                             out);
      return;
    case Type::kText:
    case Type::kBlob:
      EncodeTextPrefix(v.text(), v.type(), out);
      out->push_back(static_cast<char>(kEscape));
      out->push_back(static_cast<char>(kTerminator));
      return;
    case Type::kList:
      out->push_back(static_cast<char>(kTagList));
      for (const Value& e : v.list()) EncodeAscending(e, out);
      out->push_back(static_cast<char>(kListEnd));
      return;
  }
  assert(false && "unknown Value type");
}

// ---- Decoders (through a mask) ------------------------------------------

// Reads n (1..8) bytes big-endian. REQUIRES: in->size() >= n.
uint64_t ReadBigEndian(std::string_view* in, int n, uint8_t mask) {
  uint64_t x = 0;
  if (std::endian::native == std::endian::little && in->size() >= 8) {
    // One load when 8 bytes are there (a component is rarely the last
    // bytes of a key): the first n kept.
    std::memcpy(&x, in->data(), 8);
    x = __builtin_bswap64(x) >> (8 * (8 - n));
  } else {
    for (int i = 0; i < n; ++i) x = (x << 8) | static_cast<uint8_t>((*in)[i]);
  }
  if (mask != 0) x ^= n == 8 ? ~uint64_t{0} : (uint64_t{1} << 8 * n) - 1;
  in->remove_prefix(n);
  return x;
}

[[gnu::always_inline]] inline Status DecodeIntBody(std::string_view* in,
                                                   uint8_t tag, uint8_t mask,
                                                   int64_t* out) {
  if (tag == kTagIntZero) {
    *out = 0;
    return Status::OK();
  }
  const bool positive = tag > kTagIntZero;
  const int n = positive ? tag - kTagIntZero : kTagIntZero - tag;
  if (in->size() < static_cast<size_t>(n)) return Corrupt("truncated INTEGER");
  const uint64_t body = ReadBigEndian(in, n, mask);
  const uint64_t low_bits = n == 8 ? ~uint64_t{0} : (uint64_t{1} << 8 * n) - 1;
  const uint64_t mag = positive ? body : ~body & low_bits;
  // Canonical: the shortest length, and within int64 range.
  if ((mag >> (8 * (n - 1))) == 0) return Corrupt("non-canonical INTEGER");
  if (positive ? mag > kSignBit - 1 : mag > kSignBit) {
    return Corrupt("INTEGER out of range");
  }
  *out = positive ? static_cast<int64_t>(mag)
                  : static_cast<int64_t>(uint64_t{0} - mag);
  return Status::OK();
}

Status DecodeEscaped(std::string_view* in, uint8_t mask, std::string* out) {
  out->clear();
  while (true) {
    // In the stored bytes an escape byte reads as `mask`.
    const void* hit = std::memchr(in->data(), mask, in->size());
    if (hit == nullptr) return Corrupt("unterminated TEXT/BLOB");
    const size_t len = static_cast<const char*>(hit) - in->data();
    const size_t start = out->size();
    out->append(in->data(), len);
    if (mask != 0) Complement(out, start);
    in->remove_prefix(len + 1);
    if (in->empty()) return Corrupt("truncated escape in TEXT/BLOB");
    const uint8_t next = static_cast<uint8_t>(in->front()) ^ mask;
    in->remove_prefix(1);
    if (next == kTerminator) return Status::OK();
    if (next != kEscapedZero) return Corrupt("bad escape in TEXT/BLOB");
    out->push_back('\0');
  }
}

Status DecodeMasked(std::string_view* in, uint8_t mask, int depth, Value* out) {
  if (in->empty()) return Corrupt("missing component");
  const uint8_t tag = static_cast<uint8_t>(in->front()) ^ mask;
  in->remove_prefix(1);
  if (tag >= kTagIntNeg8 && tag <= kTagIntPos8) {
    int64_t v = 0;
    LQ_RETURN_IF_ERROR(DecodeIntBody(in, tag, mask, &v));
    ValueSlot::SetInt(out, Type::kInteger, v);
    return Status::OK();
  }
  switch (tag) {
    case kTagNull:
      ValueSlot::SetNull(out);
      return Status::OK();
    case kTagFalse:
    case kTagTrue:
      ValueSlot::SetInt(out, Type::kBoolean, tag == kTagTrue ? 1 : 0);
      return Status::OK();
    case kTagReal: {
      if (in->size() < 8) return Corrupt("truncated REAL");
      uint64_t bits = ReadBigEndian(in, 8, mask);
      bits = (bits & kSignBit) ? bits ^ kSignBit : ~bits;
      const double d = std::bit_cast<double>(bits);
      if (std::isnan(d)) return Corrupt("NaN REAL");
      if (bits == kSignBit) return Corrupt("non-canonical REAL -0.0");
      *out = Value::Real(d);
      return Status::OK();
    }
    case kTagTimestamp: {
      if (in->size() < 8) return Corrupt("truncated TIMESTAMP");
      const uint64_t bits = ReadBigEndian(in, 8, mask) ^ kSignBit;
      ValueSlot::SetInt(out, Type::kTimestamp, static_cast<int64_t>(bits));
      return Status::OK();
    }
    case kTagText:
    case kTagBlob: {
      return DecodeEscaped(
          in, mask,
          ValueSlot::SetBytes(out,
                              tag == kTagText ? Type::kText : Type::kBlob));
    }
    case kTagList: {
      if (depth >= kMaxListDepth) return Corrupt("LIST nested too deeply");
      std::vector<Value> elements;
      while (true) {
        if (in->empty()) return Corrupt("unterminated LIST");
        if ((static_cast<uint8_t>(in->front()) ^ mask) == kListEnd) break;
        Value e;
        LQ_RETURN_IF_ERROR(DecodeMasked(in, mask, depth + 1, &e));
        elements.push_back(std::move(e));
      }
      in->remove_prefix(1);
      *out = Value::List(std::move(elements));
      return Status::OK();
    }
    default: {
      static const char* kHex = "0123456789abcdef";
      const char name[] = {kHex[tag >> 4], kHex[tag & 15], '\0'};
      return Corrupt(std::string("bad type tag 0x") + name);
    }
  }
}

// Skips one component without building its value. Checks lengths, tags
// and TEXT/BLOB escapes (what keeps the next component aligned); leaves the
// value checks (canonical INTEGER, NaN REAL) to DecodeValue.
Status SkipMasked(std::string_view* in, uint8_t mask, int depth,
                  bool* is_null) {
  if (in->empty()) return Corrupt("missing component");
  const uint8_t tag = static_cast<uint8_t>(in->front()) ^ mask;
  in->remove_prefix(1);
  *is_null = tag == kTagNull;
  size_t body = 0;
  if (tag >= kTagIntNeg8 && tag <= kTagIntPos8) {
    body = tag > kTagIntZero ? tag - kTagIntZero : kTagIntZero - tag;
  } else {
    switch (tag) {
      case kTagNull:
      case kTagFalse:
      case kTagTrue:
        return Status::OK();
      case kTagReal:
      case kTagTimestamp:
        body = 8;
        break;
      case kTagText:
      case kTagBlob:
        while (true) {
          const void* hit = std::memchr(in->data(), mask, in->size());
          if (hit == nullptr) return Corrupt("unterminated TEXT/BLOB");
          const size_t len = static_cast<const char*>(hit) - in->data();
          if (len + 1 >= in->size()) {
            return Corrupt("truncated escape in TEXT/BLOB");
          }
          const uint8_t next = static_cast<uint8_t>((*in)[len + 1]) ^ mask;
          in->remove_prefix(len + 2);
          if (next == kTerminator) return Status::OK();
          if (next != kEscapedZero) return Corrupt("bad escape in TEXT/BLOB");
        }
      case kTagList: {
        if (depth >= kMaxListDepth) return Corrupt("LIST nested too deeply");
        bool null = false;
        while (true) {
          if (in->empty()) return Corrupt("unterminated LIST");
          if ((static_cast<uint8_t>(in->front()) ^ mask) == kListEnd) break;
          LQ_RETURN_IF_ERROR(SkipMasked(in, mask, depth + 1, &null));
        }
        in->remove_prefix(1);
        return Status::OK();
      }
      default:
        return Corrupt("bad type tag");
    }
  }
  if (in->size() < body) return Corrupt("truncated component");
  in->remove_prefix(body);
  return Status::OK();
}

// ---- Rendering ----------------------------------------------------------

std::string Quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string RenderValue(const Value& v) {
  switch (v.type()) {
    case Type::kText:
      return Quote(v.text());
    case Type::kTimestamp:
      return Quote(v.ToString());
    case Type::kReal: {
      const double d = v.real_value();
      if (std::isinf(d) || std::isnan(d)) return v.ToString();
      char buf[32];
      auto res = std::to_chars(buf, buf + sizeof(buf), d == 0 ? 0.0 : d);
      std::string s(buf, res.ptr);
      if (s.find_first_of(".e") == std::string::npos) s += ".0";
      return s;
    }
    case Type::kList: {
      std::string out = "[";
      for (size_t i = 0; i < v.list().size(); ++i) {
        if (i > 0) out += ", ";
        out += RenderValue(v.list()[i]);
      }
      return out + "]";
    }
    default:
      return v.ToString();  // NULL, 42, TRUE, x'00ff'
  }
}

}  // namespace

void EncodeFixed64BigEndian(uint64_t v, std::string* out) {
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>(v >> (56 - 8 * i));
  out->append(buf, 8);
}

uint64_t DecodeFixed64BigEndian(const char* p) {
  uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x = (x << 8) | static_cast<uint8_t>(p[i]);
  return x;
}

void EncodeValue(const Value& v, Direction dir, std::string* out) {
  const size_t start = out->size();
  EncodeAscending(v, out);
  if (dir == Direction::kDesc) Complement(out, start);
}

Status DecodeValue(std::string_view* in, Direction dir, Value* out) {
  const uint8_t mask = MaskFor(dir);
  // An INTEGER, the most common component, without DecodeMasked's frame.
  if (!in->empty()) {
    const uint8_t tag = static_cast<uint8_t>(in->front()) ^ mask;
    if (tag >= kTagIntNeg8 && tag <= kTagIntPos8) {
      in->remove_prefix(1);
      int64_t v = 0;
      LQ_RETURN_IF_ERROR(DecodeIntBody(in, tag, mask, &v));
      ValueSlot::SetInt(out, Type::kInteger, v);
      return Status::OK();
    }
  }
  return DecodeMasked(in, mask, 0, out);
}

Status SkipComponent(std::string_view* in, Direction dir, bool* is_null) {
  bool null = false;
  LQ_RETURN_IF_ERROR(SkipMasked(in, MaskFor(dir), 0, &null));
  if (is_null) *is_null = null;
  return Status::OK();
}

void EncodeInt64(int64_t v, Direction dir, std::string* out) {
  const size_t start = out->size();
  EncodeInt64Ascending(v, out);
  if (dir == Direction::kDesc) Complement(out, start);
}

Status DecodeInt64(std::string_view* in, Direction dir, int64_t* out) {
  const uint8_t mask = MaskFor(dir);
  if (in->empty()) return Corrupt("missing INTEGER");
  const uint8_t tag = static_cast<uint8_t>(in->front()) ^ mask;
  if (tag < kTagIntNeg8 || tag > kTagIntPos8) return Corrupt("not an INTEGER");
  in->remove_prefix(1);
  return DecodeIntBody(in, tag, mask, out);
}

void EncodeKey(std::span<const Value> values, std::span<const Direction> dirs,
               std::string* out) {
  assert(values.size() == dirs.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EncodeValue(values[i], dirs[i], out);
  }
}

Status DecodeKey(std::string_view in, std::span<const Direction> dirs,
                 std::vector<Value>* out) {
  out->clear();
  out->reserve(dirs.size());
  for (Direction dir : dirs) {
    Value v;
    LQ_RETURN_IF_ERROR(DecodeValue(&in, dir, &v));
    out->push_back(std::move(v));
  }
  if (!in.empty()) return Corrupt("trailing bytes after key");
  return Status::OK();
}

void EncodeTextPrefix(std::string_view prefix, Type type, std::string* out) {
  assert(type == Type::kText || type == Type::kBlob);
  out->push_back(static_cast<char>(type == Type::kBlob ? kTagBlob : kTagText));
  EncodeEscaped(prefix, out);
}

std::string PrefixSuccessor(std::string_view prefix) {
  std::string out(prefix);
  while (!out.empty() && static_cast<uint8_t>(out.back()) == 0xff) {
    out.pop_back();
  }
  if (!out.empty()) out.back() = static_cast<char>(out.back() + 1);
  return out;
}

std::string KeyToString(std::span<const Value> values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += RenderValue(values[i]);
  }
  return out + ")";
}

}  // namespace levelql::keys
