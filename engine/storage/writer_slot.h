// WriterSlot: one writer at a time per database, with a busy timeout.
//
// Every write - an auto-commit statement, DDL, ANALYZE, REINDEX, or a write
// transaction from its first write (or BEGIN IMMEDIATE) to COMMIT or
// ROLLBACK - holds the slot. A writer that finds it taken waits up to its
// timeout and then fails with Status::Busy, as SQLite's busy handler does;
// readers never take it. Unlike a mutex, the slot may be released by
// another thread than the one that took it (a Transaction may move between
// threads). Thread-safe.
#ifndef LEVELQL_ENGINE_STORAGE_WRITER_SLOT_H_
#define LEVELQL_ENGINE_STORAGE_WRITER_SLOT_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "levelql/status.h"

namespace levelql {

class WriterSlot {
 public:
  // Takes the slot, waiting at most `timeout_ms` (0: not at all) for its
  // holder to release it; Busy when it is still taken then.
  Status Acquire(int64_t timeout_ms);
  // REQUIRES: the slot is held (by the caller's statement or transaction).
  void Release();
  // Wakes every writer waiting now: their Acquire fails with Interrupted
  // (Database::Interrupt stops waiting statements too).
  void Interrupt();

 private:
  std::mutex mu_;
  std::condition_variable released_;
  bool held_ = false;        // guarded by mu_
  uint64_t interrupts_ = 0;  // guarded by mu_
};

// Holds the slot for one statement: Acquire() takes it, the destructor gives
// it back.
class WriterLock {
 public:
  explicit WriterLock(WriterSlot* slot) : slot_(slot) {}
  ~WriterLock() {
    if (held_) slot_->Release();
  }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

  Status Acquire(int64_t timeout_ms) {
    Status s = slot_->Acquire(timeout_ms);
    held_ = s.ok();
    return s;
  }

 private:
  WriterSlot* slot_;
  bool held_ = false;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_WRITER_SLOT_H_
