// The external sort (engine/sort.cc, issue 12): many runs are merged a
// bounded number at a time, in passes; the order is the in-memory sort's
// (stable); and the rows it buffers stay within the memory budget.
#include <gtest/gtest.h>

#include <random>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "engine/exec/operators.h"
#include "levelql/database.h"
#include "tests/support/sql_text.h"
#include "tests/support/temp_dir.h"

namespace levelql {
namespace {

using testing::QueryText;

// (k, text, seq): k has few distinct values so ties span runs; seq is the
// input order, which ties must keep.
std::vector<Row> Input(size_t n, size_t text_bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Row> rows;
  for (size_t i = 0; i < n; ++i) {
    std::string text(text_bytes, 'a');
    for (char& c : text) c = static_cast<char>('a' + rng() % 26);
    rows.push_back({rng() % 7 == 0 ? Value() : Value::Int(rng() % 50),
                    Value::Text(std::move(text)),
                    Value::Int(static_cast<int64_t>(i))});
  }
  return rows;
}

std::vector<Row> Sorted(ExecContext* ctx, std::vector<Row> input,
                        const std::vector<SortKey>& keys) {
  auto sort = NewSort(ctx, NewValues(std::move(input)), keys, -1);
  std::vector<Row> out;
  Row row;
  while (sort->Next(&row)) out.push_back(row);
  EXPECT_TRUE(sort->status().ok()) << sort->status().ToString();
  return out;
}

std::vector<Row> Expected(std::vector<Row> input,
                          const std::vector<SortKey>& keys) {
  std::stable_sort(input.begin(), input.end(), [&](const Row& a, const Row& b) {
    return CompareRows(a, b, keys) < 0;
  });
  return input;
}

const std::vector<SortKey> kByKDesc = {{0, true, nullptr}};

TEST(SortTest, TinyBudgetMergesManyRunsTwoAtATimeInPasses) {
  ExecContext ctx;
  ctx.sort_memory_bytes = 1024;  // the PRAGMA's minimum: a row or two a run
  std::vector<Row> input = Input(3000, 20, 1);
  std::vector<Row> want = Expected(input, kByKDesc);
  EXPECT_EQ(Sorted(&ctx, std::move(input), kByKDesc), want);
  EXPECT_GT(ctx.spilled_runs, 500u);
  EXPECT_EQ(ctx.max_merge_fan_in, 2u);
  EXPECT_GE(ctx.merge_passes, 8u);  // log2(runs) - 1 passes at fan-in 2
}

TEST(SortTest, FanInIsCappedAt64WhateverTheBudget) {
  ExecContext ctx;
  ctx.sort_memory_bytes = 512 << 10;  // room for ~110 read buffers
  std::vector<Row> input = Input(150000, 40, 2);
  std::vector<Row> want = Expected(input, kByKDesc);
  EXPECT_EQ(Sorted(&ctx, std::move(input), kByKDesc), want);
  EXPECT_GT(ctx.spilled_runs, 64u);
  EXPECT_EQ(ctx.max_merge_fan_in, 64u);
  EXPECT_EQ(ctx.merge_passes, 1u);
}

TEST(SortTest, RunsWithinTheFanInMergeInOnePass) {
  ExecContext ctx;
  ctx.sort_memory_bytes = 64 << 10;
  std::vector<Row> input = Input(2000, 40, 3);
  const std::vector<SortKey> keys = {{1, false, nullptr}, {0, true, nullptr}};
  std::vector<Row> want = Expected(input, keys);
  EXPECT_EQ(Sorted(&ctx, std::move(input), keys), want);
  EXPECT_GT(ctx.spilled_runs, 2u);
  EXPECT_LE(ctx.spilled_runs, ctx.max_merge_fan_in);
  EXPECT_EQ(ctx.merge_passes, 0u);
}

TEST(SortTest, NoSpillWithinTheBudget) {
  ExecContext ctx;
  std::vector<Row> input = Input(2000, 40, 4);
  std::vector<Row> want = Expected(input, kByKDesc);
  EXPECT_EQ(Sorted(&ctx, std::move(input), kByKDesc), want);
  EXPECT_EQ(ctx.spilled_runs, 0u);
}

TEST(SortTest, ListsLongTextsAndEveryTypeSurviveTheRuns) {
  ExecContext ctx;
  ctx.sort_memory_bytes = 2048;
  std::vector<Row> input;
  for (int i = 0; i < 300; ++i) {
    input.push_back({Value::Int(i % 5), Value::Text(std::string(100 + i, 'x')),
                     Value::List({Value::Int(i), Value(), Value::Text("e")}),
                     Value::Real(i / 3.0), Value::Bool(i % 2),
                     Value::Timestamp(-i),
                     Value::Blob(std::string("\0\xff", 2)), Value()});
  }
  std::vector<Row> want = Expected(input, {{0, false, nullptr}});
  EXPECT_EQ(Sorted(&ctx, std::move(input), {{0, false, nullptr}}), want);
  EXPECT_GT(ctx.merge_passes, 0u);
}

#if defined(__GLIBC__)
// Makes rows as the executor does, one at a time and one value at a time
// (so their arrays have spare capacity; texts past the small-string size),
// and records the most heap in use while the sort pulls them: the peak of
// the buffering phase.
class GeneratedRows : public RowSource {
 public:
  explicit GeneratedRows(int n) : n_(n) {}
  bool Next(Row* row) override {
    peak_ = std::max(peak_, mallinfo2().uordblks);
    if (i_ == n_) return false;
    row->clear();
    row->push_back(Value::Int(i_ % 1000));
    row->push_back(
        Value::Text("some text that is on the heap " + std::to_string(i_)));
    row->push_back(Value::Real(i_));
    row->push_back(Value::Text("short"));
    row->push_back(Value::Int(i_));
    ++i_;
    return true;
  }
  Status status() const override { return Status::OK(); }
  size_t peak() const { return peak_; }

