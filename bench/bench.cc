#include "bench/bench.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace levelql::bench {

namespace fs = std::filesystem;

const StampIndex kPlainStamp = {
    "", "by_stamp", "CREATE INDEX by_stamp ON actions (stamp DESC)", false};
const StampIndex kRankedStamp = {
    "r", "by_stamp_ranked",
    "CREATE INDEX by_stamp_ranked ON actions (stamp DESC) WITH (ranked)", true};

const std::vector<std::string>& WorkloadGroups() {
  static const std::vector<std::string> kGroups = {
      "W1", "W2", "W3",  "W4",  "W5", "W6",     "W7",
      "W8", "W9", "W10", "W11", "WE", "ANALYZE"};
  return kGroups;
}

// In table order. W1 is not here: Setup loads the data (and times it) for
// every run. ANALYZE comes first, on the table as loaded plus by_stamp.
const std::vector<Bench::Workload>& Bench::Workloads() {
  static const std::vector<Workload> kWorkloads = {
      {"ANALYZE", "ANALYZE", [](Bench& b) { b.RunAnalyze(); }},
      {"W2", "W2", [](Bench& b) { b.RunW2(); }},
      {"W3", "W3", [](Bench& b) { b.RunW3(); }},
      {"W4", "W4", [](Bench& b) { b.RunW4(); }},
      {"W5", "W5", [](Bench& b) { b.RunW5(); }},
      {"W6", "W6", [](Bench& b) { b.RunW6(kPlainStamp); }},
      {"W7", "W7", [](Bench& b) { b.RunW7(kPlainStamp); }},
      {"W9", "W9", [](Bench& b) { b.RunW9(); }},
      {"W10", "W10", [](Bench& b) { b.RunW10(); }},
      {"W11", "W11", [](Bench& b) { b.RunW11(); }},
      // The ranked-index goals: "not implemented" while levelql refuses
      // WITH (ranked); measured as soon as it accepts it.
      {"W6r", "W6", [](Bench& b) { b.RunW6(kRankedStamp); }},
      {"W7r", "W7", [](Bench& b) { b.RunW7(kRankedStamp); }},
      {"W1r", "W1", [](Bench& b) { b.RunW1r(); }},
      {"W2s", "W2", [](Bench& b) { b.RunW2s(); }},
      {"W10r", "W10", [](Bench& b) { b.RunW10r(); }},
      {"W8", "W8", [](Bench& b) { b.RunW8(); }},
      {"WE", "WE", [](Bench& b) { b.RunWE(); }},
  };
  return kWorkloads;
}

const char* MetText(Outcome::Met m) {
  switch (m) {
    case Outcome::Met::kYes:
      return "yes";
    case Outcome::Met::kNo:
      return "NO";
    case Outcome::Met::kWrongResults:
      return "WRONG RESULTS";
    case Outcome::Met::kNotImplemented:
      return "not implemented";
    case Outcome::Met::kBelowFloor:
      return "NO (floor)";
    case Outcome::Met::kNotApplicable:
      break;
  }
  return "n/a";
}

std::string Outcome::FullNote() const {
  if (std::isnan(floor_ratio)) return note;
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.2fx", floor_ratio);
  std::string text = "LevelDB floor (" + floor_what + "): " + ratio;
  const bool missed =
      higher_is_better ? floor_ratio < goal_value : floor_ratio > goal_value;
  if (missed) text += ", itself past the goal";
  return note.empty() ? text : note + "; " + text;
}

// A value in an outcome's unit, as the table shows it.
std::string FormatIn(const std::string& unit, double v) {
  if (unit == "bytes") return FormatMiB(v);
  if (unit == "rows/s" || unit == "keys/s") return FormatCount(v) + " " + unit;
  return FormatSeconds(v);
}

std::string MinMax(const std::string& unit, const Measure& m) {
  if (std::isnan(m.min)) return "-";
  std::string lo = FormatIn(unit, m.min), hi = FormatIn(unit, m.max);
  // "61.0 us" and "70.2 us" -> "61.0-70.2 us".
  size_t a = lo.find(' '), b = hi.find(' ');
  if (a != std::string::npos && b != std::string::npos &&
      lo.substr(a) == hi.substr(b)) {
    return lo.substr(0, a) + "-" + hi;
  }
  return lo + " - " + hi;
}

