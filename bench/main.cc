// levelql-bench: levelql side by side with SQLite and raw LevelDB (issue 7).
//
//   levelql-bench [--rows N] [--workloads W1,W3] [--json FILE]
//                 [--plot FILE.png] [--dir PATH [--reuse]] [--check-only]
//                 [--runs N] [--load-runs N] [--cache-mb N]
//
// Exit status: 0 when every workload returned the same rows on every store,
// 1 when some did not (or on an error), 2 for usage errors. Goals missed are
// reported in the table, not in the exit status.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "bench/bench.h"

namespace levelql::bench {
namespace {

constexpr const char* kUsage =
    "usage: levelql-bench [flags]\n"
    "  --rows N            rows of actions (default 1000000; 200k and 1M "
    "work too)\n"
    "  --workloads LIST    e.g. W1,W3 (default all: W1..W11, WE (W2-W4 on\n"
    "                      a local etcd cluster) and ANALYZE; W2\n"
    "                      includes W2b W2s, W4 W4c, W5 W5b, W6 W6t W6r,\n"
    "                      W7 W7r, W8 W8s).\n"
    "                      The data is always loaded (once without W1).\n"
    "  --json FILE         write every figure, plan and check as JSON\n"
    "  --plot FILE.png     bar chart of measured/goal (needs gnuplot or\n"
    "                      python3-matplotlib at run time)\n"
    "  --dir PATH          keep the data files in PATH (default: a temporary\n"
    "                      directory, removed afterwards)\n"
    "  --reuse             with --dir: reuse a data set loaded by an earlier\n"
    "                      run with the same --rows (skips W1)\n"
    "  --keep              keep the temporary directory\n"
    "  --runs N            timed runs per workload, median and min-max "
    "reported\n"
    "                      (default 5)\n"
    "  --load-runs N       W1 loads of each store (default: --runs below "
    "500k\n"
    "                      rows, else at most 3)\n"
    "  --cache-mb N        block cache of levelql and raw LevelDB and "
    "SQLite's\n"
    "                      cache_size, in MiB (default 8: levelql's "
    "default)\n"
    "  --check-only        only check that every workload returns the same\n"
    "                      rows on every store; time nothing\n";

int Usage(const std::string& message) {
  std::cerr << "levelql-bench: " << message << "\n" << kUsage;
  return 2;
}

bool ParseCount(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  int64_t mult = 1;
  char last = s.back();
  if (last == 'k' || last == 'K') mult = 1000;
  if (last == 'm' || last == 'M') mult = 1000000;
  if (mult > 1) s.remove_suffix(1);
  int64_t v = 0;
  for (char c : s) {
    if (c == ',' || c == '_') continue;
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
    if (v > (int64_t{1} << 40)) return false;
  }
  *out = v * mult;
  return true;
}

int Main(int argc, char** argv) {
  if (argc == 6 && std::string_view(argv[1]) == "--child-w8") {
    return RunW8Child(argv[2], argv[3], argv[4], std::stoull(argv[5]));
  }
  if (argc == 6 && std::string_view(argv[1]) == "--child-we-writer") {
    return RunWEWriterChild(argv[2], std::stoll(argv[3]), std::stoull(argv[4]),
                            std::stoll(argv[5]));
  }
  BenchOptions o;
  o.command_line = "levelql-bench";
  for (int i = 1; i < argc; ++i) o.command_line += std::string(" ") + argv[i];
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    auto need = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--rows") {
      if (!need() || !ParseCount(value, &o.rows) || o.rows < 1000) {
        return Usage("--rows takes a count of at least 1000");
      }
    } else if (arg == "--runs") {
      int64_t runs = 0;
      if (!need() || !ParseCount(value, &runs) || runs < 1) {
        return Usage("--runs takes a positive count");
      }
      o.runs = static_cast<int>(runs);
    } else if (arg == "--load-runs") {
      int64_t runs = 0;
      if (!need() || !ParseCount(value, &runs) || runs < 1) {
        return Usage("--load-runs takes a positive count");
      }
      o.load_runs = static_cast<int>(runs);
    } else if (arg == "--workloads") {
      if (!need()) return Usage("--workloads takes a list like W1,W3");
      size_t start = 0;
      while (start <= value.size()) {
        size_t end = value.find(',', start);
        if (end == std::string::npos) end = value.size();
        std::string w = value.substr(start, end - start);
        for (char& c : w) c = static_cast<char>(std::toupper(c));
        const auto& groups = WorkloadGroups();
        if (std::find(groups.begin(), groups.end(), w) == groups.end()) {
          return Usage("unknown workload '" + w + "' (W1..W11, WE, ANALYZE)");
        }
        o.workloads.insert(w);
        start = end + 1;
      }
    } else if (arg == "--cache-mb") {
      int64_t mb = 0;
      if (!need() || !ParseCount(value, &mb) || mb < 1) {
        return Usage("--cache-mb takes a positive number of MiB");
      }
      o.cache_bytes = static_cast<size_t>(mb) << 20;
    } else if (arg == "--json") {
      if (!need()) return Usage("--json takes a file name");
      o.json_path = value;
    } else if (arg == "--plot") {
      if (!need()) return Usage("--plot takes a file name");
      o.plot_path = value;
    } else if (arg == "--dir") {
      if (!need()) return Usage("--dir takes a directory");
      o.dir = value;
    } else if (arg == "--reuse" && !has_value) {
      o.reuse = true;
    } else if (arg == "--keep" && !has_value) {
      o.keep = true;
    } else if (arg == "--check-only" && !has_value) {
      o.check_only = true;
      o.runs = 0;
    } else {
      return Usage(std::string("unknown flag ") + argv[i]);
    }
  }
  if (o.reuse && o.dir.empty()) return Usage("--reuse needs --dir");
  o.load_at_start = LoadAverage();
  Bench bench(o);
  return bench.Run();
}

}  // namespace
}  // namespace levelql::bench

int main(int argc, char** argv) { return levelql::bench::Main(argc, argv); }
