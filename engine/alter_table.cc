// ALTER TABLE ... ADD COLUMN of DatabaseImpl.
//
// The column is added to the table's definition only: its catalog record
// gets the CREATE TABLE statement with the column appended, in one batch,
// and no row is rewritten. A row written before the column existed has a
// shorter row value, and reads the column as its DEFAULT (NULL without
// one): rows::DecodeRow fills every stored column past the end of a value
// that way (indexes/KEY_FORMAT.md, "Row values", format version 5). So the
// column may not be anything every row must already hold a key or a value
// for: not PRIMARY KEY, not UNIQUE (its index would need every row's
// entry), not NOT NULL without a non-NULL DEFAULT.
#include "engine/catalog/catalog.h"
#include "engine/database_impl.h"
#include "parser/parser.h"

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

}  // namespace

Status DatabaseImpl::RunAlterTable(const parser::AlterTable& alter) {
  WriterLock lock(&writer_);
  LQ_RETURN_IF_ERROR(lock.Acquire(busy_timeout_ms()));
  auto cat = catalog();
  const TableSchema* table = cat->FindTable(alter.name);
  if (!table) {
    if (cat->views.count(alter.name)) {
      return Status::InvalidArgument(alter.name +
                                     " is a view: ALTER TABLE changes tables");
    }
    return Status::NotFound("no table " + alter.name);
  }
  if (!table->needs_reindex.empty()) {
    return Status::InvalidArgument(
        "table " + table->name + " cannot be altered until it is rebuilt: " +
        table->needs_reindex + "; run REINDEX " + table->name);
  }
  LQ_RETURN_IF_ERROR(RefuseColumn(table->name, alter.column));

  // The stored definition, with the column appended (before any table
  // constraint, where a column definition belongs).
  LQ_ASSIGN_OR_RETURN(parser::Statement stmt,
                      parser::ParseStatement(table->sql));
  auto* create = std::get_if<parser::CreateTable>(&stmt.node);
  if (!create) return Status::Corruption("catalog record is not a table");
  parser::ColumnDef column;
  column.name = alter.column.name;
  column.pos = alter.column.pos;
  column.type = alter.column.type;
  column.not_null = alter.column.not_null;
  column.collation = alter.column.collation;
  if (alter.column.default_value) {
    column.default_value = parser::Clone(*alter.column.default_value);
  }
  create->columns.push_back(std::move(column));
  const std::string sql = parser::ToSql(stmt);
  // (Duplicate names, types, collations and the DEFAULT are checked here,
  // as for CREATE TABLE.)
  LQ_ASSIGN_OR_RETURN(auto altered, MakeTableSchema(*create, table->id, sql));
  const ColumnSchema& added =
      altered->columns[altered->FindColumn(alter.column.name)];
  if (added.not_null && added.default_value.is_null()) {
    return Status::InvalidArgument(
        CannotAdd(table->name, added.name) +
        "NOT NULL needs a DEFAULT other than NULL (the rows already there "
        "read the DEFAULT as their value)");
  }
  if (altered->salt_buckets != table->salt_buckets ||
      altered->primary_key.size() != table->primary_key.size()) {
    return Status::Corruption("table " + table->name +
                              " reads differently once altered");
  }
  // The indexes name declared columns, whose numbers do not change (only
  // a hidden rowid moves, and the primary key is made again above).
  altered->indexes = table->indexes;

  WriteBatch batch;
  PutTableRecord(*altered, &batch);
  LQ_RETURN_IF_ERROR(Commit(batch));
  auto next = std::make_shared<CatalogState>(*cat);
  next->tables[altered->name] = std::move(altered);
  SetCatalog(next);
  return Status::OK();
}

}  // namespace levelql
