// Continuation tokens: resume a query right after the row a token was taken
// at, without reading the rows before it again.
//
// A token names a position in the order the query's plan returns rows in,
// never a row count, so resuming costs what the first page costs and rows
// written meanwhile cannot shift it:
//   kEntry   - the key of the scan's entry (one table or index scan, in its
//              direction; a multi-valued scan returns a row at its first
//              entry, so the entry is still a position),
//   kPk      - the primary key (merged pk-sorted streams: unions,
//              intersections),
//   kSortKey - the last row's sort values (ORDER BY values, then the primary
//              key, or for DISTINCT every output column), for plans that sort,
//   kStart   - before the first row (a previous-page token back to page 1),
//   kDone    - after the last row (aggregates: one row).
// It also records which query it belongs to (a fingerprint of the statement
// text and its parameter values), the transaction it was taken in (if any:
// such a token may name rows no one else sees, and is refused outside that
// transaction), the snapshot the first page read (resumed at it again on a
// store that can: etcd), the schema version, and a signature of the
// order (which scan, index, direction, spans, or sort keys): a plan with
// another order (after ANALYZE, PRAGMA disable_rules, ...) refuses the token
// instead of resuming at a position that means something else.
//
// Tokens are authenticated: a SipHash-2-4 MAC keyed with a per-database
// secret (metadata key `\0token_key`) covers every byte, so an edited or
// forged token is refused. Printable (hex) and versioned.
// Thread-compatible values and pure functions.
#ifndef LEVELQL_ENGINE_PLAN_CONTINUATION_H_
#define LEVELQL_ENGINE_PLAN_CONTINUATION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/status.h"
#include "levelql/value.h"

namespace levelql {

struct PlanNode;

// How a plan's tokens record their position.
enum class TokenMode {
  kStream,   // the access path's position (kEntry or kPk)
  kSortKey,  // the sort values of the last row (plans that sort)
  kDone,     // one-row results (aggregates)
};

struct ResumePoint {
  enum class Kind : uint8_t {
    kEntry = 1,
    kPk = 2,
    kSortKey = 3,
    kDone = 5,
    kStart = 6,
  };
  Kind kind = Kind::kStart;
  uint64_t fingerprint = 0;
  uint64_t schema_version = 0;
  uint64_t order_signature = 0;  // OrderSignature() of the plan
  int64_t emitted = 0;           // rows returned before the position
  // The transaction the token was taken in (0: none): it resumes only in
  // that transaction.
  uint64_t txn_id = 0;
  // The store's id of the snapshot the query's first page read (0: none;
  // KvStore::SnapshotId): a page resumed outside a transaction reads that
  // snapshot again where the store can (etcd: a revision, until it is
  // compacted), so all pages of a query read one consistent state.
  uint64_t snapshot_id = 0;
  std::string key;              // kEntry, kPk
  std::vector<Value> sort_key;  // kSortKey: values at the sort keys
  // Whether the read includes the row at the position itself (never
  // encoded: only the backward read of a previous page sets it, so that
  // the page holds the rows that precede the cursor's first row now,
  // whether or not the row at the position is still there).
  bool inclusive = false;
};

// The secret tokens are authenticated with: 16 bytes.
inline constexpr size_t kTokenKeyBytes = 16;
std::string NewTokenKey();

std::string EncodeToken(const ResumePoint& point, std::string_view secret);
// InvalidArgument for a token that is malformed, edited or forged, or made by
// another levelql version; never a crash.
Result<ResumePoint> DecodeToken(std::string_view token,
                                std::string_view secret);

// A signature of the order a plan returns rows in, as far as a token
// position depends on it: for kStream the scan (keyspace and direction,
// not the spans, which parameter values set) or "primary-key order"; for
// kSortKey the sort keys. So a plan reused for other values (plan_cache.h)
// keeps the signature of the plan it was made from. `plan` is the plan of a
// forward read (not the backward read of a previous page).
uint64_t OrderSignature(const PlanNode& plan, TokenMode mode);

// Whether a token of `kind` can be resumed by a plan of `mode`.
bool TokenFitsMode(ResumePoint::Kind kind, TokenMode mode);

// Whether a plan (its token mode and OrderSignature) resumes `token` at
// the position it means: InvalidArgument naming why not (the plan reads in
// another order now), else OK. A token at the start fits every plan.
// The refusal of a token whose query now plans to read rows in another
// order than when the token was made.
Status PlanChangedError();
Status CheckTokenFitsPlan(const ResumePoint& token, TokenMode mode,
                          uint64_t order_signature);

// 64-bit FNV-1a, for fingerprints (not for authentication).
uint64_t Fingerprint(std::string_view bytes, uint64_t seed = 0);

// SipHash-2-4 of `bytes` under a 16-byte key (a keyed PRF, for the MAC).
uint64_t SipHash24(std::string_view key, std::string_view bytes);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_CONTINUATION_H_
