// Setting the stores up: the data directory, W1 (every store loaded on its
// own and timed through its close and LevelDB's compactions), the stamp
// index W6/W7 read, and the index switches of W2b/W5b/W6r.
//
// LevelDB does part of a load's work later, in background compactions (and
// a close leaves the memtable in the write-ahead log). That work is charged
// to the store that caused it: a load is timed until DrainCompactions finds
// nothing left to compact, and after building an index the LevelDB stores
// are settled (closed, drained, reopened) before anything else is timed.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/bench.h"

namespace levelql::bench {

namespace fs = std::filesystem;

namespace {

constexpr int64_t kBatchRows = 1000;

// Writes the dirty pages of the file system holding `dir` to disk, so that
// the kernel's write-back of one store's files does not run during the
// next store's timed load. Not timed.
void SyncFileSystem(const std::string& dir) {
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  syncfs(fd);
  close(fd);
}

void RemoveStores(const std::string& dir) {
  for (const char* name :
       {"levelql", "sqlite.db", "sqlite.db-wal", "sqlite.db-shm", "raw"}) {
    fs::remove_all(dir + "/" + name);
  }
}

}  // namespace

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
  std::cout << "data: " << dir_ << (reuse ? " (reused)" : "") << "\n"
            << "caches: "
            << FormatMiB(static_cast<double>(options_.cache_bytes))
            << " per store (levelql and raw LevelDB block cache, SQLite "
               "cache_size)\n";
  lq_ = std::make_unique<LevelqlEngine>(dir_ + "/levelql");
  sq_ = std::make_unique<SqliteEngine>(dir_ + "/sqlite.db");
  raw_ = std::make_unique<RawStore>(dir_ + "/raw");
  if (reuse) {
    lq_->Open(options_.cache_bytes);
    sq_->Open(options_.cache_bytes);
    raw_->Open(options_.cache_bytes);
    if (Wanted("W1")) {
      Outcome o;
      o.workload = "W1";
      o.what = "ingest (skipped: --reuse)";
      outcomes_.push_back(o);
    }
    // An earlier run may have stopped before settling.
    SettleLevelql();
    SettleRaw();
    return;
  }
  fs::remove(meta_path);
  Load();
  std::ofstream(meta_path) << meta;
}

