// Statistics of a large key range estimated from a sample: how ANALYZE
// reads an index too large to read whole (Options::analyze_sample_bytes),
// as PostgreSQL's ANALYZE samples a table.
//
// The range is cut into kHistogramSamples parts of about equal size in the
// store's files, placed by bisecting the key space with
// KvStore::ApproximateBytes (no entry is read to place them). The first
// kProbeEntries entries of every part are read, and kStretches parts spread
// over the range are read whole (up to kStretchEntries entries each). A part
// that ends within its probe is counted exactly and left out of the rates:
// it is mostly where a range crosses the end of one of the store's files,
// whose index and filters the store counts in the range's bytes. From the
// rest:
// - entries: the entries the stretches read per byte the store counts for
//   them, times the bytes of the parts that are not small;
// - distinct prefixes of each length: the rate at which adjacent entries
//   read start a new prefix, over the entries, and never fewer than the
//   prefixes read. When few first components were read, all of them are
//   found by seeking from each to the next (up to kCountedValues): their
//   count is then exact;
// - the histogram: the first component at the start of each part (equal
//   slices of the files hold about equal numbers of entries);
// - the most common values: the first components that count found, or
//   that start two parts or more; each counted by the parts it starts, and
//   by its keys' bytes less the small parts', the lesser kept.
#ifndef LEVELQL_ENGINE_CATALOG_STATS_SAMPLE_H_
#define LEVELQL_ENGINE_CATALOG_STATS_SAMPLE_H_

#include <string>
#include <vector>

#include "engine/catalog/stats.h"
#include "engine/storage/kv_store.h"
#include "indexes/schema.h"

namespace levelql {

inline constexpr size_t kStretches = 32;
inline constexpr size_t kProbeEntries = 8;
inline constexpr size_t kStretchEntries = 16384;
inline constexpr size_t kCountedValues = 1024;
// Parts of at least 16 KiB (four of the store's blocks): smaller ranges
// are read whole, their parts too coarse for the store's sizes.
inline constexpr int64_t kMinSampleBytes = int64_t{kHistogramSamples} << 14;

// Estimates `out` for the keys under `prefix` (the first `columns`
// components counted). False, with `out` unchanged, when the parts cannot
// be placed: a store that cannot tell sizes, or keys crowded into too few
// parts, or fewer than kMinSampleBytes. The caller then reads every entry.
Result<bool> SampleKeys(KvStore* store, const KvSnapshot* snapshot,
                        const std::string& prefix,
                        const std::vector<KeyColumn>& columns, IndexStats* out);

// Key ranges sampled so far in this process (for tests).
uint64_t SampledRanges();

}  // namespace levelql

#endif  // LEVELQL_ENGINE_CATALOG_STATS_SAMPLE_H_
