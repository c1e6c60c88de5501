// The public SQL text helpers (include/levelql/sql_text.h), on the lexer.
#include "levelql/sql_text.h"

#include "parser/lexer.h"

namespace levelql {
namespace {

using parser::IsSpace;
using parser::Iter;
using parser::LexError;
using parser::ScriptScan;
using parser::StatementSpan;

std::string Trimmed(Iter b, Iter e) {
  while (b != e && IsSpace(*b)) ++b;
  while (e != b && IsSpace(e[-1])) --e;
  return std::string(b, e);
}

}  // namespace

std::vector<std::string> SplitStatements(std::string_view sql) {
  std::vector<std::string> out;
  for (const StatementSpan& s : parser::ScanScript(sql).statements) {
    if (s.first == nullptr) continue;  // only blanks and comments
    Iter end = s.semicolon ? s.semicolon + 1 : sql.data() + sql.size();
    out.push_back(Trimmed(s.start, end));
  }
  return out;
}

bool IsCompleteStatement(std::string_view sql) {
  return parser::IsComplete(sql);
}

bool IsBlankSql(std::string_view sql) {
  ScriptScan scan = parser::ScanScript(sql);
  return scan.error == LexError::kNone && scan.statements.size() == 1 &&
         scan.statements[0].first == nullptr;
}

std::string FirstKeyword(std::string_view sql) {
  ScriptScan scan = parser::ScanScript(sql);
  std::string word;
  Iter p = scan.statements[0].first;
  if (p == nullptr) return word;
  for (Iter end = sql.data() + sql.size(); p != end; ++p) {
    char c = parser::Upper(*p);
    if (c < 'A' || c > 'Z') break;
    word += c;
  }
  return word;
}

std::string QuoteIdentifier(std::string_view name) {
  return parser::QuoteIdentifier(name);
}

}  // namespace levelql
