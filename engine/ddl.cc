// DDL statements of DatabaseImpl: CREATE/DROP TABLE and INDEX.
#include <set>

#include "engine/database_impl.h"
#include "engine/plan/binder.h"
#include "engine/plan/inline_from.h"
#include "engine/storage/rank_index.h"
#include "indexes/row_format.h"
#include "indexes/salt.h"
#include "parser/lexer.h"

namespace levelql {

std::string ConstraintIndexName(const CatalogState& catalog,
                                const std::string& table,
                                const std::string& column) {
  std::string name = table + "_" + column + "_unique";
  while (catalog.index_table.count(name) || catalog.tables.count(name) ||
         catalog.views.count(name)) {
    name += "_";
  }
  return name;
}

bool IsConstraintIndex(const TableSchema& table, const IndexSchema& index) {
  if (!index.unique || index.columns.size() != 1) return false;
  const ColumnSchema& c = table.columns[index.columns[0].column];
  const std::string base = table.name + "_" + c.name + "_unique";
  return c.unique && index.name.compare(0, base.size(), base) == 0 &&
         index.name.find_first_not_of('_', base.size()) == std::string::npos;
}

Status DatabaseImpl::RunCreateTable(const parser::Statement& stmt,
                                    const parser::CreateTable& create) {
  WriterLock lock(&writer_);
  LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
  auto cat = catalog();
  if (cat->tables.count(create.name)) {
    if (create.if_not_exists) return Status::OK();
    return Status::InvalidArgument("table " + create.name + " already exists");
  }
  if (cat->views.count(create.name)) {
    return Status::InvalidArgument("there is already a view named " +
                                   create.name);
  }
  std::string sql = stmt.text;
  const bool salt_by_default =
      create.options.empty() && options_.default_salt_buckets != 0;
  if (salt_by_default) {
    // Options::default_salt_buckets: the stored definition names it (the
    // clause ends a CREATE TABLE, so it can be appended to the text).
    sql += "\nWITH (salt_buckets = " +
           std::to_string(options_.default_salt_buckets) + ")";
  }
  LQ_ASSIGN_OR_RETURN(auto table, MakeTableSchema(create, cat->next_id, sql));
  if (salt_by_default) {
    if (options_.default_salt_buckets < rows::kMinSaltBuckets ||
        options_.default_salt_buckets > rows::kMaxSaltBuckets) {
      return Status::InvalidArgument(
          "Options::default_salt_buckets must be from 1 to 256, not " +
          std::to_string(options_.default_salt_buckets));
    }
    table->salt_buckets = options_.default_salt_buckets;
  }
  auto next = std::make_shared<CatalogState>(*cat);
  next->next_id++;
  WriteBatch batch;
  PutTableRecord(*table, &batch);
  // A column-level UNIQUE is a UNIQUE index of its own (SQLite's
  // autoindex), created with the table in the same batch.
  for (const parser::ColumnDef& def : create.columns) {
    if (!def.unique || def.primary_key) continue;
    const std::string name = ConstraintIndexName(*next, create.name, def.name);
    parser::CreateIndex ci;
    ci.name = name;
    ci.table = create.name;
    ci.unique = true;
    parser::IndexColumn col;
    col.name = def.name;
    col.pos = def.pos;
    ci.columns.push_back(col);
    std::string sql = "CREATE UNIQUE INDEX " + parser::QuoteIdentifier(name) +
                      " ON " + parser::QuoteIdentifier(create.name) + " (" +
                      parser::QuoteIdentifier(def.name) + ")";
    LQ_ASSIGN_OR_RETURN(auto index,
                        MakeIndexSchema(ci, *table, next->next_id++, sql));
    PutIndexRecord(*index, &batch);
    table->indexes.push_back(index);
    next->index_table[name] = table->name;
  }
  PutNextId(next->next_id, &batch);
  LQ_RETURN_IF_ERROR(Commit(batch));
  next->tables[table->name] = table;
  SetCatalog(next);
  return Status::OK();
}

Status DatabaseImpl::RunCreateIndex(const parser::Statement& stmt,
                                    const parser::CreateIndex& create) {
  std::vector<std::string> undone, built;  // the ranges of a build
  Status s = CreateIndexLocked(stmt, create, &undone, &built);
  Discard(undone);  // (the writer slot is free again)
  CompactBuilt(built);
  return s;
}

// An index built in one go from a large table is written in batches that
// LevelDB spreads over its levels as they come: a seek into it then looks
// into a file at every level (and each level-0 file) until compactions
// move it down, which they may never finish doing for an index no longer
// written. One compaction of its range right after the build puts it in
// the fewest files (bench W2b, a covering index of 1M entries read at one
// user: 5.9 us a query before, 3.5 us after). A build that wrote less than
// kCompactBuiltBytes (LevelDB's write buffer) is left alone: it is mostly
// in the memtable, which a compaction would only flush early.
void DatabaseImpl::CompactBuilt(const std::vector<std::string>& prefixes) {
  for (const std::string& prefix : prefixes) {
    CompactPrefix(store_.get(), prefix);
  }
}

namespace {

// INCLUDE lists each column once, as the key lists its own (a key column
// may be listed: under a collation the key holds its collation key, and
// INCLUDE its text). Checked when an index is made only: an index stored
// before this rule still opens.
Status CheckInclude(const TableSchema& table, const IndexSchema& index) {
  std::set<int> seen;
  for (int col : index.include) {
    const ColumnSchema& c = table.columns[col];
    if (c.hidden) {
      return Status::InvalidArgument("no column " + c.name + " in table " +
                                     table.name + " (INCLUDE of index " +
                                     index.name + ")");
    }
    if (!seen.insert(col).second) {
      return Status::InvalidArgument("column " + c.name +
                                     " appears twice in INCLUDE of index " +
                                     index.name);
    }
  }
  return Status::OK();
}

}  // namespace

Status DatabaseImpl::CreateIndexLocked(const parser::Statement& stmt,
                                       const parser::CreateIndex& create,
                                       std::vector<std::string>* undone,
                                       std::vector<std::string>* built) {
  WriterLock lock(&writer_);
  LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
  auto cat = catalog();
  if (cat->index_table.count(create.name)) {
    if (create.if_not_exists) return Status::OK();
    return Status::InvalidArgument("index " + create.name + " already exists");
  }
  const TableSchema* table = cat->FindTable(create.table);
  if (!table && cat->FindView(create.table)) {
    return Status::InvalidArgument("cannot index view " + create.table +
                                   ": a view is read only");
  }
  if (!table) return Status::NotFound("no table " + create.table);
  if (!table->needs_reindex.empty()) {
    return Status::NotSupported(
        "table " + table->name + " must be rebuilt first: " +
        table->needs_reindex + "; run REINDEX " + table->name);
  }
  LQ_ASSIGN_OR_RETURN(auto index,
                      MakeIndexSchema(create, *table, cat->next_id, stmt.text));
  LQ_RETURN_IF_ERROR(CheckInclude(*table, *index));
  auto next = std::make_shared<CatalogState>(*cat);
  next->next_id++;
  if (index->ranked) index->rank_id = next->next_id++;

  // 1. The record, marked as building: a crash before step 3 leaves a
  //    marker that the next open uses to remove the half-built index.
  WriteBatch batch;
  PutIndexRecord(*index, &batch);
  batch.Put(BuildingKey(index->name), "");
  PutNextId(next->next_id, &batch);
  LQ_RETURN_IF_ERROR(Commit(batch));

  // 2. Backfill from one snapshot in bounded batches. Uniqueness is checked
  //    against what earlier batches wrote (reads see the latest state; no
  //    other writer runs: we hold the writer slot).
  int64_t written = 0;
  Status s = Backfill(*table, *index, cat->tables.at(create.table), &written);
  if (s.ok() && index->ranked) s = BuildRanks(*index);
  if (!s.ok()) {
    WriteBatch undo;
    Status d = DeleteRange(rows::IdPrefix(index->id), &undo);
    if (d.ok() && index->ranked) {
      d = DeleteRange(rows::IdPrefix(index->rank_id), &undo);
    }
    undo.Delete(IndexRecordKey(index->name));
    undo.Delete(BuildingKey(index->name));
    if (d.ok()) d = Commit(undo);
    if (d.ok()) {
      undone->push_back(rows::IdPrefix(index->id));
      if (index->ranked) undone->push_back(rows::IdPrefix(index->rank_id));
    }
    return d.ok() ? s : d;
  }

  // 3. Ready.
  WriteBatch done;
  done.Delete(BuildingKey(index->name));
  LQ_RETURN_IF_ERROR(Commit(done));
  auto new_table = std::make_shared<TableSchema>(*table);
  new_table->indexes.push_back(index);
  next->tables[table->name] = new_table;
  next->index_table[index->name] = table->name;
  SetCatalog(next);
  if (written >= kCompactBuiltBytes) {
    built->push_back(rows::IdPrefix(index->id));
    if (index->ranked) built->push_back(rows::IdPrefix(index->rank_id));
  }
  return Status::OK();
}

Status DatabaseImpl::Backfill(const TableSchema& table,
                              const IndexSchema& index,
                              std::shared_ptr<const TableSchema> table_ptr,
                              int64_t* written) {
  ExecContext ctx = NewContext(nullptr);
  WriteTxn txn(store_.get(), nullptr);
  txn.set_maintain_ranks(false);  // counted in bulk afterwards
  auto scan = NewTableScan(&ctx, std::move(table_ptr));
  Row row;
  while (scan->Next(&row)) {
    LQ_RETURN_IF_ERROR(txn.InsertEntries(table, index, row));
    if (txn.pending() >= kBackfillBatch) {
      LQ_RETURN_IF_ERROR(Commit(txn.ToBatch(), written));
      txn = WriteTxn(store_.get(), nullptr);
      txn.set_maintain_ranks(false);
    }
  }
  LQ_RETURN_IF_ERROR(scan->status());
  return Commit(txn.ToBatch(), written);
}

namespace {

// Collects writes into batches of a bounded size, committed as they fill.
class BatchSink : public ranks::Sink {
 public:
  BatchSink(std::function<Status(const WriteBatch&)> commit, size_t size)
      : commit_(std::move(commit)), size_(size) {}
  void Put(std::string key, std::string value) override {
    batch_.Put(std::move(key), std::move(value));
    MaybeFlush();
  }
  void Delete(std::string key) override {
    batch_.Delete(std::move(key));
    MaybeFlush();
  }
  Status Finish() {
    if (status_.ok() && !batch_.empty()) status_ = commit_(batch_);
    return status_;
  }

