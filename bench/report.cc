// The result table on stdout, the --json file and the --plot image.
//
// The plot is drawn by gnuplot or, failing that, python3 with matplotlib,
// whichever is installed; neither is a build dependency. Without both the
// bench says which Debian package to install and carries on.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/bench.h"

namespace levelql::bench {

namespace fs = std::filesystem;

namespace {

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

bool HasProgram(const char* command) { return std::system(command) == 0; }

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void WriteMeasure(JsonWriter& j, const std::string& key, const Measure& m) {
  j.Key(key);
  if (!m.measured() && m.text.empty()) {
    j.Null();
    return;
  }
  j.BeginObject();
  j.Key("median");
  j.Number(m.median);
  j.Key("min");
  j.Number(m.min);
  j.Key("max");
  j.Number(m.max);
  j.Key("samples");
  j.BeginArray();
  for (double v : m.samples) j.Number(v);
  j.EndArray();
  j.Key("text");
  j.String(m.text);
  j.EndObject();
}

}  // namespace

void Report::PrintTable() const {
  Machine m = DescribeMachine();
  std::vector<std::vector<std::string>> rows = {
      {"workload", "what", "levelql", "SQLite", "raw LevelDB",
       "spread (min-max)", "ratio", "goal", "met?"}};
  for (const Outcome& o : b_.outcomes_) {
    rows.push_back({o.workload, o.what, o.levelql.text, o.sqlite.text,
                    o.raw.text, o.SpreadText(), FormatRatio(o.ratio), o.goal,
                    MetText(o.met)});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows) {
    for (size_t i = 0; i < r.size(); ++i) {
      width[i] = std::max(width[i], r[i].size());
    }
  }
  std::cout << "\nlevelql-bench: " << b_.spec_.rows << " rows, "
            << b_.spec_.users << " users, " << b_.spec_.categories
            << " categories, " << b_.spec_.countries << " countries; " << m.cpus
            << " CPUs (" << m.cpu_model << "), " << m.kernel << "\ncaches: "
            << FormatMiB(static_cast<double>(b_.options_.cache_bytes))
            << " per store (levelql and raw LevelDB block cache, SQLite "
               "cache_size = -"
            << b_.options_.cache_bytes / 1024 << " KiB)"
            << "\nload average at start: " << b_.options_.load_at_start
            << ", at the end: " << LoadAverage() << " (" << m.cpus
            << " CPUs; above that, other work shares the machine)"
            << "\ncommand: " << b_.options_.command_line << "\n";
  if (b_.options_.check_only) {
    std::cout << "--check-only: results compared, nothing timed\n";
  }
  std::cout << "\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line = "| ";
    for (size_t i = 0; i < rows[r].size(); ++i) {
      line += Pad(rows[r][i], width[i]) + " | ";
    }
    line.pop_back();
    std::cout << line << "\n";
    if (r == 0) {
      std::string sep = "|";
      for (size_t w : width) sep += std::string(w + 2, '-') + "|";
      std::cout << sep << "\n";
    }
  }
  if (!b_.options_.check_only) {
    std::cout << "\nMedians of " << b_.options_.runs
              << " timed runs (after a warm-up run; W1: "
              << b_.options_.LoadRuns()
              << " loads of each store, W8: one run), spread = min-max of "
                 "the runs; ratio is in the goal's terms.\n";
  }
  for (const Outcome& o : b_.outcomes_) {
    if (const std::string note = o.FullNote(); !note.empty()) {
      std::cout << "  " << o.workload << ": " << note << "\n";
    }
  }
  for (const SetupStep& s : b_.setup_) {
    std::cout << "  setup: " << s.what << ": levelql "
              << FormatSeconds(s.levelql) << ", SQLite "
              << FormatSeconds(s.sqlite) << ", raw " << FormatSeconds(s.raw)
              << "\n";
  }
  std::cout << "  peak RSS of this process: " << FormatMiB(PeakRssSelf())
            << "\n  wall time: " << FormatSeconds(Now() - b_.started_) << "\n";
}

