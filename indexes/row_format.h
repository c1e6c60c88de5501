// The bytes of rows and index entries (specified in indexes/KEY_FORMAT.md).
//
// Row:         key [table id][pk components]       value 0x01 [stored columns]
// Index entry: key [index id][indexed components][pk components]
//              value [INCLUDE columns]
// UNIQUE index entry none of whose OWN indexed components is NULL:
//              key [index id][indexed components]
//              value [varint length][pk components][INCLUDE columns]
// The layout is a property of each entry, told from the entry's own bytes by
// EntryLayoutOf: the writer and every reader decide through it.
//
// "pk components" are the same bytes in rows and index entries, so an index
// entry leads to its row key without decoding, and pk components of one table
// compare (memcmp) in primary-key order: the property merge-joins rely on.
// Text is keyed by its collation's sort key; a primary-key column whose key
// form cannot be decoded back to the text (non-binary collation) is also
// stored in the row value. Stateless functions; thread-safe.
#ifndef LEVELQL_INDEXES_ROW_FORMAT_H_
#define LEVELQL_INDEXES_ROW_FORMAT_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "indexes/key_codec.h"
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
// The same for a column of `type` keyed under `collation` (which may differ
// from the column's own: an index's COLLATE).
void EncodeKeyComponent(Type type, const Collation* collation,
                        const Value& value, keys::Direction direction,
                        std::string* out);
// Appends the key form of one value of the index or primary-key column
// `key` of `table`: in the key column's collation (an index's COLLATE, else
// the column's) and direction.
void EncodeKeyColumn(const TableSchema& table, const KeyColumn& key,
                     const Value& value, std::string* out);

// Whether the key form of the scalar index column `key` is a collation key
// (TEXT under a non-binary collation), so that the entry's value also holds
// the original text (format 2): such a column is read from the entry too.
bool KeepsOriginalText(const TableSchema& table, const KeyColumn& key);

// The primary-key components of `row` (no table prefix).
std::string PrimaryKeyBytes(const TableSchema& table, const Row& row);
std::string RowKey(const TableSchema& table, const Row& row);
std::string RowValue(const TableSchema& table, const Row& row);
// Rebuilds the full row (every column) from a row's key and value. A value
// that ends before its last stored columns (a row written before ALTER
// TABLE ADD COLUMN added them) gives those columns their DEFAULT.
Status DecodeRow(const TableSchema& table, std::string_view key,
                 std::string_view value, Row* row);
// DecodeRow of the columns `wanted` marks (one flag per column of the
// table; empty: every column). The others are skipped - their bytes'
// structure is checked, not their values - and keep what *row held, or are
// NULL when *row had another width: a reader that asks for columns must
// read no other.
Status DecodeRowColumns(const TableSchema& table, std::string_view key,
                        std::string_view value, const std::vector<char>& wanted,
                        Row* row);
// The same with `wanted` null: every column.
inline Status DecodeRowColumns(const TableSchema& table, std::string_view key,
                               std::string_view value,
                               const std::vector<char>* wanted, Row* row) {
  return wanted ? DecodeRowColumns(table, key, value, *wanted, row)
                : DecodeRow(table, key, value, row);
}
// The `wanted` mask of DecodeRowColumns for `columns` (empty when they are
// all of the table's).
std::vector<char> DecodeMaskFor(const TableSchema& table,
                                const std::set<int>& columns);

// The two layouts of an index entry (KEY_FORMAT.md, "Index entries" and
// "UNIQUE index entries").
enum class EntryLayout : uint8_t {
  kPkInKey,    // key [index id][indexed][pk]  value [INCLUDE]
  kPkInValue,  // key [index id][indexed]      value [varint][pk][INCLUDE]
};

// The layout rule (format v2): an entry of a UNIQUE index has kPkInValue iff
// none of ITS OWN indexed components is NULL; every other entry has
// kPkInKey. Decided from `key` alone: an entry key, or its prefix up to the
// end of the indexed components. Sets *indexed_end (when not null) to the
// offset just past the indexed components. Corruption when the index id or
// the indexed components do not decode.
Status EntryLayoutOf(const IndexSchema& index, std::string_view key,
                     EntryLayout* layout, size_t* indexed_end = nullptr);

