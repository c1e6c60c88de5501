// Views and subqueries in FROM, merged into the query that reads them.
//
// `SELECT pk FROM v WHERE pk > 3`, where v is `SELECT pk, col0 FROM tab0
// WHERE col3 > 2`, is bound and planned as `SELECT tab0.pk FROM tab0 AS v
// WHERE tab0.col3 > 2 AND tab0.pk > 3` (SQLite's query flattening): the
// merged query reaches every index of the tables underneath, and its rows
// keep the positions continuation tokens name. Each name of the outer query
// that reads a column of the view is replaced by the view's expression for
// it; the view's WHERE joins the outer WHERE; its tables take the view's
// place in FROM (renamed `v`, or `v.t` when it reads several, so no name of
// the outer query can reach them); its ORDER BY is kept only when it would
// order the outer rows (one FROM item, no ORDER BY, grouping or DISTINCT
// of its own) and dropped otherwise, as SQL gives it no other meaning.
//
// A view or subquery with DISTINCT, GROUP BY, HAVING, an aggregate, LIMIT,
// OFFSET or a compound has rows of its own making and cannot be merged: it
// stays in FROM as a subquery (a view's SELECT, with the view's column
// names in Select::column_names), which the binder reads as a table of its
// rows (binder.h, BindDerived); names of the query reading it are left to
// the binder, as a table's are.
#ifndef LEVELQL_ENGINE_PLAN_INLINE_FROM_H_
#define LEVELQL_ENGINE_PLAN_INLINE_FROM_H_

#include <memory>

#include "engine/catalog/catalog.h"
#include "levelql/status.h"
#include "parser/ast.h"

namespace levelql {

// When `select` reads a view or a subquery in FROM: the same query over
// tables only; else null (nothing to merge). Subqueries inside its
// expressions are left for their own binding.
Result<std::unique_ptr<parser::Select>> InlineFrom(const parser::Select& select,
                                                   const CatalogState& catalog);

// A view's SELECT may not read parameters (SQLite refuses them too).
Status RefuseParameters(const parser::Select& select, const std::string& view);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_PLAN_INLINE_FROM_H_