void Bench::Load() {
  const bool timed = Wanted("W1") && !options_.check_only;
  const int rounds = timed ? options_.LoadRuns() : 1;
  // Every row up front (~130 bytes each), so the timed loads do nothing
  // but insert.
  std::vector<Action> rows;
  rows.reserve(static_cast<size_t>(spec_.rows));
  for (int64_t id = 1; id <= spec_.rows; ++id) {
    rows.push_back(MakeAction(spec_, id));
  }
  const std::span<const Action> all(rows);
  std::cout << "W1: loading " << spec_.rows << " rows in batches of "
            << kBatchRows << " (4 indexes) into each store on its own, "
            << rounds << (rounds == 1 ? " time" : " times") << "\n"
            << std::flush;

  // Loads the batches with `insert`; returns {seconds through the last
  // batch, seconds through `finish` (close, drain)}.
  auto timed_load =
      [&](const std::function<void(std::span<const Action>)>& insert,
          const std::function<void()>& finish) {
        SyncFileSystem(dir_);
        double t0 = Now();
        for (size_t first = 0; first < all.size(); first += kBatchRows) {
          insert(all.subspan(first,
                             std::min<size_t>(kBatchRows, all.size() - first)));
        }
        double t1 = Now();
        finish();
        double t2 = Now();
        return std::pair<double, double>{t1 - t0, t2 - t0};
      };

  std::vector<double> lq_s, sq_s, raw_s;           // first batch through drain
  std::vector<double> lq_tail, sq_tail, raw_tail;  // close (and drain) alone
  for (int round = 1; round <= rounds; ++round) {
    RemoveStores(dir_);

    sq_->Open(options_.cache_bytes);
    sq_->Exec(kCreateTable);
    for (const char* ddl : kCreateIndexes) sq_->Exec(ddl);
    auto [sq_insert, sq_total] = timed_load(
        [&](auto batch) { sq_->InsertBatch(batch); }, [&] { sq_->Close(); });

    lq_->Open(options_.cache_bytes);
    lq_->Exec(kCreateTable);
    for (const char* ddl : kCreateIndexes) lq_->Exec(ddl);
    auto [lq_insert, lq_total] =
        timed_load([&](auto batch) { lq_->InsertBatch(batch); },
                   [&] {
                     lq_->Close();
                     DrainCompactions(lq_->path(), options_.cache_bytes);
                   });

    raw_->Open(options_.cache_bytes);
    auto [raw_insert, raw_total] =
        timed_load([&](auto batch) { raw_->InsertBatch(batch); },
                   [&] {
                     raw_->Close();
                     DrainCompactions(raw_->path(), options_.cache_bytes);
                   });

    sq_s.push_back(sq_total);
    lq_s.push_back(lq_total);
    raw_s.push_back(raw_total);
    sq_tail.push_back(sq_total - sq_insert);
    lq_tail.push_back(lq_total - lq_insert);
    raw_tail.push_back(raw_total - raw_insert);
    std::cout << "  load " << round << "/" << rounds << ": SQLite "
              << FormatSeconds(sq_total) << " (close "
              << FormatSeconds(sq_total - sq_insert) << "), levelql "
              << FormatSeconds(lq_total) << " (close+drain "
              << FormatSeconds(lq_total - lq_insert) << "), raw LevelDB "
              << FormatSeconds(raw_total) << " (close+drain "
              << FormatSeconds(raw_total - raw_insert) << ")\n"
              << std::flush;
  }
  rows.clear();
  rows.shrink_to_fit();
  lq_->Open(options_.cache_bytes);
  sq_->Open(options_.cache_bytes);
  raw_->Open(options_.cache_bytes);

  if (Wanted("W1")) {
    const double n = static_cast<double>(spec_.rows);
    Outcome o;
    o.workload = "W1";
    o.what = "ingest, batches of 1,000 rows, 4 indexes, through close";
    o.unit = "rows/s";
    o.levelql = RateOf(Summarize(lq_s), n, "rows/s");
    o.sqlite = RateOf(Summarize(sq_s), n, "rows/s");
    o.raw = RateOf(Summarize(raw_s), n, "rows/s");
    o.runs = rounds;
    o.ratio = o.levelql.median / o.sqlite.median;
    o.goal = ">= 1.5x SQLite";
    o.goal_value = 1.5;
    o.higher_is_better = true;
    o.note = "each store loaded on its own, " + std::to_string(rounds) +
             (rounds == 1 ? " load" : " loads") +
             " each; timed from the first batch through close (SQLite: WAL "
             "checkpoint) and, for LevelDB, reopening until no compaction is "
             "due. Of which close/drain (median): levelql " +
             FormatSeconds(Median(lq_tail)) + ", SQLite " +
             FormatSeconds(Median(sq_tail)) + ", raw " +
             FormatSeconds(Median(raw_tail)) +
             ". raw = the same row and index keys in LevelDB WriteBatches";
    Outcome& added = AddOutcome(std::move(o), true);
    if (options_.check_only) added.met = Outcome::Met::kNotApplicable;
  }

  // The index W6 and W7 need, built after loading in every store.
  // DESC: newest first, as W6 reads it (a forward scan in LevelDB, whose
  // reverse iteration is slower; SQLite reads B-trees both ways alike).
  SetupStep step{
      Concat(kPlainStamp.levelql_ddl, " (LevelDB stores: through the drain)")};
  double t0 = Now();
  lq_->Exec(kPlainStamp.levelql_ddl);
  step.levelql = Now() - t0 + SettleLevelql();
  t0 = Now();
  sq_->Exec(kPlainStamp.levelql_ddl);
  step.sqlite = Now() - t0;
  t0 = Now();
  raw_->BuildStampIndex();
  step.raw = Now() - t0 + SettleRaw();
  setup_.push_back(step);
  // Statistics for both planners; the ANALYZE workload times it again.
  SetupStep analyze{"ANALYZE (first run)"};
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

double Bench::SettleLevelql() {
  double t0 = Now();
  lq_->Close();
  DrainCompactions(lq_->path(), options_.cache_bytes);
  lq_->Open(options_.cache_bytes);
  return Now() - t0;
}

double Bench::SettleRaw() {
  double t0 = Now();
  raw_->Close();
  DrainCompactions(raw_->path(), options_.cache_bytes);
  raw_->Open(options_.cache_bytes);
  return Now() - t0;
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
  if (!found.rows.empty() && LevelqlHasIndex(name)) return;  // in place
  SetupStep step{"DROP INDEX " + drop + "; CREATE INDEX " + name +
                 "; ANALYZE (levelql: through the drain)"};
  double t0 = Now();
  lq_->Exec("DROP INDEX IF EXISTS " + drop);
  lq_->Exec("DROP INDEX IF EXISTS " + name);
  lq_->Exec(levelql_ddl);
  AnalyzeLevelql();
  step.levelql = Now() - t0 + SettleLevelql();
  t0 = Now();
  sq_->Exec("DROP INDEX IF EXISTS " + drop);
  sq_->Exec("DROP INDEX IF EXISTS " + name);
  sq_->Exec(sqlite_ddl);
  sq_->Exec("ANALYZE " + name);
  step.sqlite = Now() - t0;
  setup_.push_back(step);
}

bool Bench::LevelqlHasTable(const std::string& name) {
  for (const SchemaEntry& e : lq_->db()->Schema()) {
    if (e.kind == "table" && e.name == name) return true;
  }
  return false;
}

bool Bench::LevelqlHasIndex(const std::string& name) {
  for (const SchemaEntry& e : lq_->db()->Schema()) {
    if (e.kind == "index" && e.name == name) return true;
  }
  return false;
}

std::string Bench::UseStampIndex(const StampIndex& index) {
  if (LevelqlHasIndex(index.name)) return "";
  SetupStep step{std::string(index.levelql_ddl) +
                 "; DROP the other; ANALYZE (levelql only, through the "
                 "drain)"};
  double t0 = Now();
  // Created before the other is dropped: a refusal leaves things as they
  // were.
  Status s = lq_->TryExec(index.levelql_ddl);
  if (s.code() == Status::Code::kSyntaxError ||
      s.code() == Status::Code::kNotSupported) {
    return "levelql refuses `" + std::string(index.levelql_ddl) +
           "`: " + s.ToString();
  }
  if (!s.ok())
    Die("levelql: " + std::string(index.levelql_ddl) + ": " + s.ToString());
  const StampIndex& other = index.ranked ? kPlainStamp : kRankedStamp;
  lq_->Exec(Concat("DROP INDEX IF EXISTS ", other.name));
  AnalyzeLevelql();
  step.levelql = Now() - t0 + SettleLevelql();
  setup_.push_back(step);
  return "";
}

}  // namespace levelql::bench
