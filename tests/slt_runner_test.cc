// Tests for the sqllogictest runner (tools/slt): parsing, value rendering,
// sorting, hashing, labels, conditions and reporting, against a scripted fake
// Database so no engine is needed.
#include "tools/slt/slt_runner.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "levelql/database.h"
#include "tools/slt/md5.h"
#include "tools/slt/slt_file.h"

namespace levelql::slt {
namespace {

// ---- A Database that answers from a script -----------------------------

struct Answer {
  Status status;  // returned by Query() itself
  std::vector<std::string> names;
  std::vector<Row> rows;
  Status end_status;  // the cursor's status() after the last row
};

class FakeCursor : public Cursor {
 public:
  explicit FakeCursor(const Answer& answer) : answer_(answer) {}
  bool Next() override {
    if (pos_ >= answer_.rows.size()) return false;
    ++pos_;
    return true;
  }
  const Row& row() const override { return answer_.rows[pos_ - 1]; }
  const std::vector<std::string>& column_names() const override {
    return answer_.names;
  }
  const std::vector<Type>& column_types() const override { return types_; }
  Status status() const override {
    return pos_ >= answer_.rows.size() ? answer_.end_status : Status::OK();
  }

 private:
  const Answer& answer_;
  std::vector<Type> types_;
  size_t pos_ = 0;
};

class FakeDatabase : public Database {
 public:
  // Scripted answers, by exact SQL text.
  std::map<std::string, Answer, std::less<>> queries;
  std::map<std::string, Status, std::less<>> statements;  // default: OK
  std::map<std::string, std::string, std::less<>> plans;
  std::vector<std::string> executed;  // every Execute()/Query(), in order

  // Scripts `sql` to return `rows` (column names c0, c1, ...).
  void Returns(const std::string& sql, std::vector<Row> rows,
               size_t columns = 0) {
    Answer a;
    if (columns == 0 && !rows.empty()) columns = rows[0].size();
    for (size_t i = 0; i < columns; ++i) {
      a.names.push_back(std::string(1, 'c').append(std::to_string(i)));
    }
    a.rows = std::move(rows);
    queries[sql] = std::move(a);
  }

  Status Execute(std::string_view sql) override {
    executed.emplace_back(sql);
    auto it = statements.find(sql);
    return it == statements.end() ? Status::OK() : it->second;
  }
  Result<ExecResult> Execute(std::string_view, const Params&) override {
    return Status::NotSupported("fake");
  }
  Result<std::unique_ptr<Statement>> Prepare(std::string_view) override {
    return Status::NotSupported("fake");
  }
  Result<std::unique_ptr<Cursor>> Query(std::string_view sql,
                                        const Params&) override {
    executed.emplace_back(sql);
    auto it = queries.find(sql);
    if (it == queries.end()) {
      return Status::NotFound("no scripted answer for " + std::string(sql));
    }
    if (!it->second.status.ok()) return it->second.status;
    return std::unique_ptr<Cursor>(new FakeCursor(it->second));
  }
  Result<std::string> Explain(std::string_view sql, const Params&) override {
    auto it = plans.find(sql);
    if (it == plans.end()) return Status::NotFound("no plan");
    return it->second;
  }
  void Interrupt() override {}
  std::vector<std::string> TableNames() override { return {}; }
  std::vector<SchemaEntry> Schema() override { return {}; }
};

Row Ints(std::initializer_list<int64_t> values) {
  Row row;
  for (int64_t v : values) row.push_back(Value::Int(v));
  return row;
}

struct Outcome {
  RunResult result;
  std::string output;
  std::string summary() const { return SummaryLine(result.stats); }
};

Outcome RunText(FakeDatabase& db, const std::string& text,
                RunOptions options = RunOptions()) {
  Script script = ParseScript("t.test", text);
  std::ostringstream out;
  Outcome o;
  o.result = RunScript(script, db, options, out);
  o.output = out.str();
  return o;
}

// ---- MD5 -------------------------------------------------------------------

TEST(Md5Test, MatchesRfc1321TestSuite) {
  const std::pair<const char*, const char*> kVectors[] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
       "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"123456789012345678901234567890123456789012345678901234567890123456789"
       "01234567890",
       "57edf4a22be3c955ac49da2e2107b67a"},
  };
  for (const auto& [input, digest] : kVectors) {
    EXPECT_EQ(Md5Hex(input), digest) << '"' << input << '"';
  }
}

