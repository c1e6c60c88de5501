// ALTER TABLE of DatabaseImpl: ADD COLUMN, RENAME TO, RENAME COLUMN, DROP
// COLUMN.
//
// The first three change catalog records only, in one batch, and no row or
// index entry: keys hold ids and values, never names.
//
// ADD COLUMN gives the table's record its CREATE TABLE statement with the
// column appended. A row written before it has a shorter row value and
// reads the column as its DEFAULT (NULL without one): rows::DecodeRow fills
// every stored column past the end of a value that way
// (indexes/KEY_FORMAT.md, "Row values", format version 5). So the column
// may not be anything every row must already hold a key or a value for:
// not PRIMARY KEY, not UNIQUE (its index would need every row's entry), not
// NOT NULL without a non-NULL DEFAULT.
//
// The renames rewrite the statements that name the table or column: the
// table's and its indexes' (and move its ANALYZE statistics). The index
// keeping a column-level UNIQUE is renamed with them, so that its name
// keeps the form by which DROP INDEX knows it (<table>_<column>_unique).
// RENAME TO rewrites the views that read the table too, as SQLite does
// (parser/rename_table.h). A view that reads a renamed column would no
// longer read, so RENAME COLUMN is refused while one does (SQLite rewrites
// that view too; levelql names it).
//
// DROP COLUMN rewrites every row without the column: the table is rebuilt
// under a new id from its new definition, as REINDEX rebuilds it
// (reindex.cc: all or nothing across a crash), and its indexes with it. As
// in SQLite, a column a key, an index or a view reads cannot be dropped.
#include <algorithm>

#include "engine/catalog/catalog.h"
#include "engine/catalog/stats.h"
#include "engine/database_impl.h"
#include "parser/lexer.h"
#include "parser/parser.h"
#include "parser/rename_table.h"

