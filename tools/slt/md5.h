// MD5 (RFC 1321), for the "N values hashing to <md5>" lines of sqllogictest
// files. Not for anything that needs a secure hash.
//
// Md5 is a streaming digest: Update() any number of times, then Finish() once.
// An Md5 object is thread-compatible (one thread at a time).
#ifndef LEVELQL_TOOLS_SLT_MD5_H_
#define LEVELQL_TOOLS_SLT_MD5_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace levelql::slt {

class Md5 {
 public:
  Md5();

  void Update(std::string_view data);
  // The 16-byte digest. REQUIRES: called at most once; no Update() after it.
  std::array<uint8_t, 16> Finish();
  // Finish() as 32 lowercase hex digits.
  std::string FinishHex();

 private:
  void Transform(const uint8_t block[64]);

  uint32_t state_[4];
  uint64_t length_ = 0;  // bytes hashed so far
  uint8_t buffer_[64];
  size_t buffered_ = 0;
};

// MD5 of `data` as 32 lowercase hex digits.
std::string Md5Hex(std::string_view data);

}  // namespace levelql::slt

#endif  // LEVELQL_TOOLS_SLT_MD5_H_