TEST(Md5Test, StreamingInAnyPiecesEqualsOneShot) {
  std::string data;
  for (int i = 0; i < 300; ++i) data += static_cast<char>('a' + i % 26);
  const std::string whole = Md5Hex(data);
  for (size_t piece : {1, 3, 55, 56, 63, 64, 65, 129}) {
    Md5 md5;
    for (size_t pos = 0; pos < data.size(); pos += piece) {
      md5.Update(std::string_view(data).substr(pos, piece));
    }
    EXPECT_EQ(md5.FinishHex(), whole) << "piece " << piece;
  }
}

TEST(Md5Test, HashLineIsMd5OfEachValueFollowedByNewline) {
  // From the conformance suite: ten rows of `SELECT - CAST ( - 45 AS
  // INTEGER ) FROM tab0` under hash-threshold 8.
  EXPECT_EQ(HashLine(std::vector<std::string>(10, "45")),
            "10 values hashing to ac493ed70379ca2cb8d4fc3a9e61f655");
  EXPECT_EQ(HashLine({"a", "b"}), "2 values hashing to " + Md5Hex("a\nb\n"));
}

// ---- Parsing ---------------------------------------------------------------

TEST(SltFileTest, ParsesStatementRecords) {
  Script s = ParseScript("t.test",
                         "statement ok\n"
                         "CREATE TABLE t (a INTEGER)\n"
                         "\n"
                         "# a comment between records\n"
                         "statement error\n"
                         "INSERT INTO nowhere VALUES (1)\n"
                         "\n\n"
                         "statement error UNIQUE constraint .*failed\n"
                         "INSERT INTO t\n"
                         "# a comment inside the SQL is dropped\n"
                         "VALUES (1)\n");
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_EQ(s.records[0].kind, RecordKind::kStatementOk);
  EXPECT_EQ(s.records[0].line, 1);
  EXPECT_EQ(s.records[0].sql, "CREATE TABLE t (a INTEGER)");
  EXPECT_EQ(s.records[1].kind, RecordKind::kStatementError);
  EXPECT_EQ(s.records[1].line, 5);
  EXPECT_EQ(s.records[1].error_pattern, "");
  EXPECT_EQ(s.records[2].kind, RecordKind::kStatementError);
  EXPECT_EQ(s.records[2].error_pattern, "UNIQUE constraint .*failed");
  EXPECT_EQ(s.records[2].sql, "INSERT INTO t\nVALUES (1)");
}

TEST(SltFileTest, ParsesQueryRecords) {
  Script s = ParseScript("t.test",
                         "query ITR rowsort label-7\n"
                         "SELECT a, b, c\n"
                         "FROM t\n"
                         "----\n"
                         "1\n"
                         "x y\n"
                         "2.500\n"
                         "\n"
                         "query I\n"
                         "SELECT 1 WHERE 0\n"
                         "\n"
                         "query T valuesort\n"
                         "SELECT b FROM t\n"
                         "----\n"
                         "\n"
                         "query explain\n"
                         "SELECT * FROM t\n");
  ASSERT_EQ(s.records.size(), 4u);
  const Record& q = s.records[0];
  EXPECT_EQ(q.kind, RecordKind::kQuery);
  EXPECT_EQ(q.types, "ITR");
  EXPECT_EQ(q.sort, SortMode::kRowSort);
  EXPECT_EQ(q.label, "label-7");
  EXPECT_EQ(q.sql, "SELECT a, b, c\nFROM t");
  EXPECT_TRUE(q.has_separator);
  EXPECT_EQ(q.expected, (std::vector<std::string>{"1", "x y", "2.500"}));

  EXPECT_EQ(s.records[1].sort, SortMode::kNoSort);
  EXPECT_FALSE(s.records[1].has_separator);
  EXPECT_TRUE(s.records[1].expected.empty());
  EXPECT_EQ(s.records[1].label, "");

  EXPECT_EQ(s.records[2].sort, SortMode::kValueSort);
  EXPECT_TRUE(s.records[2].has_separator);
  EXPECT_TRUE(s.records[2].expected.empty());

  EXPECT_TRUE(s.records[3].is_explain());
  EXPECT_FALSE(s.records[0].is_explain());
}

