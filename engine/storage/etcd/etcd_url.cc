#include "engine/storage/etcd/etcd_url.h"

#include <cctype>

namespace levelql {
namespace {

Status Malformed(std::string_view url, const std::string& why) {
  return Status::InvalidArgument("malformed etcd URL '" + std::string(url) +
                                 "': " + why +
                                 " (expected "
                                 "etcd://host:port[,host:port...]/name)");
}

bool ValidPort(std::string_view port) {
  if (port.empty() || port.size() > 5) return false;
  int value = 0;
  for (char c : port) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    value = value * 10 + (c - '0');
  }
  return value >= 1 && value <= 65535;
}

}  // namespace

bool IsEtcdUrl(std::string_view path) { return path.starts_with(kEtcdScheme); }

Result<EtcdUrl> ParseEtcdUrl(std::string_view url) {
  if (!IsEtcdUrl(url)) return Malformed(url, "it does not start with etcd://");
  std::string_view rest = url.substr(kEtcdScheme.size());
  const size_t slash = rest.find('/');
  std::string_view hosts = rest.substr(0, slash);
  std::string_view name =
      slash == std::string_view::npos ? "" : rest.substr(slash + 1);
  while (!name.empty() && name.back() == '/') name.remove_suffix(1);
  EtcdUrl out;
  size_t at = 0;
  while (true) {
    const size_t comma = hosts.find(',', at);
    std::string_view host = hosts.substr(at, comma == std::string_view::npos
                                                 ? std::string_view::npos
                                                 : comma - at);
    const size_t place = at;
    const size_t colon = host.rfind(':');
    if (host.empty()) {
      return Malformed(url, "empty host at character " +
                                std::to_string(kEtcdScheme.size() + place + 1));
    }
    if (colon == std::string_view::npos || colon == 0 ||
        !ValidPort(host.substr(colon + 1))) {
      return Malformed(url, "host '" + std::string(host) +
                                "' needs a port from 1 to 65535 (host:port)");
    }
    out.endpoints.emplace_back(host);
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  if (name.empty()) {
    return Malformed(url,
                     "no database name after the hosts (one etcd cluster "
                     "holds many databases, each under its own name)");
  }
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c) && c != '_' && c != '-' && c != '.' && c != '/') {
      return Malformed(url, "character " + std::to_string(i + 1) +
                                " of the database name is not a letter, "
                                "digit, '_', '-', '.' or '/'");
    }
    if (c == '/' && (i == 0 || name[i - 1] == '/')) {
      return Malformed(url, "empty path segment in the database name");
    }
  }
  out.prefix = std::string(name);
  return out;
}

}  // namespace levelql
