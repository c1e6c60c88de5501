// Tests for the public SQL text helpers (include/levelql/sql_text.h):
// statement splitting, completeness, blank text, the first keyword, and
// identifier quoting - checked against the parser, whose lexical rules they
// share.
#include "levelql/sql_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parser/parser.h"

namespace levelql {
namespace {

using Pieces = std::vector<std::string>;

TEST(SplitStatementsTest, SemicolonsInStringsIdentifiersAndCommentsDoNotSplit) {
  EXPECT_EQ(
      SplitStatements("SELECT 'a;b' FROM t; SELECT \"c;\" /* ; */ FROM "
                      "u -- ;\n;"),
      (Pieces{"SELECT 'a;b' FROM t;", "SELECT \"c;\" /* ; */ FROM u -- ;\n;"}));
  EXPECT_EQ(SplitStatements("SELECT 'it''s;' FROM t; "),
            Pieces{"SELECT 'it''s;' FROM t;"});
}

TEST(SplitStatementsTest, CommentsBeforeAStatementStayWithIt) {
  EXPECT_EQ(SplitStatements("SELECT 1; -- next;\nSELECT 2;"),
            (Pieces{"SELECT 1;", "-- next;\nSELECT 2;"}));
}

TEST(SplitStatementsTest, BlankAndEmptyStatementsAreDropped) {
  EXPECT_EQ(SplitStatements(" ;; -- only\n ; /* c */ ;"), Pieces{});
  EXPECT_EQ(SplitStatements(""), Pieces{});
}

TEST(SplitStatementsTest, TextAfterTheLastSemicolonComesLastWithoutOne) {
  EXPECT_EQ(SplitStatements("DELETE FROM t; SELECT 1\n"),
            (Pieces{"DELETE FROM t;", "SELECT 1"}));
  // An open comment alone at the end is blank; after a token it is kept.
  EXPECT_EQ(SplitStatements("SELECT 1; /* open"), Pieces{"SELECT 1;"});
  EXPECT_EQ(SplitStatements("SELECT 1 /* open; x"),
            Pieces{"SELECT 1 /* open; x"});
}

TEST(SplitStatementsTest, AnUnterminatedStringRunsToTheEnd) {
  EXPECT_EQ(SplitStatements("SELECT 1; SELECT 'a; SELECT 2;"),
            (Pieces{"SELECT 1;", "SELECT 'a; SELECT 2;"}));
}

TEST(SplitStatementsTest, PiecesParseAsTheScriptsStatements) {
  const std::string script =
      "CREATE TABLE t (a INTEGER, \"b;\" TEXT); -- one\n"
      "INSERT INTO t VALUES (1, ';'), (2, 'x'';');\n"
      "/* three; */ SELECT a FROM t WHERE \"b;\" <> ';'";
  auto whole = parser::ParseScript(script);
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  Pieces pieces = SplitStatements(script);
  ASSERT_EQ(pieces.size(), whole->size());
  for (size_t i = 0; i < pieces.size(); ++i) {
    auto one = parser::ParseStatement(pieces[i]);
    ASSERT_TRUE(one.ok()) << pieces[i] << "\n" << one.status().ToString();
    EXPECT_TRUE(parser::Equal(*one, (*whole)[i])) << pieces[i];
  }
}

TEST(IsCompleteStatementTest, NeedsASemicolonOutsideStringsAndComments) {
  EXPECT_FALSE(IsCompleteStatement(""));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 1;"));
  EXPECT_TRUE(IsCompleteStatement(";"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 1;  \n"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 1; -- done"));
  EXPECT_TRUE(IsCompleteStatement("SELECT 1; /* done */"));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1; SELECT 2"));
  EXPECT_FALSE(IsCompleteStatement("SELECT ';'"));
  EXPECT_TRUE(IsCompleteStatement("SELECT ';';"));
  EXPECT_FALSE(IsCompleteStatement("SELECT 'it''s;"));
  EXPECT_FALSE(IsCompleteStatement("SELECT \"a;\""));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1 -- ;"));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1 /* ; */"));
  EXPECT_FALSE(IsCompleteStatement("SELECT 1; /* open"));
}

