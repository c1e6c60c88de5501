// TempDir for tests: the one levelql-slt uses too (tools/common/temp_dir.h).
#ifndef LEVELQL_TESTS_SUPPORT_TEMP_DIR_H_
#define LEVELQL_TESTS_SUPPORT_TEMP_DIR_H_

#include "tools/common/temp_dir.h"

namespace levelql::testing {
using ::levelql::TempDir;
}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_SUPPORT_TEMP_DIR_H_
