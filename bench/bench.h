// levelql-bench: one data set in levelql, SQLite and raw LevelDB keys; the
// workloads W1-W9 and ANALYZE of issues 7 and 13 on each; a table of goals
// met, missed or not implemented yet.
//
// Bench owns the three stores (in one directory), runs the workloads of its
// registry (bench.cc, Workloads()) in order and collects Outcomes (one
// table row per goal), result checks and plans; report.cc prints and saves
// them, and tools/bench_table.py turns the JSON into the README tables.
// Single-threaded, apart from LevelDB's own background compaction thread.
#ifndef LEVELQL_BENCH_BENCH_H_
#define LEVELQL_BENCH_BENCH_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "bench/dataset.h"
#include "bench/engines.h"

namespace levelql::bench {

struct BenchOptions {
  int64_t rows = 1000000;
  std::string dir;  // empty: a fresh temporary directory, removed at the end
  bool keep = false;
  bool reuse = false;  // --dir already holds this data set: skip loading
  bool check_only = false;
  std::set<std::string> workloads;  // groups (see WorkloadGroups); empty: all
  int runs = 5;                     // timed runs per query workload
  int load_runs = 0;                // W1 loads per store; 0: LoadRuns()
  size_t cache_bytes = 8 << 20;     // every store's cache: levelql's default
  double min_run_seconds = 0.05;    // repeat fast query lists up to this long
  std::string json_path;
  std::string plot_path;
  std::string command_line;
  std::string load_at_start;  // load averages when the run started

  // W1 loads per store: --load-runs, else `runs` below 500,000 rows and 3
  // from there (a 1M-row load of the three stores takes minutes).
  int LoadRuns() const {
    if (load_runs > 0) return load_runs;
    return rows < 500000 ? runs : std::min(runs, 3);
  }
};

// The workload groups --workloads accepts: "W1".."W9" and "ANALYZE". A
// group selects its extra rows too (W2: W2b; W5: W5b; W6: W6t, W6r; W7:
// W7r; W8: W8s).
const std::vector<std::string>& WorkloadGroups();

// One store's figure for a goal: the median of the timed runs and their
// spread, in the outcome's unit.
struct Measure {
  double median = NAN, min = NAN, max = NAN;
  std::vector<double> samples;  // one per run, in run order
  std::string text;             // the table cell (the median, formatted)

  bool measured() const { return !std::isnan(median); }
};

// One row of the result table: a goal and how the run measured against it.
struct Outcome {
  std::string workload;  // "W3"
  std::string what;      // "category = ? AND country = ? (~100 rows)"
  std::string unit;      // "s/query", "s", "rows/s", "keys/s", "bytes"
  Measure levelql, sqlite, raw;
  int runs = 0;        // timed runs behind each median
  double ratio = NAN;  // in the goal's terms (see goal)
  std::string goal;    // "<= 0.5x SQLite"
  double goal_value = NAN;
  bool higher_is_better = false;
  enum class Met {
    kYes,
    kNo,
    kNotApplicable,
    kNotImplemented,  // the engine lacks the feature the goal is about
    kWrongResults,
    kBelowFloor  // missed, and LevelDB's floor alone misses it too
  } met = Met::kNotApplicable;
  std::string note;
  // The least LevelDB work the query needs, timed on its own (a raw
  // program: RawStore's floors), as a ratio in the goal's terms, and what
  // it does; NAN when not measured.
  double floor_ratio = NAN;
  std::string floor_what;

