// Unique temporary directories (temp_dir.h).
#include "tools/common/temp_dir.h"

#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace levelql {

TempDir::TempDir(const std::string& tag) {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string tmpl = (base / ("levelql-" + tag + "-XXXXXX")).string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    std::perror(("TempDir: mkdtemp " + tmpl).c_str());
    std::abort();
  }
  path_ = tmpl;
}

TempDir::~TempDir() {
  if (keep_) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace levelql
