// Join operators: rows of a left and a right input put side by side, each
// at its place in the joined row (JoinLayout).
#ifndef LEVELQL_ENGINE_EXEC_JOIN_H_
#define LEVELQL_ENGINE_EXEC_JOIN_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/exec/operators.h"

namespace levelql {

// Where a joined row's values come from: the left row's start at
// `left_at`, the right row's at `right_at`, in a row of `width` values
// whose others are NULL (the FROM clause's layout, with the values of the
// tables not joined yet NULL). No width: the left row's values, then the
// right row's. `left_columns` and `right_columns`, when given, are the
// only columns of each input's rows that hold values (their scans decode
// no others, and nothing above reads them): only those are placed.
//
// `outputs`, when not empty, replaces all that for a merge join whose rows
// only a projection of columns reads: the joined row is that projection's
// row, value i the left or right row's value `outputs[i]` names (NULL for
// column -1), so no wide row is made and copied again.
struct JoinLayout {
  struct Output {
    bool right = false;  // from the right row, else the left
    int column = -1;     // in that row; -1: NULL
  };
  int left_at = 0;
  int right_at = 0;
  int width = 0;
  std::optional<std::vector<int>> left_columns, right_columns;
  std::vector<Output> outputs;
};

// Opens an input of a join from its start (again).
using RowSourceFactory = std::function<std::unique_ptr<RowSource>()>;

// Both inputs come ordered by their key (value `left_key` of a left row,
// `right_key` of a right row; ascending, or descending with `reverse`, by
// `collation`). Every left row is paired with each right row of an equal
// key, in input order. A left row whose key the next left row does not
// share pairs with the right rows as they are read; otherwise the right
// rows of the key are held while the left rows of that key pass, while
// they fit in `memory_bytes`. Past that they
// are let go, and each left row of the key reads them again from an input
// `reopen_right` opens (seeking to the key when it can): bounded memory,
// more reads, the same rows in the same order. Without `reopen_right` they
// are held whatever their size (a sorted input: reading it again would
// sort it again). NULL keys pair with nothing. `ctx` counts
// the held pairs toward its interrupt check.
//
// `seek_target`, when given, makes the entry key a right row of a key
// value would be read from (false: no such key, step instead): after a few
// right rows before a left key, the right input seeks to it
// (RowSource::SeekEntry) instead of reading every row in between.
using SeekTarget = std::function<bool(const Value& key, std::string* target)>;
std::unique_ptr<RowSource> NewMergeJoin(
    const ExecContext* ctx, std::unique_ptr<RowSource> left,
    std::unique_ptr<RowSource> right, RowSourceFactory reopen_right,
    int left_key, int right_key, const Collation* collation, bool reverse,
    int64_t memory_bytes, SeekTarget seek_target = nullptr,
    JoinLayout layout = {});

// Every left row paired with every right row, in left order, then right
// order. The right rows are read once and held in memory while they fit in
// `memory_bytes`; past that they are let go and the right input is read
// again, from its start, for each left row (bounded memory, more reads).
// `ctx` counts the pairs tried toward its interrupt check. `outer` (a LEFT
// JOIN): a left row pairs with the right rows for which `on` (over the
// joined row; null: any) is true, and, when none is, once with NULLs in
// the right row's places (`layout.width` must be set).
std::unique_ptr<RowSource> NewNestedLoop(
    const ExecContext* ctx, std::unique_ptr<RowSource> left,
    RowSourceFactory open_right, int64_t memory_bytes, JoinLayout layout = {},
    bool outer = false, const BoundExpr* on = nullptr);

// Every left row, in left order, paired with each right row of an equal key
// (`left_key`, `right_key`, compared as the merge join compares them), in
// right order: the right rows are read once and held in memory under a
// hash of their keys while they fit in `memory_bytes`; past that they are
// let go and, for each left row, the right input is read again and its
// rows of that key paired (bounded memory, more reads; the same rows in
// the same order). NULL keys pair with nothing. For inputs that do not
// come in key order: neither is sorted.
// `outer` and `on` as NewNestedLoop's (a left row whose key is NULL pairs
// with none).
std::unique_ptr<RowSource> NewHashJoin(
    const ExecContext* ctx, std::unique_ptr<RowSource> left,
    RowSourceFactory open_right, int left_key, int right_key,
    const Collation* collation, int64_t memory_bytes, JoinLayout layout = {},
    bool outer = false, const BoundExpr* on = nullptr);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_JOIN_H_
