// The store a database path names: "etcd://..." an etcd cluster (issue 17),
// anything else a LevelDB directory (or ":memory:").
#ifndef LEVELQL_ENGINE_STORAGE_OPEN_STORE_H_
#define LEVELQL_ENGINE_STORAGE_OPEN_STORE_H_

#include <memory>
#include <string>

#include "engine/storage/kv_store.h"

namespace levelql {

Result<std::unique_ptr<KvStore>> OpenStore(const std::string& path,
                                           const Options& options);

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STORAGE_OPEN_STORE_H_
