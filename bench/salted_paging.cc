// W2s: newest-first paging on a salted table (issue 16: "<= 2x the
// unsalted latency", and the write spread across buckets "max/mean <=
// 1.1"). Time-ordered events load into two fresh levelql databases keyed
// (stamp, id), one plain and one WITH (salt_buckets = 16), in 1,000-row
// batches; then `SELECT * FROM events ORDER BY stamp DESC, id DESC LIMIT
// 10` is timed on each (the raw column holds the plain table's times).
// The spread is counted from the salted database's keys with LevelDB
// itself, after closing it: rows per bucket byte under the table's id.
// Then the floor: raw LevelDB on both closed databases, doing only the key
// positionings the query needs (RawPositionings): no merge of 16 buckets
// can cost less than positioning each.
#include <leveldb/db.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <vector>

#include "bench/bench.h"
#include "bench/leveldb_setup.h"

namespace levelql::bench {
namespace {

constexpr int kBuckets = 16;

// Rows per bucket of the table with id 1 (the first one created) in the
// closed database at `path`; empty when it cannot be read. (Opened as
// levelql opens it: a compaction it runs writes the tables levelql would.)
std::vector<int64_t> RowsPerBucket(const std::string& path,
                                   size_t cache_bytes) {
  std::vector<int64_t> counts(kBuckets);
  LevelDbSetup setup(cache_bytes);
  leveldb::DB* raw = nullptr;
  if (!leveldb::DB::Open(setup.options, path, &raw).ok()) return {};
  std::unique_ptr<leveldb::DB> db(raw);
  const std::string prefix("\x15\x01", 2);  // INTEGER 1: table id 1
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(Reading()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
       it->Next()) {
    if (it->key().size() <= prefix.size()) return {};
    const int bucket = static_cast<unsigned char>(it->key()[prefix.size()]);
    if (bucket >= kBuckets) return {};
    ++counts[bucket];
  }
  return counts;
}

// The least LevelDB work the query needs, on the closed database at
// `path` (opened as levelql opens it: leveldb_setup.h): an iterator per
// bucket (`buckets` 0: the plain table, one), made once and kept as
// levelql's iterator pool keeps them (so each stays among its bucket's
// blocks), each put on the last key of its bucket, as a merge of the
// buckets' newest keys must; then the plain table's 9 further steps of its
// top 10. What positioning costs, outside levelql. `setup` must outlive
// the function returned.
std::function<void()> RawPositionings(const std::string& path, int buckets,
                                      size_t queries, LevelDbSetup* setup,
                                      std::unique_ptr<leveldb::DB>* keep) {
  leveldb::DB* raw = nullptr;
  if (!leveldb::DB::Open(setup->options, path, &raw).ok()) return nullptr;
  keep->reset(raw);
  const std::string table("\x15\x01", 2);  // INTEGER 1: table id 1
  const int n = std::max(buckets, 1);
  auto kept =
      std::make_shared<std::vector<std::unique_ptr<leveldb::Iterator>>>();
  for (int b = 0; b < n; ++b) kept->emplace_back(raw->NewIterator(Reading()));
  return [kept, table, buckets, n, queries] {
    for (size_t q = 0; q < queries; ++q) {
      for (int b = 0; b < n; ++b) {
        leveldb::Iterator* it = (*kept)[b].get();
        std::string end = table;
        if (buckets > 0) end.push_back(static_cast<char>(b));
        end.back() = static_cast<char>(end.back() + 1);  // past the range
        it->Seek(end);
        if (it->Valid()) {
          it->Prev();
        } else {
          it->SeekToLast();
        }
        for (int k = 0; buckets == 0 && k < 9 && it->Valid(); ++k) it->Prev();
      }
    }
  };
}

}  // namespace

void Bench::RunW2s() {
  const int64_t rows = std::min<int64_t>(spec_.rows, 200000);
  const std::string sql =
      "SELECT * FROM events ORDER BY stamp DESC, id DESC LIMIT 10";
  auto load = [&](bool salted) {
    const std::string path = dir_ + (salted ? "/w2s-salted" : "/w2s-plain");
    std::filesystem::remove_all(path);
    auto engine = std::make_unique<LevelqlEngine>(path);
    engine->Open(options_.cache_bytes);
    engine->Exec(std::string("CREATE TABLE events (stamp INTEGER, id INTEGER, "
                             "payload TEXT, PRIMARY KEY (stamp, id))") +
                 (salted ? " WITH (salt_buckets = 16)" : ""));
    for (int64_t at = 0; at < rows; at += 1000) {
      std::string insert = "INSERT INTO events VALUES ";
      for (int64_t i = at; i < std::min<int64_t>(rows, at + 1000); ++i) {
        if (i > at) insert += ", ";
        // Two events per second, in time order.
        insert += "(" + std::to_string(1'600'000'000 + i / 2) + ", " +
                  std::to_string(i) + ", 'event " + std::to_string(i) + "')";
      }
      engine->Exec(insert);
    }
    return engine;
  };
  auto plain = load(false);
  auto salted = load(true);
  auto lq_plain = plain->Prepare(sql);
  auto lq_salted = salted->Prepare(sql);
  const std::vector<ParamList> params(200);
  // The same ten rows from both, and a plan that merges buckets, unsorted.
  RowCollector a, b;
  uint64_t sink = 0;
  lq_plain->Run({}, &a, &sink);
  lq_salted->Run({}, &b, &sink);
  const std::string plan = salted->Explain(sql, {}, false);
  const bool same = a.rows == b.rows && a.rows.size() == 10 &&
                    plan.find("MergeBuckets 16") != std::string::npos &&
                    plan.find("Sort") == std::string::npos;
  std::cout << "W2s plan:\n" << plan;
  auto t = TimePerQuery(
      params.size(), {RunAll(*lq_salted, params), RunAll(*lq_plain, params)});
  lq_plain.reset();
  lq_salted.reset();
  plain->Close();
  salted->Close();
  std::vector<int64_t> counts =
      RowsPerBucket(dir_ + "/w2s-salted", options_.cache_bytes);
  Measure floor_salted, floor_plain;
  if (!options_.check_only) {
    // Each database before its setup (declared first, ended last).
    LevelDbSetup salted_setup(options_.cache_bytes);
    LevelDbSetup plain_setup(options_.cache_bytes);
    std::unique_ptr<leveldb::DB> a, b;
    auto salted_floor = RawPositionings(dir_ + "/w2s-salted", kBuckets,
                                        params.size(), &salted_setup, &a);
    auto plain_floor = RawPositionings(dir_ + "/w2s-plain", 0, params.size(),
                                       &plain_setup, &b);
    if (salted_floor && plain_floor) {
      auto f = TimePerQuery(params.size(), {salted_floor, plain_floor});
      floor_salted = f[0];
      floor_plain = f[1];
    }
  }
  std::filesystem::remove_all(dir_ + "/w2s-plain");
  std::filesystem::remove_all(dir_ + "/w2s-salted");

  Outcome o;
  o.workload = "W2s";
  o.what = "newest 10 of " + FormatCount(static_cast<double>(rows)) +
           " time-ordered rows, salted 16 buckets vs unsalted";
  o.unit = "s/query";
  o.levelql = t[0];
  o.raw = t[1];
  if (!options_.check_only) o.ratio = t[0].median / t[1].median;
  o.runs = options_.check_only ? 0 : options_.runs;
  o.goal = "<= 2x the unsalted table's latency";
  o.goal_value = 2.0;
  o.note =
      "levelql column: the salted table; raw column: the same query on "
      "the unsalted table";
  if (!counts.empty()) {
    const int64_t max = *std::max_element(counts.begin(), counts.end());
    const double mean = static_cast<double>(rows) / kBuckets;
    char spread[160];
    std::snprintf(
        spread, sizeof(spread),
        "; rows per bucket: min %lld, max %lld, max/mean %.3f "
        "(goal <= 1.1)",
        static_cast<long long>(*std::min_element(counts.begin(), counts.end())),
        static_cast<long long>(max), max / mean);
    o.note += spread;
    std::cout << "W2s spread: rows per bucket max/mean " << max / mean << "\n";
    if (max / mean > 1.1) o.note += " - SPREAD GOAL MISSED";
  } else {
    o.note += "; rows per bucket: could not be counted";
  }
  if (floor_salted.measured() && floor_plain.measured()) {
    char floor[240];
    std::snprintf(floor, sizeof(floor),
                  "; raw LevelDB on the closed databases: positioning the "
                  "16 buckets alone %.1f us, %.1fx the plain table's whole "
                  "query (%.1f us)",
                  floor_salted.median * 1e6,
                  floor_salted.median / floor_plain.median,
                  floor_plain.median * 1e6);
    o.note += floor;
    std::cout << "W2s floor:" << floor + 1 << "\n";
  }
  std::cout << "W2s results: " << (same ? "same" : "DIFFERENT")
            << " - the newest 10 rows, salted and unsalted\n";
  Outcome& added = AddOutcome(std::move(o), same);
  SetFloor(added, floor_salted, t[1],
           "a kept iterator per bucket put on its newest key, against the "
           "plain table's whole query in levelql");
}

}  // namespace levelql::bench
