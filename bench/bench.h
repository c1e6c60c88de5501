// levelql-bench: one data set in levelql, SQLite and raw LevelDB keys; the
// workloads W1-W8 of issue 7 on each; a table of goals met or missed.
//
// Bench owns the three stores (in one directory), runs the workloads in a
// fixed order and collects Outcomes (one table row per goal), result checks
// and plans; report.cc prints and saves them. Single-threaded.
#ifndef LEVELQL_BENCH_BENCH_H_
#define LEVELQL_BENCH_BENCH_H_

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
  std::set<std::string> workloads;  // empty: all
  int runs = 5;
  size_t cache_bytes = 8 << 20;   // every store's cache: levelql's default
  double min_run_seconds = 0.05;  // repeat fast query lists up to this long
  std::string json_path;
  std::string plot_path;
  std::string command_line;
  std::string load_at_start;  // load averages when the run started
};

// One row of the result table: a goal and how the run measured against it.
struct Outcome {
  std::string workload;  // "W3"
  std::string what;      // "category = ? AND country = ? (~100 rows)"
  std::string unit;      // "s/query", "rows/s", "keys/s", "bytes"
  double levelql = NAN, sqlite = NAN, raw = NAN;
  std::string levelql_text, sqlite_text, raw_text;  // formatted cells
  double ratio = NAN;  // in the goal's terms (see goal)
  std::string goal;    // "<= 0.5x SQLite"
  double goal_value = NAN;
  bool higher_is_better = false;
  enum class Met {
    kYes,
    kNo,
    kNotApplicable,
    kWrongResults
  } met = Met::kNotApplicable;
  std::string note;

  // measured / goal, oriented so that <= 1 means the goal is met.
  double Normalized() const {
    if (std::isnan(ratio) || std::isnan(goal_value)) return NAN;
    return higher_is_better ? goal_value / ratio : ratio / goal_value;
  }
};

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

class Bench {
 public:
  explicit Bench(BenchOptions options);
  ~Bench();

  // Runs everything; returns the process exit status (1 when results differ).
  int Run();

 private:
  bool Wanted(const std::string& w) const;
  void Setup();
  void Load();  // W1
  // ANALYZE in levelql; false when levelql does not support it yet.
  bool AnalyzeLevelql();
  // Replaces index `drop` by `name` in both engines, unless `name` is
  // already there (a reused data set).
  void SwitchIndex(const std::string& drop, const std::string& name,
                   const std::string& levelql_ddl,
                   const std::string& sqlite_ddl);
  void RunW2();
  void RunW3();
  void RunW4();
  void RunW5();
  void RunW6();
  void RunW7();
  void RunW8();

  // Per-query latency of each function (each runs the whole parameter list
  // once): the median over options_.runs runs, each repeated to last at
  // least min_run_seconds, divided by the number of queries. The functions'
  // runs alternate, so a machine shared with other work slows all alike.
  // NANs in --check-only mode.
  std::vector<double> TimePerQuery(
      size_t queries, const std::vector<std::function<void()>>& run_all);
  // A function that runs `q` on every parameter set.
  std::function<void()> RunAll(Query& q, const std::vector<ParamList>& params);

  // Runs every parameter set on both engines (and `raw`, if given), checks
  // the rows agree (as multisets, or in order when `ordered`), records the
  // check and returns the total number of rows.
  using RawFn = std::function<void(const ParamList&, RowConsumer*)>;
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

  Outcome& AddLatency(const std::string& workload, const std::string& what,
                      double lq, double sq, double goal);

  friend class Report;

  BenchOptions options_;
  DataSpec spec_;
  std::string dir_;
  bool own_dir_ = false;
  uint64_t sink_ = 0;  // folds result values, so no read is optimized away
  std::unique_ptr<LevelqlEngine> lq_;
  std::unique_ptr<SqliteEngine> sq_;
  std::unique_ptr<RawStore> raw_;
  std::vector<Outcome> outcomes_;
  std::vector<ResultCheck> checks_;
  std::vector<PlanRecord> plans_;
  std::vector<SetupStep> setup_;
};

// The W8 child process (levelql-bench --child-w8 ENGINE MODE PATH CACHE):
// runs SELECT * FROM actions ORDER BY name and prints
// "<rows> <multiset hash> <1 if sorted> <seconds> <peak RSS bytes>".
int RunW8Child(const std::string& engine, const std::string& mode,
               const std::string& path, size_t cache_bytes);

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