TEST(SltFileTest, ParsesControlRecordsAndConditions) {
  Script s = ParseScript("t.test",
                         "hash-threshold 8\n"
                         "\n"
                         "skipif mysql\n"
                         "onlyif levelql\n"
                         "statement ok\n"
                         "SELECT 1\n"
                         "\n"
                         "onlyif mssql\n"
                         "halt\n"
                         "\n"
                         "halt\n");
  ASSERT_EQ(s.records.size(), 4u);
  EXPECT_EQ(s.records[0].kind, RecordKind::kHashThreshold);
  EXPECT_EQ(s.records[0].hash_threshold, 8);
  const Record& st = s.records[1];
  EXPECT_EQ(st.kind, RecordKind::kStatementOk);
  EXPECT_EQ(st.line, 5);
  ASSERT_EQ(st.conditions.size(), 2u);
  EXPECT_FALSE(st.conditions[0].only_if);
  EXPECT_EQ(st.conditions[0].engine, "mysql");
  EXPECT_TRUE(st.conditions[1].only_if);
  EXPECT_EQ(st.conditions[1].engine, "levelql");
  EXPECT_EQ(s.records[2].kind, RecordKind::kHalt);
  EXPECT_EQ(s.records[2].conditions.size(), 1u);
  EXPECT_EQ(s.records[3].kind, RecordKind::kHalt);
}

TEST(SltFileTest, MalformedRecordsBecomeInvalidWithAReason) {
  Script s = ParseScript("t.test",
                         "quer I\nSELECT 1\n\n"
                         "query IX\nSELECT 1\n\n"
                         "query I\n----\n1\n\n"
                         "hash-threshold many\n\n"
                         "statement maybe\nSELECT 1\n\n"
                         "skipif levelql\n\n"
                         "query I nosort label-1 extra\nSELECT 1\n");
  ASSERT_EQ(s.records.size(), 7u);
  for (const Record& r : s.records) {
    EXPECT_EQ(r.kind, RecordKind::kInvalid) << "line " << r.line;
  }
  EXPECT_EQ(s.records[0].error, "unknown record type 'quer'");
  EXPECT_EQ(s.records[1].error, "unknown column type 'X' in type string 'IX'");
  EXPECT_EQ(s.records[2].error, "query without SQL");
  EXPECT_EQ(s.records[2].line, 7);
}

TEST(SltFileTest, HandlesCrlfWhitespaceOnlyBlankLinesAndNoFinalNewline) {
  Script s = ParseScript("t.test",
                         "query I\r\nSELECT 1\r\n----\r\n1\r\n \t\r\n"
                         "statement ok\r\nSELECT 2");
  ASSERT_EQ(s.records.size(), 2u);
  EXPECT_EQ(s.records[0].sql, "SELECT 1");
  EXPECT_EQ(s.records[0].expected, std::vector<std::string>{"1"});
  EXPECT_EQ(s.records[1].sql, "SELECT 2");
  EXPECT_EQ(s.records[1].line, 6);
}

// ---- Rendering -------------------------------------------------------------

TEST(RenderTest, IntegerColumnsConvertLikeSqlite3ColumnInt) {
  EXPECT_EQ(RenderValue(Value::Int(42), 'I'), "42");
  EXPECT_EQ(RenderValue(Value::Int(-9000000000), 'I'), "-9000000000");
  EXPECT_EQ(RenderValue(Value::Real(473.59), 'I'), "473");
  EXPECT_EQ(RenderValue(Value::Real(-2.9), 'I'), "-2");
  EXPECT_EQ(RenderValue(Value::Real(1e300), 'I'), "9223372036854775807");
  EXPECT_EQ(RenderValue(Value::Text("abc"), 'I'), "0");
  EXPECT_EQ(RenderValue(Value::Text("12abc"), 'I'), "12");
  EXPECT_EQ(RenderValue(Value::Text("  -7.9x"), 'I'), "-7");
  EXPECT_EQ(RenderValue(Value::Text(""), 'I'), "0");
  EXPECT_EQ(RenderValue(Value::Text("99999999999999999999"), 'I'),
            "9223372036854775807");
  EXPECT_EQ(RenderValue(Value::Bool(true), 'I'), "1");
  EXPECT_EQ(RenderValue(Value::Timestamp(1500), 'I'), "1500");
  EXPECT_EQ(RenderValue(Value::Null(), 'I'), "NULL");
}

