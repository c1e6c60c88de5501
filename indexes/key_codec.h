// Order-preserving key codec: turns Values into byte strings whose memcmp
// order is the SQL order of the values, so that LevelDB's sorted keys can serve
// as tables and indexes. indexes/KEY_FORMAT.md is the byte-level spec (tags,
// layouts, test vectors); this header is its API.
//
// A component is self-delimiting: a type tag byte, then a type-specific body.
// A descending component is the byte-wise complement of its ascending form
// (tag included), so components of mixed directions can be concatenated into a
// composite key that sorts component by component, each in its own direction,
// with no padding. Within one type, memcmp order equals SQL order (NULL first
// ascending, last descending) and equal values have equal bytes; values of
// different types order by tag (the planner coerces constants to the column's
// type, so a key column never mixes types).
//
// Every function here is pure and thread-safe. Decoders borrow their input
// (a string_view that must outlive the call only), never read past its end,
// and return Status::Corruption for malformed or non-canonical input.
#ifndef LEVELQL_INDEXES_KEY_CODEC_H_
#define LEVELQL_INDEXES_KEY_CODEC_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/status.h"
#include "levelql/value.h"

namespace levelql::keys {

// Sort direction of one key component. Stored on disk - do not change.
enum class Direction : uint8_t { kAsc = 0, kDesc = 1 };

// Type tags of the ascending form; descending tags are their complements.
// 0x00 and 0xff are never tags. Stored on disk - do not change.
inline constexpr uint8_t kTagNull = 0x01;       // lowest: NULL sorts first
inline constexpr uint8_t kTagIntNeg8 = 0x0c;    // 0x0c..0x13: negative, 8..1
inline constexpr uint8_t kTagIntZero = 0x14;    //   body bytes; 0x14: zero;
inline constexpr uint8_t kTagIntPos8 = 0x1c;    // 0x15..0x1c: positive, 1..8
inline constexpr uint8_t kTagReal = 0x21;       // + 8 bytes
inline constexpr uint8_t kTagFalse = 0x26;      // BOOLEAN false, no body
inline constexpr uint8_t kTagTrue = 0x27;       // BOOLEAN true, no body
inline constexpr uint8_t kTagTimestamp = 0x30;  // + 8 bytes
inline constexpr uint8_t kTagText = 0x40;       // + escaped bytes + terminator
inline constexpr uint8_t kTagBlob = 0x41;       // + escaped bytes + terminator
inline constexpr uint8_t kTagList = 0x50;       // + elements + kListEnd

// TEXT/BLOB bodies write a 0x00 byte as kEscape kEscapedZero and end with
// kEscape kTerminator. Stored on disk - do not change.
inline constexpr uint8_t kEscape = 0x00;
inline constexpr uint8_t kEscapedZero = 0xff;
inline constexpr uint8_t kTerminator = 0x01;
// Ends the element list of a LIST. Stored on disk - do not change.
inline constexpr uint8_t kListEnd = 0x00;

// Keys starting with this byte are metadata (no component tag is 0x00 in
// either direction); engine/catalog.h owns the names. Stored on disk - do not
// change.
inline constexpr char kMetadataPrefix = '\x00';

// Deepest LIST nesting DecodeValue accepts (a guard against hostile input).
inline constexpr int kMaxListDepth = 32;

// Appends one self-delimiting component for v. A REAL -0.0 is written as 0.0
// and a REAL NaN as NULL.
// REQUIRES: LIST nesting of v is at most kMaxListDepth.
void EncodeValue(const Value& v, Direction dir, std::string* out);

// Decodes one component from the front of *in and advances *in past it;
// bytes after the component stay in *in. On error *in and *out are unspecified.
Status DecodeValue(std::string_view* in, Direction dir, Value* out);

// Moves *in past one component without building its value (to find where a
// key's later components start): checks lengths, tags and escapes, not the
// value rules DecodeValue checks. *is_null (when given) tells whether it
// was NULL.
Status SkipComponent(std::string_view* in, Direction dir,
                     bool* is_null = nullptr);

// An INTEGER component without a Value (table and index ids). Same bytes as
// EncodeValue(Value::Int(v), dir). DecodeInt64 fails on any other type.
void EncodeInt64(int64_t v, Direction dir, std::string* out);
Status DecodeInt64(std::string_view* in, Direction dir, int64_t* out);

// Composite keys: component i is encoded in direction dirs[i].
// REQUIRES: values.size() == dirs.size().
void EncodeKey(std::span<const Value> values, std::span<const Direction> dirs,
               std::string* out);
// Decodes exactly dirs.size() components that make up all of `in`; missing
// or trailing bytes are Corruption. Replaces the contents of *out.
Status DecodeKey(std::string_view in, std::span<const Direction> dirs,
                 std::vector<Value>* out);

// Appends the ascending encoding of a TEXT (or BLOB) value without its
// terminator: a byte prefix of EncodeValue(Text(s), kAsc) for every s that
// starts with `prefix`, and of no other value's encoding. With
// PrefixSuccessor it gives the key range of a LIKE 'prefix%' scan.
// REQUIRES: type is Type::kText or Type::kBlob.
void EncodeTextPrefix(std::string_view prefix, Type type, std::string* out);

// The smallest string greater than every string that has `prefix` as a
// prefix, or "" when there is none (prefix empty or all 0xff).
std::string PrefixSuccessor(std::string_view prefix);

// Human-readable rendering of a composite key for EXPLAIN and CHECK, e.g.
// "(1, 'abc', NULL)": text quoted with '' escapes, blobs x'00ff', reals in
// their shortest round-trip form, timestamps quoted, lists [a, b].
std::string KeyToString(std::span<const Value> values);

// Fixed-width big-endian helpers used by the REAL and TIMESTAMP bodies.
void EncodeFixed64BigEndian(uint64_t v, std::string* out);
// REQUIRES: p points at 8 readable bytes.
uint64_t DecodeFixed64BigEndian(const char* p);

}  // namespace levelql::keys

#endif  // LEVELQL_INDEXES_KEY_CODEC_H_
