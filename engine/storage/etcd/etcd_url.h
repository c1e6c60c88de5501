// The address of a levelql database on etcd:
// "etcd://host:port[,host:port...]/prefix".
//
// One etcd cluster holds many levelql databases, each under its own key
// prefix (indexes/KEY_FORMAT.md, "On etcd"). The hosts are the cluster's
// client endpoints; levelql talks to one at a time and moves to the next
// when it stops answering.
#ifndef LEVELQL_ENGINE_STORAGE_ETCD_ETCD_URL_H_
#define LEVELQL_ENGINE_STORAGE_ETCD_ETCD_URL_H_

#include <string>
#include <string_view>
#include <vector>

#include "levelql/status.h"

namespace levelql {

struct EtcdUrl {
  std::vector<std::string> endpoints;  // "host:port", at least one
  std::string prefix;  // the path after the hosts, no '/'s at its ends
};

inline constexpr std::string_view kEtcdScheme = "etcd://";

// True when `path` names an etcd database (starts with "etcd://").
bool IsEtcdUrl(std::string_view path);

// InvalidArgument naming what is wrong and where, for a malformed URL.
Result<EtcdUrl> ParseEtcdUrl(std::string_view url);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_ETCD_ETCD_URL_H_
