// Where tests find the source tree and where they may write.
//
// Tests never write into the source tree: artefacts such as the shrunk
// failures of the differential and oracle tests go under the build
// directory, and the failure message says where and how to keep one as a
// test (copy it into tests/sql/regressions/). Thread-safe.
#ifndef LEVELQL_TESTS_SUPPORT_PATHS_H_
#define LEVELQL_TESTS_SUPPORT_PATHS_H_

#include <string>

namespace levelql::testing {

// The repository root (CMake's PROJECT_SOURCE_DIR); read-only for tests.
std::string SourceDir();
// The build directory (CMake's CMAKE_BINARY_DIR).
std::string BuildDir();
// Where shrunk failures are written: LEVELQL_REGRESSION_DIR, else
// <build>/regressions.
std::string RegressionDir();
// The sentence a failure message ends with: where the regression file is
// and how to keep it.
std::string KeepRegressionHint(const std::string& path);

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_SUPPORT_PATHS_H_
