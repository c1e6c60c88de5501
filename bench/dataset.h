// The benchmark's data set: rows of
//   actions(id, userid, stamp, name, category, country, score)
// computed from (seed, id) alone, so every store gets the same rows without
// holding them in memory, and any row can be recomputed (query parameters
// such as stamp ranges are derived from it).
//
// - id: 1..rows, the primary key, inserted in order.
// - userid: uniform over `users` (10,000 at 1M rows; see DataSpec::Make).
// - stamp: unique and increasing with id (an activity log): base + 16*id +
//   a random 0..15, so ORDER BY stamp has no ties and pages are exact.
// - name: 5-12 ASCII letters; half lowercase, 40% Capitalized, 10% UPPER, so
//   a nocase prefix search finds all three spellings.
// - category: 50 values "cat00".."cat49"; country: 200 values "c000".."c199".
// - score: a REAL with two decimals, 0.00..999.99.
#ifndef LEVELQL_BENCH_DATASET_H_
#define LEVELQL_BENCH_DATASET_H_

#include <cstdint>
#include <string>

namespace levelql::bench {

struct DataSpec {
  int64_t rows = 1000000;
  int64_t users = 10000;
  int categories = 50;
  int countries = 200;
  uint64_t seed = 20120901;

  // The shape: 10,000 users at 1M rows. Smaller runs keep about
  // 100 actions per user (users = rows / 100, at least 10), so that "page
  // three of a user's actions" still returns rows in a smoke test.
  static DataSpec Make(int64_t rows);
};

struct Action {
  int64_t id = 0;
  int64_t userid = 0;
  int64_t stamp = 0;
  std::string name;
  std::string category;
  std::string country;
  double score = 0;
};

constexpr int64_t kStampBase = 1346457600000000;  // 2012-09-01, microseconds

Action MakeAction(const DataSpec& spec, int64_t id);
int64_t StampOf(const DataSpec& spec, int64_t id);
std::string CategoryName(int i);  // "cat07"
std::string CountryName(int i);   // "c042"

}  // namespace levelql::bench

#endif  // LEVELQL_BENCH_DATASET_H_
