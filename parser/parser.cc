// The parser's driver: the lexer cuts a script into statements (and reports
// unterminated strings and comments where they start), then the grammar
// parses each statement. No Spirit here; see grammar.cc.
#include "parser/parser.h"

#include "parser/grammar.h"
#include "parser/lexer.h"
#include "parser/parse_error.h"

namespace levelql::parser {
namespace {

// The statements of `map`'s script that hold a token, as [first, last).
Status Statements(const SourceMap& map,
                  std::vector<std::pair<Iter, Iter>>* pieces) {
  ScriptScan scan =
      ScanScript(std::string_view(map.begin(), map.end() - map.begin()));
  if (scan.error != LexError::kNone) {
    return LexErrorStatus(map, scan.error, scan.error_at);
  }
  for (const StatementSpan& span : scan.statements) {
    if (span.first != nullptr) pieces->emplace_back(span.first, span.last);
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<Statement>> ParseScript(std::string_view sql,
                                           const ParseOptions& options) {
  SourceMap map(sql);
  std::vector<std::pair<Iter, Iter>> pieces;
  LQ_RETURN_IF_ERROR(Statements(map, &pieces));
  std::vector<Statement> out;
  out.reserve(pieces.size());
  for (const auto& [begin, end] : pieces) {
    LQ_ASSIGN_OR_RETURN(Statement s,
                        ParseOneStatement(map, begin, end, options));
    out.push_back(std::move(s));
  }
  return out;
}

Result<Statement> ParseStatement(std::string_view sql,
                                 const ParseOptions& options) {
  SourceMap map(sql);
  std::vector<std::pair<Iter, Iter>> pieces;
  LQ_RETURN_IF_ERROR(Statements(map, &pieces));
  if (pieces.empty()) {
    return ExpectationStatus(map, map.end(), map.end(), "statement");
  }
  if (pieces.size() > 1) return ExtraStatementStatus(map, pieces[1].first);
  return ParseOneStatement(map, pieces[0].first, pieces[0].second, options);
}

}  // namespace levelql::parser
