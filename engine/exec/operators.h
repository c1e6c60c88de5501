// Pull-based row operators: each pulls rows from its input on Next().
//
// A RowSource is used by one thread. Next(row) returns false at the end or on
// error; status() tells which. Rows handed out are owned by the caller.
// Operators here are the always-correct building blocks (scan, filter,
// project, aggregate, distinct, sort, limit); index access paths read keys
// through row_id_stream.h and turn them into rows in row_sources.h.
#ifndef LEVELQL_ENGINE_EXEC_OPERATORS_H_
#define LEVELQL_ENGINE_EXEC_OPERATORS_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/catalog/stats.h"
#include "engine/exec/expr.h"
#include "engine/plan/continuation.h"
#include "engine/plan/rules.h"
#include "engine/plan/sort_key.h"
#include "engine/storage/kv_store.h"
#include "engine/storage/overlay.h"
#include "engine/storage/salted_store.h"
#include "indexes/schema.h"

namespace levelql {

// Per-statement execution state: one snapshot for every read.
struct CorrelatedValues;  // subquery.h
class DerivedSpill;       // derived_spill.h
struct PlanNode;          // plan.h

struct ExecContext {
  KvStore* store = nullptr;
  // Inside a transaction `store` is its view (overlay.h), owned here.
  std::shared_ptr<KvStore> view_store;
  // When a table is salted, `store` is this salted view (salted_store.h) of
  // `physical_store` (the store, or the transaction's view), which writers
  // (WriteTxn) use: they place keys in buckets themselves.
  std::shared_ptr<SaltedStore> salted_store;
  KvStore* physical_store = nullptr;
  // The rows of the statement's views and subqueries in FROM that make rows
  // of their own (BoundSubquery::Kind::kTable), made before it runs:
  // `store` reads them through `derived_store`, an overlay of the store
  // below (`derived_base`) holding them (writers never see them). A table
  // of them past sort_memory_bytes (`derived_bytes` counts those held) is
  // in `derived_spill`'s database instead, which the overlay then reads
  // with `derived_base` (derived_spill.h). Shared by copied contexts; the
  // spill is declared first, so that it ends after the overlay reading it.
  std::shared_ptr<DerivedSpill> derived_spill;
  std::shared_ptr<PendingWrites> derived_rows;
  std::shared_ptr<KvStore> derived_store;
  KvStore* derived_base = nullptr;
  int64_t derived_bytes = 0;
  // A digest of those rows: a continuation token names a row of them by its
  // place, so it resumes only over the same rows (select.cc).
  uint64_t derived_digest = 0;
  // For EXPLAIN: each such table's name and the plan its rows were made by
  // (with its counts).
  std::vector<std::pair<std::string, std::shared_ptr<const PlanNode>>>
      derived_plans;
  // A per-bucket part of a plan over a salted table reads only this bucket
  // (build_operators.cc, BucketMerge); -1 elsewhere.
  int bucket = -1;
  std::shared_ptr<const KvSnapshot> snapshot;
  const std::vector<Value>* params = nullptr;
  // Inside a correlated subquery: the values of the row around it that it
  // reads (BoundExpr::Kind::kOuterRef).
  const std::vector<Value>* outer = nullptr;
  // The rules the statement is planned with (a correlated subquery is
  // planned for each row it runs for).
  RuleSet rules;
  // Correlated subqueries' values already computed in this statement, by
  // subquery and the outer values it read (subquery.cc); shared by the
  // contexts copied from this one.
  std::shared_ptr<CorrelatedValues> correlated;
  int64_t sort_memory_bytes = 64 << 20;  // before a sort spills to disk
  uint64_t spilled_runs = 0;             // for EXPLAIN ANALYZE and tests
  // Sort merges (sort.cc), for tests: passes that merged runs into longer
  // runs, and the most runs merged at once.
  uint64_t merge_passes = 0;
  uint64_t max_merge_fan_in = 0;
  // Set when resuming from a continuation token: the access path starts
  // right after this position.
  const ResumePoint* resume = nullptr;
  const std::atomic<uint64_t>* interrupt_epoch = nullptr;
  uint64_t start_epoch = 0;
  // Counters for EXPLAIN ANALYZE. Without `count_rows` the operators'
  // row counts (NodeStats::rows) are not kept: a run whose plan nobody
  // prints spends nothing on them.
  bool count_rows = true;
  uint64_t keys_read = 0;
  uint64_t seeks = 0;

  // ANALYZE statistics of a table, or null; for the planner's estimates.
  std::function<const TableStats*(const TableSchema&)> stats;

  // Steady-clock time after which the statement stops (0: none).
  int64_t deadline_ns = 0;

  // Counts one unit of work (a key read, a pair of join rows tried) and,
  // every 1024th, checks interrupted(). One count per statement, so that
  // many short reads (a join's inner side read again per outer row) add up.
  bool Tick() const { return (++ticks & 1023) == 0 && interrupted(); }
  mutable uint64_t ticks = 0;

