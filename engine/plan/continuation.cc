#include "engine/plan/continuation.h"

#include <random>

#include "engine/plan/plan.h"
#include "indexes/key_codec.h"

namespace levelql {
namespace {

// Token format version. Tokens are not persisted by levelql, but clients
// keep them across upgrades: another version is a clean error.
constexpr char kTokenVersion = 4;  // 4: the snapshot id
constexpr size_t kMacBytes = 8;
constexpr size_t kHeaderBytes = 2 + 6 * 8;  // version, kind, 6 x fixed64

void PutFixed64(uint64_t v, std::string* out) {
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>(v >> (8 * i)));
}

uint64_t GetFixed64(std::string_view* in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>((*in)[i]);
  in->remove_prefix(8);
  return v;
}

Status Bad(std::string_view why) {
  return Status::InvalidArgument(
      "invalid continuation token (" + std::string(why) +
      "); pass back a token exactly as the cursor gave it");
}

uint64_t Rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

uint64_t LoadLe64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The order signature's input, appended node by node.
void SignKeys(const PlanNode& n, bool first_entry_only, std::string* out) {
  switch (n.kind) {
    case PlanNode::Kind::kSkip:
      SignKeys(*n.children[0], first_entry_only, out);
      return;
    case PlanNode::Kind::kIndexScan:
      if (MergesSpans(n.path)) break;  // pk order
      out->append("entry");
      keys::EncodeValue(Value::Int(n.path.index ? n.path.index->id : 0),
                        keys::Direction::kAsc, out);
      out->push_back(n.reverse ? 'r' : 'f');
      out->push_back(first_entry_only ? '1' : '0');
      // Not the spans: the entries come in the index's order whatever spans
      // select them, and a resumed scan starts after the position in the
      // spans it has. The token's fingerprint already ties it to the
      // parameter values; spans made for them by reusing a plan (plan
      // cache) and by planning afresh (Resume) may differ in their bytes.
      return;
    default:
      break;
  }
  out->append("pk");  // merged pk-sorted streams: primary-key order
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

uint64_t SipHash24(std::string_view key, std::string_view bytes) {
  const auto* k = reinterpret_cast<const unsigned char*>(key.data());
  const uint64_t k0 = LoadLe64(k), k1 = LoadLe64(k + 8);
  uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
  uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
  auto round = [&] {
    v0 += v1;
    v1 = Rotl(v1, 13);
    v1 ^= v0;
    v0 = Rotl(v0, 32);
    v2 += v3;
    v3 = Rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = Rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = Rotl(v1, 17);
    v1 ^= v2;
    v2 = Rotl(v2, 32);
  };
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t m = LoadLe64(p + i);
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  uint64_t last = static_cast<uint64_t>(n) << 56;
  for (size_t j = 0; i + j < n; ++j) {
    last |= static_cast<uint64_t>(p[i + j]) << (8 * j);
  }
  v3 ^= last;
  round();
  round();
  v0 ^= last;
  v2 ^= 0xff;
  round();
  round();
  round();
  round();
  return v0 ^ v1 ^ v2 ^ v3;
}

std::string NewTokenKey() {
  std::random_device rd;
  std::string key;
  while (key.size() < kTokenKeyBytes) {
    uint32_t r = rd();
    for (int i = 0; i < 4 && key.size() < kTokenKeyBytes; ++i) {
      key.push_back(static_cast<char>(r >> (8 * i)));
    }
  }
  return key;
}

std::string EncodeToken(const ResumePoint& p, std::string_view secret) {
  std::string raw;
  raw.push_back(kTokenVersion);
  raw.push_back(static_cast<char>(p.kind));
  PutFixed64(p.fingerprint, &raw);
  PutFixed64(p.schema_version, &raw);
  PutFixed64(p.order_signature, &raw);
  PutFixed64(static_cast<uint64_t>(p.emitted), &raw);
  PutFixed64(p.txn_id, &raw);
  PutFixed64(p.snapshot_id, &raw);
  if (p.kind == ResumePoint::Kind::kSortKey) {
    for (const Value& v : p.sort_key) {
      keys::EncodeValue(v, keys::Direction::kAsc, &raw);
    }
  } else {
    raw += p.key;
  }
  PutFixed64(SipHash24(secret, raw), &raw);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  out.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

Result<ResumePoint> DecodeToken(std::string_view token,
                                std::string_view secret) {
  if (token.size() % 2 != 0) return Bad("odd length");
  if (token.size() < 2 * (kHeaderBytes + kMacBytes)) return Bad("too short");
  std::string raw;
  raw.reserve(token.size() / 2);
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (size_t i = 0; i < token.size(); i += 2) {
    int hi = nibble(token[i]), lo = nibble(token[i + 1]);
    if (hi < 0 || lo < 0) return Bad("not lower-case hex");
    raw.push_back(static_cast<char>(hi << 4 | lo));
  }
  if (raw[0] != kTokenVersion) {
    return Status::InvalidArgument(
        "continuation token of another levelql version; restart the query");
  }
  std::string_view body(raw.data(), raw.size() - kMacBytes);
  std::string_view mac(raw.data() + body.size(), kMacBytes);
  if (GetFixed64(&mac) != SipHash24(secret, body)) {
    return Bad("it was edited, or made by another database");
  }
  ResumePoint p;
  const uint8_t kind = static_cast<uint8_t>(body[1]);
  switch (static_cast<ResumePoint::Kind>(kind)) {
    case ResumePoint::Kind::kEntry:
    case ResumePoint::Kind::kPk:
    case ResumePoint::Kind::kSortKey:
    case ResumePoint::Kind::kDone:
    case ResumePoint::Kind::kStart:
      p.kind = static_cast<ResumePoint::Kind>(kind);
      break;
    default:
      return Bad("unknown kind");
  }
  body.remove_prefix(2);
  p.fingerprint = GetFixed64(&body);
  p.schema_version = GetFixed64(&body);
  p.order_signature = GetFixed64(&body);
  const uint64_t emitted = GetFixed64(&body);
  if (emitted > static_cast<uint64_t>(INT64_MAX)) return Bad("negative count");
  p.emitted = static_cast<int64_t>(emitted);
  p.txn_id = GetFixed64(&body);
  p.snapshot_id = GetFixed64(&body);
  switch (p.kind) {
    case ResumePoint::Kind::kSortKey:
      while (!body.empty()) {
        Value v;
        if (!keys::DecodeValue(&body, keys::Direction::kAsc, &v).ok()) {
          return Bad("undecodable sort values");
        }
        p.sort_key.push_back(std::move(v));
      }
      if (p.sort_key.empty()) return Bad("no sort values");
      break;
    case ResumePoint::Kind::kEntry:
    case ResumePoint::Kind::kPk:
      if (body.empty()) return Bad("no position");
      p.key.assign(body.data(), body.size());
      break;
    case ResumePoint::Kind::kDone:
    case ResumePoint::Kind::kStart:
      if (!body.empty()) return Bad("trailing bytes");
      break;
  }
  return p;
}

bool TokenFitsMode(ResumePoint::Kind kind, TokenMode mode) {
  using K = ResumePoint::Kind;
  if (kind == K::kStart) return true;
  switch (mode) {
    case TokenMode::kStream:
      return kind == K::kEntry || kind == K::kPk;
    case TokenMode::kSortKey:
      return kind == K::kSortKey;
    case TokenMode::kDone:
      return kind == K::kDone;
  }
  return false;
}

Status CheckTokenFitsPlan(const ResumePoint& token, TokenMode mode,
                          uint64_t order_signature) {
  if (token.kind == ResumePoint::Kind::kStart) return Status::OK();
  if (token.order_signature == order_signature &&
      TokenFitsMode(token.kind, mode)) {
    return Status::OK();
  }
  return PlanChangedError();
}

Status PlanChangedError() {
  return Status::InvalidArgument(
      "the query's plan changed since the continuation token was made: it "
      "reads rows in another order now (ANALYZE, PRAGMA disable_rules or "
      "another setting changed it); restart the query");
}

uint64_t OrderSignature(const PlanNode& plan, TokenMode mode) {
  std::string sig;
  switch (mode) {
    case TokenMode::kDone:
      sig = "done";
      break;
    case TokenMode::kSortKey: {
      sig = "sort";
      const PlanNode* n = OrderingNode(plan);
      for (const SortKey& k : n ? n->sort_keys : std::vector<SortKey>{}) {
        keys::EncodeValue(Value::Int(k.column), keys::Direction::kAsc, &sig);
        sig.push_back(k.desc ? 'd' : 'a');
        sig += k.collation ? k.collation->name() : "";
        sig.push_back('\0');
      }
      for (int column : n ? n->order_columns : std::vector<int>{}) {
        keys::EncodeValue(Value::Int(column), keys::Direction::kAsc, &sig);
      }
      break;
    }
    case TokenMode::kStream:
      sig = "stream";
      for (const PlanNode* n = &plan; n;
           n = n->children.empty() ? nullptr : n->children[0].get()) {
        if (n->kind == PlanNode::Kind::kTableScan) {
          sig += "table";
          break;
        }
        if (n->kind == PlanNode::Kind::kFetch ||
            n->kind == PlanNode::Kind::kIndexOnly) {
          SignKeys(*n->children[0], n->first_entry_only, &sig);
          break;
        }
      }
      break;
  }
  return Fingerprint(sig);
}

}  // namespace levelql