// An index entry cut into its parts; views into the key and value given to
// ParseIndexEntry, valid as long as those are.
struct EntryParts {
  EntryLayout layout = EntryLayout::kPkInKey;
  std::string_view indexed;  // the indexed components (after the index id)
  std::string_view pk;       // the primary-key components
  std::string_view include;  // the INCLUDE columns
};

// Cuts an entry by the layout EntryLayoutOf gives it. Corruption when the
// bytes do not fit that layout: a kPkInKey key with nothing after the indexed
// components, or a kPkInValue key with bytes after them, a bad varint, or a
// value shorter than its pk length. The pk and INCLUDE bytes are not decoded.
Status ParseIndexEntry(const IndexSchema& index, std::string_view key,
                       std::string_view value, EntryParts* parts);

// The layout rule above, given whether one of the entry's own indexed
// components is NULL.
inline EntryLayout LayoutOf(const IndexSchema& index, bool has_null) {
  return index.unique && !has_null ? EntryLayout::kPkInValue
                                   : EntryLayout::kPkInKey;
}

// Walks an entry key (or its prefix through the indexed components): the
// keyspace id, then each indexed component `i`, handed to
// `each(i, &rest, &is_null)`, which consumes it (skips or decodes it) and
// says whether it is NULL. Sets where the id and the components end, and
// whether one of them was NULL (the layout rule's input). EntryLayoutOf and
// ParseIndexEntry skip every component; IndexOnly decodes those it reads.
// `id_prefix`, when given, is IdPrefix(index.id): a key that starts with
// it is stepped past it without decoding the id.
template <typename Each>
Status WalkIndexedComponents(const IndexSchema& index, std::string_view key,
                             Each&& each, size_t* id_end, size_t* indexed_end,
                             bool* has_null, std::string_view id_prefix = {}) {
  std::string_view rest = key;
  if (!id_prefix.empty() && key.starts_with(id_prefix)) {
    rest.remove_prefix(id_prefix.size());
  } else {
    LQ_RETURN_IF_ERROR(keys::SkipComponent(&rest, keys::Direction::kAsc));
  }
  *id_end = key.size() - rest.size();
  *has_null = false;
  for (size_t i = 0; i < index.columns.size(); ++i) {
    bool is_null = false;
    LQ_RETURN_IF_ERROR(each(i, &rest, &is_null));
    *has_null = *has_null || is_null;
  }
  *indexed_end = key.size() - rest.size();
  return Status::OK();
}

// ParseIndexEntry for a caller that walked the key itself
// (WalkIndexedComponents, with what that walk set).
Status CutIndexEntry(const IndexSchema& index, std::string_view key,
                     std::string_view value, size_t id_end, size_t indexed_end,
                     bool has_null, EntryParts* parts);

struct IndexEntry {
  std::string key;
  std::string value;
  bool unique_key = false;  // kPkInValue: the key has no pk suffix
};

// Every entry `row` owns in `index`: one, or one per distinct element of a
// multi-valued column (an empty or NULL list owns one NULL entry). Each
// entry's layout comes from EntryLayoutOf on its own indexed components.
void IndexEntriesForRow(const TableSchema& table, const IndexSchema& index,
                        const Row& row, std::vector<IndexEntry>* out);

// The pk components of the row an index entry points at (ParseIndexEntry).
Status PrimaryKeyOfEntry(const TableSchema& table, const IndexSchema& index,
                         std::string_view key, std::string_view value,
                         std::string* pk_bytes);

// Decodes the indexed components (key form) of an index entry.
Status DecodeIndexKey(const IndexSchema& index, std::string_view key,
                      std::vector<Value>* values);

}  // namespace levelql::rows

#endif  // LEVELQL_INDEXES_ROW_FORMAT_H_