TEST(RenderTest, RealColumnsPrintThreeDecimalsRoundingHalfUp) {
  EXPECT_EQ(RenderValue(Value::Int(3), 'R'), "3.000");
  EXPECT_EQ(RenderValue(Value::Real(473.59), 'R'), "473.590");
  EXPECT_EQ(RenderValue(Value::Real(-12.3456), 'R'), "-12.346");
  // Halves and near-halves round up, as in SQLite's printf (glibc's "%.3f"
  // would give 2.062 and 0.001). Every expectation here is what SQLite's
  // printf('%.3f', x) returns.
  EXPECT_EQ(RenderValue(Value::Real(2.0625), 'R'), "2.063");
  EXPECT_EQ(RenderValue(Value::Real(0.0015), 'R'), "0.002");
  EXPECT_EQ(RenderValue(Value::Real(0.9996), 'R'), "1.000");
  EXPECT_EQ(RenderValue(Value::Real(999.9999), 'R'), "1000.000");
  EXPECT_EQ(RenderValue(Value::Real(0.0004), 'R'), "0.000");
  EXPECT_EQ(RenderValue(Value::Real(-0.0), 'R'), "0.000");
  EXPECT_EQ(RenderValue(Value::Real(-0.0001), 'R'), "-0.000");
  // Past 16 significant digits SQLite prints zeros.
  EXPECT_EQ(RenderValue(Value::Real(123456789012345678901.0), 'R'),
            "123456789012345600000.000");
  EXPECT_EQ(RenderValue(Value::Text("12.5abc"), 'R'), "12.500");
  EXPECT_EQ(RenderValue(Value::Text("abc"), 'R'), "0.000");
  EXPECT_EQ(RenderValue(Value::Text("-1e2x"), 'R'), "-100.000");
  EXPECT_EQ(RenderValue(Value::Null(), 'R'), "NULL");
  EXPECT_EQ(FormatFixed(2.5, 0), "3");
}

// Expectations are SQLite's CAST(x AS TEXT).
TEST(RenderTest, TextColumnsPrintNumbersAsSqliteDoes) {
  EXPECT_EQ(RenderValue(Value::Int(-5), 'T'), "-5");
  EXPECT_EQ(RenderValue(Value::Bool(false), 'T'), "0");
  EXPECT_EQ(RenderValue(Value::Real(1.0), 'T'), "1.0");
  EXPECT_EQ(RenderValue(Value::Real(0.1), 'T'), "0.1");
  EXPECT_EQ(RenderValue(Value::Real(100.0), 'T'), "100.0");
  EXPECT_EQ(RenderValue(Value::Real(-123.456), 'T'), "-123.456");
  EXPECT_EQ(RenderValue(Value::Real(1e20), 'T'), "1.0e+20");
  EXPECT_EQ(RenderValue(Value::Real(1.5e-7), 'T'), "1.5e-07");
  EXPECT_EQ(RenderValue(Value::Real(0.0001), 'T'), "0.0001");
  EXPECT_EQ(RenderValue(Value::Real(1.0 / 3), 'T'), "0.333333333333333");
  EXPECT_EQ(RenderValue(Value::Real(123456789012345.0), 'T'),
            "123456789012345.0");
  EXPECT_EQ(FormatReal(1.0 / 0.0), "Inf");
}

TEST(RenderTest, TextColumnsMarkEmptyAndControlCharacters) {
  EXPECT_EQ(RenderValue(Value::Text(""), 'T'), "(empty)");
  EXPECT_EQ(RenderValue(Value::Text("a\tb\nc\x01\x7f"), 'T'), "a@b@c@@");
  EXPECT_EQ(RenderValue(Value::Text("h\xc3\xa9llo"), 'T'), "h\xc3\xa9llo");
  EXPECT_EQ(RenderValue(Value::Blob(std::string("a\0b", 3)), 'T'), "a@b");
  EXPECT_EQ(RenderValue(Value::Text("x y"), 'T'), "x y");
  EXPECT_EQ(RenderValue(Value::Null(), 'T'), "NULL");
}

