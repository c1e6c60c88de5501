#include "indexes/salt.h"

namespace levelql::rows {

uint64_t StableKeyHash(std::string_view bytes) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

uint8_t SaltBucket(std::string_view pk_bytes, int buckets) {
  return static_cast<uint8_t>(StableKeyHash(pk_bytes) %
                              static_cast<uint64_t>(buckets));
}

std::string SaltedKey(std::string_view logical_key, size_t id_size,
                      uint8_t bucket) {
  std::string out;
  out.reserve(logical_key.size() + 1);
  out.append(logical_key.substr(0, id_size));
  out.push_back(static_cast<char>(bucket));
  out.append(logical_key.substr(id_size));
  return out;
}

}  // namespace levelql::rows
