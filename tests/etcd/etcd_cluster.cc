#include "tests/etcd/etcd_cluster.h"

#include <stdlib.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

namespace levelql::testing {
namespace {

// Runs `command`; its standard output, or an error with the exit status.
Result<std::string> Run(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return Status::IOError("cannot run: " + command);
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    out.append(buffer, n);
  const int rc = pclose(pipe);
  if (rc != 0) {
    return Status::IOError(command + " failed (status " + std::to_string(rc) +
                           "): " + out);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) {
    out.pop_back();
  }
  return out;
}

Result<std::string> ReadEndpoints(const std::string& dir) {
  std::ifstream in(dir + "/endpoints");
  std::string line;
  if (!std::getline(in, line) || line.empty()) {
    return Status::IOError("no cluster at " + dir + " (no endpoints file)");
  }
  return line;
}

std::string Script() { return LEVELQL_ETCD_CLUSTER_SCRIPT; }

}  // namespace

Result<std::unique_ptr<EtcdCluster>> EtcdCluster::Start(int members) {
  // /dev/shm (no fsync cost) when it has room: 1 GiB free.
  struct statvfs fs;
  const bool shm_room =
      statvfs("/dev/shm", &fs) == 0 && access("/dev/shm", W_OK) == 0 &&
      uint64_t{fs.f_bavail} * fs.f_frsize >= (uint64_t{1} << 30);
  const char* shm = shm_room ? "/dev/shm" : "/tmp";
  std::string dir = std::string(shm) + "/levelql-etcd-XXXXXX";
  if (!mkdtemp(dir.data())) return Status::IOError("mkdtemp failed");
  auto cluster = std::unique_ptr<EtcdCluster>(new EtcdCluster(dir, true));
  LQ_RETURN_IF_ERROR(
      Run(Script() + " start " + dir + " " + std::to_string(members) + " 2>&1")
          .status());
  LQ_ASSIGN_OR_RETURN(cluster->endpoints_, ReadEndpoints(dir));
  return cluster;
}

EtcdCluster::~EtcdCluster() {
  if (!owned_) return;
  (void)Run(Script() + " stop " + dir_ + " 2>&1");
  (void)Run("rm -rf " + dir_);
}

std::string EtcdCluster::Url(const std::string& name) const {
  return "etcd://" + endpoints_ + "/" + name;
}

Result<std::string> EtcdCluster::KillLeader() {
  return Run(Script() + " kill-leader " + dir_);
}

Status EtcdCluster::RestartKilled() {
  Result<std::string> out = Run(Script() + " restart " + dir_ + " 2>&1");
  return out.ok() ? Status::OK() : out.status();
}

Result<std::string> SharedEtcdEndpoints() {
  const char* dir = getenv("LEVELQL_ETCD_DIR");
  if (!dir || !*dir) {
    return Status::NotFound(
        "LEVELQL_ETCD_DIR is not set: run this test through ctest (its "
        "fixture starts the cluster), or start one with "
        "tools/etcd-cluster.sh start DIR and set LEVELQL_ETCD_DIR=DIR");
  }
  return ReadEndpoints(dir);
}

std::string UniqueEtcdName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + "-" + std::to_string(time(nullptr)) + "-" +
         std::to_string(getpid()) + "-" + std::to_string(counter.fetch_add(1));
}

}  // namespace levelql::testing