// ---- Running ---------------------------------------------------------------

TEST(SltRunnerTest, StatementsPassOrPrintTheStatus) {
  FakeDatabase db;
  db.statements["INSERT INTO t VALUES (1)"] =
      Status::ConstraintError("UNIQUE constraint failed: t.a");
  Outcome o = RunText(db,
                      "statement ok\nCREATE TABLE t (a INTEGER)\n\n"
                      "statement ok\nINSERT INTO t VALUES (1)\n");
  EXPECT_EQ(o.summary(), "1 passed, 1 failed, 0 skipped");
  EXPECT_EQ(db.executed,
            (std::vector<std::string>{"CREATE TABLE t (a INTEGER)",
                                      "INSERT INTO t VALUES (1)"}));
  EXPECT_NE(o.output.find("t.test:4: statement failed\n"
                          "  INSERT INTO t VALUES (1)\n"),
            std::string::npos)
      << o.output;
  EXPECT_NE(
      o.output.find(
          Status::ConstraintError("UNIQUE constraint failed: t.a").ToString()),
      std::string::npos)
      << o.output;
}

TEST(SltRunnerTest, StatementErrorChecksThePatternBySubstringOrRegex) {
  FakeDatabase db;
  db.statements["bad"] = Status::SyntaxError("at 1:1: expected SELECT");
  Outcome o = RunText(db,
                      "statement error\nbad\n\n"
                      "statement error expected SELECT\nbad\n\n"
                      "statement error at [0-9]+:[0-9]+\nbad\n\n"
                      "statement error UNIQUE\nbad\n\n"
                      "statement error (unbalanced\nbad\n\n"
                      "statement error\ngood\n");
  EXPECT_EQ(o.summary(), "3 passed, 3 failed, 0 skipped");
  EXPECT_NE(o.output.find("t.test:10: wrong error\n  bad\nexpected:\n"
                          "  an error matching 'UNIQUE'\n"),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("t.test:16: statement succeeded\n"),
            std::string::npos)
      << o.output;
}

TEST(SltRunnerTest, NosortComparesValuesInTheOrderReturned) {
  FakeDatabase db;
  db.Returns("SELECT a FROM t", {Ints({2}), Ints({1})});
  Outcome o = RunText(db,
                      "query I nosort\nSELECT a FROM t\n----\n2\n1\n\n"
                      "query I\nSELECT a FROM t\n----\n1\n2\n");
  EXPECT_EQ(o.summary(), "1 passed, 1 failed, 0 skipped");
  EXPECT_EQ(o.output,
            "t.test:7: wrong result\n"
            "  SELECT a FROM t\n"
            "expected:\n  1\n  2\n"
            "got:\n  2\n  1\n\n");
}

TEST(SltRunnerTest, RowsortSortsRowsByRenderedTextColumnByColumn) {
  FakeDatabase db;
  db.Returns("q", {Ints({9, 1}), Ints({10, 2}), Ints({9, 0})});
  // strcmp order: "10" < "9"; ties broken by the next column.
  Outcome o = RunText(db, "query II rowsort\nq\n----\n10\n2\n9\n0\n9\n1\n");
  EXPECT_EQ(o.summary(), "1 passed, 0 failed, 0 skipped") << o.output;
}

TEST(SltRunnerTest, ValuesortSortsEveryValueOnItsOwn) {
  FakeDatabase db;
  db.Returns("q", {Ints({9, 1}), Ints({10, 2})});
  Outcome o = RunText(db,
                      "query II valuesort\nq\n----\n1\n10\n2\n9\n\n"
                      "query II rowsort\nq\n----\n1\n10\n2\n9\n");
  EXPECT_EQ(o.summary(), "1 passed, 1 failed, 0 skipped") << o.output;
}

TEST(SltRunnerTest, ExpectedRowsMayBeWrittenOneRowPerLine) {
  FakeDatabase db;
  db.Returns("q", {{Value::Int(1), Value::Text("a b")},
                   {Value::Int(2), Value::Null()}});
  Outcome o = RunText(db,
                      "query IT nosort\nq\n----\n1 a b\n2\tNULL\n\n"
                      "query IT nosort\nq\n----\n1 a b\n2 x\n");
  EXPECT_EQ(o.summary(), "1 passed, 1 failed, 0 skipped");
  // "got" is shown in the file's form.
  EXPECT_NE(o.output.find("got:\n  1 a b\n  2 NULL\n"), std::string::npos)
      << o.output;
}

