#include "engine/storage/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace levelql::crc32c {
namespace {

constexpr uint32_t kPolynomial = 0x82f63b78u;  // reflected Castagnoli

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ ((c & 1) ? kPolynomial : 0);
    t[i] = c;
  }
  return t;
}

constexpr std::array<uint32_t, 256> kTable = MakeTable();

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t ExtendSse42(uint32_t crc,
                                                       const char* data,
                                                       size_t n) {
  uint64_t l = ~crc;
  const char* p = data;
  const char* end = data + n;
  for (; p + 8 <= end; p += 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    l = _mm_crc32_u64(l, word);
  }
  uint32_t l32 = static_cast<uint32_t>(l);
  for (; p < end; ++p) l32 = _mm_crc32_u8(l32, static_cast<uint8_t>(*p));
  return ~l32;
}

const bool kHasSse42 = __builtin_cpu_supports("sse4.2");
#else
const bool kHasSse42 = false;
#endif

}  // namespace

uint32_t Extend(uint32_t crc, const char* data, size_t n) {
#if defined(__x86_64__)
  if (kHasSse42) return ExtendSse42(crc, data, n);
#endif
  return ExtendPortable(crc, data, n);
}

bool Accelerated() { return kHasSse42; }

uint32_t ExtendPortable(uint32_t crc, const char* data, size_t n) {
  uint32_t l = ~crc;
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) l = kTable[(l ^ p[i]) & 0xff] ^ (l >> 8);
  return ~l;
}

}  // namespace levelql::crc32c
