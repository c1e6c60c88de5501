// Renaming a table inside a SELECT (ALTER TABLE ... RENAME TO, for the
// views that read the table).
//
// Every FROM or JOIN item that names the table `from` (where no common
// table of that name, from a WITH around it, hides it) is made to name
// `to`, and so is every qualifier (`from.col`, `from.*`) that means such an
// item: the innermost FROM item visible under that name, searching the
// SELECT the qualifier is in, then the SELECTs around it. An item with an
// alias keeps its alias, so the qualifiers naming the alias stay. SQLite
// rewrites its views' text the same way.
#ifndef LEVELQL_PARSER_RENAME_TABLE_H_
#define LEVELQL_PARSER_RENAME_TABLE_H_

#include <string>

#include "parser/ast.h"

namespace levelql::parser {

struct TableRename {
  bool changed = false;  // something named the table
  // A FROM item's alias or a WITH table somewhere in the SELECT is already
  // called `to`: a reference made to say `to` could then mean that one
  // instead (in the SELECT holding it, or one inside), so the rename must
  // not be made (SQLite makes it, and such a view reads other rows).
  bool to_taken = false;
};

// Renames table `from` as `to` in `select` and the SELECTs inside it.
TableRename RenameTableIn(Select* select, const std::string& from,
                          const std::string& to);

}  // namespace levelql::parser

#endif  // LEVELQL_PARSER_RENAME_TABLE_H_
