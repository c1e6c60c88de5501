// Session: one connection's transaction state, and the transaction itself.
//
// Statements run in a session. The Database has one implicit session (as a
// SQLite connection shared by threads): BEGIN through Database::Execute opens
// a transaction that every later statement through that Database joins,
// from any thread, until COMMIT or ROLLBACK. Database::Begin() makes a
// session of its own for the Transaction it returns.
//
// A transaction (TxnState) reads one snapshot, taken at its first read (or
// at BEGIN IMMEDIATE) together with the catalog and the commit sequence
// number of that moment, overlaid with its pending writes (overlay.h). The
// pending writes are shared copy-on-write: a statement's view holds the map
// as it was when the statement started, and a statement that changes it
// copies it first if a view still holds it (a cursor left open inside the
// transaction), so a view never changes under a reader.
//
// Locking: `mu` guards `txn` and everything in it, and is held briefly
// (never across a statement or a wait). `statement_mu` serializes the
// statements that change the transaction (writes, COMMIT, ROLLBACK) of one
// session; reads take no session lock beyond `mu`.
#ifndef LEVELQL_ENGINE_SESSION_H_
#define LEVELQL_ENGINE_SESSION_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>

#include "engine/catalog/catalog.h"
#include "engine/storage/overlay.h"

namespace levelql {

struct TxnState {
  // Random and nonzero: continuation tokens taken inside the transaction
  // carry it, and are refused anywhere else.
  uint64_t id = 0;
  bool immediate = false;   // BEGIN IMMEDIATE or EXCLUSIVE
  bool holds_slot = false;  // the writer slot, from the first write
  // Set at the first read; null before.
  std::shared_ptr<const CatalogState> catalog;
  std::shared_ptr<const KvSnapshot> snapshot;
  uint64_t snapshot_seq = 0;  // commits the snapshot includes (at least)
  std::shared_ptr<PendingWrites> pending = std::make_shared<PendingWrites>();
  // On a shared store: rows its statements changed that were in its
  // snapshot (not written by an earlier statement of it); its commit
  // requires they still exist (WriteBatch::ExpectPresent).
  std::set<std::string> present;
  size_t pending_bytes = 0;  // of the keys and values in `pending`
};

struct Session {
  std::mutex mu;
  std::unique_ptr<TxnState> txn;  // null: every statement commits itself
  // Mirrors `txn != null` for the auto-commit fast path without `mu`.
  std::atomic<bool> in_txn{false};
  // A Transaction's session once it committed or rolled back.
  std::atomic<bool> ended{false};
  std::mutex statement_mu;
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_SESSION_H_
