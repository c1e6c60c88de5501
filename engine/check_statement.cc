// CHECK of DatabaseImpl: rows against index entries (check.h), from one
// snapshot, for every table, one table or one index.
#include "engine/database_impl.h"
#include "engine/storage/check.h"
#include "engine/storage/rank_index.h"
#include "indexes/row_format.h"

namespace levelql {

Status DatabaseImpl::RunCheck(Session* session, const parser::Check& check) {
  // Inside a transaction: its view, its own writes included.
  StatementView view = ViewFor(session);
  auto cat = view.catalog;
  ExecContext ctx = NewContext(nullptr, &view);
  std::vector<std::shared_ptr<const TableSchema>> tables;
  std::string only_index;
  switch (check.target) {
    case parser::Check::Target::kAll:
      for (const auto& [name, t] : cat->tables) tables.push_back(t);
      break;
    case parser::Check::Target::kTable: {
      auto it = cat->tables.find(check.name);
      if (it == cat->tables.end())
        return Status::NotFound("no table " + check.name);
      tables.push_back(it->second);
      break;
    }
    case parser::Check::Target::kIndex: {
      auto it = cat->index_table.find(check.name);
      if (it == cat->index_table.end())
        return Status::NotFound("no index " + check.name);
      tables.push_back(cat->tables.at(it->second));
      only_index = check.name;
      break;
    }
  }
  CheckReport report;
  std::vector<std::string> rank_problems;
  for (const auto& t : tables) {
    // Quarantined keys are made by another collator: nothing to compare
    // until REINDEX, which the error says.
    if (!t->needs_reindex.empty()) {
      return Status::NotSupported(
          "table " + t->name + " must be rebuilt before CHECK: " +
          t->needs_reindex + "; run REINDEX " + t->name);
    }
    auto usable = std::make_shared<TableSchema>(*t);
    usable->indexes.clear();
    for (const auto& index : t->indexes) {
      if (index->needs_reindex.empty()) {
        usable->indexes.push_back(index);
      } else if (index->name == only_index) {
        return Status::NotSupported(
            "index " + index->name + " must be rebuilt before CHECK: " +
            index->needs_reindex + "; run REINDEX " + index->name);
      }
    }
    LQ_RETURN_IF_ERROR(CheckTable(
        ctx.store, ctx.snapshot.get(), *usable, only_index, &report, [&ctx] {
          return ctx.interrupted() ? ctx.InterruptedStatus() : Status::OK();
        }));
    LQ_RETURN_IF_ERROR(CheckBuckets(ctx.physical_store, ctx.snapshot.get(),
                                    *usable, only_index, &report));
    // A ranked index's counts against its entries.
    for (const auto& index : usable->indexes) {
      if (!index->ranked) continue;
      if (!only_index.empty() && index->name != only_index) continue;
      Status v = ranks::Verify(
          {rows::IdPrefix(index->id), rows::IdPrefix(index->rank_id)},
          ctx.store, ctx.snapshot.get());
      if (v.code() == Status::Code::kCorruption) {
        rank_problems.push_back("index " + index->name + ": " + v.message());
      } else {
        LQ_RETURN_IF_ERROR(v);
      }
    }
  }
  if (!report.ok() || rank_problems.empty()) return report.ToStatus();
  std::string msg = "CHECK found wrong counts in " +
                    std::to_string(rank_problems.size()) + " ranked index" +
                    (rank_problems.size() == 1 ? "" : "es");
  for (const std::string& p : rank_problems) msg += "\n  " + p;
  return Status::Corruption(msg);
}

}  // namespace levelql
