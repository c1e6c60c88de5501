// CHECK: verifies that a table's rows and its index entries agree.
//
// From one snapshot: every index entry is parsed from its bytes as
// indexes/KEY_FORMAT.md describes them (never with the writer's code) and
// must belong to an existing row ("dangling") that owns exactly it: the
// row's values, the entry layout the rule gives it and the row's INCLUDE
// values ("stale"); every row's entries exist ("missing"); no two rows hold
// one UNIQUE key ("UNIQUE violations"). Memory does not grow with the table
// (check.cc says how). The report keeps counts and the first problems with
// decoded keys.
#ifndef LEVELQL_ENGINE_STORAGE_CHECK_H_
#define LEVELQL_ENGINE_STORAGE_CHECK_H_

#include <functional>
#include <string>
#include <vector>

#include "engine/storage/kv_store.h"
#include "indexes/schema.h"

namespace levelql {

struct CheckReport {
  int64_t rows = 0;
  int64_t entries = 0;
  int64_t missing = 0;
  int64_t dangling = 0;
  int64_t stale = 0;
  int64_t duplicates = 0;
  int64_t misplaced = 0;  // salted keys in another bucket than their row's
  std::vector<std::string> problems;  // the first few, human-readable

  bool ok() const {
    return missing + dangling + stale + duplicates + misplaced == 0;
  }
  // OK, or Corruption naming the counts and the first problems.
  Status ToStatus() const;
  void Add(std::string problem);
};

// Checks `table` (only the index named `only_index` when not empty).
// `stop` (when set) is asked every 1,024 keys whether to stop: an error
// (the statement's Interrupted, naming why) ends the check with it.
Status CheckTable(KvStore* store, const KvSnapshot* snapshot,
                  const TableSchema& table, const std::string& only_index,
                  CheckReport* report,
                  const std::function<Status()>& stop = {});

// A salted table's keys (indexes/salt.h), read from `physical` (the store
// itself, not a salted view): every row key must hold its primary key's
// bucket, every index entry its row's (the primary key parsed from the
// entry's bytes). Other damage to an entry is CheckTable's to report.
Status CheckBuckets(KvStore* physical, const KvSnapshot* snapshot,
                    const TableSchema& table, const std::string& only_index,
                    CheckReport* report);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_CHECK_H_