  // measured / goal, oriented so that <= 1 means the goal is met.
  double Normalized() const {
    if (std::isnan(ratio) || std::isnan(goal_value)) return NAN;
    return higher_is_better ? goal_value / ratio : ratio / goal_value;
  }
  // "levelql 61.0-70.2 us, SQLite 21.1-23.0 us": min-max of the runs.
  std::string SpreadText() const;
  // The note, and what the floor says when one was measured.
  std::string FullNote() const;
};

const char* MetText(Outcome::Met m);

struct ResultCheck {
  std::string workload;
  std::string detail;  // "200 queries, 2000 rows" or the first difference
  bool ok = true;
};

struct PlanRecord {
  std::string workload;
  std::string sql;
  std::string levelql, levelql_analyze, sqlite;
  std::string expected;  // what the levelql plan must show, e.g. "Intersect"
  bool as_expected = true;
};

struct SetupStep {
  std::string what;
  double levelql = NAN, sqlite = NAN, raw = NAN;  // seconds
};

// The index W6 and W7 read in levelql. SQLite always reads by_stamp, a
// plain B-tree index (it has no ranked kind).
struct StampIndex {
  const char* suffix;  // appended to the workload: "" or "r"
  const char* name;
  const char* levelql_ddl;
  bool ranked;  // an order-statistic index: OFFSET and COUNT in O(log n)
};
extern const StampIndex kPlainStamp;
extern const StampIndex kRankedStamp;

class Bench {
 public:
  explicit Bench(BenchOptions options);
  ~Bench();

  // Runs everything; returns the process exit status (1 when results differ).
  int Run();

  // A registry entry: the rows `name` adds to the table, selected by
  // --workloads `group`. A goal the engine cannot meet yet (a ranked index)
  // is still an entry; its run reports "not implemented" until the engine
  // accepts the feature, and measures it from then on.
  struct Workload {
    const char* name;
    const char* group;
    void (*run)(Bench&);
  };
  static const std::vector<Workload>& Workloads();

 private:
  bool Wanted(const std::string& group) const;
  void Setup();
  // W1: loads every store on its own (never interleaved with another's
  // batches), LoadRuns() times, each load timed from its first batch
  // through closing the store and draining LevelDB's compactions; keeps the
  // last load of each for the query workloads (load.cc).
  void Load();
  // Closes levelql (the raw store), drains its compactions and reopens it,
  // so that no background work left over from building an index runs
  // during the next timings. Returns the seconds it took.
  double SettleLevelql();
  double SettleRaw();
  // ANALYZE in levelql; false when levelql does not support it yet.
  bool AnalyzeLevelql();
  // Replaces index `drop` by `name` in both engines, unless `name` is
  // already there (a reused data set), and settles LevelDB.
  void SwitchIndex(const std::string& drop, const std::string& name,
                   const std::string& levelql_ddl,
                   const std::string& sqlite_ddl);
  // Makes `index` levelql's stamp index (creating it first, then dropping
  // the other); returns "" or, when levelql refuses the DDL as a syntax
  // error or not supported, its message.
  std::string UseStampIndex(const StampIndex& index);
  bool LevelqlHasIndex(const std::string& name);

  void RunAnalyze();
  void RunW2();
  void RunW3();
  void RunW4();
  void RunW5();
  void RunW6(const StampIndex& index);
  void RunW7(const StampIndex& index);
  void RunW8();
  void RunW9();
  void RunW10();
  void RunW10r();
  void RunW11();
  void RunW11s();  // part of W11
  void EnsureUsers();
  bool LevelqlHasTable(const std::string& name);
  void RunGroupCount(const std::string& workload, const std::string& index);
  void RunW1r();  // ranked_ingest.cc
  void RunW2s();  // salted_paging.cc
  void RunWE();   // etcd_queries.cc

  // Per-query latency of each function (each runs the whole parameter list
  // once): options_.runs timed runs after a warm-up, each repeated to last
  // at least min_run_seconds, divided by the number of queries. The
  // functions' runs alternate, so a machine shared with other work slows
  // all alike. Empty samples in --check-only mode.
  std::vector<Measure> TimePerQuery(
      size_t queries, const std::vector<std::function<void()>>& run_all);
  // A function that runs `q` on every parameter set.
  std::function<void()> RunAll(Query& q, const std::vector<ParamList>& params);

