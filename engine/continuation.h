// Continuation tokens: resume a query right after the row a token was taken
// at, without reading the rows before it again.
//
// A token records which query it belongs to (a fingerprint of the statement
// text, its parameter values and the schema version), how many rows were
// returned, and where the last row sat in the plan's order:
//   kEntry   - the key of the scan's current entry (table or index order),
//   kPk      - the primary key (merged pk-sorted streams: unions,
//              intersections),
//   kSortKey - the last row's ORDER BY values plus its primary key, for plans
//              that sort (rows up to it are filtered out before the sort),
//   kSkip    - only the count (DISTINCT without ORDER BY, ranges over
//              multi-valued indexes: rows are re-read and skipped),
//   kDone    - the query has no rows after this one (aggregates).
// Tokens are printable (hex) and versioned. Thread-compatible values.
#ifndef LEVELQL_ENGINE_CONTINUATION_H_
#define LEVELQL_ENGINE_CONTINUATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "levelql/status.h"
#include "levelql/value.h"

namespace levelql {

struct ResumePoint {
  enum class Kind : uint8_t {
    kEntry = 1,
    kPk = 2,
    kSortKey = 3,
    kSkip = 4,
    kDone = 5
  };
  Kind kind = Kind::kSkip;
  uint64_t fingerprint = 0;
  uint64_t schema_version = 0;
  int64_t emitted = 0;          // rows returned before the token
  std::string key;              // kEntry, kPk
  std::vector<Value> sort_key;  // kSortKey: ORDER BY values, then pk values
};

std::string EncodeToken(const ResumePoint& point);
Result<ResumePoint> DecodeToken(const std::string& token);

// 64-bit FNV-1a, for fingerprints.
uint64_t Fingerprint(std::string_view bytes, uint64_t seed = 0);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_CONTINUATION_H_