namespace {

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

std::string Outcome::SpreadText() const {
  std::string out;
  for (auto [name, m] :
       {std::pair<const char*, const Measure*>{"levelql", &levelql},
        {"SQLite", &sqlite},
        {"raw", &raw}}) {
    if (m->samples.size() < 2 || std::isnan(m->min)) continue;
    if (!out.empty()) out += ", ";
    out += std::string(name) + " " + MinMax(unit, *m);
  }
  return out;
}

Measure Summarize(std::vector<double> samples, std::string (*format)(double)) {
  Measure m;
  m.samples = std::move(samples);
  if (m.samples.empty()) {
    m.text = format(NAN);
    return m;
  }
  m.median = Median(m.samples);
  auto [lo, hi] = std::minmax_element(m.samples.begin(), m.samples.end());
  m.min = *lo;
  m.max = *hi;
  m.text = format(m.median);
  return m;
}

Measure RateOf(const Measure& seconds, double amount, const char* unit) {
  std::vector<double> rates;
  for (double s : seconds.samples) rates.push_back(amount / s);
  Measure m = Summarize(std::move(rates), &FormatCount);
  m.text += std::string(" ") + unit;
  return m;
}

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

bool Bench::Wanted(const std::string& group) const {
  return options_.workloads.empty() || options_.workloads.count(group) > 0;
}

int Bench::Run() {
  started_ = Now();
  Setup();
  for (const Workload& w : Workloads()) {
    if (Wanted(w.group)) w.run(*this);
  }

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

std::vector<Measure> Bench::TimePerQuery(
    size_t queries, const std::vector<std::function<void()>>& run_all) {
  const size_t n = run_all.size();
  if (options_.check_only) return std::vector<Measure>(n, Summarize({}));
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
  std::vector<Measure> measures;
  for (auto& t : times) measures.push_back(Summarize(std::move(t)));
  return measures;
}

std::function<void()> Bench::RunAll(Query& q,
                                    const std::vector<ParamList>& params) {
  return [this, &q, &params] {
    uint64_t sink = 0;
    for (const ParamList& p : params) q.Run(p, nullptr, &sink);
    sink_ ^= sink;
  };
}

std::function<void()> Bench::RunAll(RawFn raw,
                                    const std::vector<ParamList>& params) {
  return [raw = std::move(raw), &params] {
    for (const ParamList& p : params) raw(p, nullptr);
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
                           const Measure& lq, const Measure& sq, double goal,
                           const Measure& raw) {
  Outcome o;
  o.workload = workload;
  o.what = what;
  o.unit = "s/query";
  o.levelql = lq;
  o.sqlite = sq;
  o.raw = raw;
  o.runs = options_.runs;
  o.ratio = lq.median / sq.median;
  char buf[64];
  std::snprintf(buf, sizeof buf, "<= %gx SQLite", goal);
  o.goal = buf;
  o.goal_value = goal;
  return AddOutcome(std::move(o), LastCheckOk());
}

Outcome& Bench::AddOutcome(Outcome o, bool results_ok) {
  if (!results_ok) {
    o.met = Outcome::Met::kWrongResults;
  } else if (std::isnan(o.ratio) || std::isnan(o.goal_value)) {
    o.met = Outcome::Met::kNotApplicable;
  } else if (o.higher_is_better) {
    o.met = o.ratio >= o.goal_value ? Outcome::Met::kYes : Outcome::Met::kNo;
  } else {
    o.met = o.ratio <= o.goal_value ? Outcome::Met::kYes : Outcome::Met::kNo;
  }
  outcomes_.push_back(std::move(o));
  return outcomes_.back();
}

void Bench::SetFloor(Outcome& o, const Measure& floor, const Measure& baseline,
                     std::string what) {
  if (!floor.measured() || !baseline.measured()) return;
  o.floor_ratio = floor.median / baseline.median;
  o.floor_what = std::move(what);
  const bool missed = o.higher_is_better ? o.floor_ratio < o.goal_value
                                         : o.floor_ratio > o.goal_value;
  if (o.met == Outcome::Met::kNo && missed) o.met = Outcome::Met::kBelowFloor;
}

void Bench::AddNotImplemented(const std::string& workload,
                              const std::string& what, const std::string& goal,
                              const std::string& why) {
  Outcome o;
  o.workload = workload;
  o.what = what;
  o.levelql.text = "not implemented";
  o.goal = goal;
  o.met = Outcome::Met::kNotImplemented;
  o.note = why;
  std::cout << workload << ": not implemented - " << why << "\n";
  outcomes_.push_back(std::move(o));
}

}  // namespace levelql::bench
