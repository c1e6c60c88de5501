// Tests of the levelql shell without a terminal: output modes, the CSV
// reader, and a Shell driven line by line against an in-memory database,
// comparing the text it writes. The SQL text helpers it uses are public
// (levelql/sql_text.h) and tested in sql_text_test.cc.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/temp_dir.h"
#include "tools/repl/csv_import.h"
#include "tools/repl/render.h"
#include "tools/repl/shell.h"

namespace levelql::repl {
namespace {

namespace fs = std::filesystem;

std::string Render(OutputMode mode, const std::vector<std::string>& names,
                   const std::vector<Row>& rows, bool headers = true) {
  std::ostringstream out;
  auto r = MakeRenderer(mode, headers, out);
  r->Begin(names);
  for (const Row& row : rows) r->AddRow(row);
  r->End();
  return out.str();
}

const std::vector<std::string> kNames = {"id", "name"};
const std::vector<Row> kRows = {
    {Value::Int(1), Value::Text("alice")},
    {Value::Int(10), Value::Text("中国")},
    {Value::Null(), Value::Null()},
};

TEST(DisplayWidthTest, WideCharactersCountTwoAndCombiningMarksZero) {
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("中国"), 4u);
  EXPECT_EQ(DisplayWidth("한국어"), 6u);
  EXPECT_EQ(DisplayWidth("Ａ"), 2u);         // fullwidth A
  EXPECT_EQ(DisplayWidth("ｱ"), 1u);          // halfwidth katakana
  EXPECT_EQ(DisplayWidth("e\xCC\x81"), 1u);  // e + combining acute
  EXPECT_EQ(DisplayWidth("Ω"), 1u);
  EXPECT_EQ(DisplayWidth("\xff"), 1u);  // invalid byte
}

TEST(RenderTest, TableAlignsByDisplayWidthAndRightAlignsNumbers) {
  EXPECT_EQ(Render(OutputMode::kTable, kNames, kRows),
            "+------+-------+\n"
            "|   id | name  |\n"
            "+------+-------+\n"
            "|    1 | alice |\n"
            "|   10 | 中国  |\n"
            "| NULL | NULL  |\n"
            "+------+-------+\n");
}

TEST(RenderTest, BoxAlignsCjk) {
  EXPECT_EQ(Render(OutputMode::kBox, {"city", "n"},
                   {{Value::Text("中国北京"), Value::Int(1)},
                    {Value::Text("Paris"), Value::Int(22)}}),
            "┌──────────┬────┐\n"
            "│ city     │  n │\n"
            "├──────────┼────┤\n"
            "│ 中国北京 │  1 │\n"
            "│ Paris    │ 22 │\n"
            "└──────────┴────┘\n");
}

TEST(RenderTest, TableWithoutHeadersAndMultiLineCells) {
  EXPECT_EQ(Render(OutputMode::kTable, {"a", "b"},
                   {{Value::Text("one\ntwo"), Value::Text("x\ty")}},
                   /*headers=*/false),
            "+-----+-----+\n"
            "| one | x␉y |\n"
            "| two |     |\n"
            "+-----+-----+\n");
}

TEST(RenderTest, EmptyResultPrintsNothingExceptJson) {
  EXPECT_EQ(Render(OutputMode::kTable, kNames, {}), "");
  EXPECT_EQ(Render(OutputMode::kCsv, kNames, {}), "");
  EXPECT_EQ(Render(OutputMode::kJson, kNames, {}), "[]\n");
}

TEST(RenderTest, CsvQuotesPerRfc4180AndNullIsEmpty) {
  EXPECT_EQ(Render(OutputMode::kCsv, {"a", "b,c"},
                   {{Value::Text("x,y"), Value::Text("say \"hi\"")},
                    {Value::Text(""), Value::Null()},
                    {Value::Text("two\nlines"), Value::Real(2.5)}}),
            "a,\"b,c\"\n"
            "\"x,y\",\"say \"\"hi\"\"\"\n"
            "\"\",\n"
            "\"two\nlines\",2.5\n");
  EXPECT_EQ(Render(OutputMode::kCsv, kNames, kRows, /*headers=*/false),
            "1,alice\n10,中国\n,\n");
}

TEST(RenderTest, TsvEscapesTabsAndNewlines) {
  EXPECT_EQ(Render(OutputMode::kTsv, {"a", "b"},
                   {{Value::Text("x\ty"), Value::Text("1\n2\\")},
                    {Value::Null(), Value::Int(3)}}),
            "a\tb\n"
            "x\\ty\t1\\n2\\\\\n"
            "\t3\n");
}

TEST(RenderTest, JsonIsAnArrayOfObjects) {
  EXPECT_EQ(
      Render(
          OutputMode::kJson, {"i", "t", "n", "b", "l"},
          {{Value::Int(1), Value::Text("q\"\n"), Value::Null(),
            Value::Bool(true), Value::List({Value::Text("A"), Value::Int(2)})},
           {Value::Real(0.5), Value::Text("中"), Value::Null(),
            Value::Bool(false), Value::List({})}}),
      "[{\"i\":1,\"t\":\"q\\\"\\n\",\"n\":null,\"b\":true,\"l\":[\"A\",2]},\n"
      "{\"i\":0.5,\"t\":\"中\",\"n\":null,\"b\":false,\"l\":[]}]\n");
}

TEST(RenderTest, LineModeRightAlignsNames) {
  EXPECT_EQ(Render(OutputMode::kLine, kNames, kRows),
            "  id = 1\n"
            "name = alice\n"
            "\n"
            "  id = 10\n"
            "name = 中国\n"
            "\n"
            "  id = NULL\n"
            "name = NULL\n");
}

TEST(RenderTest, MarkdownIsAPipeTable) {
  EXPECT_EQ(Render(OutputMode::kMarkdown, {"id", "text"},
                   {{Value::Int(1), Value::Text("a|b")},
                    {Value::Int(22), Value::Text("x\ny")}},
                   /*headers=*/false),
            "| id | text   |\n"
            "|---:|--------|\n"
            "|  1 | a\\|b   |\n"
            "| 22 | x<br>y |\n");
}

TEST(RenderTest, ModeNamesRoundTrip) {
  for (std::string_view name :
       {"table", "box", "csv", "tsv", "json", "line", "markdown"}) {
    auto mode = ParseOutputMode(name);
    ASSERT_TRUE(mode.has_value()) << name;
    EXPECT_EQ(OutputModeName(*mode), name);
  }
  EXPECT_EQ(ParseOutputMode("BOX"), OutputMode::kBox);
  EXPECT_FALSE(ParseOutputMode("list").has_value());
}

std::string ReadAll(std::string_view csv, std::string* error = nullptr) {
  std::istringstream in{std::string(csv)};
  CsvReader reader(in);
  CsvRecord rec;
  std::string out;
  while (reader.Next(&rec)) {
    out += std::to_string(rec.line) + ":";
    for (size_t i = 0; i < rec.fields.size(); ++i) {
      out += rec.quoted[i] ? "[\"" + rec.fields[i] + "\"]"
                           : "[" + rec.fields[i] + "]";
    }
    out += " ";
  }
  if (error != nullptr) *error = reader.error();
  return out;
}

TEST(CsvReaderTest, QuotedFieldsSpanLinesAndDoubleQuotes) {
  EXPECT_EQ(
      ReadAll("a,b\r\n\"x,1\",\"say \"\"hi\"\"\"\n\"two\nlines\",\n,\"\""),
      "1:[a][b] 2:[\"x,1\"][\"say \"hi\"\"] 3:[\"two\nlines\"][] "
      "5:[][\"\"] ");
  EXPECT_EQ(ReadAll("\xEF\xBB\xBFid\n1\n"), "1:[id] 2:[1] ");
}

TEST(CsvReaderTest, MalformedQuotingIsAnError) {
  std::string error;
  EXPECT_EQ(ReadAll("a\n\"open,\nstill", &error), "1:[a] ");
  EXPECT_EQ(error, "line 2: unterminated quoted field");
  EXPECT_EQ(ReadAll("a\n\"x\"y,1\n", &error), "1:[a] ");
  EXPECT_EQ(error, "line 2: field 1: unexpected character after closing quote");
}

TEST(Utf8Test, RejectsMalformedSequences) {
  EXPECT_TRUE(IsValidUtf8("plain 中国 😀"));
  EXPECT_FALSE(IsValidUtf8("\xff"));
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));      // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));  // surrogate
  EXPECT_FALSE(IsValidUtf8("\xE4\xB8"));      // truncated
}

