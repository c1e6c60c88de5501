// Source, build and regression directories of the tests (paths.h).
#include "tests/support/paths.h"

#include "tests/support/env.h"

#ifndef LEVELQL_SOURCE_DIR
#error "LEVELQL_SOURCE_DIR must be defined (tests/support/CMakeLists.txt)"
#endif
#ifndef LEVELQL_BINARY_DIR
#error "LEVELQL_BINARY_DIR must be defined (tests/support/CMakeLists.txt)"
#endif

namespace levelql::testing {

std::string SourceDir() { return LEVELQL_SOURCE_DIR; }

std::string BuildDir() { return LEVELQL_BINARY_DIR; }

std::string RegressionDir() {
  return EnvText("LEVELQL_REGRESSION_DIR", BuildDir() + "/regressions");
}

std::string KeepRegressionHint(const std::string& path) {
  if (path.empty()) return "the regression file could not be written";
  return "regression file: " + path + "\n  to keep it as a test: cp " + path +
         " " + SourceDir() + "/tests/sql/regressions/ (then sql_tests runs it)";
}

}  // namespace levelql::testing
