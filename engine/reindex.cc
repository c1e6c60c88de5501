// REINDEX: rebuilds a table's or an index's keys with this build's
// collations and format, all or nothing.
//
// The new keys go to fresh key ranges (new ids) while the old ones stay in
// use: (1) a \0rebuilding\0 marker names the new ids, (2) the new ranges are
// filled in bounded batches, (3) one batch swaps the catalog records to the
// new ids, drops the marker and any \0reindex\0 quarantine marker, and
// records the old ranges as \0garbage\0, (4) the old ranges are deleted in
// bounded batches. A crash before (3) leaves the old keys in use and a
// marker that the next open uses to delete the half-built ranges; a crash
// after it leaves garbage markers that the next open finishes deleting.
#include "engine/database_impl.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

constexpr size_t kBatch = 10000;

// Deletes every key with `prefix` in batches of kBatch (the caller then has
// the store compact the range). Each batch starts after the last key
// deleted: from the range's start, it would step over every deletion
// before it again.
Status DeleteRangeInBatches(KvStore* store, const std::string& prefix,
                            bool sync) {
  std::string from = prefix;
  while (true) {
    WriteBatch batch;
    auto it = store->NewIterator(nullptr);
    it->SetBounds(prefix, keys::PrefixSuccessor(prefix));
    size_t n = 0;
    for (it->Seek(from); it->Valid() && n < kBatch &&
                         it->key().substr(0, prefix.size()) == prefix;
         it->Next(), ++n) {
      batch.Delete(std::string(it->key()));
    }
    LQ_RETURN_IF_ERROR(it->status());
    if (batch.empty()) break;
    from = batch.ops().back().key + '\0';
    LQ_RETURN_IF_ERROR(store->Write(batch, sync));
  }
  return Status::OK();
}

std::string EncodeIds(const std::vector<int64_t>& ids) {
  std::string out;
  for (int64_t id : ids) {
    keys::EncodeValue(Value::Int(id), keys::Direction::kAsc, &out);
  }
  return out;
}

}  // namespace

