// Row sources over key streams: the rows of the keys a RowIdStream yields,
// read from the table (Fetch) or built from index entries alone
// (IndexOnly). Both report where the last row sits in the scan order for
// continuation tokens. Used by one thread.
#ifndef LEVELQL_ENGINE_EXEC_ROW_SOURCES_H_
#define LEVELQL_ENGINE_EXEC_ROW_SOURCES_H_

#include <memory>
#include <vector>

#include "engine/exec/operators.h"
#include "engine/exec/row_id_stream.h"

namespace levelql {

// Fetches the row of each key with a point read, giving full rows of
// `table`. With `first_entry_of` (the path of a single scan that can meet a
// row more than once: a multi-valued index), a row is returned only at its
// first entry inside the path's spans, so each row comes out once; the rule
// is stateless, so continuation tokens keep the entry as their position.
// Only the columns `decode` marks are decoded (as NewTableScan).
std::unique_ptr<RowSource> NewFetch(ExecContext* ctx,
                                    std::shared_ptr<const TableSchema> table,
                                    std::unique_ptr<RowIdStream> ids,
                                    NodeStats* stats,
                                    const AccessPath* first_entry_of = nullptr,
                                    const std::vector<char>* decode = nullptr);

// Builds rows from index entries alone: the index key columns (whose key
// form decodes to the value, or whose original text the entry keeps),
// INCLUDE columns and primary-key columns. Only `read_columns` are decoded (the
// others are left as they were, and must not be read); with none, entries are
// only counted (COUNT(*)). With no `index`, rows are made from the primary
// keys of any key stream (a union or intersection of several indexes): only
// primary-key columns can be read.
std::unique_ptr<RowSource> NewIndexOnly(
    std::shared_ptr<const TableSchema> table, const IndexSchema* index,
    std::unique_ptr<RowIdStream> ids, NodeStats* stats,
    const std::vector<int>& read_columns);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_ROW_SOURCES_H_