void Report::WriteJson(const std::string& path) const {
  Machine m = DescribeMachine();
  JsonWriter j;
  j.BeginObject();
  j.Key("command");
  j.String(b_.options_.command_line);
  j.Key("machine");
  j.BeginObject();
  j.Key("cpus");
  j.Int(m.cpus);
  j.Key("cpu_model");
  j.String(m.cpu_model);
  j.Key("kernel");
  j.String(m.kernel);
  j.Key("load_average_start");
  j.String(b_.options_.load_at_start);
  j.Key("load_average_end");
  j.String(LoadAverage());
  j.Key("memory_bytes");
  j.Int(m.memory_bytes);
  j.EndObject();
  j.Key("data");
  j.BeginObject();
  j.Key("rows");
  j.Int(b_.spec_.rows);
  j.Key("users");
  j.Int(b_.spec_.users);
  j.Key("categories");
  j.Int(b_.spec_.categories);
  j.Key("countries");
  j.Int(b_.spec_.countries);
  j.Key("seed");
  j.Int(static_cast<int64_t>(b_.spec_.seed));
  j.EndObject();
  j.Key("check_only");
  j.Bool(b_.options_.check_only);
  j.Key("runs");
  j.Int(b_.options_.runs);
  j.Key("load_runs");
  j.Int(b_.options_.check_only ? 1 : b_.options_.LoadRuns());
  j.Key("cache_bytes");
  j.Int(static_cast<int64_t>(b_.options_.cache_bytes));
  j.Key("cache_mib");
  j.Number(static_cast<double>(b_.options_.cache_bytes) / 1048576.0);
  j.Key("wall_seconds");
  j.Number(Now() - b_.started_);
  j.Key("outcomes");
  j.BeginArray();
  for (const Outcome& o : b_.outcomes_) {
    j.BeginObject();
    j.Key("workload");
    j.String(o.workload);
    j.Key("what");
    j.String(o.what);
    j.Key("unit");
    j.String(o.unit);
    WriteMeasure(j, "levelql", o.levelql);
    WriteMeasure(j, "sqlite", o.sqlite);
    WriteMeasure(j, "raw_leveldb", o.raw);
    j.Key("runs");
    j.Int(o.runs);
    j.Key("spread");
    j.String(o.SpreadText());
    j.Key("ratio");
    j.Number(o.ratio);
    j.Key("goal");
    j.String(o.goal);
    j.Key("goal_value");
    j.Number(o.goal_value);
    j.Key("measured_over_goal");
    j.Number(o.Normalized());
    j.Key("met");
    j.String(MetText(o.met));
    j.Key("note");
    j.String(o.FullNote());
    j.Key("floor_ratio");
    j.Number(o.floor_ratio);
    j.EndObject();
  }
  j.EndArray();
  j.Key("setup");
  j.BeginArray();
  for (const SetupStep& s : b_.setup_) {
    j.BeginObject();
    j.Key("what");
    j.String(s.what);
    j.Key("levelql_s");
    j.Number(s.levelql);
    j.Key("sqlite_s");
    j.Number(s.sqlite);
    j.Key("raw_leveldb_s");
    j.Number(s.raw);
    j.EndObject();
  }
  j.EndArray();
  j.Key("checks");
  j.BeginArray();
  for (const ResultCheck& c : b_.checks_) {
    j.BeginObject();
    j.Key("workload");
    j.String(c.workload);
    j.Key("ok");
    j.Bool(c.ok);
    j.Key("detail");
    j.String(c.detail);
    j.EndObject();
  }
  j.EndArray();
  j.Key("plans");
  j.BeginArray();
  for (const PlanRecord& p : b_.plans_) {
    j.BeginObject();
    j.Key("workload");
    j.String(p.workload);
    j.Key("sql");
    j.String(p.sql);
    j.Key("levelql");
    j.String(p.levelql);
    j.Key("levelql_explain_analyze");
    j.String(p.levelql_analyze);
    j.Key("sqlite");
    j.String(p.sqlite);
    j.Key("expected");
    j.String(p.expected);
    j.Key("as_expected");
    j.Bool(p.as_expected);
    j.EndObject();
  }
  j.EndArray();
  j.Key("peak_rss_bench_process_bytes");
  j.Int(PeakRssSelf());
  j.EndObject();
  std::ofstream out(path);
  out << j.str() << "\n";
  if (!out) Die("cannot write " + path);
  std::cout << "wrote " << path << "\n";
}