TEST(SltRunnerTest, ResultsAboveHashThresholdCompareAsMd5) {
  FakeDatabase db;
  db.Returns("q", {Ints({3}), Ints({1}), Ints({2})});
  const std::string hash = HashLine({"1", "2", "3"});
  Outcome o = RunText(db,
                      "hash-threshold 2\n\n"
                      "query I rowsort\nq\n----\n" +
                          hash +
                          "\n\n"
                          "query I nosort\nq\n----\n" +
                          hash + "\n");
  EXPECT_EQ(o.summary(), "1 passed, 1 failed, 0 skipped");
  EXPECT_NE(o.output.find("expected:\n  " + hash + "\ngot:\n  " +
                          HashLine({"3", "1", "2"}) + "\n  3\n  1\n  2\n"),
            std::string::npos)
      << o.output;
}

TEST(SltRunnerTest, QueriesUnderOneLabelMustAgree) {
  FakeDatabase db;
  db.Returns("q1", {Ints({1})});
  db.Returns("q2", {Ints({1})});
  db.Returns("q3", {Ints({2})});
  // q3's expected block agrees with q3, but not with the label.
  Outcome o = RunText(db,
                      "query I rowsort label-1\nq1\n----\n1\n\n"
                      "query I rowsort label-1\nq2\n----\n1\n\n"
                      "query I rowsort label-1\nq3\n----\n2\n\n"
                      "query I rowsort label-2\nq3\n----\n2\n");
  EXPECT_EQ(o.summary(), "3 passed, 1 failed, 0 skipped");
  EXPECT_NE(o.output.find("t.test:11: result differs from label-1 at line 1"),
            std::string::npos)
      << o.output;
}

TEST(SltRunnerTest, LabelsAreRememberedPerFile) {
  FakeDatabase db;
  db.Returns("q1", {Ints({1})});
  db.Returns("q2", {Ints({2})});
  EXPECT_EQ(RunText(db, "query I rowsort label-1\nq1\n----\n1\n").summary(),
            "1 passed, 0 failed, 0 skipped");
  EXPECT_EQ(RunText(db, "query I rowsort label-1\nq2\n----\n2\n").summary(),
            "1 passed, 0 failed, 0 skipped");
}

TEST(SltRunnerTest, ColumnCountMustMatchTheTypeString) {
  FakeDatabase db;
  db.Returns("q", {Ints({1, 2, 3})});
  Outcome o = RunText(db, "query II\nq\n----\n1\n2\n");
  EXPECT_EQ(o.summary(), "0 passed, 1 failed, 0 skipped");
  EXPECT_NE(o.output.find("t.test:1: expected 2 columns, got 3\n"),
            std::string::npos)
      << o.output;
}

TEST(SltRunnerTest, QueryErrorsFailTheRecord) {
  FakeDatabase db;
  db.queries["bad"].status = Status::SyntaxError("at 1:1: oops");
  db.Returns("late", {Ints({1})});
  db.queries["late"].end_status = Status::Corruption("bad block");
  Outcome o = RunText(db,
                      "query I\nbad\n----\n1\n\n"
                      "query I\nlate\n----\n1\n");
  EXPECT_EQ(o.summary(), "0 passed, 2 failed, 0 skipped");
  EXPECT_NE(o.output.find(Status::Corruption("bad block").ToString()),
            std::string::npos)
      << o.output;
}

TEST(SltRunnerTest, SkipifOnlyifAndHaltSkipRecords) {
  FakeDatabase db;
  Outcome o = RunText(db,
                      "statement ok\ns1\n\n"
                      "skipif levelql\nstatement ok\ns2\n\n"
                      "onlyif sqlite\nstatement ok\ns3\n\n"
                      "onlyif levelql\nstatement ok\ns4\n\n"
                      "skipif mysql\nstatement ok\ns5\n\n"
                      "onlyif mssql\nhalt\n\n"
                      "statement ok\ns6\n\n"
                      "halt\n\n"
                      "statement ok\ns7\n\n"
                      "query I\nq\n");
  EXPECT_EQ(o.summary(), "4 passed, 0 failed, 4 skipped");
  EXPECT_EQ(db.executed, (std::vector<std::string>{"s1", "s4", "s5", "s6"}));
}