// A Shell on a fresh in-memory database, fed line by line.
class ShellTest : public ::testing::Test {
 protected:
  explicit ShellTest(ShellOptions options = {}) { Reset(options); }

  void Reset(ShellOptions options) {
    shell_.reset();
    out_.str("");
    err_.str("");
    shell_ = std::make_unique<Shell>(options, out_, err_);
    Status s = shell_->Open(":memory:");
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // Feeds the lines; returns what went to stdout and clears it.
  std::string RunLines(const std::vector<std::string>& lines) {
    for (const std::string& l : lines) shell_->ProcessLine(l);
    return TakeOut();
  }
  std::string Run(const std::string& line) { return RunLines({line}); }
  std::string TakeOut() {
    std::string s = out_.str();
    out_.str("");
    return s;
  }
  std::string TakeErr() {
    std::string s = err_.str();
    err_.str("");
    return s;
  }
  void CreateT() {
    RunLines({"CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);",
              "INSERT INTO t VALUES (1, 'alice'), (2, '中国');"});
    ASSERT_EQ(TakeErr(), "");
  }

  std::ostringstream out_, err_;
  std::unique_ptr<Shell> shell_;
};

TEST_F(ShellTest, MultiLineStatementUsesTheContinuationPrompt) {
  CreateT();
  EXPECT_STREQ(shell_->prompt(), "levelql> ");
  shell_->ProcessLine("SELECT id,");
  EXPECT_STREQ(shell_->prompt(), "   ...> ");
  shell_->ProcessLine("  name FROM t -- a ; in a comment");
  EXPECT_TRUE(shell_->in_statement());
  shell_->ProcessLine("ORDER BY id;");
  EXPECT_FALSE(shell_->in_statement());
  EXPECT_EQ(TakeOut(),
            "+----+-------+\n"
            "| id | name  |\n"
            "+----+-------+\n"
            "|  1 | alice |\n"
            "|  2 | 中国  |\n"
            "+----+-------+\n");
  EXPECT_EQ(TakeErr(), "");
}

TEST_F(ShellTest, PageShowsNRowsAndNextPrevMoveByTokens) {
  RunLines({"CREATE TABLE p (id INTEGER PRIMARY KEY, v INTEGER);",
            "CREATE INDEX p_v ON p (v DESC);",
            "INSERT INTO p VALUES (1, 10), (2, 20), (3, 30), (4, 40), (5, 50);",
            ".mode csv", ".headers off", ".page 2"});
  ASSERT_EQ(TakeErr(), "");
  EXPECT_EQ(Run("SELECT id FROM p WHERE v > 0 ORDER BY v DESC;"),
            "5\n4\n-- page 1, rows 1-2; .next for more\n");
  EXPECT_EQ(Run(".next"),
            "3\n2\n-- page 2, rows 3-4; .next for more; "
            ".prev to go back\n");
  EXPECT_EQ(Run(".next"), "1\n-- page 3, rows 5-5; .prev to go back\n");
  // Rows written meanwhile do not shift the pages already seen.
  Run("INSERT INTO p VALUES (6, 5);");
  EXPECT_EQ(Run(".prev"),
            "3\n2\n-- page 2, rows 3-4; .next for more; "
            ".prev to go back\n");
  EXPECT_EQ(Run(".prev"), "5\n4\n-- page 1, rows 1-2; .next for more\n");
  EXPECT_EQ(TakeErr(), "");
  Run(".prev");
  EXPECT_EQ(TakeErr(), "Error: InvalidArgument: this is the first page\n");
  EXPECT_EQ(Run(".page off"), "");
  EXPECT_EQ(Run("SELECT count(*) FROM p;"), "6\n");
  Run(".next");
  EXPECT_NE(TakeErr().find("no query is being paged"), std::string::npos);
}

// .prev shows the rows that precede the page now: after deletes it may
// reach the first page early (and says so), after inserts it may not be
// the first page yet where the page count says it would be.
TEST_F(ShellTest, PrevFollowsRowsWrittenSince) {
  RunLines({"CREATE TABLE q (id INTEGER PRIMARY KEY);",
            "INSERT INTO q VALUES (1), (2), (3), (4), (5), (6), (7), (8);",
            ".mode csv", ".headers off", ".page 2"});
  Run("SELECT id FROM q;");
  Run(".next");
  Run(".next");
  EXPECT_EQ(Run(".next"),
            "7\n8\n-- page 4, rows 7-8; .next for more; .prev to go back\n");
  Run("DELETE FROM q WHERE id IN (1, 2, 3, 4);");
  EXPECT_EQ(Run(".prev"), "5\n6\n-- page 1, rows 1-2; .next for more\n");
  Run(".prev");
  EXPECT_EQ(TakeErr(), "Error: InvalidArgument: this is the first page\n");
  EXPECT_EQ(Run(".next"),
            "7\n8\n-- page 2, rows 3-4; .next for more; .prev to go back\n");
  Run("INSERT INTO q VALUES (-1), (0);");
  EXPECT_EQ(Run(".prev"),
            "5\n6\n-- page 2, rows 3-4; .next for more; .prev to go back\n");
  EXPECT_EQ(Run(".prev"), "-1\n0\n-- page 1, rows 1-2; .next for more\n");
  EXPECT_EQ(TakeErr(), "");
}

TEST_F(ShellTest, StatementsWithoutColumnsPrintNothing) {
  EXPECT_EQ(Run("CREATE TABLE u (a INTEGER); INSERT INTO u VALUES (1);"), "");
  EXPECT_EQ(Run("SELECT a FROM u; SELECT a + 1 AS b FROM u;"),
            "+---+\n| a |\n+---+\n| 1 |\n+---+\n"
            "+---+\n| b |\n+---+\n| 2 |\n+---+\n");
}

TEST_F(ShellTest, EachModeRendersThroughTheShell) {
  CreateT();
  const std::string q = "SELECT id, name FROM t ORDER BY id;";
  Run(".mode box");
  EXPECT_EQ(Run(q),
            "┌────┬───────┐\n"
            "│ id │ name  │\n"
            "├────┼───────┤\n"
            "│  1 │ alice │\n"
            "│  2 │ 中国  │\n"
            "└────┴───────┘\n");
  Run(".mode csv");
  EXPECT_EQ(Run(q), "id,name\n1,alice\n2,中国\n");
  Run(".headers off");
  EXPECT_EQ(Run(q), "1,alice\n2,中国\n");
  Run(".headers on");
  Run(".mode tsv");
  EXPECT_EQ(Run(q), "id\tname\n1\talice\n2\t中国\n");
  Run(".mode json");
  EXPECT_EQ(Run(q),
            "[{\"id\":1,\"name\":\"alice\"},\n{\"id\":2,\"name\":\"中国\"}]\n");
  Run(".mode line");
  EXPECT_EQ(Run(q), "  id = 1\nname = alice\n\n  id = 2\nname = 中国\n");
  Run(".mode markdown");
  EXPECT_EQ(Run(q),
            "| id | name  |\n|---:|-------|\n|  1 | alice |\n|  2 | 中国  |\n");
  EXPECT_EQ(Run(".mode"), "current output mode: markdown\n");
  Run(".mode list");
  EXPECT_EQ(TakeErr(),
            "Error: unknown mode \"list\"; use one of "
            "table|box|csv|tsv|json|line|markdown\n");
}

TEST_F(ShellTest, ErrorsGoToStderrAndTheShellKeepsGoing) {
  CreateT();
  EXPECT_EQ(RunLines({"SELECT * FROM nope;", "SELECT count(*) AS n FROM t;"}),
            "+---+\n| n |\n+---+\n| 2 |\n+---+\n");
  std::string err = TakeErr();
  EXPECT_TRUE(err.starts_with("Error: ")) << err;
  EXPECT_EQ(shell_->failures(), 1);
  EXPECT_EQ(shell_->exit_code(), 1);
  Run(".frobnicate");
  EXPECT_EQ(TakeErr(),
            "Error: unknown command \".frobnicate\" (enter \".help\" for the "
            "list)\n");
}

// As in sqlite3, a failed statement drops the rest of its input line (the
// statements after it may depend on it); the next line runs.
TEST_F(ShellTest, AFailedStatementDropsTheRestOfItsLine) {
  Run(".mode csv");
  EXPECT_EQ(RunLines({"SELECT 1 AS a; SELECT nope; SELECT 2 AS b;",
                      "SELECT 3 AS c;"}),
            "a\n1\nc\n3\n");
  EXPECT_NE(TakeErr().find("no column nope"), std::string::npos);
  EXPECT_EQ(shell_->failures(), 1);
}

// Piped input is named (the program names it "stdin"): an error says
// where in it it is, as in a script file.
TEST_F(ShellTest, NamedInputPlacesErrorsByItsLines) {
  shell_->NameInput("stdin");
  RunLines({"SELECT 1;", "SELECT", "  nope;"});
  EXPECT_EQ(TakeErr(),
            "Error: stdin:3:3: NotFound: no column nope (a SELECT without "
            "FROM has no columns)\n");
}

TEST_F(ShellTest, EndOfInputRunsAStatementWithoutItsSemicolon) {
  CreateT();
  Run(".mode csv");
  EXPECT_TRUE(shell_->RunText("SELECT id FROM t\n  WHERE id = 2"));
  EXPECT_EQ(TakeOut(), "id\n2\n");
  shell_->ProcessLine("SELECT name FROM t WHERE id = 1");
  EXPECT_TRUE(shell_->in_statement());
  shell_->Finish();
  EXPECT_EQ(TakeOut(), "name\nalice\n");
  // Blank lines and lone comments never start a continuation.
  shell_->ProcessLine("");
  shell_->ProcessLine("-- just a comment");
  EXPECT_FALSE(shell_->in_statement());
  EXPECT_EQ(TakeErr(), "");
}

TEST_F(ShellTest, ThePromptShowsATransactionAndQuitRollsItBack) {
  CreateT();
  Run("BEGIN;");
  EXPECT_STREQ(shell_->prompt(), "levelql*> ");
  shell_->ProcessLine("INSERT INTO t");
  EXPECT_STREQ(shell_->prompt(), "   ...> ");
  shell_->ProcessLine("VALUES (3, 'c');");
  Run("COMMIT;");
  EXPECT_STREQ(shell_->prompt(), "levelql> ");
  Run("BEGIN; DELETE FROM t;");
  EXPECT_EQ(TakeErr(), "");
  EXPECT_FALSE(shell_->ProcessLine(".quit"));
  EXPECT_EQ(TakeErr(),
            "Rolled back the open transaction (.quit): COMMIT before it to "
            "keep its changes.\n");
  EXPECT_FALSE(shell_->db()->InTransaction());
  EXPECT_EQ(shell_->exit_code(), 0);
  auto cur = shell_->db()->Query("SELECT count(*) FROM t");
  ASSERT_TRUE(cur.ok() && (*cur)->Next());
  EXPECT_EQ((*cur)->row()[0].int_value(), 3);
}

TEST_F(ShellTest, EndOfInputRollsBackAnOpenTransaction) {
  CreateT();
  shell_->ProcessLine("BEGIN; DELETE FROM t WHERE id = 1;");
  shell_->Finish();
  EXPECT_EQ(TakeErr(),
            "Rolled back the open transaction (end of input): COMMIT before "
            "it to keep its changes.\n");
  Run(".mode csv");
  EXPECT_EQ(Run("SELECT count(*) AS n FROM t;"), "n\n2\n");
}

TEST_F(ShellTest, BailStopsANonInteractiveShell) {
  CreateT();
  Run(".bail on");
  EXPECT_FALSE(shell_->ProcessLine("SELECT * FROM nope; SELECT 1 AS x;"));
  EXPECT_EQ(TakeOut(), "");
  EXPECT_TRUE(shell_->exiting());
  EXPECT_EQ(shell_->exit_code(), 1);
}

TEST_F(ShellTest, ExitTakesACode) {
  EXPECT_TRUE(shell_->ProcessLine(".help"));
  EXPECT_FALSE(shell_->ProcessLine(".exit 3"));
  EXPECT_EQ(shell_->exit_code(), 3);
  Reset({});
  EXPECT_FALSE(shell_->ProcessLine(".quit"));
  EXPECT_EQ(shell_->exit_code(), 0);
}

TEST_F(ShellTest, ParamsBindToNamedParameters) {
  CreateT();
  RunLines({".param set :who 'alice'", ".param set :n 2", ".param set :z NULL",
            ".param set r 2.5", ".param set :b true", ".param set :x x'00FF'",
            ".param set :s two words", ".param set :q 'it''s'"});
  EXPECT_EQ(Run(".param list"),
            ":b TRUE\n:n 2\n:q 'it''s'\n:r 2.5\n:s 'two words'\n"
            ":who 'alice'\n:x x'00ff'\n:z NULL\n");
  RunLines({".param unset :r", ".param unset q", ".param unset :b",
            ".param unset :x", ".param unset :s"});
  Run(".mode csv");
  EXPECT_EQ(Run("SELECT id FROM t WHERE name = :who;"), "id\n1\n");
  EXPECT_EQ(Run("SELECT name FROM t WHERE id = :n;"), "name\n中国\n");
  // Statements that mention no parameter are unaffected by the bindings.
  EXPECT_EQ(Run("SELECT count(*) AS c FROM t;"), "c\n2\n");
  Run(".param clear");
  EXPECT_EQ(Run(".param list"), "");
  EXPECT_EQ(TakeErr(), "");
}

TEST_F(ShellTest, TimerAndEchoAndExplain) {
  CreateT();
  RunLines({".timer on", ".mode csv"});
  std::string out = Run("SELECT id FROM t WHERE id = 1;");
  EXPECT_TRUE(out.starts_with("id\n1\nRun Time: real 0.")) << out;
  RunLines({".timer off", ".echo on"});
  EXPECT_EQ(Run("SELECT id FROM t WHERE id = 2;"),
            "SELECT id FROM t WHERE id = 2;\nid\n2\n");
  RunLines({".echo off", ".explain on"});
  out = Run("SELECT id FROM t WHERE id = 2;");
  EXPECT_TRUE(out.ends_with("\nid\n2\n")) << out;
  EXPECT_GT(out.size(), std::string("id\n2\n").size()) << out;
  EXPECT_EQ(TakeErr(), "");
}

TEST_F(ShellTest, TablesSchemaStatsAndCheck) {
  CreateT();
  Run("CREATE TABLE users (id INTEGER, email TEXT COLLATE nocase);");
  Run("CREATE UNIQUE INDEX by_email ON users (email);");
  EXPECT_EQ(Run(".tables"), "t      users\n");
  EXPECT_EQ(Run(".tables u%"), "users\n");
  Run("CREATE VIEW u2 AS SELECT id FROM users;");
  EXPECT_EQ(Run(".tables u%"), "u2     users\n");
  EXPECT_EQ(Run(".schema u2"), "CREATE VIEW u2 AS SELECT id FROM users;\n");
  Run("DROP VIEW u2;");
  EXPECT_EQ(Run(".schema users"),
            "CREATE TABLE users (id INTEGER, email TEXT COLLATE nocase);\n"
            "CREATE UNIQUE INDEX by_email ON users (email);\n");
  EXPECT_EQ(Run(".indexes"), "by_email\n");
  EXPECT_EQ(Run(".indexes t"), "");
  // A pattern that matches no table prints nothing (sqlite3 too).
  EXPECT_EQ(Run(".tables nosuch"), "");
  EXPECT_EQ(Run(".schema nosuch"), "");
  Run(".mode csv");
  EXPECT_EQ(Run(".stats"), "table,rows\nt,2\nusers,0\n");
  EXPECT_EQ(Run(".check"), "ok\n");
  EXPECT_EQ(TakeErr(), "");
}

TEST_F(ShellTest, CompletesKeywordsTablesAndColumns) {
  CreateT();
  EXPECT_EQ(shell_->Complete("", "sel"), std::vector<std::string>{"select"});
  EXPECT_EQ(shell_->Complete("", "SEL"), std::vector<std::string>{"SELECT"});
  EXPECT_EQ(shell_->Complete("", ".he"),
            (std::vector<std::string>{".headers", ".help"}));
  EXPECT_EQ(shell_->Complete("SELECT * FROM ", "t"),
            (std::vector<std::string>{"t", "table", "text", "then", "timestamp",
                                      "to", "true"}));
  EXPECT_EQ(shell_->Complete("SELECT ", "na"),  // t is the only table
            std::vector<std::string>{"name"});
  EXPECT_EQ(shell_->Complete(".schema ", ""), std::vector<std::string>{"t"});
}

TEST_F(ShellTest, DotCommandsQuoteReservedAndMixedCaseTableNames) {
  // Names from the catalog are quoted exactly: a reserved word and a
  // mixed-case name (case-sensitive because it was created quoted) must
  // keep their quotes, or .stats would query a syntax error or `mytab`.
  RunLines({"CREATE TABLE \"order\" (id INTEGER);",
            "CREATE TABLE \"MyTab\" (\"Id\" INTEGER, \"select\" TEXT);",
            "CREATE TABLE People (id INTEGER);",
            "INSERT INTO \"order\" VALUES (1), (2);",
            "INSERT INTO \"MyTab\" VALUES (7, 'x');"});
  ASSERT_EQ(TakeErr(), "");
  Run(".mode csv");
  EXPECT_EQ(Run(".stats"), "table,rows\nMyTab,1\norder,2\npeople,0\n");
  // A name typed in a dot-command means the table of exactly that name, or
  // else the one SQL would read it as unquoted (People is people).
  EXPECT_EQ(Run(".check order"), "ok\n");
  EXPECT_EQ(Run(".check MyTab"), "ok\n");
  EXPECT_EQ(Run(".check TABLE People"), "ok\n");
  EXPECT_EQ(TakeErr(), "");
  std::vector<std::string> words =
      shell_->Complete("SELECT * FROM \"MyTab\" WHERE ", "I");
  EXPECT_NE(std::find(words.begin(), words.end(), "Id"), words.end());
  words = shell_->Complete("SELECT * FROM \"MyTab\" WHERE ", "sel");
  EXPECT_NE(std::find(words.begin(), words.end(), "select"), words.end());
}

class TempDirTest : public ShellTest {
 protected:
  TempDirTest() : dir_(temp_.path()) {}

