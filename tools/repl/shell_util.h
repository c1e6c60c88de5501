// Small text helpers of the shell: case folding, dot-command words, LIKE
// for table patterns, .param values. Stateless.
#ifndef LEVELQL_TOOLS_REPL_SHELL_UTIL_H_
#define LEVELQL_TOOLS_REPL_SHELL_UTIL_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/value.h"

namespace levelql::repl::shell_util {

struct Token {
  std::string text;
  size_t offset;  // where it starts in the line
};

std::string Lower(std::string_view s);
bool StartsWithNoCase(std::string_view s, std::string_view prefix);
std::vector<Token> Tokenize(std::string_view line);
bool LikeMatch(std::string_view pattern, std::string_view text);
bool IsParameterName(std::string_view name);
std::optional<bool> ParseBool(std::string_view s);
std::string_view TrimView(std::string_view s);
Value ParseParamValue(std::string_view text);

}  // namespace levelql::repl::shell_util

#endif  // LEVELQL_TOOLS_REPL_SHELL_UTIL_H_
