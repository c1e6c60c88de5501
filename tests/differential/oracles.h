// Oracles that need no second engine (SQLancer's NoREC and TLP, and plan
// equivalence), each a function of one levelql database and one predicate
// or query.
//
//   NoRec  `SELECT cols FROM t WHERE p` and `SELECT count(*) FROM t WHERE p`
//          (optimized: indexes, rewrites) against the rows of a full scan
//          `SELECT cols, (p) FROM t` whose p is TRUE, evaluated as a value.
//   Tlp    the same full scan partitions the table into p, NOT p and
//          p IS NULL; `WHERE (NOT (p))` and `WHERE ((p) IS NULL)` must
//          return exactly those parts, their counts must add up to
//          count(*), and MIN/MAX/SUM over the parts must combine to the
//          whole table's.
//   PlanEquivalence  one query with every planner rule on, with each rule
//          off in turn, with all off, and with a tiny sort budget: all must
//          return the all-off answer (in order when the query fixes one).
//
// A failing check returns the difference and `tail`, sqllogictest records
// that pin the expected answers (what ToSltWithTail() appends to a shrunk
// case). Not thread-safe (they use the engine they are given).
#ifndef LEVELQL_TESTS_DIFFERENTIAL_ORACLES_H_
#define LEVELQL_TESTS_DIFFERENTIAL_ORACLES_H_

#include <cstdint>
#include <map>
#include <string>

#include "tests/differential/engines.h"
#include "tests/differential/sql_ast.h"

namespace levelql::difftest {

struct OracleResult {
  bool skipped = false;  // an evaluation error made the check meaningless
  std::string diff;      // "" when the oracle holds
  std::string tail;      // on failure: records with the expected answers
};

OracleResult NoRec(Engine& db, const TableDef& t, const Expr& p);
OracleResult Tlp(Engine& db, const TableDef& t, const Expr& p);

// How often switching a rule off changed the EXPLAIN text: evidence that the
// comparison has teeth.
struct PlanTeeth {
  int64_t checks = 0;
  std::map<std::string, int64_t> plan_changed;  // by configuration
};

// The planner rules of engine/rules.h, by name.
const std::vector<std::string>& RuleNames();

OracleResult PlanEquivalence(LevelqlEngine& db, const TableDef& t,
                             const Query& q, PlanTeeth* teeth);

}  // namespace levelql::difftest

#endif  // LEVELQL_TESTS_DIFFERENTIAL_ORACLES_H_
