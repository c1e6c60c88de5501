// libFuzzer target for the key codec (indexes/key_codec.h): decoders never
// crash, read past their input or trip a sanitizer on any bytes, and what
// they accept is canonical and ordered:
//   - DecodeKey succeeds only on bytes that EncodeKey gives back exactly
//     (the header promises Corruption for non-canonical input);
//   - DecodeValue, called repeatedly, consumes the input component by
//     component and re-encodes each to the bytes it consumed;
//   - two decodable single components of one scalar type compare by memcmp
//     as their values compare in SQL (reversed for DESC).
//
// Input: byte 0 picks the shape (bits 0-1: components - 1; bits 2-5: their
// directions, 1 = DESC), the rest is the key. Build and run: `make fuzz`,
// then build-fuzz/key_fuzz tests/fuzz/corpus/key.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "indexes/key_codec.h"

namespace keys = levelql::keys;
using levelql::Type;
using levelql::Value;

namespace {

[[noreturn]] void Die(const char* what, std::string_view a,
                      std::string_view b = {}) {
  std::fprintf(stderr, "%s\n", what);
  for (std::string_view s : {a, b}) {
    for (unsigned char c : s) std::fprintf(stderr, "%02x ", c);
    std::fprintf(stderr, "\n");
  }
  std::abort();
}

// SQL order of two values of one scalar type (-1, 0, 1); 2 when unordered
// here (LIST, mixed types).
int SqlCompare(const Value& a, const Value& b) {
  if (a.type() != b.type()) return 2;
  switch (a.type()) {
    case Type::kNull:
      return 0;
    case Type::kInteger:
    case Type::kBoolean:
    case Type::kTimestamp:
      return a.int_value() < b.int_value() ? -1 : a.int_value() > b.int_value();
    case Type::kReal:
      return a.real_value() < b.real_value() ? -1
                                             : a.real_value() > b.real_value();
    case Type::kText:
    case Type::kBlob: {
      int c = a.text().compare(b.text());
      return c < 0 ? -1 : c > 0;
    }
    default:
      return 2;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t shape = data[0];
  std::string_view key(reinterpret_cast<const char*>(data + 1), size - 1);
  const size_t n = (shape & 3) + 1;
  std::vector<keys::Direction> dirs;
  for (size_t i = 0; i < n; ++i) {
    dirs.push_back((shape >> (2 + i)) & 1 ? keys::Direction::kDesc
                                          : keys::Direction::kAsc);
  }

  // Whole keys: accepted bytes are canonical.
  std::vector<Value> values;
  if (keys::DecodeKey(key, dirs, &values).ok()) {
    if (values.size() != n) Die("DecodeKey: wrong component count", key);
    std::string again;
    keys::EncodeKey(values, dirs, &again);
    if (again != key) Die("DecodeKey accepted a non-canonical key", key, again);
    keys::KeyToString(values);
  }

  // Component by component.
  std::string_view rest = key;
  for (int i = 0; i < 64 && !rest.empty(); ++i) {
    keys::Direction dir = dirs[i % n];
    std::string_view before = rest;
    Value v;
    if (!keys::DecodeValue(&rest, dir, &v).ok()) break;
    if (rest.size() >= before.size())
      Die("DecodeValue consumed nothing", before);
    std::string_view consumed = before.substr(0, before.size() - rest.size());
    std::string again;
    keys::EncodeValue(v, dir, &again);
    if (again != consumed) {
      Die("DecodeValue accepted a non-canonical component", consumed, again);
    }
  }

  // Order: split the key in two single components.
  if (key.size() >= 2) {
    size_t cut = 1 + shape % (key.size() - 1);
    std::string_view a = key.substr(0, cut), b = key.substr(cut);
    keys::Direction dir = dirs[0];
    Value va, vb;
    std::string_view ra = a, rb = b;
    if (keys::DecodeValue(&ra, dir, &va).ok() && ra.empty() &&
        keys::DecodeValue(&rb, dir, &vb).ok() && rb.empty()) {
      int sql = SqlCompare(va, vb);
      if (sql != 2) {
        if (dir == keys::Direction::kDesc) sql = -sql;
        int bytes = a.compare(b);
        bytes = bytes < 0 ? -1 : bytes > 0;
        if (bytes != sql) Die("memcmp order differs from SQL order", a, b);
      }
    }
  }

  // Prefix helpers on arbitrary bytes.
  std::string prefix;
  keys::EncodeTextPrefix(key, Type::kText, &prefix);
  std::string succ = keys::PrefixSuccessor(prefix);
  if (!succ.empty() && succ <= prefix)
    Die("PrefixSuccessor not greater", prefix, succ);
  return 0;
}
