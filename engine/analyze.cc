// ANALYZE of DatabaseImpl: statistics of every table (or one), stored in
// the database and swapped into the catalog.
#include <algorithm>
#include <thread>

#include "engine/database_impl.h"

namespace levelql {

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
  // The indexes of a table are read at once, a thread each up to the
  // machine's cores (at most 4).
  const size_t threads =
      std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
  for (const auto& t : tables) {
    LQ_ASSIGN_OR_RETURN(TableStats stats,
                        ComputeStats(&view, snapshot.get(), *t, threads));
    batch.Put(StatsKey(t->name), EncodeStats(stats));
    next->stats[t->name] = std::make_shared<const TableStats>(std::move(stats));
  }
  LQ_RETURN_IF_ERROR(Commit(batch));
  SetCatalog(next);
  return Status::OK();
}

}  // namespace levelql
