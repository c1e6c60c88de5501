// CRC-32C (Castagnoli), the checksum LevelDB stores after every table
// block: computed with the CPU's crc32 instruction where it has one
// (SSE4.2; three interleaved streams, ~2x one stream on a 4 KiB block),
// else by a table. Debian's LevelDB is built without the crc32c
// library, so its own check of a block read from a file runs the table
// code, which was ~15% of a newest-first page whose blocks miss the block
// cache; levelql reads table files itself (kv_store.cc) and checks each
// block there with this instead.
#ifndef LEVELQL_ENGINE_STORAGE_CRC32C_H_
#define LEVELQL_ENGINE_STORAGE_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace levelql::crc32c {

// The CRC-32C of data[0, n) continued from `crc` (0 to start).
uint32_t Extend(uint32_t crc, const char* data, size_t n);
inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

// LevelDB stores a CRC masked (rotated, plus a constant), because a CRC of
// data that holds CRCs is weak; Unmask undoes it.
inline uint32_t Unmask(uint32_t masked) {
  const uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}

// Whether Extend uses the crc32 instruction; ExtendPortable never does
// (the tests check that both agree).
bool Accelerated();
uint32_t ExtendPortable(uint32_t crc, const char* data, size_t n);

}  // namespace levelql::crc32c

#endif  // LEVELQL_ENGINE_STORAGE_CRC32C_H_
