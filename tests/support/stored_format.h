// The format version a closed database's metadata holds
// (indexes/KEY_FORMAT.md, "Versions"), read and set behind levelql's back,
// for tests of how older and newer databases open.
#ifndef LEVELQL_TESTS_SUPPORT_STORED_FORMAT_H_
#define LEVELQL_TESTS_SUPPORT_STORED_FORMAT_H_

#include <string>

namespace levelql::testing {

// The `\x00format` value of the LevelDB database at `path` ("" and a test
// failure when it cannot be read).
std::string StoredFormat(const std::string& path);
// Writes `version` there (a test failure when it cannot).
void SetStoredFormat(const std::string& path, const std::string& version);

}  // namespace levelql::testing

#endif  // LEVELQL_TESTS_SUPPORT_STORED_FORMAT_H_
