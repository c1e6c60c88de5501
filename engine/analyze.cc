// ANALYZE of DatabaseImpl: statistics of every table (or one), stored in
// the database and swapped into the catalog.
#include <algorithm>
#include <thread>

#include "engine/database_impl.h"
#include "indexes/key_codec.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

// From this many bytes in the store's files, a table's scans run at once
// (a few hundred thousand entries: a thread's start is then lost in it).
constexpr int64_t kParallelAnalyzeBytes = 4 << 20;

// The bytes the table's rows and entries take in the store's files, as far
// as it can tell (0 when it cannot).
int64_t StoredBytes(KvStore* store, const TableSchema& table) {
  int64_t bytes = 0;
  auto add = [&](int64_t id) {
    const std::string prefix = rows::IdPrefix(id);
    bytes += std::max<int64_t>(
        0, store->ApproximateBytes(prefix, keys::PrefixSuccessor(prefix)));
  };
  add(table.id);
  for (const auto& index : table.indexes) add(index->id);
  return bytes;
}

}  // namespace

Status DatabaseImpl::RunAnalyze(const parser::Analyze& analyze) {
  WriterLock lock(&writer_);
  LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
  auto cat = catalog();
  std::vector<std::shared_ptr<const TableSchema>> tables;
  if (analyze.table.empty()) {
    for (const auto& [name, t] : cat->tables) tables.push_back(t);
  } else {
    auto it = cat->tables.find(analyze.table);
    if (it == cat->tables.end()) {
      return Status::NotFound("no table " + analyze.table);
    }
    tables.push_back(it->second);
  }
  auto snapshot = store_->GetSnapshot();
  SaltedStore view(store_.get(), cat->salt_layout);  // logical key order
  auto next = std::make_shared<CatalogState>(*cat);
  WriteBatch batch;
  // A large table's indexes are read at once, a thread each up to the
  // machine's cores (at most 4); a small one's on this thread, since
  // starting a thread costs more than reading a few thousand entries.
  const size_t cores =
      std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
  for (const auto& t : tables) {
    const size_t threads =
        StoredBytes(&view, *t) >= kParallelAnalyzeBytes ? cores : 1;
    // A salted table's slices of the logical order are not ranges of the
    // store's files: its size estimates cannot place a sample.
    const int64_t sample_bytes =
        t->salt_buckets > 0 ? 0 : options_.analyze_sample_bytes;
    LQ_ASSIGN_OR_RETURN(
        TableStats stats,
        ComputeStats(&view, snapshot.get(), *t, threads, sample_bytes));
    batch.Put(StatsKey(t->name), EncodeStats(stats));
    next->stats[t->name] = std::make_shared<const TableStats>(std::move(stats));
  }
  LQ_RETURN_IF_ERROR(Commit(batch));
  SetCatalog(next);
  return Status::OK();
}

}  // namespace levelql
