// Continuation tokens as users rely on them: positions rather than counts
// (rows written meanwhile are neither repeated nor skipped), authenticated
// (an edited token is refused), tied to the order of the plan that made them
// (a changed plan resumes exactly or refuses), and previous pages read by
// running the plan backwards. Every plan shape that hands out tokens is
// covered: one index scan each way, a table scan, merged pk-sorted streams
// (intersection, union), a sort, DISTINCT, a multi-valued index, joins and
// GROUP BY.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::Exec;

using testing::OpenMemory;

// Renders the first column of up to `n` rows (n < 0: all) as "a b c".
std::string Read(Cursor& cur, int n = -1) {
  std::string out;
  for (int i = 0; n < 0 || i < n; ++i) {
    if (!cur.Next()) break;
    out += (out.empty() ? "" : " ") + cur.row()[0].ToString();
  }
  EXPECT_TRUE(cur.status().ok()) << cur.status().ToString();
  return out;
}

std::unique_ptr<Cursor> ResumeOk(Statement& stmt, const std::string& token) {
  auto cur = stmt.Resume(token);
  EXPECT_TRUE(cur.ok()) << cur.status().ToString();
  return cur.ok() ? std::move(cur).value() : nullptr;
}

// A table whose rows 1..20 have a = id % 4, b = id % 5, c = 21 - id, and a
// list of tags, and a table u that joins each of them once on a: every plan
// shape below reads them.
std::unique_ptr<Database> Shapes() {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, "
       "c INTEGER, tags TEXT[]);"
       "CREATE INDEX t_a ON t (a); CREATE INDEX t_b ON t (b);"
       "CREATE INDEX t_c ON t (c); CREATE INDEX t_tags ON t (tags)");
  // u joins each row of t once, through an index (k) or not (j).
  Exec(*db,
       "CREATE TABLE u (id INTEGER PRIMARY KEY, k INTEGER, j INTEGER);"
       "CREATE INDEX u_k ON u (k);"
       "INSERT INTO u VALUES (1, 0, 0), (2, 1, 1), (3, 2, 2), (4, 3, 3)");
  for (int i = 1; i <= 20; ++i) {
    std::string tags = i % 3 == 0 ? "ARRAY['x', 'y']" : "ARRAY['x']";
    Exec(*db, "INSERT INTO t VALUES (" + std::to_string(i) + ", " +
                  std::to_string(i % 4) + ", " + std::to_string(i % 5) + ", " +
                  std::to_string(21 - i) + ", " + tags + ")");
  }
  return db;
}

struct Shape {
  const char* name;
  const char* sql;
  const char* plan_has;       // a word of its EXPLAIN, to pin the shape
  const char* output = "id";  // the expression of its one output
};

const Shape kShapes[] = {
    {"index scan", "SELECT id FROM t WHERE c > 2", "IndexScan t.t_c"},
    {"reverse index scan", "SELECT id FROM t WHERE c > 2 ORDER BY c DESC",
     "reverse"},
    {"table scan", "SELECT id FROM t", "TableScan"},
    {"intersection", "SELECT id FROM t WHERE a IN (1, 2) AND b IN (0, 1, 2, 3)",
     "Intersect"},
    {"union", "SELECT id FROM t WHERE a = 1 OR b = 2", "Union"},
    {"sort", "SELECT id FROM t WHERE a <> 9 ORDER BY b, id % 7", "Sort"},
    {"distinct", "SELECT DISTINCT c % 9 FROM t", "Distinct", "c % 9"},
    {"multi-valued", "SELECT id FROM t WHERE tags >= 'x'",
     "first entry per row"},
    {"merge join", "SELECT t.id FROM t JOIN u ON t.a = u.k", "MergeJoin"},
    {"sorted join", "SELECT t.id FROM t JOIN u ON t.a = u.j", "Sort (JOIN)"},
    {"group by", "SELECT id % 11, COUNT(*) FROM t GROUP BY id % 11",
     "Aggregate", "id % 11"},
};

// Shapes with a LIMIT, for previous pages only (rows written between
// pages may move others past a LIMIT, so the writes test does not apply):
// the backward read of a page whose forward read had fewer rows left than
// a page once kept too few (a top-k sized for the forward remainder) and
// fell back to the first page.
const Shape kLimitedShapes[] = {
    {"top-k", "SELECT id FROM t WHERE a <> 9 ORDER BY b, id % 7 LIMIT 14",
     "TopK 14"},
    {"distinct top-k", "SELECT DISTINCT c % 9 FROM t LIMIT 7", "TopK 7"},
    {"index scan with limit", "SELECT id FROM t WHERE c > 2 LIMIT 11",
     "Limit 11"},
    {"index scan with offset", "SELECT id FROM t WHERE c > 2 LIMIT 11 OFFSET 2",
     "Skip 2"},
};

