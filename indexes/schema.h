// TableSchema and IndexSchema: what the key layer needs to know about a table.
//
// Plain data built by the engine's catalog from CREATE statements and shared
// read-only (through shared_ptr<const ...>) by every statement that uses it.
// Column numbers index a Row, which holds every column in declaration order;
// a table without a declared primary key has a trailing hidden `rowid`
// column that is its primary key.
#ifndef LEVELQL_INDEXES_SCHEMA_H_
#define LEVELQL_INDEXES_SCHEMA_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "indexes/collation.h"
#include "indexes/key_codec.h"
#include "levelql/value.h"

namespace levelql {

struct ColumnSchema {
  std::string name;
  Type type = Type::kNull;  // scalar type; of the elements when is_list
  bool is_list = false;
  bool not_null = false;
  // Declared UNIQUE on the column (not PRIMARY KEY): its table has a
  // UNIQUE index of its own over it, named <table>_<column>_unique.
  bool unique = false;
  bool hidden = false;                   // the implicit rowid
  const Collation* collation = nullptr;  // TEXT columns; never null for TEXT
  Value default_value;                   // NULL when none was declared
};

struct KeyColumn {
  int column = 0;  // index into TableSchema::columns
  keys::Direction direction = keys::Direction::kAsc;
  const Collation* collation = nullptr;  // for TEXT columns
};

struct IndexSchema {
  int64_t id = 0;  // key prefix; unique across tables and indexes
  std::string name;
  std::string table;
  bool unique = false;
  std::vector<KeyColumn> columns;
  std::vector<int> include;  // INCLUDE columns stored in the entry value
  std::string sql;           // the CREATE INDEX statement
  std::vector<std::string> collation_versions;  // per key column, "" if none

  // The index has a multi-valued (list) column; its scans can return a row
  // more than once and need duplicate elimination.
  bool multi_valued = false;

  // WITH (ranked): entry counts are kept in the key range `rank_id`
  // (engine/storage/rank_index.h), for OFFSET and COUNT(*) in O(log n).
  bool ranked = false;
  int64_t rank_id = 0;

  // The table's salt_buckets (0: not salted): every entry key carries its
  // row's bucket after the index id (indexes/salt.h).
  int salt_buckets = 0;

  // Why the index cannot be used until REINDEX rebuilds it (its keys were
  // made by another collation version, or by an older format); empty when
  // it is usable. The planner never reads such an index and its table
  // cannot be written.
  std::string needs_reindex;
};

struct TableSchema {
  int64_t id = 0;  // key prefix of the rows
  std::string name;
  std::vector<ColumnSchema> columns;
  std::vector<KeyColumn> primary_key;  // the row key, in key order
  bool hidden_rowid = false;           // primary key is the hidden last column
  // The table of a SELECT without FROM: no columns, no storage, one row.
  bool one_row = false;
  // The rows of a view or subquery in FROM that makes rows of its own
  // (GROUP BY, DISTINCT, LIMIT, ...), made for one statement before it runs
  // and read as a table of its result columns (engine/plan/binder.h).
  bool derived = false;
  // WITH (salt_buckets = N), or 0: row keys (and index entry keys) carry a
  // bucket byte after the id (indexes/salt.h).
  int salt_buckets = 0;
  std::string sql;  // the CREATE TABLE statement
  std::vector<std::shared_ptr<const IndexSchema>> indexes;
  // Per primary-key column, the version of the collation its keys are made
  // with ("" if none): pinned like an index's.
  std::vector<std::string> collation_versions;
  // Why the table cannot be read or written until REINDEX rebuilds it (its
  // primary key was made by another collation version); empty when usable.
  std::string needs_reindex;

  // Column number by name (case-sensitive, names are already folded), or -1.
  int FindColumn(const std::string& name) const {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }
  // Without a declared primary key: a hidden INTEGER column, last, is it
  // (named rowid, or _rowid_ when a column is called rowid).
  void AddHiddenRowid() {
    ColumnSchema rowid;
    rowid.name = FindColumn("rowid") >= 0 ? "_rowid_" : "rowid";
    rowid.type = Type::kInteger;
    rowid.not_null = true;
    rowid.hidden = true;
    columns.push_back(rowid);
    hidden_rowid = true;
    primary_key.push_back(
        {static_cast<int>(columns.size()) - 1, keys::Direction::kAsc, nullptr});
  }
  bool IsPrimaryKeyColumn(int column) const {
    for (const KeyColumn& k : primary_key) {
      if (k.column == column) return true;
    }
    return false;
  }
};

}  // namespace levelql

#endif  // LEVELQL_INDEXES_SCHEMA_H_
