// Schema changes when several processes write one database (a store whose
// KvStore::shared() is true: etcd).
//
// kEpochKey holds a value that every schema change replaces. A statement
// reads it at its start (with the lock, in the same read as its snapshot)
// and reloads the catalog when it changed (another process's DDL), and its
// write is conditional on it (WriteBatch::ExpectValue), so no statement
// commits against a schema that changed under it.
//
// A schema change of several batches (CREATE INDEX backfills, REINDEX)
// holds the schema lock for its whole run: kSchemaLockKey, written as an
// ephemeral key (gone if the process dies) with a new epoch, conditional on
// neither having changed; every batch of the change is conditional on the
// lock, and the last one deletes it and writes a new epoch. While it is
// held, the other processes' statements wait (up to their busy timeout) and
// their writes fail their condition (the epoch changed): CREATE INDEX
// backfills and REINDEX rebuilds with no concurrent writer, as on a
// single-writer store. The epoch key itself is never deleted, so a process
// that died holding the lock leaves an epoch no catalog was loaded with.
#ifndef LEVELQL_ENGINE_CATALOG_SCHEMA_LOCK_H_
#define LEVELQL_ENGINE_CATALOG_SCHEMA_LOCK_H_

#include <memory>
#include <optional>
#include <string>

#include "engine/catalog/catalog.h"
#include "engine/storage/kv_store.h"

namespace levelql {

struct SchemaState {
  std::optional<std::string> epoch;  // kEpochKey's value
  std::optional<std::string> lock;   // kSchemaLockKey's: the holder's lock
};

// The latest snapshot and the schema state in it (one round trip on etcd).
std::shared_ptr<const KvSnapshot> ReadSchemaState(KvStore* store,
                                                  SchemaState* state,
                                                  Status* status);

// Busy, naming who holds the schema lock `lock`.
Status SchemaLocked(const std::string& lock);

// A random pause that grows with `attempt` (1-2 ms, then up to 65 ms),
// between tries after a conflict, so that writers that collided do not
// collide again in step.
void ConflictBackoff(int attempt);

struct SchemaLock {
  std::string lock;                     // the lock key's value while held
  std::string epoch;                    // the epoch written with it
  std::optional<std::string> previous;  // the epoch it replaced
};

// Takes the schema lock, waiting up to `timeout_ms` while another process
// holds it (then Busy, naming the holder).
Result<SchemaLock> LockSchema(KvStore* store, int64_t timeout_ms);

// Releases the lock `lock`, writing a new epoch, which it returns.
Result<std::string> UnlockSchema(KvStore* store, const std::string& lock);

// A new epoch value.
std::string NewEpoch();

// The catalog as of `snapshot` (read-only: no upgrade is written).
Result<CatalogState> LoadCatalogAt(KvStore* store,
                                   std::shared_ptr<const KvSnapshot> snapshot);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_CATALOG_SCHEMA_LOCK_H_