void CheckPreviousPages(const Shape& shape) {
  auto db = Shapes();
  auto plan = db->Explain(shape.sql);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_NE(plan->find(shape.plan_has), std::string::npos) << *plan;
  auto stmt = db->Prepare(shape.sql);
  ASSERT_TRUE(stmt.ok());
  auto all = (*stmt)->Query();
  ASSERT_TRUE(all.ok());
  const std::string everything = Read(**all);

  // Forward in pages of 3, remembering each page and its cursor's token.
  std::vector<std::string> pages;
  std::vector<std::unique_ptr<Cursor>> cursors;
  auto first = (*stmt)->Query();
  ASSERT_TRUE(first.ok());
  std::unique_ptr<Cursor> cur = std::move(first).value();
  while (true) {
    std::string page = Read(*cur, 3);
    if (page.empty()) break;
    pages.push_back(page);
    std::string token = cur->ContinuationToken();
    ASSERT_FALSE(token.empty());
    cursors.push_back(std::move(cur));
    cur = ResumeOk(**stmt, token);
    ASSERT_NE(cur, nullptr);
  }
  std::string joined;
  for (const auto& p : pages) joined += (joined.empty() ? "" : " ") + p;
  EXPECT_EQ(joined, everything);
  ASSERT_GE(pages.size(), 3u);

  // From the cursor of page k + 1, the previous page is page k.
  for (size_t k = 0; k + 1 < cursors.size(); ++k) {
    auto back = cursors[k + 1]->PreviousPageToken(3);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    auto again = ResumeOk(**stmt, *back);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(Read(*again, 3), pages[k]) << shape.name << " page " << k;
  }
  // From the first page, the previous page is the first page.
  auto back = cursors[0]->PreviousPageToken(3);
  ASSERT_TRUE(back.ok());
  auto again = ResumeOk(**stmt, *back);
  EXPECT_EQ(Read(*again, 3), pages[0]);
  EXPECT_EQ(cursors[0]->PreviousPageToken(0).status().code(),
            Status::Code::kInvalidArgument);
}

class TokenShapes : public ::testing::TestWithParam<Shape> {};
class LimitedShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(TokenShapes, PreviousPageTokensReturnThePageBefore) {
  CheckPreviousPages(GetParam());
}

TEST_P(LimitedShapes, PreviousPageTokensReturnThePageBefore) {
  CheckPreviousPages(GetParam());
}