TEST(SltRunnerTest, InvalidRecordsAreFailuresAndTheRestStillRuns) {
  FakeDatabase db;
  Outcome o = RunText(db, "frobnicate\n\nstatement ok\ns1\n");
  EXPECT_EQ(o.summary(), "1 passed, 1 failed, 0 skipped");
  EXPECT_EQ(o.output, "t.test:1: unknown record type 'frobnicate'\n\n");
}

TEST(SltRunnerTest, StopOnFailStopsAtTheFirstFailure) {
  FakeDatabase db;
  db.statements["s2"] = Status::NotSupported("no");
  RunOptions options;
  options.stop_on_fail = true;
  Outcome o =
      RunText(db, "statement ok\ns1\n\nstatement ok\ns2\n\nstatement ok\ns3\n",
              options);
  EXPECT_EQ(o.summary(), "1 passed, 1 failed, 0 skipped");
  EXPECT_TRUE(o.result.stopped);
  EXPECT_EQ(db.executed, (std::vector<std::string>{"s1", "s2"}));
}

TEST(SltRunnerTest, LongResultsAreCutInTheReport) {
  FakeDatabase db;
  std::vector<Row> rows;
  for (int i = 0; i < 25; ++i) rows.push_back(Ints({i}));
  db.Returns("q", rows);
  Outcome o = RunText(db, "query I\nq\n----\n0\n");
  EXPECT_NE(o.output.find("  19\n  ... 5 more lines\n"), std::string::npos)
      << o.output;
  EXPECT_EQ(o.output.find("  20\n"), std::string::npos);
}

TEST(SltRunnerTest, VerbosePrintsEachRecord) {
  FakeDatabase db;
  RunOptions options;
  options.verbose = true;
  Outcome o = RunText(db, "statement ok\nCREATE TABLE t\n(a INT)\n", options);
  EXPECT_EQ(o.output, "t.test:1: statement ok: CREATE TABLE t (a INT)\n");
}

TEST(SltRunnerTest, SummaryLineFormat) {
  RunStats stats;
  stats.passed = 202578;
  stats.failed = 1;
  stats.skipped = 3;
  EXPECT_EQ(SummaryLine(stats), "202578 passed, 1 failed, 3 skipped");
}

// ---- Plan goldens ----------------------------------------------------------

TEST(SltRunnerTest, ExplainComparesPlanLines) {
  FakeDatabase db;
  db.plans["SELECT * FROM t WHERE a = 1"] = "Scan t\n  IndexSeek t_a [1]\n";
  Outcome o =
      RunText(db,
              "query explain\nSELECT * FROM t WHERE a = 1\n----\n"
              "Scan t\n  IndexSeek t_a [1]\n\n"
              "query explain\nSELECT * FROM t WHERE a = 1\n----\nScan t\n");
  EXPECT_EQ(o.summary(), "1 passed, 1 failed, 0 skipped");
  EXPECT_NE(o.output.find("t.test:7: plan differs\n"), std::string::npos)
      << o.output;
  EXPECT_EQ(o.result.rewritten, 0);
}

TEST(SltRunnerTest, RewriteReplacesDifferingPlanBlocksInPlace) {
  FakeDatabase db;
  db.plans["q1"] = "New plan\n  child";
  db.plans["q2"] = "Same";
  db.plans["q3"] = "Fresh";
  RunOptions options;
  options.rewrite = true;
  Outcome o = RunText(db,
                      "# header\n"
                      "query explain\nq1\n----\nOld plan\n# note\nold child\n\n"
                      "query explain\nq2\n----\nSame\n\n"
                      "query explain\nq3",
                      options);
  EXPECT_EQ(o.summary(), "3 passed, 0 failed, 0 skipped");
  EXPECT_EQ(o.result.rewritten, 2);
  EXPECT_EQ(o.result.new_text,
            "# header\n"
            "query explain\nq1\n----\nNew plan\n  child\n\n"
            "query explain\nq2\n----\nSame\n\n"
            "query explain\nq3\n----\nFresh\n");
}

}  // namespace
}  // namespace levelql::slt