 private:
  int n_;
  int i_ = 0;
  size_t peak_ = 0;
};

TEST(SortTest, BufferedRowsStayWithinTheBudget) {
  const size_t budget = 4 << 20;
  ExecContext ctx;
  ctx.sort_memory_bytes = budget;
  auto input = std::make_unique<GeneratedRows>(40000);
  const GeneratedRows* rows = input.get();
  const size_t before = mallinfo2().uordblks;
  auto sort = NewSort(&ctx, std::move(input), kByKDesc, -1);
  Row row;
  int64_t n = 0;
  while (sort->Next(&row)) ++n;
  EXPECT_EQ(n, 40000);
  EXPECT_GT(ctx.spilled_runs, 2u);
  EXPECT_LE(rows->peak(), before + budget + budget / 16)
      << "peak " << rows->peak() - before << " bytes over a budget of "
      << budget;
}
#endif

// Through SQL: a tiny PRAGMA sort_memory_bytes gives the same rows as the
// in-memory sort, and EXPLAIN ANALYZE counts the spilled runs.
TEST(SortTest, SpillingSqlSortEqualsTheInMemorySort) {
  auto db = testing::OpenMemory();
  ASSERT_TRUE(db->Execute("CREATE TABLE t (id INTEGER PRIMARY KEY, k "
                          "INTEGER, s TEXT COLLATE nocase, r REAL)")
                  .ok());
  std::mt19937 rng(5);
  for (int batch = 0; batch < 10; ++batch) {
    std::string sql = "INSERT INTO t VALUES ";
    for (int i = 0; i < 200; ++i) {
      const int id = batch * 200 + i;
      if (i) sql += ", ";
      sql += "(" + std::to_string(id) + ", " +
             (rng() % 9 == 0 ? "NULL" : std::to_string(rng() % 20)) + ", '" +
             (rng() % 2 ? "A" : "a") + std::to_string(rng() % 30) + "', " +
             std::to_string((rng() % 1000) / 7.0) + ")";
    }
    ASSERT_TRUE(db->Execute(sql).ok()) << sql;
  }
  const char* queries[] = {
      "SELECT * FROM t ORDER BY k",
      "SELECT id, s FROM t ORDER BY s DESC, k",
      "SELECT r, k, s FROM t ORDER BY r, s",
      "SELECT id FROM t WHERE k > 5 ORDER BY s, r DESC",
  };
  for (const char* q : queries) {
    ASSERT_TRUE(db->Execute("PRAGMA sort_memory_bytes = 67108864").ok());
    const std::string in_memory = QueryText(*db, q);
    ASSERT_TRUE(db->Execute("PRAGMA sort_memory_bytes = 1024").ok());
    EXPECT_EQ(QueryText(*db, q), in_memory) << q;
  }
  std::string plan =
      QueryText(*db, "EXPLAIN ANALYZE SELECT * FROM t ORDER BY s");
  EXPECT_NE(plan.find("spilled runs"), std::string::npos) << plan;
}

}  // namespace
}  // namespace levelql
