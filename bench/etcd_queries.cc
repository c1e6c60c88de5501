// WE (issue 17): what the network costs. The same rows in levelql on a
// local 3-member etcd cluster (tools/etcd-cluster.sh, members' data on
// /dev/shm, all on this machine: loopback round trips, no disk), in SQLite
// and in levelql on LevelDB; W2's, W3's and W4's queries timed on each
// (the "raw" column is levelql on LevelDB here), and the load into etcd in
// 1,000-row statements, one writer; then single-row UPDATEs by one writer
// process, and by two at once (statements per second, and how many had to
// run again after a write conflict). min(rows, 100,000) rows (5,000 with
// --check-only): etcd holds every key in every member's memory.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/bench.h"

namespace levelql::bench {
namespace {

constexpr int64_t kEtcdRows = 100000;

struct EtcdQuery {
  const char* name;
  const char* what;
  const char* sql;
  bool ordered;
};

const EtcdQuery kEtcdQueries[] = {
    {"WE2", "W2 on etcd: userid = ? ORDER BY stamp DESC LIMIT 10 OFFSET 20",
     "SELECT name FROM actions WHERE userid = ? ORDER BY stamp DESC LIMIT 10 "
     "OFFSET 20",
     true},
    {"WE3", "W3 on etcd: category = ? AND country = ?",
     "SELECT id, name FROM actions WHERE category = ? AND country = ?", false},
    {"WE4", "W4 on etcd: category = ? OR country = ?",
     "SELECT id, name FROM actions WHERE category = ? OR country = ?", false},
};

// The data set `spec` into `engine`, in 1,000-row statements; seconds.
double LoadInto(SqlEngine& engine, const DataSpec& spec) {
  engine.Exec(kCreateTable);
  for (const char* ddl : kCreateIndexes) engine.Exec(ddl);
  const double start = Now();
  std::vector<Action> batch;
  for (int64_t id = 1; id <= spec.rows; ++id) {
    batch.push_back(MakeAction(spec, id));
    if (batch.size() == 1000 || id == spec.rows) {
      engine.InsertBatch(batch);
      batch.clear();
    }
  }
  return Now() - start;
}

// Single-row UPDATEs per writer process.
constexpr int64_t kWriterStatements = 300;

struct WriterRun {
  bool ok = false;
  int64_t done = 0;
  int64_t busy = 0;
  double seconds = NAN;
};

// Starts a writer process (this binary, --child-we-writer); its stdout is
// read from *fd.
pid_t StartWriter(const std::string& url, int64_t statements, uint64_t seed,
                  int64_t rows, int* fd) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  std::cout.flush();
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    const std::string n = std::to_string(statements);
    const std::string s = std::to_string(seed);
    const std::string r = std::to_string(rows);
    execl("/proc/self/exe", "levelql-bench", "--child-we-writer", url.c_str(),
          n.c_str(), s.c_str(), r.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  *fd = fds[0];
  return pid;
}

WriterRun FinishWriter(pid_t pid, int fd) {
  WriterRun r;
  std::string output;
  char buf[256];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) output.append(buf, n);
  close(fd);
  int status = 0;
  long long done = 0, busy = 0;
  r.ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0 &&
         std::sscanf(output.c_str(), "%lld %lld %lf", &done, &busy,
                     &r.seconds) == 3;
  r.done = done;
  r.busy = busy;
  return r;
}

// `writers` processes at once; statements per second over the wall time,
// and the statements that gave up (Busy) after their retries.
WriterRun RunWriters(const std::string& url, int writers, int64_t rows) {
  const double start = Now();
  std::vector<std::pair<pid_t, int>> running;
  for (int w = 0; w < writers; ++w) {
    int fd = -1;
    pid_t pid = StartWriter(url, kWriterStatements, 1000 + w, rows, &fd);
    running.push_back({pid, fd});
  }
  WriterRun total;
  total.ok = true;
  for (auto [pid, fd] : running) {
    WriterRun r = FinishWriter(pid, fd);
    total.ok = total.ok && r.ok;
    total.done += r.done;
    total.busy += r.busy;
  }
  total.seconds = Now() - start;
  return total;
}

}  // namespace

int RunWEWriterChild(const std::string& url, int64_t statements, uint64_t seed,
                     int64_t rows) {
  auto db = Database::Open(url);
  if (!db.ok()) {
    std::cerr << db.status().ToString() << "\n";
    return 1;
  }
  auto update =
      (*db)->Prepare("UPDATE actions SET name = ?, stamp = ? WHERE id = ?");
  if (!update.ok()) return 1;
  Rng rng(seed);
  int64_t done = 0, busy = 0;
  const double start = Now();
  for (int64_t i = 0; i < statements; ++i) {
    const int64_t id = 1 + rng.Uniform(rows);
    auto r = (*update)->Execute(
        {Value::Text("w" + std::to_string(seed) + "-" + std::to_string(i)),
         Value::Int(static_cast<int64_t>(i)), Value::Int(id)});
    if (r.ok()) {
      ++done;
    } else if (r.status().code() == Status::Code::kBusy) {
      ++busy;
    } else {
      std::cerr << r.status().ToString() << "\n";
      return 1;
    }
  }
  std::cout << done << " " << busy << " " << (Now() - start) << "\n";
  return 0;
}

