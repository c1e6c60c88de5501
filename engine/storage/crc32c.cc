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

// Bytes each of three interleaved streams covers (below).
constexpr size_t kStride = 256;

// The CRC register (not inverted) after `n` zero bytes, from `crc`.
constexpr uint32_t ZeroBytes(uint32_t crc, size_t n) {
  for (size_t i = 0; i < n; ++i) crc = kTable[crc & 0xff] ^ (crc >> 8);
  return crc;
}

// Appending kStride zero bytes is linear in the register: four tables,
// one per byte of it, give the register after them by four lookups. Each
// entry is the XOR of the images of its set bits (32 images computed
// step by step, so the tables stay cheap for compilers' constexpr limits).
constexpr std::array<std::array<uint32_t, 256>, 4> MakeShiftTables() {
  std::array<uint32_t, 32> image{};
  for (int bit = 0; bit < 32; ++bit) image[bit] = ZeroBytes(1u << bit, kStride);
  std::array<std::array<uint32_t, 256>, 4> t{};
  for (int k = 0; k < 4; ++k) {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t v = 0;
      for (int bit = 0; bit < 8; ++bit) {
        if ((b >> bit) & 1) v ^= image[8 * k + bit];
      }
      t[k][b] = v;
    }
  }
  return t;
}

constexpr std::array<std::array<uint32_t, 256>, 4> kShift = MakeShiftTables();

inline uint64_t ShiftStride(uint64_t crc) {
  return kShift[0][crc & 0xff] ^ kShift[1][(crc >> 8) & 0xff] ^
         kShift[2][(crc >> 16) & 0xff] ^ kShift[3][(crc >> 24) & 0xff];
}

#if defined(__x86_64__)
// The crc32 instruction takes 3 cycles and can start one each cycle: three
// independent streams over adjacent kStride-byte pieces run about three
// times as fast as one. The register is linear, so the CRC of A B C from
// `r` is shift(shift(crc(A, r)) ^ crc(B, 0)) ^ crc(C, 0), each shift being
// kStride zero bytes appended.
__attribute__((target("sse4.2"))) uint32_t ExtendSse42(uint32_t crc,
                                                       const char* data,
                                                       size_t n) {
  uint64_t l = static_cast<uint32_t>(~crc);
  const char* p = data;
  const char* end = data + n;
  auto word = [](const char* at) {
    uint64_t w;
    std::memcpy(&w, at, 8);
    return w;
  };
  while (end - p >= static_cast<ptrdiff_t>(3 * kStride)) {
    uint64_t b = 0, c = 0;
    for (const char* stop = p + kStride; p < stop; p += 8) {
      l = _mm_crc32_u64(l, word(p));
      b = _mm_crc32_u64(b, word(p + kStride));
      c = _mm_crc32_u64(c, word(p + 2 * kStride));
    }
    l = ShiftStride(l) ^ b;
    l = ShiftStride(l) ^ c;
    p += 2 * kStride;
  }
  for (; p + 8 <= end; p += 8) l = _mm_crc32_u64(l, word(p));
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
