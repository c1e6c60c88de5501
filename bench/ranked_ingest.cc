// W1r: the ingest cost of a ranked index (issue 13: "<= 1.3x the ingest
// time of a plain index"). The same rows load into two fresh levelql
// databases, one with `(stamp DESC)` as a plain index and one with it
// WITH (ranked), in 1,000-row batches, each load timed through closing the
// database (LevelDB's flush charged). Only levelql is measured: the raw
// column holds the plain index's loads.
#include <filesystem>

#include "bench/bench.h"

namespace levelql::bench {

void Bench::RunW1r() {
  const int64_t rows = std::min<int64_t>(spec_.rows, 200000);
  std::vector<Action> actions;
  actions.reserve(static_cast<size_t>(rows));
  for (int64_t id = 1; id <= rows; ++id) {
    actions.push_back(MakeAction(spec_, id));
  }
  auto load = [&](bool ranked) {
    const std::string path = dir_ + (ranked ? "/w1r-ranked" : "/w1r-plain");
    std::filesystem::remove_all(path);
    LevelqlEngine engine(path);
    engine.Open(options_.cache_bytes);
    engine.Exec(kCreateTable);
    engine.Exec(std::string("CREATE INDEX by_stamp ON actions (stamp DESC)") +
                (ranked ? " WITH (ranked)" : ""));
    const double start = Now();
    for (size_t at = 0; at < actions.size(); at += 1000) {
      const size_t n = std::min<size_t>(1000, actions.size() - at);
      engine.InsertBatch(std::span<const Action>(actions.data() + at, n));
    }
    engine.Close();
    const double seconds = Now() - start;
    std::filesystem::remove_all(path);
    return seconds;
  };
  std::vector<double> plain, ranked;
  const int runs = std::max(1, std::min(options_.runs, 3));
  for (int r = 0; r < runs && !options_.check_only; ++r) {
    plain.push_back(load(false));  // alternating, so drift hits both
    ranked.push_back(load(true));
  }
  Outcome o;
  o.workload = "W1r";
  o.what = "ingest with one ranked index vs the same index plain (" +
           FormatCount(static_cast<double>(rows)) + " rows)";
  o.unit = "s";
  if (!plain.empty()) {
    o.levelql = Summarize(ranked);
    o.raw = Summarize(plain);
    o.ratio = o.levelql.median / o.raw.median;
  }
  o.runs = static_cast<int>(plain.size());
  o.goal = "<= 1.3x the plain index's time";
  o.goal_value = 1.3;
  o.note =
      "levelql column: loads with the ranked index; raw column: the same "
      "loads with the index plain";
  AddOutcome(std::move(o), true);
}

}  // namespace levelql::bench