  // Whether Interrupt() was called or the deadline passed.
  bool interrupted() const {
    return interrupt_called() || (deadline_ns != 0 && NowNanos() > deadline_ns);
  }
  bool interrupt_called() const {
    return interrupt_epoch && interrupt_epoch->load() != start_epoch;
  }
  // The error of a statement interrupted() stopped: which of the two.
  Status InterruptedStatus() const {
    if (interrupt_called()) return Status::Interrupted("statement interrupted");
    return Status::Interrupted(
        "statement stopped at its timeout (Options::statement_timeout_ms, "
        "PRAGMA statement_timeout_ms)");
  }
  static int64_t NowNanos() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

class RowSource {
 public:
  virtual ~RowSource() = default;
  virtual bool Next(Row* row) = 0;
  virtual Status status() const = 0;
  // The number of rows this source would still return, when it can tell
  // without producing them (COUNT(*) over an index scan: through a ranked
  // index's counts, else by stepping its keys); else false.
  virtual bool CountAll(int64_t* n) {
    (void)n;
    return false;
  }
  // Reads the next row and the run of rows after it that share its first
  // `components` index key components (with it, *n rows; *row is the
  // first), when runs_of() said it can; false at the end or on an error.
  virtual bool NextRun(size_t components, Row* row, int64_t* n) {
    (void)components;
    (void)row;
    (void)n;
    return false;
  }
  virtual bool counts_runs() const { return false; }
  // Moves on so that the next row is the first whose index entry is at or
  // after `target` in the scan's direction, when this source reads one
  // scan of entries (through a filter) and the row it last returned is
  // before `target`; false otherwise (nothing moved). Merge joins skip
  // with it.
  virtual bool SeekEntry(std::string_view target) {
    (void)target;
    return false;
  }
  // Where the row last returned sits in the scan order (its entry key or
  // primary key), for continuation tokens. False when unknown.
  virtual bool Position(ResumePoint::Kind* kind, std::string* key) const {
    (void)kind;
    (void)key;
    return false;
  }
  // Keeping the operators for the next run of a prepared statement
  // (SelectRun, select_cursor.h). Park() lets go of what the operator holds
  // of the store (iterators, which pin files) and of the last run's rows
  // (ParkBuffer), and says whether it can start again; false for every
  // operator that cannot (it may have let go of some: the run is ended).
  // Rewind() then starts it again as if just built: it reads its context (a new
  // snapshot and parameter values) and its plan node (new point keys) anew.
  // Called only on a tree whose every operator parked.
  virtual bool Park() { return false; }
  virtual void Rewind() {}
};

// What a parked operator keeps of a buffer (RowSource::Park): none of its
// bytes or elements, and its allocation only up to kParkedBytes, so a run
// waiting to be restarted holds no row, parameter value or large buffer.
inline constexpr size_t kParkedBytes = 4096;
inline void ParkBuffer(std::string* bytes) {
  if (bytes->capacity() > kParkedBytes) {
    std::string().swap(*bytes);
  } else {
    bytes->clear();
  }
}
template <typename T>
void ParkBuffer(std::vector<T>* elements) {
  elements->clear();  // frees what the elements hold
  if (elements->capacity() * sizeof(T) > kParkedBytes) {
    std::vector<T>().swap(*elements);
  }
}

// Every row of `table` in primary-key order (descending with `reverse`),
// with the columns `decode` marks decoded (rows::DecodeRowColumns; null or
// empty: every column). The mask must outlive the operator.
std::unique_ptr<RowSource> NewTableScan(
    ExecContext* ctx, std::shared_ptr<const TableSchema> table,
    bool reverse = false, const std::vector<char>* decode = nullptr);
// Rows of `input` for which `predicate` is TRUE. The predicate must outlive
// the operator.
std::unique_ptr<RowSource> NewFilter(ExecContext* ctx,
                                     std::unique_ptr<RowSource> input,
                                     const BoundExpr* predicate);
// Evaluates `exprs` over each input row. The expressions (not the vector)
// must outlive the operator.
std::unique_ptr<RowSource> NewProject(
    ExecContext* ctx, std::unique_ptr<RowSource> input,
    const std::vector<const BoundExpr*>& exprs);
// Drops rows whose first `width` values equal an earlier row's.
std::unique_ptr<RowSource> NewDistinct(
    std::unique_ptr<RowSource> input, size_t width,
    std::vector<const Collation*> collations);

// All rows sorted by `keys` (stable). With `limit` >= 0 keeps only the first
// `limit` rows using a bounded heap (top-k). Without a limit, rows beyond
// ctx->sort_memory_bytes (their real heap memory) are sorted in runs spilled
// to a temporary file and merged, a bounded number of runs at a time, in
// as many passes as needed (sort.cc).
std::unique_ptr<RowSource> NewSort(ExecContext* ctx,
                                   std::unique_ptr<RowSource> input,
                                   std::vector<SortKey> keys, int64_t limit);
// Skips `offset` rows, then returns at most `limit` (-1: no limit).
std::unique_ptr<RowSource> NewLimit(std::unique_ptr<RowSource> input,
                                    int64_t offset, int64_t limit);
// Rows after `after` in the order of `keys`, or also those equal to it when
// `inclusive` (continuation of a sorted plan).
std::unique_ptr<RowSource> NewResumeFilter(std::unique_ptr<RowSource> input,
                                           std::vector<SortKey> keys, Row after,
                                           bool inclusive);
// Rows from a vector.
std::unique_ptr<RowSource> NewValues(std::vector<Row> rows);

int CompareRows(const Row& a, const Row& b, const std::vector<SortKey>& keys);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_OPERATORS_H_
