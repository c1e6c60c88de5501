// Hostile SQL through the whole engine (issue 8): valid statements are
// mutated (byte flips, spliced tokens, cut spans, huge numbers, deep
// nesting, invalid UTF-8, spliced statements) and run with Database::Execute
// and Query on a populated database. Each one must come back as a result or
// a Status - never a crash, a hang or a sanitizer report - and the database
// must stay consistent (CHECK every 250 inputs). The parser alone has its
// own libFuzzer target (tests/fuzz); this drives binder, planner, executor
// and writes too.
//
// LEVELQL_HOSTILE_INPUTS sets the number of inputs (default 5000, shared by
// the fixed seeds); LEVELQL_SEED replays one seed.
#include <gtest/gtest.h>

#include <random>

#include "levelql/database.h"
#include "tests/support/env.h"
#include "tests/support/report.h"

namespace levelql::reliability {
namespace {

const char* const kCorpus[] = {
    "SELECT * FROM t WHERE a = 5",
    "SELECT id, b FROM t WHERE a BETWEEN 3 AND 9 ORDER BY b DESC LIMIT 5",
    "SELECT count(*), sum(a), avg(a), min(b), max(b) FROM t WHERE b LIKE 'n%'",
    "SELECT DISTINCT a FROM t WHERE tags = 'x' ORDER BY 1 LIMIT 3 OFFSET 1",
    "SELECT id FROM t WHERE a IN (1, 2, 3) OR b = 'name 3' ORDER BY id",
    "SELECT lower(b), upper(b), length(b), substr(b, 2, 3), abs(a) FROM t",
    "SELECT coalesce(a, 0), ifnull(b, 'x'), nullif(a, 1) FROM t WHERE id < 9",
    "SELECT CAST(a AS TEXT), CAST(b AS INTEGER), a % 3, a / 2 FROM t",
    "SELECT * FROM t WHERE b LIKE '%a_b%' ESCAPE '!' AND NOT a IS NULL",
    "SELECT id FROM t WHERE ts > '2012-09-01' AND ts < '2012-10-01 12:00:00'",
    "INSERT INTO t VALUES (1000, 1, 'new', ARRAY['x', 'y'], 2.5, x'00ff', "
    "'2012-09-01')",
    "INSERT INTO t (id, a) SELECT id + 5000, a FROM t WHERE a < 3",
    "UPDATE t SET a = a + 1, b = b || '!' WHERE id BETWEEN 10 AND 20",
    "UPDATE t SET tags = ARRAY['z'] WHERE tags = 'x'",
    "DELETE FROM t WHERE a > 40 AND id % 7 = 0",
    "CREATE INDEX IF NOT EXISTS t_ab ON t (a DESC, b COLLATE nocase)",
    "DROP INDEX IF EXISTS t_ab",
    "CREATE TABLE IF NOT EXISTS u (k TEXT PRIMARY KEY, v REAL DEFAULT 1.5)",
    "EXPLAIN SELECT * FROM t WHERE a = 1 AND b = 'x'",
    "EXPLAIN ANALYZE SELECT id FROM t WHERE b >= 'name' LIMIT 2",
    "PRAGMA disable_rules = 'all'",
    "PRAGMA disable_rules = ''",
    "CHECK TABLE t",
    "SELECT * FROM t WHERE r = -0.0 OR r > 1e308 OR r < -1e999",
};

const char* const kTokens[] = {
    "(",
    ")",
    ",",
    "'",
    "\"",
    "?",
    ":x",
    "?999999999",
    "NULL",
    "NOT",
    "IN (",
    "LIKE",
    "ESCAPE",
    "BETWEEN",
    "AND",
    "OR",
    "ORDER BY",
    "LIMIT",
    "OFFSET",
    "*",
    "/",
    "%",
    "||",
    "-",
    "CAST(",
    "ARRAY[",
    "]",
    "x'",
    "x'0'",
    "1e999",
    "-9223372036854775808",
    "9223372036854775808",
    "0.0",
    "COLLATE \"icu:de\"",
    "COLLATE nocase",
    ";",
    "/*",
    "--",
    "\xff\xfe",
    "\xc0\x80",
    "\xed\xa0\x80",
    "SELECT",
    "FROM t",
    "WHERE",
    "t",
    "id",
    "a",
    "b",
    "tags",
    "ts",
    "r",
};

std::string Mutate(std::string s, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 2);
  for (int e = 0; e < edits; ++e) {
    const size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (rng() % 9) {
      case 0:  // flip a byte
        if (!s.empty()) s[rng() % s.size()] ^= static_cast<char>(rng());
        break;
      case 1:  // insert a token
        s.insert(at,
                 std::string(" ") + kTokens[rng() % std::size(kTokens)] + " ");
        break;
      case 2:  // cut a span
        if (at < s.size()) s.erase(at, rng() % 12);
        break;
      case 3:  // duplicate a span
        if (at < s.size()) s.insert(at, s.substr(at, rng() % 20));
        break;
      case 4: {  // deep nesting
        const int depth = static_cast<int>(rng() % 1500);
        s.insert(at, std::string(depth, '(') + "1" + std::string(depth, ')'));
        break;
      }
      case 5:  // a long run of one character
        s.insert(at, std::string(rng() % 3000, "a%_'(-"[rng() % 6]));
        break;
      case 6:  // splice another statement
        s.insert(at, kCorpus[rng() % std::size(kCorpus)]);
        break;
      case 7:  // huge number
        s.insert(at, std::string(1 + rng() % 40, '9'));
        break;
      default:  // random bytes
        for (int i = static_cast<int>(rng() % 8); i > 0; --i) {
          s.insert(s.begin() + static_cast<std::ptrdiff_t>(at),
                   static_cast<char>(rng()));
        }
        break;
    }
  }
  return s;
}

// `inputs` statements mutated with the randomness of `seed`.
void RunHostileInputs(uint64_t seed, int64_t inputs) {
  std::mt19937_64 rng(seed);
  auto opened = Database::Open(":memory:");
  ASSERT_TRUE(opened.ok());
  Database& db = **opened;
  ASSERT_TRUE(db.Execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, "
                         "b TEXT, tags TEXT[], r REAL, x BLOB, ts TIMESTAMP);"
                         "CREATE INDEX t_a ON t (a);"
                         "CREATE INDEX t_b ON t (b COLLATE nocase, a DESC);"
                         "CREATE INDEX t_tags ON t (tags);"
                         "CREATE INDEX t_ts ON t (ts DESC)")
                  .ok());
  std::string fill = "INSERT INTO t VALUES ";
  for (int i = 0; i < 200; ++i) {
    if (i) fill += ", ";
    fill += "(" + std::to_string(i) + ", " + std::to_string(i % 50) +
            ", 'name " + std::to_string(i) + "', ARRAY['" +
            std::string(1, static_cast<char>('x' + i % 3)) + "'], " +
            std::to_string(i) + ".5, x'0a', '2012-09-" +
            std::to_string(10 + i % 19) + "')";
  }
  Status filled = db.Execute(fill);
  ASSERT_TRUE(filled.ok()) << filled.ToString();
  int64_t ok = 0, errors = 0;
  const auto started = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < inputs; ++i) {
    const std::string sql = Mutate(kCorpus[rng() % std::size(kCorpus)], rng);
    // Alternate the entry points: scripts, single statements with
    // parameters, and cursors read to the end.
    Status s;
    switch (i % 3) {
      case 0:
        s = db.Execute(sql);
        break;
      case 1: {
        Params p{Value::Int(static_cast<int64_t>(rng() % 100)),
                 Value::Text("name 1"), Value::Null()};
        auto r = db.Execute(sql, p);
        s = r.ok() ? Status::OK() : r.status();
        break;
      }
      default: {
        auto cur = db.Query(sql);
        if (!cur.ok()) {
          s = cur.status();
          break;
        }
        int n = 0;
        while ((*cur)->Next() && ++n < 100000) {
        }
        s = (*cur)->status();
      }
    }
    (s.ok() ? ok : errors)++;
    if (!s.ok()) {
      EXPECT_FALSE(s.message().empty() && s.code() != Status::Code::kOk)
          << "an error without a message for: " << sql;
    }
    if (i % 250 == 249) {
      ASSERT_TRUE(db.Execute("PRAGMA disable_rules = ''").ok());
      Status check = db.Execute("CHECK");
      ASSERT_TRUE(check.ok()) << "after input " << i << " (seed " << seed
                              << "): " << check.ToString();
    }
  }
  std::printf(
      "[HostileInputTest] seed %llu: %lld hostile statements: %lld ran, %lld "
      "errors, 0 crashes, CHECK clean, %.1f s\n",
      static_cast<unsigned long long>(seed), static_cast<long long>(inputs),
      static_cast<long long>(ok), static_cast<long long>(errors),
      testing::SecondsSince(started));
}

TEST(HostileInputTest, MutatedStatementsNeverCrashOrCorrupt) {
  const int64_t inputs = testing::EnvInt("LEVELQL_HOSTILE_INPUTS", 5000);
  const std::vector<uint64_t> seeds =
      testing::TestSeeds("HostileInputTest", {8401, 9401});
  for (size_t i = 0; i < seeds.size(); ++i) {
    SCOPED_TRACE("LEVELQL_SEED=" + std::to_string(seeds[i]));
    RunHostileInputs(seeds[i], testing::ShareOf(inputs, seeds.size(), i));
  }
}

}  // namespace
}  // namespace levelql::reliability