void Bench::RunWE() {
#ifndef LEVELQL_WITH_ETCD
  AddNotImplemented("WE", "W2-W4 on etcd", "report",
                    "levelql was built without the etcd backend");
#else
  // On /dev/shm (no fsync cost) when it has room for the data: 2 GiB free.
  std::error_code ec;
  const auto shm = std::filesystem::space("/dev/shm", ec);
  const std::string cluster =
      (!ec && shm.available >= (uintmax_t{2} << 30) ? std::string("/dev/shm")
                                                    : dir_) +
      "/levelql-bench-etcd-" + std::to_string(getpid());
  const std::string script = LEVELQL_ETCD_CLUSTER_SCRIPT;
  const std::string start = script + " start " + cluster + " 3";
  if (std::system(start.c_str()) != 0) {
    AddNotImplemented("WE", "W2-W4 on etcd", "report",
                      "could not start an etcd cluster (is etcd installed? "
                      "tools/install-deps.sh)");
    return;
  }
  std::string endpoints;
  std::getline(std::ifstream(cluster + "/endpoints"), endpoints);
  const DataSpec spec = DataSpec::Make(
      std::min<int64_t>(spec_.rows, options_.check_only ? 5000 : kEtcdRows));
  LevelqlEngine etcd("etcd://" + endpoints + "/bench");
  LevelqlEngine local(dir_ + "/we-leveldb");
  SqliteEngine sqlite(dir_ + "/we.sqlite");
  std::filesystem::remove_all(local.path());
  std::filesystem::remove(dir_ + "/we.sqlite");
  etcd.Open(options_.cache_bytes);
  local.Open(options_.cache_bytes);
  sqlite.Open(options_.cache_bytes);
  const double load = LoadInto(etcd, spec);
  LoadInto(local, spec);
  LoadInto(sqlite, spec);
  std::cout << "WE: loaded " << spec.rows << " rows into etcd in "
            << FormatSeconds(load) << " (" << FormatCount(spec.rows / load)
            << " rows/s, " << FormatCount(spec.rows / 1000.0 / load)
            << " statements/s of 1,000 rows)\n";
  {
    Outcome o;
    o.workload = "WEw";
    o.what = "load into etcd, 1,000-row statements, one writer (rows/s)";
    o.unit = "rows/s";
    o.levelql.median = o.levelql.min = o.levelql.max = spec.rows / load;
    o.levelql.text = FormatCount(spec.rows / load);
    o.runs = 1;
    o.goal = "report";
    o.note = std::to_string(spec.rows) +
             " rows with 4 indexes: one etcd transaction of 5,001 keys per "
             "statement";
    AddOutcome(std::move(o), true);
  }
  Rng rng(spec.seed ^ Fnv64("WE"));
  for (const EtcdQuery& q : kEtcdQueries) {
    std::vector<ParamList> params;
    for (int i = 0; i < (options_.check_only ? 10 : 50); ++i) {
      if (q.ordered) {
        params.push_back({static_cast<int64_t>(1 + rng.Uniform(spec.users))});
      } else {
        params.push_back(
            {CategoryName(static_cast<int>(rng.Uniform(spec.categories))),
             CountryName(static_cast<int>(rng.Uniform(spec.countries)))});
      }
    }
    auto on_etcd = etcd.Prepare(q.sql);
    auto on_sqlite = sqlite.Prepare(q.sql);
    auto on_leveldb = local.Prepare(q.sql);
    CheckResults(q.name, *on_etcd, *on_sqlite, params, q.ordered);
    bool ok = LastCheckOk();
    CheckResults(q.name, *on_leveldb, *on_sqlite, params, q.ordered);
    ok = ok && LastCheckOk();
    auto t = TimePerQuery(params.size(),
                          {RunAll(*on_etcd, params), RunAll(*on_sqlite, params),
                           RunAll(*on_leveldb, params)});
    Outcome o;
    o.workload = q.name;
    o.what = q.what;
    o.unit = "s/query";
    o.levelql = t[0];
    o.sqlite = t[1];
    o.raw = t[2];
    o.runs = options_.runs;
    o.ratio = t[0].median / t[1].median;
    o.goal = "report";
    o.note = std::to_string(spec.rows) +
             " rows; raw column: levelql on LevelDB with the same rows "
             "(etcd / LevelDB = " +
             FormatRatio(t[0].median / t[2].median) + ")";
    AddOutcome(std::move(o), ok);
  }
  // Writer processes updating random rows (their indexed columns too),
  // after the queries: the rows no longer match the other engines'.
  const std::string url = "etcd://" + endpoints + "/bench";
  for (int writers : {1, 2}) {
    WriterRun w = RunWriters(url, writers, spec.rows);
    Outcome o;
    o.workload = writers == 1 ? "WEw1" : "WEw2";
    o.what = std::string("single-row UPDATEs on etcd, ") +
             (writers == 1 ? "one writer process" : "two writer processes") +
             " (statements/s)";
    o.unit = "statements/s";
    o.higher_is_better = true;
    o.levelql.median = o.levelql.min = o.levelql.max = w.done / w.seconds;
    o.levelql.text = FormatCount(w.done / w.seconds);
    o.runs = 1;
    o.goal = "report";
    o.note = std::to_string(kWriterStatements) +
             " statements per process (UPDATE actions SET name = ?, stamp = "
             "? WHERE id = ?, random ids of " +
             std::to_string(spec.rows) + " rows); " + std::to_string(w.busy) +
             " gave up with Busy";
    std::cout << "WE: " << writers << " writer process(es): " << w.done
              << " statements in " << FormatSeconds(w.seconds) << ", " << w.busy
              << " Busy\n";
    AddOutcome(std::move(o), w.ok);
  }
  etcd.Close();
  const std::string stop = script + " stop " + cluster;
  if (std::system(stop.c_str()) != 0) {
    std::cerr << "WE: could not stop the etcd cluster in " << cluster << "\n";
  }
  std::filesystem::remove_all(cluster);
#endif
}

}  // namespace levelql::bench
