// Tests for parser/lexer.h: statement spans and the constructs left open,
// literals as the lexer reads them, keywords and reserved words. The
// grammar built on these is tested in parser_test.cc.
#include "parser/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace levelql::parser {
namespace {

// The spans of `sql` as "[first..last)|" with ";" for a terminated one.
std::string Spans(std::string_view sql) {
  ScriptScan scan = ScanScript(sql);
  std::string out;
  for (const StatementSpan& s : scan.statements) {
    if (s.first != nullptr) out += std::string(s.first, s.last);
    out += s.semicolon ? ";" : "|";
  }
  return out;
}

TEST(ScanScriptTest, SpansRunFromTheFirstTokenToTheEndOfTheLast) {
  EXPECT_EQ(Spans("  SELECT 1 -- c\n;/* x */ SELECT 'a;' ;"),
            "SELECT 1;SELECT 'a;';|");
  EXPECT_EQ(Spans(";;"), ";;|");
  EXPECT_EQ(Spans(""), "|");
  EXPECT_EQ(Spans("a;b"), "a;b|");
}

TEST(ScanScriptTest, ReportsWhereAnUnterminatedConstructStarts) {
  struct Case {
    std::string_view sql;
    LexError error;
    size_t at;
  } cases[] = {
      {"SELECT 1; /* open", LexError::kUnterminatedComment, 10},
      {"SELECT 'abc", LexError::kUnterminatedString, 7},
      {"SELECT \"a\"\"b", LexError::kUnterminatedIdentifier, 7},
      {"SELECT 'ok' -- /* not a comment start", LexError::kNone, 0},
  };
  for (const Case& c : cases) {
    ScriptScan scan = ScanScript(c.sql);
    EXPECT_EQ(scan.error, c.error) << c.sql;
    if (c.error != LexError::kNone) {
      EXPECT_EQ(static_cast<size_t>(scan.error_at - c.sql.data()), c.at)
          << c.sql;
    }
  }
}

std::string Literal(std::string_view text) {
  Value v;
  bool big = false;
  const char* error = nullptr;
  Iter end =
      ScanLiteral(text.data(), text.data() + text.size(), &v, &big, &error);
  if (error != nullptr) return std::string("error: expected ") + error;
  if (end == nullptr) return "none";
  return v.ToSqlLiteral() + (big ? " big" : "") + " +" +
         std::to_string(end - text.data());
}

TEST(ScanLiteralTest, NumbersTextBlobsAndKeywords) {
  EXPECT_EQ(Literal("42 "), "42 +2");
  EXPECT_EQ(Literal("0x10"), "16 +4");
  EXPECT_EQ(Literal(".5e1"), "5.0 +4");
  EXPECT_EQ(Literal("9223372036854775808"), "9.2233720368547758e+18 big +19");
  EXPECT_EQ(Literal("'it''s'x"), "'it''s' +7");
  EXPECT_EQ(Literal("X'0aFF'"), "x'0aff' +7");
  EXPECT_EQ(Literal("null)"), "NULL +4");
  EXPECT_EQ(Literal("True"), "TRUE +4");
  EXPECT_EQ(Literal("nullable"), "none");
  EXPECT_EQ(Literal("12abc"), "none");
  EXPECT_EQ(Literal("'open"), "none");
}

TEST(ScanLiteralTest, MalformedLiteralsSayWhatWasExpected) {
  EXPECT_EQ(Literal("0x11112222333344445"),
            "error: expected hexadecimal literal of at most 16 digits");
  EXPECT_EQ(Literal("x'abc'"),
            "error: expected blob literal of hexadecimal digit pairs");
}

TEST(ScanKeywordTest, MatchesAnyCaseButNotAPrefixOfAWord) {
  std::string_view s = "Select1";
  EXPECT_EQ(ScanKeyword(s.data(), s.data() + 6, "SELECT"), s.data() + 6);
  EXPECT_EQ(ScanKeyword(s.data(), s.data() + 7, "SELECT"), nullptr);
  EXPECT_TRUE(IsReservedWord("Where"));
  EXPECT_FALSE(IsReservedWord("count"));
  EXPECT_FALSE(IsReservedWord("key"));
}

TEST(ScanIdentifierTest, BareWordsFoldAndQuotedOnesStayVerbatim) {
  std::string text;
  std::string_view s = "MyCol";
  EXPECT_NE(ScanIdentifier(s.data(), s.data() + s.size(), false, &text),
            nullptr);
  EXPECT_EQ(text, "mycol");
  text.clear();
  s = "\"My\"\"Col\"";
  EXPECT_EQ(ScanIdentifier(s.data(), s.data() + s.size(), false, &text),
            s.data() + s.size());
  EXPECT_EQ(text, "My\"Col");
  text.clear();
  s = "order";
  EXPECT_EQ(ScanIdentifier(s.data(), s.data() + s.size(), false, &text),
            nullptr);
  EXPECT_NE(ScanIdentifier(s.data(), s.data() + s.size(), true, &text),
            nullptr);
}

}  // namespace
}  // namespace levelql::parser
