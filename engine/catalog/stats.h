// Table statistics gathered by ANALYZE and read by the planner.
//
// Per table: the row count; per index (and the primary key, under the name
// ""): the entry count, the number of distinct key prefixes of each length,
// and for the first key column an equi-depth sample of its key bytes and its
// most common values, so ranges and skewed values are estimated from data.
// Stored under the metadata key \0stats\0<table> (KEY_FORMAT.md);
// immutable once loaded and shared read-only through the catalog.
#ifndef LEVELQL_ENGINE_CATALOG_STATS_H_
#define LEVELQL_ENGINE_CATALOG_STATS_H_

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/storage/kv_store.h"
#include "indexes/schema.h"

namespace levelql {

// A histogram holds at most this many samples, and the list of most
// common values this many values.
inline constexpr size_t kHistogramSamples = 256;
inline constexpr size_t kCommonValues = 8;

struct IndexStats {
  int64_t entries = 0;
  std::vector<int64_t> distinct;  // [i]: distinct prefixes of i+1 columns
  // The first key component (its key bytes, without the index id) of
  // every `sample_step`-th entry, in key order: an equi-depth histogram.
  std::vector<std::string> samples;
  int64_t sample_step = 0;
  // The first components held by the most entries, with their counts.
  std::vector<std::pair<std::string, int64_t>> common;

  // Estimated entries whose first component (key bytes) lies in [lo, hi);
  // negative when there are no samples.
  double EntriesBetween(std::string_view lo, std::string_view hi) const;
  // The count of a most common first component, or -1.
  int64_t CommonCount(std::string_view first) const;
};

struct TableStats {
  int64_t rows = 0;
  std::map<std::string, IndexStats> indexes;  // "" is the primary key
};

// Reads each index (and the rows, unless an index counts them) once, from
// `snapshot`, on up to `threads` threads: the statistics are the same
// whatever the number. An index (or the rows) taking at least
// `sample_bytes` in the store's files (0: none) is sampled instead
// (stats_sample.h): its figures are then estimates.
Result<TableStats> ComputeStats(KvStore* store, const KvSnapshot* snapshot,
                                const TableSchema& table, size_t threads = 1,
                                int64_t sample_bytes = 0);

std::string StatsKey(const std::string& table);
std::string EncodeStats(const TableStats& stats);
Result<TableStats> DecodeStats(std::string_view bytes);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_CATALOG_STATS_H_