  // Runs every parameter set on both engines (and `raw`, if given), checks
  // the rows agree (as multisets, or in order when `ordered`), records the
  // check and returns the total number of rows.
  using RawFn = std::function<void(const ParamList&, RowConsumer*)>;
  // A function that runs `raw` (a raw LevelDB floor) on every parameter set.
  static std::function<void()> RunAll(RawFn raw,
                                      const std::vector<ParamList>& params);
  int64_t CheckResults(const std::string& workload, Query& lq, Query& sq,
                       const std::vector<ParamList>& params, bool ordered,
                       const RawFn& raw = nullptr);
  bool LastCheckOk() const { return checks_.empty() || checks_.back().ok; }

  // EXPLAIN on both engines; checks the levelql plan contains every
  // comma-separated word of `expect` ("!Word" must be absent).
  // With `analyze`, also EXPLAIN ANALYZE (which runs the query).
  PlanRecord& RecordPlan(const std::string& workload, const std::string& sql,
                         const ParamList& params, const std::string& expect,
                         bool analyze = true);

  // Adds a row comparing levelql with SQLite in seconds per query (ratio
  // levelql / SQLite, goal "<= goal x SQLite"); `raw` is shown alongside.
  Outcome& AddLatency(const std::string& workload, const std::string& what,
                      const Measure& lq, const Measure& sq, double goal,
                      const Measure& raw = {});
  // Adds `o` after deciding o.met from its ratio and goal (wrong results
  // when `results_ok` is false).
  Outcome& AddOutcome(Outcome o, bool results_ok);
  // Records on `o` the floor `floor` (what it does: `what`) against the
  // goal's baseline; a missed goal whose floor misses it too becomes
  // kBelowFloor: no engine on LevelDB's API can meet it this way.
  static void SetFloor(Outcome& o, const Measure& floor,
                       const Measure& baseline, std::string what);
  // A row for a goal the engine cannot be measured against yet.
  void AddNotImplemented(const std::string& workload, const std::string& what,
                         const std::string& goal, const std::string& why);

  friend class Report;

  BenchOptions options_;
  DataSpec spec_;
  std::string dir_;
  bool own_dir_ = false;
  double started_ = 0;  // Now() at the start of Run
  uint64_t sink_ = 0;   // folds result values, so no read is optimized away
  std::unique_ptr<LevelqlEngine> lq_;
  std::unique_ptr<SqliteEngine> sq_;
  std::unique_ptr<RawStore> raw_;
  std::vector<Outcome> outcomes_;
  std::vector<ResultCheck> checks_;
  std::vector<PlanRecord> plans_;
  std::vector<SetupStep> setup_;
};

// Seconds -> a Measure in seconds; amount / seconds -> a rate.
Measure Summarize(std::vector<double> samples,
                  std::string (*format)(double) = &FormatSeconds);
Measure RateOf(const Measure& seconds, double amount, const char* unit);
// A value in a unit of Outcome::unit, as the table shows it ("12.3 us",
// "45.6k rows/s", "83.1 MiB").
std::string FormatIn(const std::string& unit, double v);
// The spread of a measure: "61.0-70.2 us".
std::string MinMax(const std::string& unit, const Measure& m);

// The W8 child process (levelql-bench --child-w8 ENGINE MODE PATH CACHE):
// runs SELECT * FROM actions ORDER BY name and prints
// "<rows> <multiset hash> <1 if sorted> <seconds> <peak RSS bytes>".
int RunW8Child(const std::string& engine, const std::string& mode,
               const std::string& path, size_t cache_bytes);

// A WE writer process (levelql-bench --child-we-writer URL N SEED ROWS):
// N single-row UPDATEs of random rows of `actions`; prints
// "<succeeded> <gave up with Busy> <seconds>".
int RunWEWriterChild(const std::string& url, int64_t statements, uint64_t seed,
                     int64_t rows);

// Writes the table to stdout, and --json / --plot files.
class Report {
 public:
  explicit Report(const Bench& bench) : b_(bench) {}
  void PrintTable() const;
  void WriteJson(const std::string& path) const;
  void WritePlot(const std::string& path) const;

 private:
  const Bench& b_;
};

}  // namespace levelql::bench

#endif  // LEVELQL_BENCH_BENCH_H_
