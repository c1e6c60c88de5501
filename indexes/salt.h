// Salted tables (CREATE TABLE ... WITH (salt_buckets = N)): the bucket byte
// placed after the id of every row key and index entry key of such a table
// (indexes/KEY_FORMAT.md, "Salted tables").
//
// The engine above the store sees keys without the bucket byte (the
// "logical" keys every other part of the format describes); the writer adds
// it (SaltedKey) and a salted view of the store (engine/storage/
// salted_store.h) merges the buckets back into one ordered keyspace. A row
// and all its index entries share the row's bucket, a function of its
// primary-key components alone. Stateless; thread-safe.
#ifndef LEVELQL_INDEXES_SALT_H_
#define LEVELQL_INDEXES_SALT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace levelql::rows {

// The fewest and the most buckets a table may have.
inline constexpr int kMinSaltBuckets = 1;
inline constexpr int kMaxSaltBuckets = 256;

// FNV-1a 64 of `bytes`, then Murmur3's 64-bit finalizer so that every bit
// depends on every byte. Stored on disk (bucket numbers, ranked-index
// levels): do not change.
uint64_t StableKeyHash(std::string_view bytes);

// The bucket of the row whose primary-key components are `pk_bytes`:
// StableKeyHash(pk_bytes) mod `buckets`.
uint8_t SaltBucket(std::string_view pk_bytes, int buckets);

// The size of the id a table, index or count key starts with (a positive
// INTEGER component). REQUIRES: `key` starts with one.
inline size_t IdSize(std::string_view key) {
  return 1 + (static_cast<unsigned char>(key[0]) - 0x14);
}

// `logical_key` with the byte `bucket` inserted after its first `id_size`
// bytes (the table or index id).
std::string SaltedKey(std::string_view logical_key, size_t id_size,
                      uint8_t bucket);

}  // namespace levelql::rows

#endif  // LEVELQL_INDEXES_SALT_H_
