// TempDir: a fresh, uniquely named directory under the system temp dir for
// one test's files, removed (with everything in it) by the destructor unless
// keep() was called to leave the evidence of a failure behind.
//
// Names come from mkdtemp, so processes that run in parallel (ctest's
// tests, levelql-slt's jobs) never share one. Used by levelql-slt and by
// the tests (tests/support/temp_dir.h). Not thread-safe per object;
// separate objects are.
#ifndef LEVELQL_TOOLS_COMMON_TEMP_DIR_H_
#define LEVELQL_TOOLS_COMMON_TEMP_DIR_H_

#include <string>

namespace levelql {

class TempDir {
 public:
  // "<tmp>/levelql-<tag>-XXXXXX", created empty. Aborts the process, saying
  // why, when no directory can be made (neither a test nor the tool can go
  // on without one).
  explicit TempDir(const std::string& tag = "test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // Leave the directory in place when this goes away.
  void keep() { keep_ = true; }

 private:
  std::string path_;
  bool keep_ = false;
};

}  // namespace levelql

#endif  // LEVELQL_TOOLS_COMMON_TEMP_DIR_H_
