// Budgets and seeds of the randomized tests, read from the environment.
//
// Under ctest every randomized test runs a fixed list of seeds with fixed
// budgets, so `make test` gives the same result on every run; `make soak`
// (tests/differential/soak.sh, tests/reliability/soak.sh) sets LEVELQL_SEED
// to a fresh seed and raises the budgets.
//
//   LEVELQL_SEED=<n>   run seed n alone instead of the test's fixed list;
//                      every failure prints the seed that replays it
//
//   LEVELQL_SALT_BUCKETS=<n>
//                      the databases the oracles, the model test and the
//                      crash test open create every table salted with n
//                      buckets (TestOptions; ctest runs them with 7 too)
//
// The functions read the environment on every call. Thread-safe.
#ifndef LEVELQL_TESTS_SUPPORT_ENV_H_
#define LEVELQL_TESTS_SUPPORT_ENV_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "levelql/database.h"

namespace levelql::testing {

// Options for the databases randomized tests open: the defaults, with
// default_salt_buckets from LEVELQL_SALT_BUCKETS.
Options TestOptions();

// Where a test's fresh private database goes: ":memory:", or, when
// LEVELQL_TEST_ON_ETCD names the directory of a cluster started by
// tools/etcd-cluster.sh (ctest's etcd fixture), a new database on that
// cluster (issue 17: the oracles' runs on etcd).
std::string FreshDatabasePath();

// The integer in environment variable `name`, or `fallback` when it is unset
// or empty.
int64_t EnvInt(const char* name, int64_t fallback);

// The text of environment variable `name`, or `fallback`.
std::string EnvText(const char* name, const std::string& fallback = "");

// The seeds test `test` runs: {LEVELQL_SEED} when that is set, else `fixed`.
// Prints one line per seed ("[test] seed 11 (replay: LEVELQL_SEED=11)") so
// that any run can be repeated.
std::vector<uint64_t> TestSeeds(const char* test,
                                std::initializer_list<uint64_t> fixed);

// Seed i's part of a budget of `total` shared by `n` seeds: equal parts, the
// first ones one larger when `total` does not divide. Sums to `total`.
int64_t ShareOf(int64_t total, size_t n, size_t i);

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_SUPPORT_ENV_H_
