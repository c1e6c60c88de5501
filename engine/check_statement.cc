// CHECK of DatabaseImpl: rows against index entries (check.h), from one
// snapshot, for every table, one table or one index.
#include "engine/database_impl.h"
#include "engine/storage/check.h"

namespace levelql {

Status DatabaseImpl::RunCheck(const parser::Check& check) {
  auto cat = catalog();
  ExecContext ctx = NewContext(nullptr);
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
    LQ_RETURN_IF_ERROR(CheckTable(store_.get(), ctx.snapshot.get(), *usable,
                                  only_index, &report));
  }
  return report.ToStatus();
}

}  // namespace levelql