  std::string Write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  testing::TempDir temp_{"repl-test"};
  fs::path dir_;
};

// Runs the real `levelql` program with `args` (shell words); returns its
// exit status and what it wrote to stdout and stderr.
std::pair<int, std::string> RunProgram(const std::string& args) {
  std::string command =
      std::string("'") + LEVELQL_SHELL + "' " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string output;
  char buf[512];
  while (size_t n = fread(buf, 1, sizeof(buf), pipe)) output.append(buf, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

TEST_F(TempDirTest, ADatabaseInUseIsReportedPlainlyAndTheProgramFails) {
  std::string path = (dir_ / "busy.db").string();
  auto held = Database::Open(path);
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  const std::string design =
      ". levelql is single-process by design: one process opens a database, "
      "and its threads share that Database object. ";

  auto [status, output] = RunProgram("'" + path + "' -c '.tables'");
  EXPECT_EQ(status, 1);
  EXPECT_EQ(output, "levelql: cannot open " + path +
                        ": IOError: the database at " + path +
                        " is in use by another process, which holds its "
                        "lock file " +
                        path + "/LOCK" + design +
                        "Close the other process, or open another "
                        "database.\n");

  // .open in a running shell says the same (here the holder is this very
  // process) and keeps the current database.
  Run(".open " + path);
  EXPECT_EQ(TakeErr(), "Error: IOError: the database at " + path +
                           " is already open in this process (its lock file " +
                           path + "/LOCK is held)" + design +
                           "Open it once and give that Database to every "
                           "thread.\n");
  EXPECT_EQ(shell_->db_path(), ":memory:");
}

// `err` without the timings of .import summaries (" in 0.012 s (125000
// rows/s)"), which change from run to run.
std::string Untimed(std::string err) {
  for (size_t i = err.find(" in "); i != std::string::npos;
       i = err.find(" in ", i + 1)) {
    size_t end = err.find(" rows/s)", i);
    if (end == std::string::npos || err.find('\n', i) < end) continue;
    err.erase(i, end + 8 - i);
  }
  return err;
}

// 2500 rows after a header; line 1502 (row 1501) has two fields.
std::string PeopleCsv(bool broken) {
  std::string csv = "id,name,score\n";
  for (int i = 1; i <= 2500; ++i) {
    csv += broken && i == 1501
               ? "1501,oops\n"
               : std::to_string(i) + ",\"n, " + std::to_string(i) + "\"," +
                     std::to_string(i) + ".5\n";
  }
  return csv;
}

// In a script, an error names the file, and the line and column in it of
// what failed (a statement's own position made the file's), or the line a
// statement or dot-command starts on.
TEST_F(TempDirTest, ScriptErrorsNameTheFileLineAndColumn) {
  std::string path = Write("s.sql",
                           "CREATE TABLE t (id INTEGER PRIMARY KEY);\n"
                           "\n"
                           "SELEC 1;\n"
                           "SELECT id\n"
                           "  FROM t\n"
                           "  WHERE nosuch = 1;\n"
                           ".import nofile.csv t\n"
                           "SELECT 1; SELECT x FROM t;\n");
  Run(".read " + path);
  const std::string err = TakeErr();
  EXPECT_NE(err.find("Error: " + path +
                     ":3:1: SyntaxError: expected statement near \"SELEC\""),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("Error: " + path +
                     ":6:9: NotFound: no column nosuch in table t\n"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("Error: " + path + ":7: .import nofile.csv: cannot open"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find("imported 0 rows"), std::string::npos) << err;
  EXPECT_NE(
      err.find("Error: " + path + ":8:18: NotFound: no column x in table t\n"),
      std::string::npos)
      << err;
  // Typed input keeps the statement's own position.
  Run("SELEC 2;");
  EXPECT_EQ(TakeErr().rfind("Error: SyntaxError at 1:1:", 0), 0u);
}

TEST_F(TempDirTest, ImportStopsAtTheBadLineKeepingExactlyTheRowsBeforeIt) {
  Run("CREATE TABLE people (id INTEGER, name TEXT, score REAL);");
  // Batches are 1000 rows, so the error falls in the second batch: its rows
  // before line 1502 still go in, and none after it.
  std::string path = Write("people.csv", PeopleCsv(/*broken=*/true));
  Run(".import --csv --skip 1 " + path + " people");
  EXPECT_EQ(Untimed(TakeErr()),
            "Error: .import " + path +
                ": line 1502: expected 3 fields, found 2\n"
                "imported 1500 rows: every row before line 1502, none from "
                "it on\n"
                "fix line 1502, then resume with: .import --skip 1501 " +
                path + " people\n");
  EXPECT_EQ(shell_->exit_code(), 1);
  Run(".mode csv");
  EXPECT_EQ(Run("SELECT count(*) AS n, max(id) AS m FROM people;"),
            "n,m\n1500,1500\n");
  EXPECT_EQ(Run("SELECT name, score FROM people WHERE id = 7;"),
            "name,score\n\"n, 7\",7.5\n");
}

TEST_F(TempDirTest, ImportResumesWhereItStoppedWithTheSkipItSuggests) {
  Run("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, score REAL);");
  std::string path = Write("people.csv", PeopleCsv(/*broken=*/true));
  Run(".import --skip 1 " + path + " people");
  std::string err = TakeErr();
  const std::string hint = "then resume with: ";
  size_t at = err.find(hint);
  ASSERT_NE(at, std::string::npos) << err;
  std::string again = err.substr(at + hint.size());
  again.pop_back();                                  // the newline
  Write("people.csv", PeopleCsv(/*broken=*/false));  // line 1502 fixed
  Run(again);
  EXPECT_EQ(Untimed(TakeErr()), "imported 1000 rows\n");
  Run(".mode csv");
  EXPECT_EQ(Run("SELECT count(*) AS n, min(id) AS a, max(id) AS m FROM "
                "people;"),
            "n,a,m\n2500,1,2500\n");
}

TEST_F(TempDirTest, ImportReportsValuesTheEngineRejectsByLineAndField) {
  Run("CREATE TABLE nums (id INTEGER, label TEXT);");
  std::string path = Write("nums.csv", "1,a\n2,\n3,\"\"\nx,b\n5,c\n");
  Run(".import " + path + " nums");
  EXPECT_EQ(Untimed(TakeErr()),
            "Error: .import " + path +
                ": line 4: field 1: TypeError: cannot store 'x' in INTEGER "
                "column id\n"
                "imported 3 rows: every row before line 4, none from it on\n"
                "fix line 4, then resume with: .import --skip 3 " +
                path + " nums\n");
  Run(".mode csv");
  // An unquoted empty field is NULL, a quoted one the empty string.
  EXPECT_EQ(Run("SELECT id, label FROM nums ORDER BY id;"),
            "id,label\n1,a\n2,\n3,\"\"\n");
}

TEST_F(TempDirTest, ImportWithSkipBadReportsEachSkippedLineAndACount) {
  Run("CREATE TABLE \"Pets\" (id INTEGER PRIMARY KEY, name TEXT);");
  std::string path = Write("pets.csv",
                           "id,name\n"
                           "1,rex\n"
                           "2\n"                   // too few fields
                           "3,\"tom\"x,extra\n"    // junk after a quote
                           "4,\xff\n"              // invalid UTF-8
                           "five,kit\n"            // not an INTEGER
                           "1,dup\n"               // duplicate key
                           "6,\"two\nlines\"\n");  // fine
  Run(".import --skip-bad --skip 1 " + path + " Pets");
  EXPECT_EQ(
      Untimed(TakeErr()),
      "line 3: expected 2 fields, found 1 (skipped)\n"
      "line 4: field 2: unexpected character after closing quote (skipped)\n"
      "line 5: field 2: invalid UTF-8 (skipped)\n"
      "line 6: field 1: TypeError: cannot store 'five' in INTEGER column id "
      "(skipped)\n"
      "line 7: ConstraintError: PRIMARY KEY of Pets: duplicate key 1 "
      "(skipped)\n"
      "imported 2 rows; skipped 5 bad lines\n");
  // The lines were skipped on request: the import did not fail.
  EXPECT_EQ(shell_->failures(), 0);
  Run(".mode csv");
  EXPECT_EQ(Run("SELECT id, name FROM \"Pets\" ORDER BY id;"),
            "id,name\n1,rex\n6,\"two\nlines\"\n");
}

// A line the engine rejects is found when its batch is sent, after the
// lines after it were read: the report still goes in line order.
TEST_F(TempDirTest, ImportWithSkipBadReportsInLineOrder) {
  Run("CREATE TABLE n (id INTEGER PRIMARY KEY, name TEXT);");
  std::string path = Write("n.csv",
                           "1,a\n"
                           "two,b\n"  // rejected by the engine
                           "3\n"      // too few fields
                           "4,d\n");
  Run(".import --skip-bad " + path + " n");
  EXPECT_EQ(Untimed(TakeErr()),
            "line 2: field 1: TypeError: cannot store 'two' in INTEGER "
            "column id (skipped)\n"
            "line 3: expected 2 fields, found 1 (skipped)\n"
            "imported 2 rows; skipped 2 bad lines\n");
}

TEST_F(TempDirTest, ImportWithSkipBadStillStopsAtAnUnterminatedQuote) {
  Run("CREATE TABLE t (a INTEGER, b TEXT);");
  std::string path = Write("t.csv", "1,x\n2,\"open\n3,y\n");
  Run(".import --skip-bad " + path + " t");
  EXPECT_EQ(Untimed(TakeErr()),
            "Error: .import " + path +
                ": line 2: unterminated quoted field\n"
                "imported 1 row: every good row before line 2, none from "
                "it on\n"
                "fix line 2, then resume with: .import --skip-bad --skip 1 " +
                path + " t\n");
}

TEST_F(TempDirTest, AnInterruptedImportSaysWhereToResume) {
  Run("CREATE TABLE t (a INTEGER);");
  ImportRequest request;
  request.path = Write("t.csv", "a\n1\n2\n");
  request.table = "t";
  request.skip = 1;
  std::atomic<bool> interrupted{true};
  request.interrupted = &interrupted;
  ImportResult result = ImportCsv(*shell_->db(), request);
  EXPECT_EQ(result.error, "interrupted at line 2");
  EXPECT_EQ(result.rows, 0);
  EXPECT_EQ(result.stop_line, 2);
  EXPECT_EQ(Untimed(ImportSummary(result, request, "t.csv", "t")),
            "imported 0 rows\nresume with: .import --skip 1 t.csv t");
}

TEST_F(TempDirTest, ImportRejectsInvalidUtf8AndSummarizesSuccess) {
  Run("CREATE TABLE w (s TEXT);");
  std::string bad = Write("bad.csv", "ok\n\xff\xfe\n");
  Run(".import " + bad + " w");
  EXPECT_TRUE(TakeErr().starts_with("Error: .import " + bad +
                                    ": line 2: field 1: invalid UTF-8\n"));
  std::string good = Write("good.csv", "x\ny\n");
  Run(".import " + good + " w");
  EXPECT_EQ(Untimed(TakeErr()), "imported 2 rows\n");
  Run(".import " + good + " missing_table");
  EXPECT_TRUE(TakeErr().starts_with("Error: .import " + good + ": "));
}

TEST_F(TempDirTest, ReadAndOutputFiles) {
  std::string script = Write("s.sql",
                             "CREATE TABLE r (a INTEGER);\n"
                             "INSERT INTO r\n  VALUES (7);\n"
                             ".mode csv\n"
                             "SELECT a FROM r;\n");
  EXPECT_EQ(Run(".read " + script), "a\n7\n");
  std::string out = (dir_ / "out.txt").string();
  RunLines({".output " + out, "SELECT a FROM r;", ".output"});
  EXPECT_EQ(TakeOut(), "");
  std::ifstream in(out);
  std::stringstream got;
  got << in.rdbuf();
  EXPECT_EQ(got.str(), "a\n7\n");
  EXPECT_EQ(TakeErr(), "");
}

TEST_F(ShellTest, SafeModeRefusesPathsOutsideTheCurrentDirectory) {
  ShellOptions options;
  options.safe = true;
  Reset(options);
  Run(".open /tmp/elsewhere");
  Run(".read ../x.sql");
  Run(".import /etc/passwd t");
  Run(".output sub/../../o.txt");
  Run(".shell ls");
  EXPECT_EQ(
      TakeErr(),
      "Error: .open: --safe refuses paths outside the current directory: "
      "/tmp/elsewhere\n"
      "Error: .read: --safe refuses paths outside the current directory: "
      "../x.sql\n"
      "Error: .import: --safe refuses paths outside the current directory: "
      "/etc/passwd\n"
      "Error: .output: --safe refuses paths outside the current directory: "
      "sub/../../o.txt\n"
      "Error: .shell is refused: levelql has no shell escape\n");
  // :memory: is always allowed.
  Run(".open :memory:");
  EXPECT_EQ(TakeErr(), "");
}

}  // namespace
}  // namespace levelql::repl
