// Where a statement's derived rows go past its memory budget.
//
// The rows of views and subqueries in FROM that make rows of their own (and
// of a FULL JOIN) are held in memory (ExecContext::derived_rows) while they
// fit in sort_memory_bytes. A table of them that does not fit is written,
// as it is made, to a LevelDB database of its own in a new directory under
// the system's temporary directory (TMPDIR), which the statement then
// reads merged with the store (merged_store.h). The directory is removed
// when the last context of the statement lets it go.
#ifndef LEVELQL_ENGINE_EXEC_DERIVED_SPILL_H_
#define LEVELQL_ENGINE_EXEC_DERIVED_SPILL_H_

#include <memory>
#include <string>
#include <vector>

#include "engine/storage/kv_store.h"
#include "levelql/status.h"

namespace levelql {

class DerivedSpill {
 public:
  // A new temporary database, and the store that reads `base` with it;
  // `memory_bytes` (the statement's sort_memory_bytes) bounds the memory
  // the database takes.
  static Result<std::shared_ptr<DerivedSpill>> Create(KvStore* base,
                                                      int64_t memory_bytes);
  ~DerivedSpill();
  DerivedSpill(const DerivedSpill&) = delete;
  DerivedSpill& operator=(const DerivedSpill&) = delete;

  // Where spilled rows are written.
  KvStore* disk() { return disk_.get(); }
  // `base` and the spilled rows, read as one store.
  KvStore* merged() { return merged_.get(); }
  // Keeps `store` (a reader of an earlier layering, which iterators of the
  // statement may still use) as long as the spill.
  void Retire(std::shared_ptr<KvStore> store) {
    retired_.push_back(std::move(store));
  }

 private:
  DerivedSpill() = default;
  std::string dir_;
  std::unique_ptr<KvStore> disk_;
  std::unique_ptr<KvStore> merged_;
  std::vector<std::shared_ptr<KvStore>> retired_;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_EXEC_DERIVED_SPILL_H_
