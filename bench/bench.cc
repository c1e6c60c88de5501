#include "bench/bench.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace levelql::bench {

namespace fs = std::filesystem;

namespace {

constexpr int64_t kBatchRows = 1000;

std::string FirstDifference(const ResultRows& a, const ResultRows& b) {
  auto show = [](const std::string& row) {
    std::string s = row;
    std::replace(s.begin(), s.end(), '\x1f', '|');
    return s;
  };
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) {
      return "row " + std::to_string(i) + ": levelql " + show(a[i]) + " vs " +
             show(b[i]);
    }
  }
  return a.size() < b.size() ? "levelql lacks " + show(b[n])
                             : "levelql has extra " + show(a[n]);
}

std::string ParamsText(const ParamList& params) {
  std::string s = "(";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) s += ", ";
    if (auto* v = std::get_if<int64_t>(&params[i])) {
      s += std::to_string(*v);
    } else if (auto* d = std::get_if<double>(&params[i])) {
      s += std::to_string(*d);
    } else {
      s += "'" + std::get<std::string>(params[i]) + "'";
    }
  }
  return s + ")";
}

std::string Indent(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += "    " + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace

Bench::Bench(BenchOptions options)
    : options_(std::move(options)), spec_(DataSpec::Make(options_.rows)) {}

Bench::~Bench() {
  lq_.reset();
  sq_.reset();
  raw_.reset();
  if (own_dir_ && !options_.keep) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

bool Bench::Wanted(const std::string& w) const {
  return options_.workloads.empty() || options_.workloads.count(w) > 0;
}

int Bench::Run() {
  Setup();
  if (Wanted("W2")) RunW2();
  if (Wanted("W3")) RunW3();
  if (Wanted("W4")) RunW4();
  if (Wanted("W5")) RunW5();
  if (Wanted("W6")) RunW6();
  if (Wanted("W7")) RunW7();
  if (Wanted("W8")) RunW8();

  Report report(*this);
  report.PrintTable();
  if (!options_.json_path.empty()) report.WriteJson(options_.json_path);
  if (!options_.plot_path.empty()) report.WritePlot(options_.plot_path);
  int failed = 0;
  for (const ResultCheck& c : checks_) failed += c.ok ? 0 : 1;
  std::cout << "result checks: " << checks_.size() - failed << " passed, "
            << failed << " failed\n";
  return failed ? 1 : 0;
}

void Bench::Setup() {
  if (options_.dir.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "levelql-bench-XXXXXX");
    if (!mkdtemp(tmpl.data())) Die("cannot create a temporary directory");
    dir_ = tmpl;
    own_dir_ = true;
  } else {
    dir_ = options_.dir;
    fs::create_directories(dir_);
  }
  const std::string meta_path = dir_ + "/bench-data.txt";
  const std::string meta = "rows=" + std::to_string(spec_.rows) +
                           " users=" + std::to_string(spec_.users) +
                           " seed=" + std::to_string(spec_.seed) + "\n";
  bool reuse = false;
  if (options_.reuse) {
    std::ifstream in(meta_path);
    std::string line;
    reuse = std::getline(in, line) && line + "\n" == meta;
    if (!reuse) std::cout << "--reuse: no matching data set; loading it\n";
  }
  if (!reuse) {
    fs::remove(meta_path);
    for (const char* name :
         {"levelql", "sqlite.db", "sqlite.db-wal", "sqlite.db-shm", "raw"}) {
      fs::remove_all(dir_ + "/" + name);
    }
  }
  std::cout << "data: " << dir_ << (reuse ? " (reused)" : "") << "\n";
  lq_ = std::make_unique<LevelqlEngine>(dir_ + "/levelql");
  sq_ = std::make_unique<SqliteEngine>(dir_ + "/sqlite.db");
  raw_ = std::make_unique<RawStore>(dir_ + "/raw");
  lq_->Open(options_.cache_bytes);
  sq_->Open(options_.cache_bytes);
  raw_->Open(options_.cache_bytes);
  if (reuse) {
    Outcome o;
    o.workload = "W1";
    o.what = "ingest (skipped: --reuse)";
    if (Wanted("W1")) outcomes_.push_back(o);
    return;
  }
  Load();
  std::ofstream(meta_path) << meta;
}

void Bench::Load() {
  lq_->Exec(kCreateTable);
  sq_->Exec(kCreateTable);
  for (const char* ddl : kCreateIndexes) {
    lq_->Exec(ddl);
    sq_->Exec(ddl);
  }
  // The stores take turns, batch by batch: on a machine shared with other
  // work, every store sees the same load (and LevelDB's background
  // compactions run while SQLite inserts too, as they would in an app).
  std::cout << "W1: loading " << spec_.rows << " rows in batches of "
            << kBatchRows << " (4 indexes), the stores taking turns\n";
  std::vector<Action> batch;
  double lq = 0, sq = 0, raw = 0;
  int64_t next_report = spec_.rows / 4;
  for (int64_t first = 1; first <= spec_.rows; first += kBatchRows) {
    batch.clear();
    int64_t last = std::min(spec_.rows, first + kBatchRows - 1);
    for (int64_t id = first; id <= last; ++id) {
      batch.push_back(MakeAction(spec_, id));
    }
    double t0 = Now();
    lq_->InsertBatch(batch);
    double t1 = Now();
    sq_->InsertBatch(batch);
    double t2 = Now();
    raw_->InsertBatch(batch);
    double t3 = Now();
    lq += t1 - t0;
    sq += t2 - t1;
    raw += t3 - t2;
    if (last >= next_report || last == spec_.rows) {
      std::cout << "  " << last << " rows: levelql " << FormatSeconds(lq)
                << ", SQLite " << FormatSeconds(sq) << ", raw LevelDB "
                << FormatSeconds(raw) << "\n"
                << std::flush;
      next_report += spec_.rows / 4;
    }
  }

  if (Wanted("W1")) {
    Outcome o;
    o.workload = "W1";
    o.what = "ingest, batches of 1,000 rows, 4 indexes";
    o.unit = "rows/s";
    double n = static_cast<double>(spec_.rows);
    o.levelql = n / lq;
    o.sqlite = n / sq;
    o.raw = n / raw;
    o.levelql_text = FormatCount(o.levelql) + " rows/s";
    o.sqlite_text = FormatCount(o.sqlite) + " rows/s";
    o.raw_text = FormatCount(o.raw) + " rows/s";
    o.ratio = o.levelql / o.sqlite;
    o.goal = ">= 1.5x SQLite";
    o.goal_value = 1.5;
    o.higher_is_better = true;
    o.met = options_.check_only ? Outcome::Met::kNotApplicable
            : o.ratio >= 1.5    ? Outcome::Met::kYes
                                : Outcome::Met::kNo;
    o.note = "raw = the same row and index keys in LevelDB WriteBatches";
    outcomes_.push_back(o);
  }

  // The index W6 and W7 need, built after loading in every store.
  // DESC: newest first, as W6 reads it (a forward scan in LevelDB, whose
  // reverse iteration is slower; SQLite reads B-trees both ways alike).
  const char* by_stamp = "CREATE INDEX by_stamp ON actions (stamp DESC)";
  SetupStep step{by_stamp};
  double t0 = Now();
  lq_->Exec(by_stamp);
  step.levelql = Now() - t0;
  t0 = Now();
  sq_->Exec(by_stamp);
  step.sqlite = Now() - t0;
  t0 = Now();
  raw_->BuildStampIndex();
  step.raw = Now() - t0;
  setup_.push_back(step);
  SetupStep analyze{"ANALYZE"};
  t0 = Now();
  sq_->Exec("ANALYZE");
  analyze.sqlite = Now() - t0;
  t0 = Now();
  if (AnalyzeLevelql()) {
    analyze.levelql = Now() - t0;
  } else {
    analyze.what += " (levelql: not supported yet)";
  }
  setup_.push_back(analyze);
  for (const SetupStep& s : setup_) {
    std::cout << "  " << s.what << ": levelql " << FormatSeconds(s.levelql)
              << ", SQLite " << FormatSeconds(s.sqlite) << ", raw "
              << FormatSeconds(s.raw) << "\n";
  }
}

bool Bench::AnalyzeLevelql() {
  Status s = lq_->TryExec("ANALYZE actions");
  if (s.code() == Status::Code::kNotSupported) return false;
  if (!s.ok()) Die("levelql: ANALYZE: " + s.ToString());
  return true;
}

void Bench::SwitchIndex(const std::string& drop, const std::string& name,
                        const std::string& levelql_ddl,
                        const std::string& sqlite_ddl) {
  RowCollector found;
  sq_->Prepare("SELECT name FROM sqlite_master WHERE name = ?")
      ->Run({name}, &found, nullptr);
  if (!found.rows.empty()) return;  // already in place (both engines)
  SetupStep step{"DROP INDEX " + drop + "; CREATE INDEX " + name + "; ANALYZE"};
  double t0 = Now();
  lq_->Exec("DROP INDEX IF EXISTS " + drop);
  lq_->Exec(levelql_ddl);
  AnalyzeLevelql();
  step.levelql = Now() - t0;
  t0 = Now();
  sq_->Exec("DROP INDEX IF EXISTS " + drop);
  sq_->Exec(sqlite_ddl);
  sq_->Exec("ANALYZE " + name);
  step.sqlite = Now() - t0;
  setup_.push_back(step);
}

std::vector<double> Bench::TimePerQuery(
    size_t queries, const std::vector<std::function<void()>>& run_all) {
  const size_t n = run_all.size();
  if (options_.check_only) return std::vector<double>(n, NAN);
  std::vector<int> reps(n);
  for (size_t f = 0; f < n; ++f) {
    double t0 = Now();
    run_all[f]();
    double one = std::max(Now() - t0, 1e-7);
    reps[f] = static_cast<int>(
        std::clamp(options_.min_run_seconds / one, 1.0, 100000.0));
  }
  std::vector<std::vector<double>> times(n);
  for (int r = 0; r < options_.runs; ++r) {
    for (size_t f = 0; f < n; ++f) {
      double t0 = Now();
      for (int i = 0; i < reps[f]; ++i) run_all[f]();
      times[f].push_back((Now() - t0) /
                         (static_cast<double>(reps[f]) * queries));
    }
  }
  std::vector<double> medians;
  for (auto& t : times) medians.push_back(Median(t));
  return medians;
}

std::function<void()> Bench::RunAll(Query& q,
                                    const std::vector<ParamList>& params) {
  return [this, &q, &params] {
    uint64_t sink = 0;
    for (const ParamList& p : params) q.Run(p, nullptr, &sink);
    sink_ ^= sink;
  };
}

int64_t Bench::CheckResults(const std::string& workload, Query& lq, Query& sq,
                            const std::vector<ParamList>& params, bool ordered,
                            const RawFn& raw) {
  ResultCheck check{workload, "", true};
  int64_t total = 0, min_rows = INT64_MAX, max_rows = 0;
  for (const ParamList& p : params) {
    RowCollector a, b;
    lq.Run(p, &a, nullptr);
    sq.Run(p, &b, nullptr);
    if (!ordered) {
      std::sort(a.rows.begin(), a.rows.end());
      std::sort(b.rows.begin(), b.rows.end());
    }
    if (a.rows != b.rows) {
      check.ok = false;
      check.detail = "levelql and SQLite differ on " + ParamsText(p) + ": " +
                     std::to_string(a.rows.size()) + " vs " +
                     std::to_string(b.rows.size()) + " rows; " +
                     FirstDifference(a.rows, b.rows);
      break;
    }
    if (raw) {
      RowCollector c;
      raw(p, &c);
      std::sort(a.rows.begin(), a.rows.end());
      std::sort(c.rows.begin(), c.rows.end());
      if (a.rows != c.rows) {
        check.ok = false;
        check.detail = "levelql and raw LevelDB differ on " + ParamsText(p) +
                       ": " + FirstDifference(a.rows, c.rows);
        break;
      }
    }
    int64_t n = static_cast<int64_t>(a.rows.size());
    total += n;
    min_rows = std::min(min_rows, n);
    max_rows = std::max(max_rows, n);
  }
  if (check.ok) {
    check.detail = std::to_string(params.size()) + " queries, " +
                   std::to_string(total) + " rows (" +
                   std::to_string(min_rows) + ".." + std::to_string(max_rows) +
                   " per query)" + (raw ? ", raw LevelDB agrees" : "");
  }
  std::cout << workload << " results: " << (check.ok ? "same" : "DIFFERENT")
            << " - " << check.detail << "\n"
            << std::flush;
  checks_.push_back(check);
  return total;
}

PlanRecord& Bench::RecordPlan(const std::string& workload,
                              const std::string& sql, const ParamList& params,
                              const std::string& expect, bool analyze) {
  PlanRecord p;
  p.workload = workload;
  p.sql = sql;
  p.expected = expect;
  p.levelql = lq_->Explain(sql, params, false);
  if (analyze) p.levelql_analyze = lq_->Explain(sql, params, true);
  p.sqlite = sq_->Explain(sql, params, false);
  size_t start = 0;
  while (start <= expect.size() && !expect.empty()) {
    size_t end = expect.find(',', start);
    if (end == std::string::npos) end = expect.size();
    std::string word = expect.substr(start, end - start);
    bool negate = !word.empty() && word[0] == '!';
    if (negate) word.erase(0, 1);
    bool found = p.levelql.find(word) != std::string::npos;
    if (found == negate) p.as_expected = false;
    start = end + 1;
  }
  std::cout << "\n"
            << workload << ": " << sql << "   -- e.g. " << ParamsText(params)
            << "\n  levelql plan"
            << (p.as_expected ? "" : " (UNEXPECTED: wanted " + expect + ")")
            << (analyze ? ", with EXPLAIN ANALYZE counters:\n" : ":\n")
            << Indent(analyze ? p.levelql_analyze : p.levelql)
            << "  SQLite plan:\n"
            << Indent(p.sqlite) << std::flush;
  plans_.push_back(std::move(p));
  return plans_.back();
}

Outcome& Bench::AddLatency(const std::string& workload, const std::string& what,
                           double lq, double sq, double goal) {
  Outcome o;
  o.workload = workload;
  o.what = what;
  o.unit = "s/query";
  o.levelql = lq;
  o.sqlite = sq;
  o.levelql_text = FormatSeconds(lq);
  o.sqlite_text = FormatSeconds(sq);
  o.ratio = lq / sq;
  char buf[64];
  std::snprintf(buf, sizeof buf, "<= %gx SQLite", goal);
  o.goal = buf;
  o.goal_value = goal;
  if (!LastCheckOk()) {
    o.met = Outcome::Met::kWrongResults;
  } else if (!std::isnan(o.ratio)) {
    o.met = o.ratio <= goal ? Outcome::Met::kYes : Outcome::Met::kNo;
  }
  outcomes_.push_back(o);
  return outcomes_.back();
}

}  // namespace levelql::bench
