// A KvStore over etcd v3 (issue 17): levelql on a replicated cluster.
//
// Key layout (indexes/KEY_FORMAT.md, "On etcd"): every key of the database
// named N is stored under N "\0" <key>, so one cluster holds many databases
// and a database is the range [N "\0", N "\1"). A snapshot is an etcd
// revision: every read of a statement names it. A write batch is one etcd
// transaction, conditional on what the statement read (the keys it writes
// unchanged since its snapshot, the rows it changes still there, the
// catalog epoch it planned with: kv_store.h's WriteBatch conditions), so
// several processes may write one database at once: a statement that lost
// a race changes nothing and fails with Busy, and the engine runs it again
// on a fresh snapshot. Each writing process keeps a key of its own,
// N "\1proc/" <token>, attached to an etcd lease it renews; every
// transaction advances it, which settles an outcome a failed call left
// unknown, and the lease removes the process's ephemeral keys (a schema
// lock) when it dies.
#ifndef LEVELQL_ENGINE_STORAGE_ETCD_ETCD_STORE_H_
#define LEVELQL_ENGINE_STORAGE_ETCD_ETCD_STORE_H_

#include <memory>

#include "engine/storage/etcd/etcd_url.h"
#include "engine/storage/kv_store.h"

namespace levelql {

struct EtcdStoreOptions {
  // Seconds the writer lease outlives a process that stopped renewing it.
  int64_t lease_ttl_seconds = 10;
  // How long a call keeps trying other members while the cluster is
  // unreachable or electing a leader.
  int64_t retry_budget_ms = 15000;
};

Result<std::unique_ptr<KvStore>> OpenEtcdStore(
    const EtcdUrl& url, const Options& options,
    const EtcdStoreOptions& etcd_options = {});

// Compacts the cluster's history up to its current revision (what an
// operator's `etcdctl compact` does): reads at older revisions then fail.
// For tests of that failure.
Status CompactEtcd(const EtcdUrl& url);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_ETCD_ETCD_STORE_H_
