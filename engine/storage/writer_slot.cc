#include "engine/storage/writer_slot.h"

#include <chrono>
#include <string>

namespace levelql {

Status WriterSlot::Acquire(int64_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t interrupts = interrupts_;
  const bool woken =
      released_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                         [&] { return !held_ || interrupts_ != interrupts; });
  if (interrupts_ != interrupts) {
    return Status::Interrupted(
        "statement interrupted while it waited for another writer");
  }
  if (!woken) {
    return Status::Busy(
        "the database is locked: another transaction or statement is "
        "writing, and it did not finish within the busy timeout (" +
        std::to_string(timeout_ms) +
        " ms; Options::busy_timeout_ms, PRAGMA busy_timeout)");
  }
  held_ = true;
  return Status::OK();
}

void WriterSlot::Interrupt() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++interrupts_;
  }
  released_.notify_all();
}

void WriterSlot::Release() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    held_ = false;
  }
  released_.notify_one();
}

}  // namespace levelql
