// etcd clusters for tests (issue 17), through tools/etcd-cluster.sh.
//
// SharedEtcd() is the cluster ctest's fixture started for the whole run
// (LEVELQL_ETCD_DIR names its directory). Tests that disturb a cluster -
// kill its leader, compact its history - start their own with
// EtcdCluster::Start, so that no other test sees the disturbance.
#ifndef LEVELQL_TESTS_ETCD_ETCD_CLUSTER_H_
#define LEVELQL_TESTS_ETCD_ETCD_CLUSTER_H_

#include <memory>
#include <string>

#include "levelql/status.h"

namespace levelql::testing {

class EtcdCluster {
 public:
  // Starts `members` members under a new temporary directory.
  static Result<std::unique_ptr<EtcdCluster>> Start(int members);
  ~EtcdCluster();  // stops exactly the processes it started

  // "host:port,host:port,...": the hosts of an etcd:// URL.
  const std::string& endpoints() const { return endpoints_; }
  // "etcd://<endpoints>/<name>".
  std::string Url(const std::string& name) const;
  // SIGKILLs the leader; returns its client address.
  Result<std::string> KillLeader();
  // Starts the killed members again on their data; they rejoin.
  Status RestartKilled();

 private:
  explicit EtcdCluster(std::string dir, bool owned)
      : dir_(std::move(dir)), owned_(owned) {}
  friend Result<std::string> SharedEtcdEndpoints();
  std::string dir_;
  bool owned_;
  std::string endpoints_;
};

// The endpoints of the fixture's cluster; an error when the fixture did not
// run (LEVELQL_ETCD_DIR unset).
Result<std::string> SharedEtcdEndpoints();

// A database name no earlier run used: `base` with the pid and a counter.
std::string UniqueEtcdName(const std::string& base);

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_ETCD_ETCD_CLUSTER_H_