namespace levelql {
namespace {

std::string CannotAdd(const std::string& table, const std::string& column) {
  return "cannot add column " + column + " to table " + table + ": ";
}

// What makes `column` impossible to add to a table that may have rows.
Status RefuseColumn(const std::string& table, const parser::ColumnDef& column) {
  const std::string what = CannotAdd(table, column.name);
  if (column.primary_key) {
    return Status::InvalidArgument(what + "a PRIMARY KEY column (the key of " +
                                   "every row is already made)");
  }
  if (column.unique) {
    return Status::InvalidArgument(
        what + "a UNIQUE column (create the column, then CREATE UNIQUE INDEX)");
  }
  return Status::OK();
}

// The statement a catalog record holds, and its node of type Node.
template <typename Node>
Status ParseStored(const std::string& sql, parser::Statement* stmt,
                   Node** node) {
  LQ_ASSIGN_OR_RETURN(*stmt, parser::ParseStatement(sql));
  *node = std::get_if<Node>(&stmt->node);
  return *node ? Status::OK() : Status::Corruption("catalog record: " + sql);
}

// `index` with its CREATE INDEX statement changed by `edit` (which gets
// the parsed statement, and may rename the index) and its table named
// `table`.
template <typename Edit>
Result<std::shared_ptr<const IndexSchema>> EditIndex(const IndexSchema& index,
                                                     const std::string& table,
                                                     const Edit& edit) {
  parser::CreateIndex* create = nullptr;
  parser::Statement stmt;
  LQ_RETURN_IF_ERROR(ParseStored(index.sql, &stmt, &create));
  create->table = table;
  edit(create);
  auto edited = std::make_shared<IndexSchema>(index);
  edited->sql = parser::ToSql(stmt);
  edited->name = create->name;
  edited->table = table;
  return std::shared_ptr<const IndexSchema>(std::move(edited));
}

// A view that reads before the change and would not after it: the change
// is refused, naming the view (which must be dropped and made again).
Status RefuseBrokenViews(const std::shared_ptr<const CatalogState>& before,
                         const std::shared_ptr<const CatalogState>& after,
                         const std::string& what, const std::string& verb) {
  for (const auto& [name, view] : after->views) {
    if (CheckView(before, *view).ok() && !CheckView(after, *view).ok()) {
      return Status::InvalidArgument(
          "view " + name + " reads " + what + ": " + verb +
          " it would leave the view unreadable; DROP VIEW " +
          parser::QuoteIdentifier(name) + " first (and create it again after)");
    }
  }
  return Status::OK();
}

// The table ALTER TABLE names, if it may be altered: not a view, not
// quarantined (the records of a quarantined table or index keep the
// collation versions their keys were made with, and their REINDEX markers
// go by name).
Result<const TableSchema*> AlterableTable(const CatalogState& cat,
                                          const std::string& name) {
  const TableSchema* table = cat.FindTable(name);
  if (!table) {
    if (cat.views.count(name)) {
      return Status::InvalidArgument(name +
                                     " is a view: ALTER TABLE changes tables");
    }
    return Status::NotFound("no table " + name);
  }
  std::string quarantined = table->needs_reindex.empty() ? "" : table->name;
  for (const auto& index : table->indexes) {
    if (!index->needs_reindex.empty()) quarantined = index->name;
  }
  if (!quarantined.empty()) {
    return Status::InvalidArgument(
        "table " + table->name + " cannot be altered until " + quarantined +
        " is rebuilt: run REINDEX " + parser::QuoteIdentifier(quarantined));
  }
  return table;
}

}  // namespace

Status DatabaseImpl::RunAlterTable(const parser::AlterTable& alter) {
  if (options_.read_only) {
    return Status::NotSupported("the database is open read-only");
  }
  if (alter.action == parser::AlterTable::Action::kDropColumn) {
    return DropColumn(alter.name, alter.from);  // (takes the slot itself)
  }
  WriterLock lock(&writer_);
  LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
  auto cat = catalog();
  LQ_ASSIGN_OR_RETURN(const TableSchema* table,
                      AlterableTable(*cat, alter.name));
  auto next = std::make_shared<CatalogState>(*cat);
  WriteBatch batch;
  switch (alter.action) {
    case parser::AlterTable::Action::kAddColumn:
      LQ_RETURN_IF_ERROR(AddColumn(*table, alter.column, next.get(), &batch));
      break;
    case parser::AlterTable::Action::kRenameTable:
      LQ_RETURN_IF_ERROR(RenameTable(*table, alter.to, next.get(), &batch));
      break;
    case parser::AlterTable::Action::kRenameColumn:
      LQ_RETURN_IF_ERROR(
          RenameColumn(*table, alter.from, alter.to, next.get(), &batch));
      break;
    case parser::AlterTable::Action::kDropColumn:
      break;  // (above)
  }
  if (alter.action != parser::AlterTable::Action::kAddColumn) {
    LQ_RETURN_IF_ERROR(RefuseBrokenViews(
        cat, next,
        alter.action == parser::AlterTable::Action::kRenameTable
            ? "table " + table->name
            : "column " + alter.from + " of table " + table->name,
        "renaming"));
  }
  LQ_RETURN_IF_ERROR(Commit(batch));
  SetCatalog(next);
  return Status::OK();
}

Status DatabaseImpl::AddColumn(const TableSchema& table,
                               const parser::ColumnDef& def, CatalogState* next,
                               WriteBatch* batch) {
  LQ_RETURN_IF_ERROR(RefuseColumn(table.name, def));
  // The stored definition, with the column appended (before any table
  // constraint, where a column definition belongs).
  parser::CreateTable* create = nullptr;
  parser::Statement stmt;
  LQ_RETURN_IF_ERROR(ParseStored(table.sql, &stmt, &create));
  create->columns.push_back(parser::Clone(def));
  const std::string sql = parser::ToSql(stmt);
  // (Duplicate names, types, collations and the DEFAULT are checked here,
  // as for CREATE TABLE.)
  LQ_ASSIGN_OR_RETURN(auto altered, MakeTableSchema(*create, table.id, sql));
  const ColumnSchema& added = altered->columns[altered->FindColumn(def.name)];
  if (added.not_null && added.default_value.is_null()) {
    return Status::InvalidArgument(
        CannotAdd(table.name, added.name) +
        "NOT NULL needs a DEFAULT other than NULL (the rows already there "
        "read the DEFAULT as their value)");
  }
  // The indexes name declared columns, whose numbers do not change (only
  // a hidden rowid moves, and the primary key is made again above).
  altered->indexes = table.indexes;
  PutTableRecord(*altered, batch);
  next->tables[altered->name] = std::move(altered);
  return Status::OK();
}

Status DatabaseImpl::RenameTable(const TableSchema& table,
                                 const std::string& to, CatalogState* next,
                                 WriteBatch* batch) {
  if (next->tables.count(to) || next->views.count(to) ||
      next->index_table.count(to)) {
    return Status::InvalidArgument("cannot rename table " + table.name +
                                   " to " + to +
                                   ": there is already a table, view or "
                                   "index of that name");
  }
  parser::CreateTable* create = nullptr;
  parser::Statement stmt;
  LQ_RETURN_IF_ERROR(ParseStored(table.sql, &stmt, &create));
  create->name = to;
  const std::string sql = parser::ToSql(stmt);
  LQ_ASSIGN_OR_RETURN(auto renamed, MakeTableSchema(*create, table.id, sql));
  LQ_RETURN_IF_ERROR(
      RenameIndexes(table, to, "", "", renamed.get(), next, batch));
  next->tables.erase(table.name);
  next->tables[to] = renamed;
  // The views reading it read it under its new name (as SQLite rewrites
  // them).
  for (auto& [name, view] : next->views) {
    parser::CreateView* create_view = nullptr;
    parser::Statement view_stmt;
    LQ_RETURN_IF_ERROR(ParseStored(view->sql, &view_stmt, &create_view));
    const parser::TableRename rename =
        parser::RenameTableIn(create_view->select.get(), table.name, to);
    if (!rename.changed) continue;
    if (rename.to_taken) {
      return Status::InvalidArgument(
          "view " + name + " reads table " + table.name +
          " and already names something " + to + " (an alias or a WITH " +
          "table): renaming the table to " + to +
          " could change what the view reads; DROP VIEW " +
          parser::QuoteIdentifier(name) + " first (and create it again after)");
    }
    // A result column without an alias is named by its text (a column by
    // its name), which the statement written back spells its own way: it
    // keeps its name.
    if (create_view->columns.empty()) {
      for (parser::SelectItem& item : create_view->select->items) {
        if (item.expr && item.alias.empty() &&
            item.expr->kind != parser::ExprKind::kColumn &&
            parser::ToSql(*item.expr) != item.text) {
          item.alias = item.text;
        }
      }
    }
    LQ_ASSIGN_OR_RETURN(auto rewritten,
                        MakeViewSchema(*create_view, parser::ToSql(view_stmt)));
    PutViewRecord(*rewritten, batch);
    view = std::move(rewritten);
  }
  batch->Delete(TableRecordKey(table.name));
  PutTableRecord(*renamed, batch);
  return Status::OK();
}

Status DatabaseImpl::RenameIndexes(const TableSchema& table,
                                   const std::string& table_to,
                                   const std::string& from,
                                   const std::string& to, TableSchema* renamed,
                                   CatalogState* next, WriteBatch* batch) {
  std::vector<std::pair<std::string, std::string>> moved;  // index names
  for (const auto& index : table.indexes) {
    std::string name = index->name;
    if (IsConstraintIndex(table, *index)) {
      // It keeps its name's form, by which DROP INDEX knows it.
      const std::string& column = table.columns[index->columns[0].column].name;
      const std::string& column_to = column == from ? to : column;
      if (table_to != table.name || column_to != column) {
        next->index_table.erase(index->name);
        name = ConstraintIndexName(*next, table_to, column_to);
      }
    }
    LQ_ASSIGN_OR_RETURN(
        auto edited, EditIndex(*index, table_to, [&](parser::CreateIndex* c) {
          c->name = name;
          for (parser::IndexColumn& key : c->columns) {
            if (key.name == from) key.name = to;
          }
          for (std::string& include : c->include) {
            if (include == from) include = to;
          }
        }));
    renamed->indexes.push_back(edited);
    next->index_table[name] = table_to;
    if (name != index->name) {
      batch->Delete(IndexRecordKey(index->name));
      moved.emplace_back(index->name, name);
    }
    if (edited->sql != index->sql) PutIndexRecord(*edited, batch);
  }
  // ANALYZE's statistics go with the table, each index's with its index.
  auto stats = next->stats.find(table.name);
  if (stats == next->stats.end() || (table_to == table.name && moved.empty())) {
    return Status::OK();
  }
  auto kept = std::make_shared<TableStats>(*stats->second);
  for (const auto& [old_name, new_name] : moved) {
    if (auto it = kept->indexes.find(old_name); it != kept->indexes.end()) {
      kept->indexes[new_name] = it->second;
      kept->indexes.erase(old_name);
    }
  }
  if (table_to != table.name) {
    next->stats.erase(table.name);
    batch->Delete(StatsKey(table.name));
  }
  batch->Put(StatsKey(table_to), EncodeStats(*kept));
  next->stats[table_to] = std::move(kept);
  return Status::OK();
}

Status DatabaseImpl::RenameColumn(const TableSchema& table,
                                  const std::string& from,
                                  const std::string& to, CatalogState* next,
                                  WriteBatch* batch) {
  const int column = table.FindColumn(from);
  if (column < 0 || table.columns[column].hidden) {
    return Status::InvalidArgument("no column " + from + " in table " +
                                   table.name);
  }
  if (const int taken = table.FindColumn(to);
      taken >= 0 && !table.columns[taken].hidden && taken != column) {
    return Status::InvalidArgument("cannot rename column " + from +
                                   " of table " + table.name + " to " + to +
                                   ": there is already a column " + to);
  }
  parser::CreateTable* create = nullptr;
  parser::Statement stmt;
  LQ_RETURN_IF_ERROR(ParseStored(table.sql, &stmt, &create));
  for (parser::ColumnDef& def : create->columns) {
    if (def.name == from) def.name = to;
  }
  for (parser::IndexColumn& key : create->primary_key) {
    if (key.name == from) key.name = to;
  }
  const std::string sql = parser::ToSql(stmt);
  LQ_ASSIGN_OR_RETURN(auto renamed, MakeTableSchema(*create, table.id, sql));
  LQ_RETURN_IF_ERROR(
      RenameIndexes(table, table.name, from, to, renamed.get(), next, batch));
  next->tables[table.name] = renamed;
  PutTableRecord(*renamed, batch);
  return Status::OK();
}

Status DatabaseImpl::DropColumn(const std::string& table_name,
                                const std::string& column) {
  // (Checked again under the writer slot; here for what the rebuild would
  // call only "no table".)
  LQ_RETURN_IF_ERROR(AlterableTable(*catalog(), table_name).status());
  auto change = [&](const std::shared_ptr<const CatalogState>& cat)
      -> Result<TableChange> {
    LQ_ASSIGN_OR_RETURN(const TableSchema* table,
                        AlterableTable(*cat, table_name));
    const int c = table->FindColumn(column);
    if (c < 0 || table->columns[c].hidden) {
      return Status::InvalidArgument("no column " + column + " in table " +
                                     table->name);
    }
    const std::string cannot =
        "cannot drop column " + column + " of table " + table->name + ": ";
    if (table->IsPrimaryKeyColumn(c)) {
      return Status::InvalidArgument(cannot + "it is in the primary key");
    }
    if (table->columns[c].unique) {
      return Status::InvalidArgument(cannot + "a UNIQUE column");
    }
    for (const auto& index : table->indexes) {
      bool reads = std::find(index->include.begin(), index->include.end(), c) !=
                   index->include.end();
      for (const KeyColumn& k : index->columns) reads |= k.column == c;
      if (reads) {
        return Status::InvalidArgument(
            cannot + "index " + index->name + " reads it (DROP INDEX " +
            parser::QuoteIdentifier(index->name) + " first)");
      }
    }
    parser::CreateTable* create = nullptr;
    parser::Statement stmt;
    LQ_RETURN_IF_ERROR(ParseStored(table->sql, &stmt, &create));
    std::erase_if(create->columns, [&](const parser::ColumnDef& def) {
      return def.name == column;
    });
    if (create->columns.empty()) {
      return Status::InvalidArgument(cannot + "it is the table's only column");
    }
    TableChange changed{parser::ToSql(stmt), c};
    LQ_ASSIGN_OR_RETURN(auto dropped,
                        MakeTableSchema(*create, table->id, changed.sql));
    auto after = std::make_shared<CatalogState>(*cat);
    after->tables[table->name] = dropped;
    LQ_RETURN_IF_ERROR(RefuseBrokenViews(
        cat, after, "column " + column + " of table " + table->name,
        "dropping"));
    return changed;
  };
  return Rebuild(table_name, change, "ALTER TABLE");
}

}  // namespace levelql
