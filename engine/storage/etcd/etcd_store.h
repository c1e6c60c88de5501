// A KvStore over etcd v3 (issue 17): levelql on a replicated cluster.
//
// Key layout (indexes/KEY_FORMAT.md, "On etcd"): every key of the database
// named N is stored under N "\0" <key>, so one cluster holds many databases
// and a database is the range [N "\0", N "\1"). A snapshot is an etcd
// revision: every read of a statement names it. A write batch is one etcd
// transaction. One process writes a database at a time: it holds the
// database's writer lease (key N "\1" "writer", attached to an etcd lease
// it keeps alive), and every transaction is conditional on that key still
// holding the value this process last wrote to it (its fence), so a
// process that lost the lease (paused past the TTL, cut off from the
// cluster) can never write again.
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
