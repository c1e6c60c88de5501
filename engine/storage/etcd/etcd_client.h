// EtcdClient: the few etcd v3 calls levelql makes, over gRPC, with failover.
//
// The client talks to one member of the cluster at a time. A call that finds
// its member down, or the cluster without a leader (an election after a
// member was lost), is retried on the next member with a short backoff for up
// to `retry_budget`. Reads are always safe to retry. A transaction is retried
// only when it surely did not reach the server; otherwise its outcome is
// unknown and the caller decides (EtcdStore settles it by reading its fence
// key, see etcd_store.cc).
#ifndef LEVELQL_ENGINE_STORAGE_ETCD_ETCD_CLIENT_H_
#define LEVELQL_ENGINE_STORAGE_ETCD_ETCD_CLIENT_H_

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "etcd/etcdserver/etcdserverpb/rpc.grpc.pb.h"
#include "levelql/status.h"

namespace levelql {

class EtcdClient {
 public:
  EtcdClient(std::vector<std::string> endpoints,
             std::chrono::milliseconds retry_budget);
  ~EtcdClient();

  // A human-readable list of the endpoints, for messages.
  std::string endpoints() const;

  Status Range(const etcdserverpb::RangeRequest& request,
               etcdserverpb::RangeResponse* response);
  // `*unknown` is set when the call failed after it may have reached the
  // cluster: the transaction may or may not have been applied.
  Status Txn(const etcdserverpb::TxnRequest& request,
             etcdserverpb::TxnResponse* response, bool* unknown);
  // A transaction of reads only: safe to retry, like Range.
  Status ReadTxn(const etcdserverpb::TxnRequest& request,
                 etcdserverpb::TxnResponse* response);
  Status LeaseGrant(int64_t ttl_seconds, int64_t* lease_id);
  // Renews the lease once; `*ttl` is 0 when it has already expired.
  Status LeaseKeepAlive(int64_t lease_id, int64_t* ttl);
  Status LeaseRevoke(int64_t lease_id);
  Status Compact(int64_t revision);

 private:
  struct Member;
  template <typename Call>
  Status Retry(const char* what, bool idempotent, bool* unknown,
               const Call& call);

  std::vector<std::unique_ptr<Member>> members_;
  const std::chrono::milliseconds retry_budget_;
  std::mutex mu_;
  size_t current_ = 0;  // guarded by mu_
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_ETCD_ETCD_CLIENT_H_