namespace {

// The metadata keys under `prefix`, with their values.
Result<std::vector<std::pair<std::string, std::string>>> Markers(
    KvStore* store, std::string_view prefix) {
  std::vector<std::pair<std::string, std::string>> out;
  auto it = store->NewIterator(nullptr);
  for (SeekPrefix(it.get(), prefix);
       it->Valid() && it->key().substr(0, prefix.size()) == prefix;
       it->Next()) {
    out.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  LQ_RETURN_IF_ERROR(it->status());
  return out;
}

// Deletes the key ranges whose ids (INTEGER components) `ids` holds, then
// the marker `key` that named them.
Status DeleteRangesThenMarker(KvStore* store, std::string_view ids,
                              const std::string& key) {
  while (!ids.empty()) {
    Value id;
    LQ_RETURN_IF_ERROR(keys::DecodeValue(&ids, keys::Direction::kAsc, &id));
    const std::string prefix = rows::IdPrefix(id.int_value());
    LQ_RETURN_IF_ERROR(DeleteRangeInBatches(store, prefix, true));
    CompactPrefix(store, prefix);  // (at open: no writer waits)
  }
  WriteBatch done;
  done.Delete(key);
  return store->Write(done, true);
}

}  // namespace

Result<bool> HasInterruptedRebuilds(KvStore* store) {
  LQ_ASSIGN_OR_RETURN(auto rebuilding, Markers(store, kRebuildingPrefix));
  if (!rebuilding.empty()) return true;
  LQ_ASSIGN_OR_RETURN(auto garbage, Markers(store, kGarbagePrefix));
  return !garbage.empty();
}

Status FinishInterruptedRebuilds(KvStore* store) {
  // Half-built ranges of a REINDEX that did not swap (their ids are the
  // marker's value), and replaced ranges of one that did (the id is in the
  // marker's key): delete them.
  LQ_ASSIGN_OR_RETURN(auto rebuilding, Markers(store, kRebuildingPrefix));
  for (const auto& [key, ids] : rebuilding) {
    LQ_RETURN_IF_ERROR(DeleteRangesThenMarker(store, ids, key));
  }
  LQ_ASSIGN_OR_RETURN(auto garbage, Markers(store, kGarbagePrefix));
  for (const auto& [key, value] : garbage) {
    LQ_RETURN_IF_ERROR(DeleteRangesThenMarker(
        store, std::string_view(key).substr(kGarbagePrefix.size()), key));
  }
  return Status::OK();
}

Status DatabaseImpl::RunReindex(const std::string& name) {
  std::vector<std::string> targets;
  {
    auto cat = catalog();
    if (name.empty()) {
      // Everything that needs it: a table rebuild covers its indexes.
      for (const auto& [table_name, table] : cat->tables) {
        if (!table->needs_reindex.empty()) {
          targets.push_back(table_name);
          continue;
        }
        for (const auto& index : table->indexes) {
          if (!index->needs_reindex.empty()) targets.push_back(index->name);
        }
      }
    } else if (cat->tables.count(name)) {
      targets.push_back(name);
    } else if (auto it = cat->index_table.find(name);
               it != cat->index_table.end()) {
      // An index's entries end with its table's keys: when those must be
      // rebuilt too, the whole table is.
      const bool table_too = !cat->tables.at(it->second)->needs_reindex.empty();
      targets.push_back(table_too ? it->second : name);
    } else {
      return Status::NotFound("no table or index " + name);
    }
  }
  for (const std::string& target : targets) {
    LQ_RETURN_IF_ERROR(Rebuild(target));
  }
  return Status::OK();
}

Status DatabaseImpl::Rebuild(const std::string& name, const ChangeTable& change,
                             const std::string& what) {
  std::vector<std::string> deleted, built;  // key ranges deleted, made
  Status s = RebuildLocked(name, change, what, &deleted, &built);
  Discard(deleted);  // (the writer slot is free again)
  CompactBuilt(built);
  return s;
}

Status DatabaseImpl::RebuildLocked(const std::string& name,
                                   const ChangeTable& change,
                                   const std::string& what,
                                   std::vector<std::string>* deleted,
                                   std::vector<std::string>* built) {
  if (options_.read_only) {
    return Status::NotSupported("the database is open read-only");
  }
  WriterLock lock(&writer_);
  LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
  auto cat = catalog();
  const bool is_table = cat->tables.count(name) > 0;
  // (Gone since the caller looked: dropped by a statement in between.)
  if (!is_table && (change || !cat->index_table.count(name))) {
    return Status::NotFound(change ? "no table " + name
                                   : "no table or index " + name);
  }
  const std::string table_name = is_table ? name : cat->index_table.at(name);
  const auto old_table = cat->tables.at(table_name);
  auto next = std::make_shared<CatalogState>(*cat);

  // The schemas again from their statements: this build's collation
  // versions, fresh ids for every range rebuilt.
  std::vector<int64_t> new_ids, old_ids;
  auto parse = [](const std::string& sql) {
    return parser::ParseStatement(sql);
  };
  TableChange changed{old_table->sql, -1};
  if (change) {
    LQ_ASSIGN_OR_RETURN(changed, change(cat));
  }
  std::shared_ptr<TableSchema> table;
  if (is_table) {
    LQ_ASSIGN_OR_RETURN(parser::Statement stmt, parse(changed.sql));
    LQ_ASSIGN_OR_RETURN(
        table, MakeTableSchema(std::get<parser::CreateTable>(stmt.node),
                               next->next_id++, changed.sql));
    new_ids.push_back(table->id);
    old_ids.push_back(old_table->id);
  } else {
    table = std::make_shared<TableSchema>(*old_table);
    table->indexes.clear();
  }
  std::vector<std::shared_ptr<const IndexSchema>> rebuilt;
  for (const auto& index : old_table->indexes) {
    if (!is_table && index->name != name) {
      table->indexes.push_back(index);
      continue;
    }
    LQ_ASSIGN_OR_RETURN(parser::Statement stmt, parse(index->sql));
    LQ_ASSIGN_OR_RETURN(
        auto fresh, MakeIndexSchema(std::get<parser::CreateIndex>(stmt.node),
                                    *table, next->next_id++, index->sql));
    new_ids.push_back(fresh->id);
    old_ids.push_back(index->id);
    if (fresh->ranked) {
      fresh->rank_id = next->next_id++;
      new_ids.push_back(fresh->rank_id);
    }
    if (index->ranked) old_ids.push_back(index->rank_id);
    table->indexes.push_back(fresh);
    rebuilt.push_back(fresh);
  }

  // (1) The marker.
  WriteBatch begin;
  begin.Put(RebuildingKey(name), EncodeIds(new_ids));
  PutNextId(next->next_id, &begin);
  LQ_RETURN_IF_ERROR(Commit(begin));
  auto undo = [&](Status why) {
    for (int64_t id : new_ids) {
      Status d = DeleteRangeInBatches(store_.get(), rows::IdPrefix(id), false);
      if (!d.ok()) return d;
      deleted->push_back(rows::IdPrefix(id));
    }
    WriteBatch b;
    b.Delete(RebuildingKey(name));
    Status d = Commit(b);
    return d.ok() ? why : d;
  };

  // (2) The new ranges, from one snapshot of the old rows. The snapshot
  //     ends with the block: while it lives, the store keeps every old key
  //     it sees, and (4) could not compact them away.
  Status s;
  int64_t written = 0;  // by the rebuild (CompactBuilt)
  {
    ExecContext ctx = NewContext(nullptr);
    auto scan = NewTableScan(&ctx, old_table);
    WriteTxn txn(store_.get(), nullptr);
    txn.set_maintain_ranks(false);  // counted in bulk below
    Row row;
    while (s.ok() && scan->Next(&row)) {
      if (changed.dropped_column >= 0) {
        row.erase(row.begin() + changed.dropped_column);
      }
      if (is_table) {
        s = txn.InsertRow(*table, row);  // rows and every index entry
      } else {
        for (const auto& index : rebuilt) {
          s = txn.InsertEntries(*table, *index, row);
          if (s.code() == Status::Code::kConstraintError) {
            s = Status::ConstraintError("UNIQUE index " + index->name +
                                        " cannot be rebuilt: two rows now "
                                        "have the same key");
          }
          if (!s.ok()) break;
        }
      }
      if (s.ok() && txn.pending() >= kBatch) {
        s = Commit(txn.ToBatch(), &written);
        txn = WriteTxn(store_.get(), nullptr);
        txn.set_maintain_ranks(false);
      }
    }
    if (s.ok()) s = scan->status();
    if (s.ok()) s = Commit(txn.ToBatch(), &written);
  }
  for (const auto& index : rebuilt) {
    if (s.ok() && index->ranked) s = BuildRanks(*index);
  }
  if (!s.ok()) return undo(s.WithPrefix(what + " " + name + ": "));

  // (3) The swap.
  WriteBatch swap;
  if (is_table) PutTableRecord(*table, &swap);
  for (const auto& index : rebuilt) {
    PutIndexRecord(*index, &swap);
    swap.Delete(ReindexKey(index->name));
  }
  swap.Delete(ReindexKey(name));
  swap.Delete(RebuildingKey(name));
  for (int64_t id : old_ids) swap.Put(GarbageKey(id), "");
  LQ_RETURN_IF_ERROR(Commit(swap));
  table->needs_reindex.clear();
  next->tables[table_name] = table;
  if (is_table) next_rowid_.erase(old_table->id);
  SetCatalog(next);

  // (4) The old ranges.
  for (int64_t id : old_ids) {
    LQ_RETURN_IF_ERROR(
        DeleteRangeInBatches(store_.get(), rows::IdPrefix(id), false));
    deleted->push_back(rows::IdPrefix(id));
    WriteBatch done;
    done.Delete(GarbageKey(id));
    LQ_RETURN_IF_ERROR(Commit(done));
  }
  if (written >= kCompactBuiltBytes) {
    for (int64_t id : new_ids) built->push_back(rows::IdPrefix(id));
  }
  return Status::OK();
}

}  // namespace levelql
