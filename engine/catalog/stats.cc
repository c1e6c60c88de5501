#include "engine/catalog/stats.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <system_error>
#include <thread>

#include "engine/catalog/catalog.h"
#include "engine/catalog/key_prefixes.h"
#include "engine/catalog/stats_sample.h"
#include "indexes/key_codec.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

// Counts entries and distinct prefixes of the first `columns` components
// of the keys under `prefix`, one KeyPrefixes step per entry.
Status CountKeys(KvStore* store, const KvSnapshot* snapshot,
                 const std::string& prefix,
                 const std::vector<KeyColumn>& columns, IndexStats* out) {
  out->entries = 0;
  out->distinct.assign(columns.size(), 0);
  out->samples.clear();
  out->common.clear();
  out->sample_step = 1;
  KeyPrefixes walk(prefix.size(), &columns);
  int64_t run = 0;           // entries sharing the current first component
  int64_t until_sample = 0;  // entries before the next sample
  // The run of the previous first component ended: it joins the most
  // common values when it outnumbers the least of a full list. On a tie
  // the earlier value stays, so a unique key's list is its first values.
  auto end_run = [&]() {
    if (run == 0) return;
    if (out->common.size() == kCommonValues &&
        run <= out->common.back().second) {
      return;
    }
    auto at = std::upper_bound(
        out->common.begin(), out->common.end(), run,
        [](int64_t n, const auto& value) { return n > value.second; });
    out->common.emplace(at, walk.KeptFirst(), run);
    if (out->common.size() > kCommonValues) out->common.pop_back();
  };
  auto it = store->NewIterator(snapshot);
  for (SeekPrefix(it.get(), prefix);
       it->Valid() && it->key().substr(0, prefix.size()) == prefix;
       it->Next()) {
    const std::string_view key = it->key();
    size_t shared = 0;
    LQ_RETURN_IF_ERROR(walk.Read(key, &shared));
    for (size_t i = shared; i < columns.size(); ++i) ++out->distinct[i];
    if (!columns.empty()) {
      if (shared == 0) {
        end_run();
        run = 0;
      }
      ++run;
      // Every sample_step-th first component; past kHistogramSamples of
      // them, every other one is dropped and the step doubles.
      if (until_sample == 0) {
        out->samples.emplace_back(walk.First(key));
        if (out->samples.size() > kHistogramSamples) {
          // (From 1: moving the first sample onto itself emptied it.)
          for (size_t i = 1; 2 * i < out->samples.size(); ++i) {
            out->samples[i] = std::move(out->samples[2 * i]);
          }
          out->samples.resize((out->samples.size() + 1) / 2);
          out->sample_step *= 2;
        }
        // The next multiple of the step (which may just have doubled).
        until_sample = out->sample_step - (out->entries + 1) % out->sample_step;
        if (until_sample == out->sample_step) until_sample = 0;
      } else {
        --until_sample;
      }
    }
    ++out->entries;
    walk.Keep(key);
  }
  if (!columns.empty()) end_run();
  return it->status();
}

