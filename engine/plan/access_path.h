// Access paths: which key ranges of one index (or of the primary key) hold
// every row a conjunction of WHERE terms can match.
//
// For each key column in order, the terms on that column are turned into a
// set of intervals over the column's encoded key bytes (a comparison, a
// BETWEEN, the points of an IN list or IS NULL, the prefix of a LIKE) and
// intersected - which merges ranges and finds contradictions. Leading columns
// whose intervals are all points form the equality prefix; the next column
// contributes its intervals; the product becomes the spans of one scan.
// Pure functions over schemas and bound expressions; thread-compatible.
#ifndef LEVELQL_ENGINE_PLAN_ACCESS_PATH_H_
#define LEVELQL_ENGINE_PLAN_ACCESS_PATH_H_

#include <string>
#include <vector>

#include "engine/exec/expr.h"
#include "indexes/schema.h"

namespace levelql {

// Keys k with lo <= k < hi.
struct KeySpan {
  std::string lo;
  std::string hi;
  std::string label;  // decoded, for EXPLAIN: "[userid=1, stamp>5]"
};

struct AccessPath {
  const IndexSchema* index = nullptr;  // null: the table's primary key
  std::vector<KeySpan> spans;          // sorted by lo, disjoint
  int eq_columns = 0;                  // leading key columns fixed to points
  int used_columns = 0;                // columns that shaped the spans
  bool empty = false;                  // the terms contradict: no row matches
  // Each span fixes every index column, so each yields primary keys in
  // order (and a merge of spans does too).
  bool pk_sorted = false;
  // Every consumed term is implied by the spans (no re-check needed for them).
  bool exact = true;
  // The scan can meet a row more than once: the index has a list column
  // that the spans do not pin to a single element.
  bool may_repeat_rows = false;
  std::vector<const BoundExpr*> consumed;  // terms the spans answer
  // The terms it was derived from (a reused plan derives it again from
  // their counterparts for other parameter values: plan_cache.h).
  std::vector<const BoundExpr*> inputs;
  double selectivity = 1.0;        // fraction of rows, estimated without stats
  size_t prefix_points = 1;        // combinations of the equality prefix
  double range_selectivity = 1.0;  // of the range column, estimated
};

// Whether a scan of `path` merges its spans into one pk-sorted stream: a
// pk-sorted path over a secondary index with several spans (each span fixes
// every index column, so each is in primary-key order on its own). Its
// position is then a primary key, not an entry.
inline bool MergesSpans(const AccessPath& path) {
  return path.index != nullptr && path.pk_sorted && path.spans.size() > 1;
}

// The best access path over `index` (null: the primary key) for the AND of
// `terms`, or a path with no spans when no leading column is constrained.
// `labels`: write each span's EXPLAIN text (a reused plan is not shown).
AccessPath DeriveAccessPath(const TableSchema& table, const IndexSchema* index,
                            std::vector<const BoundExpr*> terms,
                            bool labels = true);

// Appends the bytes DeriveAccessPath gives key column `key` for a term
// `column = v` (`affinity`: the constant's) when that term makes a point;
// false when it makes none (v is NULL, the key cannot compare it, or no
// value of the column equals it). A reused plan builds the keys of its
// equality-only scans with it (plan_cache.cc).
bool AppendPointKey(const TableSchema& table, const KeyColumn& key, Value v,
                    Affinity affinity, std::string* out);

// Whether an index entry of `index` (null: the primary key) holds `column`'s
// value: a key column whose key form decodes to the value, an INCLUDE
// column, or a primary-key column (every entry ends with the primary key).
bool IndexProvidesColumn(const TableSchema& table, const IndexSchema* index,
                         int column);

// Whether `column` is a primary-key column whose key form decodes to its
// value (every key stream carries the primary key).
bool PrimaryKeyProvidesColumn(const TableSchema& table, int column);

// The whole index (or table) as one span, for ordered scans.
AccessPath FullIndexPath(const TableSchema& table, const IndexSchema* index);

// The key columns of `index` (the primary key when null).
const std::vector<KeyColumn>& KeyColumnsOf(const TableSchema& table,
                                           const IndexSchema* index);
int64_t KeyspaceId(const TableSchema& table, const IndexSchema* index);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_ACCESS_PATH_H_