void Report::WritePlot(const std::string& path) const {
  // One bar per goal: measured / goal, oriented so that below 1 is met.
  std::string data;
  int n = 0;
  for (const Outcome& o : b_.outcomes_) {
    double v = o.Normalized();
    if (std::isnan(v)) continue;
    std::string label = o.workload + " " + o.goal;
    for (char& c : label) {
      if (c == '"' || c == '\'') c = ' ';
    }
    data += std::to_string(n++) + "\t\"" + label + "\"\t" + std::to_string(v) +
            "\t" + (o.met == Outcome::Met::kYes ? "1" : "0") + "\t\"" +
            FormatRatio(o.ratio) + "\"\n";
  }
  if (n == 0) {
    std::cout << "--plot: nothing measured to plot (--check-only?)\n";
    return;
  }
  const std::string base = b_.dir_ + "/plot";
  std::ofstream(base + ".dat") << data;
  const std::string title = "levelql-bench, " + std::to_string(b_.spec_.rows) +
                            " rows: measured / goal (below 1 = goal met)";
  if (HasProgram("command -v gnuplot >/dev/null 2>&1")) {
    std::ofstream gp(base + ".gp");
    gp << "set terminal pngcairo size 1280,640 noenhanced font ',10'\n"
       << "set output '" << path << "'\n"
       << "set title '" << title << "'\n"
       << "set logscale y\nset grid ytics\nset style fill solid 0.85\n"
       << "set boxwidth 0.6\nset xtics rotate by -35 left\n"
       << "set bmargin 10\nset rmargin 12\nset key top left\nset xrange [-0.7:"
       << n - 0.3 << "]\n"
       << "plot '" << base << ".dat' using 1:3:($4 == 1 ? 0x2ca02c : "
       << "0xd62728):xtic(2) with boxes lc rgb variable notitle, \\\n"
       << "  '' using 1:3:5 with labels offset 0,0.8 notitle, \\\n"
       << "  1 with lines lw 2 dt 2 lc rgb 'black' title 'goal'\n";
    gp.close();
    if (std::system(("gnuplot " + ShellQuote(base + ".gp")).c_str()) == 0) {
      std::cout << "wrote " << path << " (gnuplot)\n";
      return;
    }
    std::cout << "--plot: gnuplot failed; trying matplotlib\n";
  }
  std::string python;
  for (const char* p : {"python3", "/usr/bin/python3"}) {
    if (HasProgram((std::string(p) + " -c 'import matplotlib' >/dev/null 2>&1")
                       .c_str())) {
      python = p;
      break;
    }
  }
  if (python.empty()) {
    std::cout << "--plot: neither gnuplot nor python3-matplotlib is "
                 "installed; install one with\n"
                 "  sudo apt-get install -y gnuplot-nox   (or "
                 "python3-matplotlib)\n";
    return;
  }
  std::ofstream py(base + ".py");
  py << "import csv, matplotlib\nmatplotlib.use('Agg')\n"
     << "import matplotlib.pyplot as plt\n"
     << "rows = list(csv.reader(open('" << base << ".dat'), delimiter='\\t'))\n"
     << "x = [int(r[0]) for r in rows]; v = [float(r[2]) for r in rows]\n"
     << "c = ['#2ca02c' if r[3] == '1' else '#d62728' for r in rows]\n"
     << "fig, ax = plt.subplots(figsize=(12.8, 6.4))\n"
     << "ax.bar(x, v, color=c, width=0.6); ax.set_yscale('log')\n"
     << "ax.axhline(1, color='black', linestyle='--', label='goal')\n"
     << "for i, r in zip(x, rows): ax.annotate(r[4], (i, v[i]), "
        "ha='center', va='bottom')\n"
     << "ax.set_xticks(x); ax.set_xticklabels([r[1] for r in rows], "
        "rotation=35, ha='right')\n"
     << "ax.set_title('" << title << "'); ax.legend()\n"
     << "fig.tight_layout(); fig.savefig('" << path << "')\n";
  py.close();
  if (std::system((python + " " + ShellQuote(base + ".py")).c_str()) == 0) {
    std::cout << "wrote " << path << " (matplotlib)\n";
  } else {
    std::cout << "--plot: matplotlib failed\n";
  }
}

}  // namespace levelql::bench
