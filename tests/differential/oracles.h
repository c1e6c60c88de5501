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
//   ContinuationReplay  one query read in pages, each page from
//          Statement::Resume(token of the previous page's last row), must
//          return the unpaged answer. An empty token while rows remain, or
//          any error from Resume, is a failure. Optionally ANALYZE runs or
//          the planner rules change after the first page: then the resume
//          must return exactly the remaining rows or be refused with an
//          InvalidArgument saying the plan changed.
//   ContinuationWithWrites  one query, made to output every column (what
//          decides whether a row matches and where it comes), read in
//          pages with writes to its table between them. A row that every
//          state before, between and after the writes holds as often must
//          come that many times, in the unpaged answer's order; no row may
//          come more often than it ever was present; and a cursor's
//          previous page, when its starting row is still there, holds the
//          rows at and before that row as they are now.
//   PlanReuse  one query prepared with its WHERE/ON literals as parameters
//          and run with several sets of values: each run (the later ones
//          reuse the first run's plan) must return what the query planned
//          afresh for those values returns.
//
// A check is skipped only when arithmetic overflow (an error by design)
// happens in one evaluation and not in the one it is compared with; any
// other error is a failure.
//
// A failing check returns the difference and `tail`, sqllogictest records
// that pin the expected answers (what ToSltWithTail() appends to a shrunk
// case). Not thread-safe (they use the engine they are given).
#ifndef LEVELQL_TESTS_DIFFERENTIAL_ORACLES_H_
#define LEVELQL_TESTS_DIFFERENTIAL_ORACLES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "tests/differential/engines.h"
#include "tests/differential/sql_ast.h"

namespace levelql::difftest {

struct OracleResult {
  bool skipped = false;  // overflow in one evaluation only: not comparable
  bool refused = false;  // ContinuationReplay: resume refused, plan changed
  // The failure is that the reference answer could not be computed.
  bool reference_failed = false;
  std::string diff;  // "" when the oracle holds
  std::string tail;  // on failure: records with the expected answers
};

OracleResult NoRec(Engine& db, const TableDef& t, const Expr& p);
OracleResult Tlp(Engine& db, const TableDef& t, const Expr& p);

// How often switching a rule off changed the EXPLAIN text: evidence that the
// comparison has teeth.
struct PlanTeeth {
  int64_t checks = 0;
  std::map<std::string, int64_t> plan_changed;  // by configuration
};

// The planner rules of engine/rules.h, by name, as the engine lists them.
const std::vector<std::string>& RuleNames();

OracleResult PlanEquivalence(LevelqlEngine& db, const TableDef& t,
                             const Query& q, PlanTeeth* teeth);

// What ContinuationReplay changes between the first page and the rest.
struct Midway {
  enum class Kind { kNone, kAnalyze, kRules };
  Kind kind = Kind::kNone;
  std::string rules;  // kRules: the new PRAGMA disable_rules value

  std::string ToString() const;  // "", "ANALYZE t0", "PRAGMA ..."
};

// The message part that makes a refused resume acceptable after a Midway
// change (with code InvalidArgument).
inline constexpr const char* kPlanChangedMessage = "plan changed";
// The same for a query reading rows it makes first (a FULL JOIN, a grouped
// subquery in FROM) once a write changed them: a token names a row by its
// place among them, so it is refused (DIALECT.md), on LevelDB and etcd.
inline constexpr const char* kMadeRowsChangedMessage =
    "they changed since it was taken";

// Pages of one row for answers up to 60 rows, larger ones (chosen from the
// row count, so a replay pages the same way) beyond. The database runs with
// WithOpenBugRulesOff("") before and after.
OracleResult ContinuationReplay(LevelqlEngine& db, const TableDef& t,
                                const Query& q, const Midway& midway);

// `q` made to output every column of its table(s) after its own outputs,
// without DISTINCT, LIMIT or OFFSET; nothing for aggregates and groups,
// whose rows are not the table's.
std::optional<Query> EveryColumnQuery(Query q,
                                      const std::vector<TableDef>& tables);

// Reads EveryColumnQuery(q) in pages (1-3 rows up to 60 rows, else up to
// 50: by the row count, so a replay pages the same way) and
// runs `writes` between pages, spread over the read; checks what the list
// above says. A state in which the query fails (overflow) skips the
// comparison. `tail` holds the writes as sqllogictest comments.
OracleResult ContinuationWithWrites(LevelqlEngine& db,
                                    const std::vector<TableDef>& tables,
                                    const Query& q,
                                    const std::vector<std::string>& writes);

// Plan reuse: the query with the literals of its WHERE and ON clauses as
// `?` parameters, prepared once and run with 8 sets of values (the
// literals, then values near them drawn from `variant_seed`: of the same
// type mostly, now and then NULL or another of them), returns for each
// what the same SQL planned afresh (PRAGMA disable_rules =
// 'plan_cache') returns.
OracleResult PlanReuse(LevelqlEngine& db, const TableDef& t, const Query& q,
                       uint64_t variant_seed);

}  // namespace levelql::difftest

#endif  // LEVELQL_TESTS_DIFFERENTIAL_ORACLES_H_
