// The bytes of rows and index entries (specified in indexes/KEY_FORMAT.md).
//
// Row:         key [table id][pk components]       value 0x01 [stored columns]
// Index entry: key [index id][indexed components][pk components]
//              value [INCLUDE columns]
// UNIQUE index entry whose indexed values are all non-NULL:
//              key [index id][indexed components]
//              value [varint length][pk components][INCLUDE columns]
//
// "pk components" are the same bytes in rows and index entries, so an index
// entry leads to its row key without decoding, and pk components of one table
// compare (memcmp) in primary-key order: the property merge-joins rely on.
// Text is keyed by its collation's sort key; a primary-key column whose key
// form cannot be decoded back to the text (non-binary collation) is also
// stored in the row value. Stateless functions; thread-safe.
#ifndef LEVELQL_INDEXES_ROW_FORMAT_H_
#define LEVELQL_INDEXES_ROW_FORMAT_H_

#include <string>
#include <string_view>
#include <vector>

#include "indexes/schema.h"
#include "levelql/status.h"

namespace levelql::rows {

// Row value format byte. Stored on disk - do not change.
inline constexpr char kRowFormatV1 = 0x01;

// [id] as an encoded INTEGER: the prefix of a table's rows or an index.
std::string IdPrefix(int64_t id);

// Appends the key form of one value of `column` (collation sort key for
// non-binary TEXT) in `direction`.
void EncodeKeyComponent(const ColumnSchema& column, const Value& value,
                        keys::Direction direction, std::string* out);

// The primary-key components of `row` (no table prefix).
std::string PrimaryKeyBytes(const TableSchema& table, const Row& row);
std::string RowKey(const TableSchema& table, const Row& row);
std::string RowValue(const TableSchema& table, const Row& row);
// Rebuilds the full row (every column) from a row's key and value.
Status DecodeRow(const TableSchema& table, std::string_view key,
                 std::string_view value, Row* row);

struct IndexEntry {
  std::string key;
  std::string value;
  bool unique_key = false;  // key is the unique key (no pk suffix)
};

// Every entry `row` owns in `index`: one, or one per distinct element of a
// multi-valued column (an empty or NULL list owns one NULL entry).
void IndexEntriesForRow(const TableSchema& table, const IndexSchema& index,
                        const Row& row, std::vector<IndexEntry>* out);

// The pk components of the row an index entry points at.
Status PrimaryKeyOfEntry(const TableSchema& table, const IndexSchema& index,
                         std::string_view key, std::string_view value,
                         std::string* pk_bytes);

// Decodes the indexed components (key form) of an index entry.
Status DecodeIndexKey(const IndexSchema& index, std::string_view key,
                      std::vector<Value>* values);

}  // namespace levelql::rows

#endif  // LEVELQL_INDEXES_ROW_FORMAT_H_