// Runs jobs[0..n) on up to `threads` threads (this one included); each job
// is independent and writes only its own result.
void RunJobs(const std::vector<std::function<void()>>& jobs, size_t threads) {
  std::atomic<size_t> next{0};
  auto work = [&]() {
    for (size_t i = next++; i < jobs.size(); i = next++) jobs[i]();
  };
  std::vector<std::thread> helpers;
  helpers.reserve(threads);
  for (size_t t = 1; t < std::min(threads, jobs.size()); ++t) {
    // A thread the system refuses leaves its jobs to the others.
    try {
      helpers.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  work();
  for (std::thread& t : helpers) t.join();
}

}  // namespace

Result<TableStats> ComputeStats(KvStore* store, const KvSnapshot* snapshot,
                                const TableSchema& table, size_t threads,
                                int64_t sample_bytes) {
  TableStats stats;
  const IndexSchema* one_per_row = nullptr;  // an index with an entry a row
  for (const auto& index : table.indexes) {
    if (!index->multi_valued && index->needs_reindex.empty()) {
      one_per_row = index.get();
    }
  }
  // A one-column primary key is distinct on every row, and an index with
  // one entry per row has as many entries as the table has rows: the rows,
  // the largest key range, need not be read.
  const bool read_rows = !(one_per_row && table.primary_key.size() == 1);

  // One scan per index (and of the rows when they must be read), each on
  // its own iterator over the same snapshot, so they may run at once.
  struct Scan {
    std::string prefix;
    const std::vector<KeyColumn>* columns;
    IndexStats* out;
    Status status;
  };
  std::vector<Scan> scans;
  for (const auto& index : table.indexes) {
    scans.push_back({rows::IdPrefix(index->id), &index->columns,
                     &stats.indexes[index->name], Status::OK()});
  }
  IndexStats& pk = stats.indexes[""];
  if (read_rows) {
    scans.push_back(
        {rows::IdPrefix(table.id), &table.primary_key, &pk, Status::OK()});
  }
  std::vector<std::function<void()>> jobs;
  for (Scan& scan : scans) {
    jobs.emplace_back([&scan, store, snapshot, sample_bytes] {
      if (sample_bytes > 0 &&
          store->ApproximateBytes(scan.prefix,
                                  keys::PrefixSuccessor(scan.prefix)) >=
              sample_bytes) {
        Result<bool> sampled =
            SampleKeys(store, snapshot, scan.prefix, *scan.columns, scan.out);
        if (!sampled.ok() || *sampled) {
          scan.status = sampled.status();
          return;
        }
      }
      scan.status =
          CountKeys(store, snapshot, scan.prefix, *scan.columns, scan.out);
    });
  }
  RunJobs(jobs, store->remote() ? 1 : threads);
  for (const Scan& scan : scans) LQ_RETURN_IF_ERROR(scan.status);
  if (!read_rows) {
    pk.entries = stats.indexes[one_per_row->name].entries;
    pk.distinct.assign(1, pk.entries);
  }
  stats.rows = pk.entries;
  return stats;
}

std::string StatsKey(const std::string& table) {
  return std::string(kStatsPrefix) + table;
}

std::string EncodeStats(const TableStats& stats) {
  std::string out;
  auto put = [&](const Value& v) {
    keys::EncodeValue(v, keys::Direction::kAsc, &out);
  };
  put(Value::Int(stats.rows));
  for (const auto& [name, s] : stats.indexes) {
    put(Value::Text(name));
    put(Value::Int(s.entries));
    put(Value::Int(static_cast<int64_t>(s.distinct.size())));
    for (int64_t d : s.distinct) put(Value::Int(d));
    // [step, [samples...], [[value, count]...]]
    std::vector<Value> samples, common;
    for (const std::string& b : s.samples) samples.push_back(Value::Blob(b));
    for (const auto& [b, n] : s.common) {
      common.push_back(Value::List({Value::Blob(b), Value::Int(n)}));
    }
    put(Value::List({Value::Int(s.sample_step), Value::List(std::move(samples)),
                     Value::List(std::move(common))}));
  }
  return out;
}

double IndexStats::EntriesBetween(std::string_view lo,
                                  std::string_view hi) const {
  if (samples.empty()) return -1;
  int64_t in = 0;
  for (const std::string& sample : samples) {
    if (sample >= lo && sample < hi) ++in;
  }
  // Each sample stands for sample_step entries; half a step for the edges.
  return std::min<double>(
      static_cast<double>(entries),
      (static_cast<double>(in) + 0.5) * static_cast<double>(sample_step));
}

int64_t IndexStats::CommonCount(std::string_view first) const {
  for (const auto& [value, count] : common) {
    if (value == first) return count;
  }
  return -1;
}

Result<TableStats> DecodeStats(std::string_view in) {
  TableStats stats;
  auto get_int = [&](int64_t* v) -> Status {
    Value x;
    LQ_RETURN_IF_ERROR(keys::DecodeValue(&in, keys::Direction::kAsc, &x));
    if (x.type() != Type::kInteger) return Status::Corruption("bad stats");
    *v = x.int_value();
    return Status::OK();
  };
  LQ_RETURN_IF_ERROR(get_int(&stats.rows));
  while (!in.empty()) {
    Value name;
    LQ_RETURN_IF_ERROR(keys::DecodeValue(&in, keys::Direction::kAsc, &name));
    IndexStats s;
    int64_t n = 0;
    LQ_RETURN_IF_ERROR(get_int(&s.entries));
    LQ_RETURN_IF_ERROR(get_int(&n));
    if (n < 0 || n > 64) return Status::Corruption("bad stats");
    s.distinct.resize(static_cast<size_t>(n));
    for (int64_t& d : s.distinct) LQ_RETURN_IF_ERROR(get_int(&d));
    if (!in.empty() && static_cast<uint8_t>(in[0]) == 0x50) {  // a LIST
      Value h;
      LQ_RETURN_IF_ERROR(keys::DecodeValue(&in, keys::Direction::kAsc, &h));
      const std::vector<Value>& parts = h.list();
      if (parts.size() != 3 || parts[0].type() != Type::kInteger ||
          parts[1].type() != Type::kList || parts[2].type() != Type::kList) {
        return Status::Corruption("bad stats histogram");
      }
      s.sample_step = parts[0].int_value();
      for (const Value& b : parts[1].list()) {
        if (b.type() != Type::kBlob) return Status::Corruption("bad stats");
        s.samples.push_back(b.text());
      }
      for (const Value& pair : parts[2].list()) {
        if (pair.type() != Type::kList || pair.list().size() != 2 ||
            pair.list()[0].type() != Type::kBlob ||
            pair.list()[1].type() != Type::kInteger) {
          return Status::Corruption("bad stats common values");
        }
        s.common.emplace_back(pair.list()[0].text(),
                              pair.list()[1].int_value());
      }
    }
    stats.indexes[name.text()] = std::move(s);
  }
  return stats;
}

}  // namespace levelql
