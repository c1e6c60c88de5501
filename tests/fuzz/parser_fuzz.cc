// libFuzzer target for parser/: any input either parses or fails with a
// Status (no crash, hang, leak or escaping exception), the SQL text helpers
// (levelql/sql_text.h) never fail and split a script that parses into as
// many statements as the parser found, and every statement that parses
// survives ToSql and a second parse as an Equal tree. Not built by CMake; see
// the command in the parser's hand-off note:
//
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined \
//     -I. -Iinclude tests/fuzz/parser_fuzz.cc parser/*.cc \
//     engine/status.cc engine/value.cc -o parser_fuzz
//   ./parser_fuzz -max_total_time=60 tests/fuzz/corpus/parser
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/sql_text.h"
#include "parser/parser.h"

namespace lp = levelql::parser;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  levelql::IsCompleteStatement(sql);
  levelql::IsBlankSql(sql);
  levelql::FirstKeyword(sql);
  std::vector<std::string> pieces = levelql::SplitStatements(sql);
  auto script = lp::ParseScript(sql);
  if (!script.ok()) return 0;
  if (pieces.size() != script->size()) {
    std::fprintf(stderr,
                 "SplitStatements found %zu statements, the parser %zu\n",
                 pieces.size(), script->size());
    std::abort();
  }
  for (const lp::Statement& statement : *script) {
    std::string text = lp::ToSql(statement);
    auto again = lp::ParseStatement(text);
    if (!again.ok() || !lp::Equal(statement, *again)) {
      std::fprintf(
          stderr, "round trip failed\nfrom: %s\nto:   %s\n%s\n",
          statement.text.c_str(), text.c_str(),
          again.ok() ? "not Equal" : again.status().ToString().c_str());
      std::abort();
    }
  }
  return 0;
}