 private:
  void MaybeFlush() {
    if (batch_.ops().size() < size_ || !status_.ok()) return;
    status_ = commit_(batch_);
    batch_.Clear();
  }
  std::function<Status(const WriteBatch&)> commit_;
  size_t size_;
  WriteBatch batch_;
  Status status_;
};

}  // namespace

Status DatabaseImpl::BuildRanks(const IndexSchema& index) {
  BatchSink sink([this](const WriteBatch& b) { return Commit(b); },
                 kBackfillBatch);
  // Counts are of logical entry keys: a salted index is read merged.
  std::shared_ptr<SaltLayout> layout;
  if (index.salt_buckets > 0) {
    layout = std::make_shared<SaltLayout>();
    layout->Add(index.id, {index.salt_buckets, false});
  }
  auto view = NewSaltedIterator(
      layout, [this] { return store_->NewIterator(nullptr); });
  LQ_RETURN_IF_ERROR(
      ranks::Build({rows::IdPrefix(index.id), rows::IdPrefix(index.rank_id)},
                   view.get(), &sink));
  return sink.Finish();
}

Status DatabaseImpl::DeleteRange(const std::string& prefix, WriteBatch* batch) {
  auto it = store_->NewIterator(nullptr);
  for (SeekPrefix(it.get(), prefix);
       it->Valid() && it->key().substr(0, prefix.size()) == prefix;
       it->Next()) {
    batch->Delete(std::string(it->key()));
  }
  return it->status();
}

Status DatabaseImpl::RunDropTable(const parser::DropTable& drop) {
  std::vector<std::string> dropped;  // the key ranges deleted
  {
    WriterLock lock(&writer_);
    LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
    auto cat = catalog();
    const TableSchema* table = cat->FindTable(drop.name);
    if (!table && cat->views.count(drop.name)) {
      return Status::InvalidArgument(drop.name +
                                     " is a view: use DROP VIEW to drop it");
    }
    if (!table) {
      if (drop.if_exists) return Status::OK();
      return Status::NotFound("no table " + drop.name);
    }
    WriteBatch batch;
    dropped.push_back(rows::IdPrefix(table->id));
    auto next = std::make_shared<CatalogState>(*cat);
    for (const auto& index : table->indexes) {
      dropped.push_back(rows::IdPrefix(index->id));
      if (index->ranked) dropped.push_back(rows::IdPrefix(index->rank_id));
      batch.Delete(IndexRecordKey(index->name));
      next->index_table.erase(index->name);
    }
    for (const std::string& prefix : dropped) {
      LQ_RETURN_IF_ERROR(DeleteRange(prefix, &batch));
    }
    batch.Delete(TableRecordKey(table->name));
    batch.Delete(StatsKey(table->name));
    next->stats.erase(table->name);
    LQ_RETURN_IF_ERROR(Commit(batch));
    next_rowid_.erase(table->id);
    next->tables.erase(drop.name);
    SetCatalog(next);
  }
  Discard(dropped);
  return Status::OK();
}

namespace {

// As in SQLite, the index keeping a column's UNIQUE goes only with its
// table.
Status RefuseConstraintIndex(const TableSchema& table,
                             const std::string& name) {
  for (const auto& index : table.indexes) {
    if (index->name != name || !IsConstraintIndex(table, *index)) continue;
    const ColumnSchema& c = table.columns[index->columns[0].column];
    return Status::InvalidArgument(
        "index " + name + " keeps the UNIQUE constraint of column " + c.name +
        " of table " + table.name + " and cannot be dropped (it goes with " +
        "DROP TABLE " + table.name + ")");
  }
  return Status::OK();
}

}  // namespace

Status DatabaseImpl::RunDropIndex(const parser::DropIndex& drop) {
  std::vector<std::string> dropped;  // the key ranges deleted
  {
    WriterLock lock(&writer_);
    LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
    auto cat = catalog();
    auto it = cat->index_table.find(drop.name);
    if (it == cat->index_table.end()) {
      if (drop.if_exists) return Status::OK();
      return Status::NotFound("no index " + drop.name);
    }
    const TableSchema* table = cat->FindTable(it->second);
    LQ_RETURN_IF_ERROR(RefuseConstraintIndex(*table, drop.name));
    auto new_table = std::make_shared<TableSchema>(*table);
    WriteBatch batch;
    for (size_t i = 0; i < new_table->indexes.size(); ++i) {
      const IndexSchema& index = *new_table->indexes[i];
      if (index.name == drop.name) {
        dropped.push_back(rows::IdPrefix(index.id));
        if (index.ranked) dropped.push_back(rows::IdPrefix(index.rank_id));
        new_table->indexes.erase(new_table->indexes.begin() + i);
        break;
      }
    }
    for (const std::string& prefix : dropped) {
      LQ_RETURN_IF_ERROR(DeleteRange(prefix, &batch));
    }
    batch.Delete(IndexRecordKey(drop.name));
    auto next = std::make_shared<CatalogState>(*cat);
    // Its statistics go too: an index made later under the same name must
    // not be planned with them.
    auto stats = cat->stats.find(table->name);
    if (stats != cat->stats.end() && stats->second->indexes.count(drop.name)) {
      auto kept = std::make_shared<TableStats>(*stats->second);
      kept->indexes.erase(drop.name);
      batch.Put(StatsKey(table->name), EncodeStats(*kept));
      next->stats[table->name] = std::move(kept);
    }
    LQ_RETURN_IF_ERROR(Commit(batch));
    next->tables[new_table->name] = new_table;
    next->index_table.erase(drop.name);
    SetCatalog(next);
  }
  Discard(dropped);
  return Status::OK();
}

Status CheckView(std::shared_ptr<const CatalogState> catalog,
                 const ViewSchema& view) {
  LQ_RETURN_IF_ERROR(RefuseParameters(*view.select, view.name));
  parser::Select select;
  parser::SelectItem star;
  star.text = "*";
  select.items.push_back(std::move(star));
  select.table = view.name;
  Binder binder(std::move(catalog));
  return binder.BindSelect(select).status();
}

// A view is stored as its CREATE VIEW statement. It must read when made
// (its tables and columns exist, its column list fits), as SQLite checks;
// a table it reads may be dropped later, and the view then fails where it
// is used.
Status DatabaseImpl::RunCreateView(const parser::Statement& stmt,
                                   const parser::CreateView& create) {
  WriterLock lock(&writer_);
  LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
  auto cat = catalog();
  if (cat->views.count(create.name)) {
    if (create.if_not_exists) return Status::OK();
    return Status::InvalidArgument("view " + create.name + " already exists");
  }
  if (cat->tables.count(create.name)) {
    return Status::InvalidArgument("there is already a table named " +
                                   create.name);
  }
  if (cat->index_table.count(create.name)) {
    return Status::InvalidArgument("there is already an index named " +
                                   create.name);
  }
  LQ_ASSIGN_OR_RETURN(auto view, MakeViewSchema(create, stmt.text));
  auto next = std::make_shared<CatalogState>(*cat);
  next->views[view->name] = view;
  LQ_RETURN_IF_ERROR(CheckView(next, *view));
  WriteBatch batch;
  PutViewRecord(*view, &batch);
  LQ_RETURN_IF_ERROR(Commit(batch));
  SetCatalog(next);
  return Status::OK();
}

Status DatabaseImpl::RunDropView(const parser::DropView& drop) {
  WriterLock lock(&writer_);
  LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
  auto cat = catalog();
  if (!cat->views.count(drop.name)) {
    if (cat->tables.count(drop.name)) {
      return Status::InvalidArgument(drop.name +
                                     " is a table: use DROP TABLE to drop it");
    }
    if (drop.if_exists) return Status::OK();
    return Status::NotFound("no view " + drop.name);
  }
  WriteBatch batch;
  batch.Delete(ViewRecordKey(drop.name));
  LQ_RETURN_IF_ERROR(Commit(batch));
  auto next = std::make_shared<CatalogState>(*cat);
  next->views.erase(drop.name);
  SetCatalog(next);
  return Status::OK();
}

// Deleted key ranges are compacted once the writer slot is free again:
// other writers need not wait for it, and until it is done every seek that
// lands among the deletions steps over each of them (a MAX() of the index
// before a dropped one took 100 ms instead of microseconds).
void DatabaseImpl::Discard(const std::vector<std::string>& prefixes) {
  for (const std::string& prefix : prefixes) {
    CompactPrefix(store_.get(), prefix);
    deletions_.Forget(prefix);
  }
  CompactDeleted();  // Commit queued parts of them: nothing left to do
}

}  // namespace levelql
