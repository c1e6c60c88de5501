// Common table expressions (WITH): each read as a subquery in FROM.
//
// `WITH a AS (SELECT ...), b AS (SELECT ... FROM a) SELECT ... FROM b, a`
// becomes `SELECT ... FROM (SELECT ... FROM (SELECT ...) AS a) AS b,
// (SELECT ...) AS a`: every FROM item that names a common table in scope is
// replaced by a copy of its SELECT (named by the table's column list, when
// it has one), so that the rest of the engine sees only subqueries in FROM,
// which it merges into the query or reads as tables of their rows. A common
// table is in scope in the SELECT its WITH heads (all of a compound's
// SELECTs), in the subqueries inside it, and in the other common tables of
// the same WITH (before or after it, as in SQLite); an inner WITH's name
// hides an outer one's and a table's. A common table read, directly or
// through others, by its own SELECT is a circular reference
// (InvalidArgument, as SQLite's error without RECURSIVE). WITH RECURSIVE
// is NotSupported.
#ifndef LEVELQL_PARSER_COMMON_TABLES_H_
#define LEVELQL_PARSER_COMMON_TABLES_H_

#include <memory>
#include <vector>

#include "levelql/status.h"
#include "parser/ast.h"

namespace levelql::parser {

// Whether `select` or a SELECT inside it has a WITH clause.
bool HasCommonTables(const Select& select);

// `select` with every WITH of it and of the SELECTs inside it expanded as
// above (no WITH left). Errors: WITH RECURSIVE (NotSupported), a name given
// twice in one WITH or a circular reference (InvalidArgument), each naming
// its place.
Result<std::shared_ptr<Select>> ExpandCommonTables(const Select& select);

// The WITH heading an INSERT, UPDATE or DELETE (`with`: its tables' SELECTs
// are expanded in place) expanded into `selects` and the subqueries of
// `exprs`, and every WITH inside them: the same errors.
Status ExpandCommonTablesIn(std::vector<CommonTable>* with, bool recursive,
                            const std::vector<Select*>& selects,
                            const std::vector<ExprPtr*>& exprs);

}  // namespace levelql::parser

#endif  // LEVELQL_PARSER_COMMON_TABLES_H_
