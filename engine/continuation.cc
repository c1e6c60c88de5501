#include "engine/continuation.h"

#include "indexes/key_codec.h"

namespace levelql {
namespace {

// Token format version. Tokens are not persisted, but clients may keep them
// across upgrades: a version mismatch is a clean error.
constexpr char kTokenVersion = 1;

void PutFixed64(uint64_t v, std::string* out) {
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>(v >> (8 * i)));
}

bool GetFixed64(std::string_view* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = 0;
  for (int i = 0; i < 8; ++i) *v = (*v << 8) | static_cast<uint8_t>((*in)[i]);
  in->remove_prefix(8);
  return true;
}

Status Bad() {
  return Status::InvalidArgument(
      "malformed continuation token (it must be passed back unchanged)");
}

}  // namespace

uint64_t Fingerprint(std::string_view bytes, uint64_t seed) {
  uint64_t h = 1469598103934665603ull ^ seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string EncodeToken(const ResumePoint& p) {
  std::string raw;
  raw.push_back(kTokenVersion);
  raw.push_back(static_cast<char>(p.kind));
  PutFixed64(p.fingerprint, &raw);
  PutFixed64(p.schema_version, &raw);
  PutFixed64(static_cast<uint64_t>(p.emitted), &raw);
  if (p.kind == ResumePoint::Kind::kSortKey) {
    for (const Value& v : p.sort_key) {
      keys::EncodeValue(v, keys::Direction::kAsc, &raw);
    }
  } else {
    raw += p.key;
  }
  raw += static_cast<char>(Fingerprint(raw) & 0xff);  // catches typos
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

Result<ResumePoint> DecodeToken(const std::string& token) {
  if (token.size() % 2 != 0 || token.size() < 2 * 27) return Bad();
  std::string raw;
  for (size_t i = 0; i < token.size(); i += 2) {
    auto nibble = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      return -1;
    };
    int hi = nibble(token[i]), lo = nibble(token[i + 1]);
    if (hi < 0 || lo < 0) return Bad();
    raw.push_back(static_cast<char>(hi << 4 | lo));
  }
  std::string_view body(raw.data(), raw.size() - 1);
  if (static_cast<char>(Fingerprint(body) & 0xff) != raw.back()) return Bad();
  if (body[0] != kTokenVersion) {
    return Status::InvalidArgument(
        "continuation token of another levelql version; restart the query");
  }
  ResumePoint p;
  uint8_t kind = static_cast<uint8_t>(body[1]);
  if (kind < 1 || kind > 5) return Bad();
  p.kind = static_cast<ResumePoint::Kind>(kind);
  body.remove_prefix(2);
  uint64_t emitted = 0;
  if (!GetFixed64(&body, &p.fingerprint) ||
      !GetFixed64(&body, &p.schema_version) || !GetFixed64(&body, &emitted)) {
    return Bad();
  }
  p.emitted = static_cast<int64_t>(emitted);
  if (p.kind == ResumePoint::Kind::kSortKey) {
    while (!body.empty()) {
      Value v;
      if (!keys::DecodeValue(&body, keys::Direction::kAsc, &v).ok()) {
        return Bad();
      }
      p.sort_key.push_back(std::move(v));
    }
  } else {
    p.key.assign(body.data(), body.size());
  }
  return p;
}

}  // namespace levelql
