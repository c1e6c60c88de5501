#include "engine/storage/open_store.h"

#include "engine/storage/etcd/etcd_url.h"
#ifdef LEVELQL_WITH_ETCD
#include "engine/storage/etcd/etcd_store.h"
#endif

namespace levelql {

Result<std::unique_ptr<KvStore>> OpenStore(const std::string& path,
                                           const Options& options) {
  if (!IsEtcdUrl(path)) return OpenLevelDbStore(path, options);
  LQ_ASSIGN_OR_RETURN(EtcdUrl url, ParseEtcdUrl(path));
#ifdef LEVELQL_WITH_ETCD
  return OpenEtcdStore(url, options);
#else
  return Status::NotSupported(
      "cannot open '" + path +
      "': this levelql was built without the etcd backend (install its "
      "packages with tools/install-deps.sh and configure again with "
      "-DLEVELQL_WITH_ETCD=ON)");
#endif
}

}  // namespace levelql
