// RowIdStream: a stream of primary keys (the pk components of rows of one
// table), shaped like a LevelDB iterator.
//
// Streams come from index or primary-key scans and combine through merge
// unions and leapfrog intersections. A stream is "pk-sorted" when it yields
// keys in ascending byte order without repeats; only pk-sorted streams may
// be intersected or merge-unioned, and only they support Seek. A stream is
// used by one thread; views it returns live until it next moves.
#ifndef LEVELQL_ENGINE_EXEC_ROW_ID_STREAM_H_
#define LEVELQL_ENGINE_EXEC_ROW_ID_STREAM_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/exec/operators.h"
#include "engine/plan/access_path.h"
#include "engine/plan/plan.h"

namespace levelql {

class RowIdStream {
 public:
  virtual ~RowIdStream() = default;
  virtual bool Valid() const = 0;
  // REQUIRES: pk-sorted. Moves on to the first key at or after `target` in
  // the stream's direction: the first key >= target, or for a reverse
  // stream the first key <= target. Never moves back.
  virtual void Seek(std::string_view target) = 0;
  virtual void Next() = 0;  // REQUIRES: Valid()
  // REQUIRES: Valid(). The pk components of the current row.
  virtual std::string_view pk() const = 0;
  virtual Status status() const = 0;
  // The current entry, for index-only reads and to skip a row fetch when
  // the stream reads rows itself (primary-key scans). Empty when neither.
  virtual std::string_view entry_key() const { return {}; }
  virtual std::string_view entry_value() const { return {}; }
  virtual bool reads_rows() const { return false; }
  // Whether keys come in descending order (a backward read): a pk-sorted
  // reverse stream yields primary keys from the largest down.
  virtual bool reverse() const { return false; }
  // Whether the stream walks entries in key order (a single scan), so that
  // its position can be given as an entry key rather than a primary key.
  virtual bool position_is_entry() const { return false; }
  // REQUIRES: position_is_entry(). Moves to the first entry after `key` in
  // the scan's direction, or at it when `inclusive` (continuation tokens).
  virtual void ResumeAtEntry(std::string_view key, bool inclusive) {
    (void)key;
    (void)inclusive;
  }
  // REQUIRES: position_is_entry(), Valid(), and the current entry before
  // `target` in the scan's direction. Moves on to the first entry at or
  // after `target` in that direction (forward: >= target; backward:
  // < target). False when the stream cannot seek (nothing moved).
  virtual bool SeekEntry(std::string_view target) {
    (void)target;
    return false;
  }
  // Moves past the next `n` keys (the current one first). A scan of a
  // ranked index jumps there through its counts; others step.
  virtual void SkipKeys(int64_t n) {
    for (int64_t i = 0; i < n && Valid(); ++i) Next();
  }
  // Moves past the current entry and every one after it whose entry key
  // starts with `prefix` (the current one must); returns how many. A
  // forward scan of a ranked index counts them through its counts and seeks
  // past them; others step.
  virtual int64_t SkipRun(std::string_view prefix) {
    int64_t n = 0;
    do {
      Next();
      ++n;
    } while (Valid() && entry_key().starts_with(prefix));
    return n;
  }
  // The number of keys from the current one to the end, counted without
  // making a row of each: a scan of a ranked index through its counts,
  // every other stream by stepping itself (errors and interrupts then in
  // status()). Nothing reads the stream afterwards. False (nothing read)
  // when its keys are no count: an intersection that may have continued
  // with its first stream alone.
  virtual bool CountRemaining(int64_t* n) {
    *n = 0;
    for (; Valid(); Next()) ++*n;
    return true;
  }
  // As RowSource::Park and Rewind (operators.h).
  virtual bool Park() { return false; }
  virtual void Rewind() {}
};

// Scans the spans of `path` forward (or backward with `reverse`), in span
// order. Yields pk components; with a primary-key path also the rows.
std::unique_ptr<RowIdStream> NewSpanStream(
    ExecContext* ctx, std::shared_ptr<const TableSchema> table,
    const AccessPath& path, bool reverse, NodeStats* stats);

// Merge union of pk-sorted streams, all in the same direction; equal keys
// come out once.
// n == 1 returns the stream itself.
std::unique_ptr<RowIdStream> NewUnionStream(
    std::vector<std::unique_ptr<RowIdStream>> children, NodeStats* stats);

// Leapfrog intersection of pk-sorted streams, all in the same direction:
// each stream seeks to the latest current key (stepping with Next while the
// target is near). Once it has met enough candidates to judge, an
// intersection that rejects almost none continues with its first stream
// alone (the plan re-checks the WHERE clause on every row) unless `exact`:
// then every key it gives is in every stream.
// n == 1 returns the stream itself.
std::unique_ptr<RowIdStream> NewIntersectStream(
    std::vector<std::unique_ptr<RowIdStream>> children, NodeStats* stats,
    bool exact = false);

// Reads a stream fully and yields its keys sorted (descending with
// `reverse`), without repeats.
std::unique_ptr<RowIdStream> NewSortedStream(std::unique_ptr<RowIdStream> child,
                                             bool reverse, NodeStats* stats);

// Moves a pk-sorted stream to the first key after `pk` in its direction, or
// at it when `inclusive` (resuming a continuation token of kind kPk).
void ResumeAtPk(RowIdStream* ids, std::string_view pk, bool inclusive);

// Skips the first `n` keys without reading rows (OFFSET on an exact scan);
// `stats` (may be null) counts the keys it then stands on.
std::unique_ptr<RowIdStream> NewSkipStream(std::unique_ptr<RowIdStream> child,
                                           int64_t n, NodeStats* stats);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_ROW_ID_STREAM_H_