TEST(IsBlankSqlTest, OnlyWhitespaceAndClosedCommentsAreBlank) {
  EXPECT_TRUE(IsBlankSql(""));
  EXPECT_TRUE(IsBlankSql("  -- c\n /* d */ \t"));
  EXPECT_FALSE(IsBlankSql("/* open"));
  EXPECT_FALSE(IsBlankSql("'"));
  EXPECT_FALSE(IsBlankSql(";"));
  EXPECT_FALSE(IsBlankSql("-- c\nx"));
}

TEST(FirstKeywordTest, SkipsCommentsAndUpperCasesTheFirstWord) {
  EXPECT_EQ(FirstKeyword(" /* c */ select * from t"), "SELECT");
  EXPECT_EQ(FirstKeyword("-- c\n  Explain select 1"), "EXPLAIN");
  EXPECT_EQ(FirstKeyword("(SELECT 1)"), "");
  EXPECT_EQ(FirstKeyword("; SELECT 1"), "");
  EXPECT_EQ(FirstKeyword("  -- only a comment"), "");
}

TEST(QuoteIdentifierTest, PlainLowerCaseNamesStayBare) {
  EXPECT_EQ(QuoteIdentifier("users"), "users");
  EXPECT_EQ(QuoteIdentifier("_t2"), "_t2");
  EXPECT_EQ(QuoteIdentifier("count"), "count");  // a function, not reserved
}

TEST(QuoteIdentifierTest, ReservedWordsAreQuoted) {
  EXPECT_EQ(QuoteIdentifier("order"), "\"order\"");
  EXPECT_EQ(QuoteIdentifier("select"), "\"select\"");
  EXPECT_EQ(QuoteIdentifier("index"), "\"index\"");
}

TEST(QuoteIdentifierTest, NamesThatAreNotAllLowerCaseAreQuoted) {
  // Unquoted identifiers fold to lower case: MyCol would read as mycol.
  EXPECT_EQ(QuoteIdentifier("MyCol"), "\"MyCol\"");
  EXPECT_EQ(QuoteIdentifier("ID"), "\"ID\"");
}

TEST(QuoteIdentifierTest, OtherCharactersAndLeadingDigitsAreQuoted) {
  EXPECT_EQ(QuoteIdentifier("my table"), "\"my table\"");
  EXPECT_EQ(QuoteIdentifier("a-b"), "\"a-b\"");
  EXPECT_EQ(QuoteIdentifier("a$b"), "\"a$b\"");
  EXPECT_EQ(QuoteIdentifier("1st"), "\"1st\"");
  EXPECT_EQ(QuoteIdentifier("café"), "\"café\"");
  EXPECT_EQ(QuoteIdentifier(""), "\"\"");
}

TEST(QuoteIdentifierTest, EmbeddedDoubleQuotesAreDoubled) {
  EXPECT_EQ(QuoteIdentifier("my \"t\""), "\"my \"\"t\"\"\"");
  EXPECT_EQ(QuoteIdentifier("\""), "\"\"\"\"");
}

TEST(QuoteIdentifierTest, EveryQuotedNameParsesBackToItself) {
  for (const std::string name :
       {"users", "MyCol", "order", "Select", "my \"t\"", "1st", "a b", "café",
        "x;y", "it's", "NULL", "null", "key"}) {
    std::string sql =
        "SELECT " + QuoteIdentifier(name) + " FROM " + QuoteIdentifier(name);
    auto s = parser::ParseStatement(sql);
    ASSERT_TRUE(s.ok()) << sql << "\n" << s.status().ToString();
    const auto& select = std::get<parser::Select>(s->node);
    EXPECT_EQ(select.table, name) << sql;
    ASSERT_EQ(select.items.size(), 1u);
    EXPECT_EQ(select.items[0].expr->name, name) << sql;
  }
}

}  // namespace
}  // namespace levelql