std::set<std::string> Words(const std::string& s,
                            std::vector<std::string>* all = nullptr) {
  std::set<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    out.insert(s.substr(i, j - i));
    if (all) all->push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

TEST_P(TokenShapes, RowsPresentThroughoutComeOnceDespiteWrites) {
  const Shape& shape = GetParam();
  auto db = Shapes();
  auto stmt = db->Prepare(shape.sql);
  ASSERT_TRUE(stmt.ok());
  auto before = db->Query(shape.sql);
  ASSERT_TRUE(before.ok());
  const std::set<std::string> initial = Words(Read(**before));
  auto cur = (*stmt)->Query();
  ASSERT_TRUE(cur.ok());
  std::string head = Read(**cur, 5);
  std::string token = (*cur)->ContinuationToken();
  // Rows written and deleted between the pages: new ones, and ones that
  // were read or not yet read.
  Exec(*db,
       "INSERT INTO t VALUES (100, 1, 2, 5, ARRAY['x']), "
       "(101, 3, 3, 30, ARRAY['y']), (102, 1, 0, 8, ARRAY['z'])");
  Exec(*db, "DELETE FROM t WHERE id IN (2, 19, 7)");
  auto rest = ResumeOk(**stmt, token);
  ASSERT_NE(rest, nullptr);
  std::string tail = Read(*rest);
  auto after = db->Query(shape.sql);
  ASSERT_TRUE(after.ok());
  const std::set<std::string> final_rows = Words(Read(**after));

  // A position-based token neither repeats a row nor skips one that was
  // there throughout, and returns nothing that never matched.
  std::vector<std::string> got;
  Words(head + (tail.empty() ? "" : " " + tail), &got);
  std::set<std::string> unique(got.begin(), got.end());
  EXPECT_EQ(unique.size(), got.size()) << head << " | " << tail;
  for (const std::string& w : initial) {
    if (final_rows.count(w)) {
      EXPECT_TRUE(unique.count(w)) << shape.name << ": lost " << w;
    }
  }
  for (const std::string& w : unique) {
    EXPECT_TRUE(initial.count(w) || final_rows.count(w))
        << shape.name << ": " << w;
  }
}

// Rows deleted after a page was read are not on its previous page: the
// previous page is the rows that now precede this cursor's first row, also
// when the row the cursor started after (the previous page's last) is gone.
TEST_P(TokenShapes, APreviousPageHoldsTheRowsBeforeItNow) {
  const Shape& shape = GetParam();
  // From page 3, deletes the previous page's last row or its middle one;
  // -1: from page 2, inserts copies of the first page's rows (more rows
  // precede the page now than the cursor counted: not the first page).
  for (int gone : {2, 1, -1}) {
    auto db = Shapes();
    auto stmt = db->Prepare(shape.sql);
    ASSERT_TRUE(stmt.ok());
    auto cur = (*stmt)->Query();
    ASSERT_TRUE(cur.ok());
    std::vector<std::string> pages;
    std::unique_ptr<Cursor> third = std::move(cur).value();  // or second
    for (int p = 0; p < (gone >= 0 ? 2 : 1); ++p) {
      pages.push_back(Read(*third, 3));
      third = ResumeOk(**stmt, third->ContinuationToken());
      ASSERT_NE(third, nullptr);
    }
    std::vector<std::string> second;
    Words(pages.back(), &second);
    ASSERT_EQ(second.size(), 3u) << pages.back();
    if (gone >= 0) {
      Exec(*db, std::string("DELETE FROM t WHERE ") + shape.output + " = " +
                    second[gone]);
    } else {
      std::vector<std::string> first;
      Words(pages[0], &first);
      std::string in;
      for (const std::string& w : first) in += (in.empty() ? "" : ", ") + w;
      Exec(*db, std::string("INSERT INTO t SELECT id + 100, a, b, c, tags ") +
                    "FROM t WHERE " + shape.output + " IN (" + in + ")");
    }
    // The previous page ends where the cursor started: the row it started
    // after, or (deleted) the row before its first row. The page's first
    // row now follows it: a row inserted there since comes before the one
    // the cursor read in its snapshot.
    const std::string first_of_third = Read(*third, 1);
    ASSERT_FALSE(first_of_third.empty());
    auto now = db->Query(shape.sql);
    ASSERT_TRUE(now.ok());
    std::vector<std::string> rows;
    Words(Read(**now), &rows);
    auto at = gone >= 0 ? std::find(rows.begin(), rows.end(), first_of_third)
                        : std::find(rows.begin(), rows.end(), second.back());
    ASSERT_NE(at, rows.end());
    if (gone < 0) ++at;  // past the row the cursor started after
    ASSERT_NE(at, rows.end());
    ASSERT_GE(at - rows.begin(), 3);
    std::string expected;
    for (auto it = at - 3; it != at + 1; ++it) {
      expected += (expected.empty() ? "" : " ") + *it;
    }
    auto back = third->PreviousPageToken(3);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    auto again = ResumeOk(**stmt, *back);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(Read(*again, 4), expected)
        << shape.name
        << (gone >= 0 ? ", deleted " + second[gone]
                      : ", inserted copies of " + pages[0]);
  }
}

std::string ShapeName(const ::testing::TestParamInfo<Shape>& info) {
  std::string name;
  for (const char* c = info.param.name; *c; ++c) {
    name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllPlans, TokenShapes, ::testing::ValuesIn(kShapes),
                         ShapeName);
INSTANTIATE_TEST_SUITE_P(WithLimit, LimitedShapes,
                         ::testing::ValuesIn(kLimitedShapes), ShapeName);

TEST(Tokens, AnEditedTokenIsRefused) {
  auto db = Shapes();
  auto stmt = db->Prepare("SELECT id FROM t WHERE c > 2 LIMIT 5");
  ASSERT_TRUE(stmt.ok());
  auto cur = (*stmt)->Query();
  ASSERT_TRUE(cur.ok());
  Read(**cur, 2);
  const std::string token = (*cur)->ContinuationToken();
  // Every single-digit change anywhere, including the count of rows
  // returned (which LIMIT depends on), is caught by the MAC.
  for (size_t i = 0; i < token.size(); ++i) {
    std::string edited = token;
    edited[i] = edited[i] == 'f' ? '0' : 'f';
    auto r = (*stmt)->Resume(edited);
    ASSERT_FALSE(r.ok()) << "edit at " << i << " accepted";
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  }
  EXPECT_FALSE((*stmt)->Resume(token.substr(0, token.size() - 2)).ok());
  EXPECT_FALSE((*stmt)->Resume("zz" + token.substr(2)).ok());
  EXPECT_FALSE((*stmt)->Resume("").ok());
  // The intact token still resumes the rest of LIMIT 5.
  auto rest = ResumeOk(**stmt, token);
  EXPECT_EQ(Read(*rest), "16 15 14");
}

// Runs `stmt` for `p` whole, then again to its first row, and resumes the
// rest through that row's token: the two must read the same rows.
void ExpectTokenResumesTheRest(Statement& stmt, const Params& p) {
  auto all = stmt.Query(p);
  ASSERT_TRUE(all.ok());
  const std::string whole = Read(**all);
  auto cur = stmt.Query(p);
  ASSERT_TRUE(cur.ok());
  const std::string head = Read(**cur, 1);
  if (head.empty()) return;  // no row: no position to resume from
  auto rest = stmt.Resume((*cur)->ContinuationToken(), p);
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  const std::string tail = Read(**rest);
  EXPECT_EQ(tail.empty() ? head : head + " " + tail, whole);
}

// A prepared statement reuses its plan for other parameter values (plan
// cache, kept runs); its tokens resume for the values they were taken
// with. A reused stream plan once carried the signature of the values it
// was first planned for, and its tokens were refused as "plan changed".
TEST(Tokens, AReusedPlanResumesItsOwnTokens) {
  auto db = Shapes();
  const char* shapes[] = {
      "SELECT id FROM t WHERE a = ? ORDER BY id",  // index, pk-sorted
      "SELECT id FROM t WHERE a = ? ORDER BY b",   // sorted
      "SELECT id FROM t WHERE id = ?",             // point
      "SELECT t.id FROM t JOIN u ON u.k = t.a WHERE t.a = ?",  // join
      "SELECT id FROM t WHERE c >= ? ORDER BY c DESC",         // range
  };
  for (const char* sql : shapes) {
    auto stmt = db->Prepare(sql);
    ASSERT_TRUE(stmt.ok());
    for (int64_t value : {1, 3, 2, 0, 15}) {
      SCOPED_TRACE(std::string(sql) + " for " + std::to_string(value));
      Params p;
      p.positional = {Value::Int(value)};
      ExpectTokenResumesTheRest(**stmt, p);
    }
  }
}

// A plan made for a value an index cannot seek ('zz' against an INTEGER
// column: a scan and a filter) is not reused for one it can ('2' becomes
// 2), whose fresh plan seeks the index: reused, the run's tokens named
// another scan than Resume's plan reads.
TEST(Tokens, AValueThatConvertsOtherwiseIsPlannedAgain) {
  auto db = Shapes();
  auto stmt = db->Prepare("SELECT id FROM t WHERE a = ? ORDER BY id");
  ASSERT_TRUE(stmt.ok());
  for (const char* value : {"zz", "2", "zz", "1e0", "3"}) {
    SCOPED_TRACE(value);
    Params p;
    p.positional = {Value::Text(value)};
    ExpectTokenResumesTheRest(**stmt, p);
  }
}

TEST(Tokens, ATokenOfAnotherDatabaseIsRefused) {
  auto one = Shapes();
  auto two = Shapes();
  auto cur = one->Query("SELECT id FROM t WHERE c > 2");
  ASSERT_TRUE(cur.ok());
  Read(**cur, 2);
  auto stmt = two->Prepare("SELECT id FROM t WHERE c > 2");
  ASSERT_TRUE(stmt.ok());
  auto r = (*stmt)->Resume((*cur)->ContinuationToken());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(r.status().message().find("another database"), std::string::npos)
      << r.status().ToString();
}

// The schema's version, which a token holds, is the same after a reopen:
// there a table's indexes are listed as stored, not in the order they
// were made (a column's UNIQUE index came first here).
TEST(Tokens, ATokenSurvivesAReopen) {
  testing::TempDir dir;
  const char* sql = "SELECT id FROM t ORDER BY a, id";
  std::string token;
  {
    auto db = Database::Open(dir.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Exec(**db,
         "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, "
         "u INTEGER UNIQUE)");
    Exec(**db, "CREATE INDEX ia ON t (a)");
    Exec(**db, "CREATE INDEX by_u_a ON t (u, a)");
    Exec(**db, "INSERT INTO t (id, a) VALUES (1, 3), (2, 1), (3, 2)");
    auto cur = (*db)->Query(sql);
    ASSERT_TRUE(cur.ok());
    EXPECT_EQ(Read(**cur, 1), "2");
    token = (*cur)->ContinuationToken();
  }
  auto db = Database::Open(dir.path());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  auto stmt = (*db)->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  auto rest = (*stmt)->Resume(token);
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  EXPECT_EQ(Read(**rest), "3 1");
}

TEST(Tokens, APlanInAnotherOrderRefusesTheToken) {
  auto db = Shapes();
  const char* sql = "SELECT id FROM t WHERE c > 2";
  auto stmt = db->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  auto cur = (*stmt)->Query();
  ASSERT_TRUE(cur.ok());
  EXPECT_EQ(Read(**cur, 2), "18 17");  // index order of c
  std::string token = (*cur)->ContinuationToken();
  // Without index scans the query reads the table in id order, where the
  // token's position means nothing: refused, never wrong rows.
  Exec(*db, "PRAGMA disable_rules = 'index_scan'");
  auto r = (*stmt)->Resume(token);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(r.status().message().find("restart the query"), std::string::npos);
  // Back to the plan the token was made by: it resumes exactly.
  Exec(*db, "PRAGMA disable_rules = ''");
  auto ok = ResumeOk(**stmt, token);
  EXPECT_EQ(Read(*ok, 3), "16 15 14");
}

TEST(Tokens, ASortedTokenSurvivesAPlanChangeThatKeepsTheOrder) {
  auto db = Shapes();
  const char* sql = "SELECT id FROM t WHERE a = 1 ORDER BY b, id";
  auto stmt = db->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  auto all = (*stmt)->Query();
  ASSERT_TRUE(all.ok());
  const std::string everything = Read(**all);
  auto cur = (*stmt)->Query();
  ASSERT_TRUE(cur.ok());
  std::string head = Read(**cur, 2);
  std::string token = (*cur)->ContinuationToken();
  // The access path changes (index scan -> table scan) but the rows are
  // still sorted by (b, id): the sort values name the same position.
  Exec(*db, "PRAGMA disable_rules = 'all'");
  Exec(*db, "ANALYZE");
  auto rest = ResumeOk(**stmt, token);
  ASSERT_NE(rest, nullptr);
  EXPECT_EQ(head + " " + Read(*rest), everything);
}

TEST(Tokens, ResumingAcrossAnalyzeIsExactOrRefused) {
  auto db = OpenMemory();
  Exec(*db,
       "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);"
       "CREATE INDEX t_a ON t (a); CREATE INDEX t_b ON t (b)");
  // a = 1 on almost every row, b > 100 on few: statistics move the plan
  // from one index to the other.
  for (int i = 1; i <= 300; ++i) {
    Exec(*db, "INSERT INTO t VALUES (" + std::to_string(i) + ", " +
                  std::to_string(i % 50 == 0 ? 2 : 1) + ", " +
                  std::to_string(i) + ")");
  }
  const char* sql = "SELECT id FROM t WHERE a = 1 AND b > 100";
  auto stmt = db->Prepare(sql);
  ASSERT_TRUE(stmt.ok());
  auto all = (*stmt)->Query();
  ASSERT_TRUE(all.ok());
  const std::string everything = Read(**all);
  auto before = db->Explain(sql);
  auto cur = (*stmt)->Query();
  ASSERT_TRUE(cur.ok());
  std::string head = Read(**cur, 7);
  std::string token = (*cur)->ContinuationToken();
  Exec(*db, "ANALYZE");
  auto after = db->Explain(sql);
  ASSERT_TRUE(before.ok() && after.ok());
  auto rest = (*stmt)->Resume(token);
  if (rest.ok()) {
    EXPECT_EQ(head + " " + Read(**rest), everything);
  } else {
    EXPECT_NE(*before, *after) << "refused although the plan is the same";
    EXPECT_NE(rest.status().message().find("restart the query"),
              std::string::npos);
  }
}

TEST(Tokens, ATokenBeforeTheFirstRowRestartsTheQuery) {
  auto db = Shapes();
  auto stmt = db->Prepare("SELECT id FROM t WHERE c > 2 LIMIT 4 OFFSET 2");
  ASSERT_TRUE(stmt.ok());
  auto cur = (*stmt)->Query();
  ASSERT_TRUE(cur.ok());
  std::string token = (*cur)->ContinuationToken();
  ASSERT_FALSE(token.empty());
  auto again = ResumeOk(**stmt, token);
  EXPECT_EQ(Read(*again), "16 15 14 13");
}

}  // namespace
}  // namespace levelql
