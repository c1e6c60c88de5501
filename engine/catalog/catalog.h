// The catalog: which tables and indexes exist, persisted in the database.
//
// Each table and index is stored as a metadata record holding its id and the
// CREATE statement that made it (like sqlite_master); opening a database
// re-parses those statements. A CatalogState is an immutable snapshot shared
// by the statements that read it; DDL builds a new one and swaps it in under
// the database's write mutex. Metadata keys (all start with 0x00) are listed
// in indexes/KEY_FORMAT.md.
#ifndef LEVELQL_ENGINE_CATALOG_CATALOG_H_
#define LEVELQL_ENGINE_CATALOG_CATALOG_H_

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/catalog/stats.h"
#include "engine/storage/kv_store.h"
#include "engine/storage/salted_store.h"
#include "indexes/schema.h"
#include "parser/ast.h"

namespace levelql {

// Metadata keys. Stored on disk - do not change.
inline constexpr std::string_view kFormatKey = std::string_view("\0format", 7);
inline constexpr std::string_view kIcuKey = std::string_view("\0icu", 4);
inline constexpr std::string_view kNextIdKey = std::string_view("\0next_id", 8);
inline constexpr std::string_view kTablePrefix =
    std::string_view("\0table\0", 7);
inline constexpr std::string_view kIndexPrefix =
    std::string_view("\0index\0", 7);
inline constexpr std::string_view kStatsPrefix =
    std::string_view("\0stats\0", 7);
// The secret continuation tokens are authenticated with (continuation.h).
inline constexpr std::string_view kTokenKeyKey =
    std::string_view("\0token_key", 10);
// On a store several processes write (KvStore::shared): the epoch, a value
// that every schema change replaces and a statement's write is conditional
// on, so a process sees another's schema change at its next statement; and
// the schema lock, held (as an ephemeral key) by a schema change of several
// batches (schema_lock.h). Both absent on a store with one writer.
inline constexpr std::string_view kEpochKey = std::string_view("\0epoch", 6);
inline constexpr std::string_view kSchemaLockKey =
    std::string_view("\0epoch\0lock", 11);
// Present while CREATE INDEX backfills; its index is dropped on open.
inline constexpr std::string_view kBuildingPrefix =
    std::string_view("\0building\0", 10);
// A table or index that must be rebuilt before use (format upgrades):
// the value says why. REINDEX removes it.
inline constexpr std::string_view kReindexPrefix =
    std::string_view("\0reindex\0", 9);
// Present while REINDEX builds new key ranges for a table or index: the ids
// of the new ranges (INTEGER components). Opening a database that has one
// removes those ranges (the REINDEX did not finish).
inline constexpr std::string_view kRebuildingPrefix =
    std::string_view("\0rebuilding\0", 12);
// Key ranges (by id) that REINDEX replaced and that are still being
// deleted; opening a database finishes deleting them.
inline constexpr std::string_view kGarbagePrefix =
    std::string_view("\0garbage\0", 9);
// Views: the CREATE VIEW statement of each (since format version 4).
inline constexpr std::string_view kViewPrefix = std::string_view("\0view\0", 6);
// The on-disk format version this build writes. Versions 1 to 4 are read
// and upgraded on open (indexes/KEY_FORMAT.md, "Versions").
inline constexpr std::string_view kFormatVersion = "5";

// A view: a named SELECT, read wherever a table may be
// (engine/plan/inline_from.h).
struct ViewSchema {
  std::string name;
  std::string sql;                   // its CREATE VIEW statement
  std::vector<std::string> columns;  // CREATE VIEW v (a, b): the names
  std::shared_ptr<const parser::Select> select;
};

struct CatalogState {
  std::map<std::string, std::shared_ptr<const TableSchema>> tables;
  std::map<std::string, std::string> index_table;  // index name -> table
  // Indexes whose CREATE INDEX did not finish (a crash during backfill):
  // not in `tables`; the database removes them when it opens.
  // (name, the key ranges it wrote: entries, and counts when ranked)
  std::vector<std::pair<std::string, std::vector<int64_t>>> unfinished_indexes;
  std::map<std::string, std::shared_ptr<const ViewSchema>> views;
  // ANALYZE statistics by table name (absent until ANALYZE runs).
  std::map<std::string, std::shared_ptr<const TableStats>> stats;
  int64_t next_id = 1;
  // A fingerprint of every table and index definition: equal exactly when
  // the schema is the same, also across reopening the database.
  uint64_t version = 0;
  // kEpochKey's value when the catalog was read (nullopt: absent).
  std::optional<std::string> epoch;
  // The per-database secret of continuation tokens (kTokenKeyBytes bytes).
  std::string token_key;
  // The salted tables' key ranges (SaltLayoutOf), for the salted view
  // statements read through; empty when no table is salted.
  std::shared_ptr<const SaltLayout> salt_layout =
      std::make_shared<const SaltLayout>();

  const TableSchema* FindTable(const std::string& name) const {
    auto it = tables.find(name);
    return it == tables.end() ? nullptr : it->second.get();
  }
  const ViewSchema* FindView(const std::string& name) const {
    auto it = views.find(name);
    return it == views.end() ? nullptr : it->second.get();
  }
};

uint64_t SchemaVersion(const CatalogState& state);

// The key ranges of the salted tables of `state` and of their indexes.
std::shared_ptr<const SaltLayout> SaltLayoutOf(const CatalogState& state);

// Most columns a table may have (SQLite's default).
inline constexpr size_t kMaxColumns = 2000;

// Builds a table schema from its CREATE TABLE statement (validating names,
// types, collations and defaults).
Result<std::shared_ptr<TableSchema>> MakeTableSchema(
    const parser::CreateTable& create, int64_t id, const std::string& sql);
Result<std::shared_ptr<IndexSchema>> MakeIndexSchema(
    const parser::CreateIndex& create, const TableSchema& table, int64_t id,
    const std::string& sql);

// A view from its CREATE VIEW statement.
Result<std::shared_ptr<ViewSchema>> MakeViewSchema(
    const parser::CreateView& create, const std::string& sql);

// Catalog records.
void PutTableRecord(const TableSchema& table, WriteBatch* batch);
void PutViewRecord(const ViewSchema& view, WriteBatch* batch);
std::string ViewRecordKey(const std::string& name);
void PutIndexRecord(const IndexSchema& index, WriteBatch* batch);
void PutNextId(int64_t next_id, WriteBatch* batch);
std::string TableRecordKey(const std::string& name);
std::string IndexRecordKey(const std::string& name);
std::string BuildingKey(const std::string& index);
std::string ReindexKey(const std::string& name);
std::string RebuildingKey(const std::string& name);
std::string GarbageKey(int64_t id);

// Reads the catalog; initializes an empty database (format version, ICU
// version, token secret). Refuses a database of an unknown format version.
// Upgrades format 1 in place (metadata only). A table or index whose keys
// were made by another collation version, or that format 1 may have laid
// out differently, is loaded with needs_reindex set (quarantined until
// REINDEX), never answered from silently wrong keys.
Result<CatalogState> LoadCatalog(KvStore* store, bool read_only);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_CATALOG_CATALOG_H_
