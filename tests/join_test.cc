// The hash and merge join operators (engine/exec/join.h) against a nested
// loop that compares every pair: the same rows in the same order (left
// order, then right order within a left row), whether the right rows are
// held in memory or read again per left row; keys that compare equal
// across types (1 = 1.0, -0.0 = 0) and under a collation pair, NULL keys
// pair with none.
#include "engine/exec/join.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/exec/value_ops.h"
#include "indexes/collation.h"

namespace levelql {
namespace {

std::string Show(const std::vector<Row>& rows) {
  std::string out;
  for (const Row& r : rows) {
    out += "(";
    for (const Value& v : r) out += v.ToString() + ",";
    out += ")";
  }
  return out;
}

// Key 0 of each row; a tag in column 1 tells rows apart.
Value RandomKey(std::mt19937& rng) {
  switch (rng() % 8) {
    case 0:
      return Value();
    case 1:
      return Value::Real(static_cast<double>(rng() % 6));  // 3.0 = 3
    case 2:
      return Value::Real(rng() % 2 ? -0.0 : 0.5);
    case 3:
    case 4: {
      static const char* kWords[] = {"de", "DE", "De", "fr", "FR", "é", "e"};
      return Value::Text(kWords[rng() % 7]);
    }
    default:
      return Value::Int(static_cast<int64_t>(rng() % 6));
  }
}

std::vector<Row> Rows(std::mt19937& rng, int n, int tag_base) {
  std::vector<Row> rows;
  for (int i = 0; i < n; ++i) {
    rows.push_back({RandomKey(rng), Value::Int(tag_base + i)});
  }
  return rows;
}

std::vector<Row> Drain(RowSource* source) {
  std::vector<Row> out;
  Row r;
  while (source->Next(&r)) out.push_back(r);
  EXPECT_TRUE(source->status().ok()) << source->status().ToString();
  return out;
}

// Every pair of equal, non-NULL keys: left order, then right order.
std::vector<Row> EveryPair(const std::vector<Row>& left,
                           const std::vector<Row>& right,
                           const Collation* collation) {
  std::vector<Row> want;
  for (const Row& l : left) {
    for (const Row& r : right) {
      if (!l[0].is_null() && !r[0].is_null() &&
          CompareValues(l[0], r[0], collation) == 0) {
        want.push_back({l[0], l[1], r[0], r[1]});
      }
    }
  }
  return want;
}

TEST(HashJoinTest, SameRowsAndOrderAsComparingEveryPair) {
  auto nocase = Collation::Get("nocase");
  ASSERT_TRUE(nocase.ok());
  std::mt19937 rng(20261125);
  int rescans_checked = 0;
  for (int round = 0; round < 200; ++round) {
    const std::vector<Row> left = Rows(rng, 1 + rng() % 30, 0);
    const std::vector<Row> right = Rows(rng, rng() % 40, 1000);
    const Collation* collation = round % 2 ? *nocase : nullptr;
    const std::vector<Row> want = EveryPair(left, right, collation);
    // In memory, then with a budget no right input fits in (read again
    // per left row).
    for (int64_t memory : {int64_t{1} << 30, int64_t{64}}) {
      ExecContext ctx;
      auto join = NewHashJoin(
          &ctx, NewValues(left), [&] { return NewValues(right); }, 0, 0,
          collation, memory);
      ASSERT_EQ(Show(Drain(join.get())), Show(want))
          << "round " << round << ", memory " << memory;
      rescans_checked += memory == 64 && !want.empty();
    }
  }
  EXPECT_GT(rescans_checked, 50);
}

TEST(MergeJoinTest, SameRowsAndOrderHeldOrReadAgain) {
  auto nocase = Collation::Get("nocase");
  ASSERT_TRUE(nocase.ok());
  std::mt19937 rng(20261127);
  int rereads_checked = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<Row> left = Rows(rng, 1 + rng() % 30, 0);
    std::vector<Row> right = Rows(rng, rng() % 40, 1000);
    const Collation* collation = round % 2 ? *nocase : nullptr;
    const bool reverse = round % 3 == 0;
    // Both inputs in key order (input order within a key).
    auto by_key = [&](const Row& a, const Row& b) {
      const int c = CompareValues(a[0], b[0], collation);
      return reverse ? c > 0 : c < 0;
    };
    std::stable_sort(left.begin(), left.end(), by_key);
    std::stable_sort(right.begin(), right.end(), by_key);
    const std::vector<Row> want = EveryPair(left, right, collation);
    // Held in memory; past a budget no key's rows fit in, read again per
    // left row; and past it without a way to read again (held).
    for (int mode = 0; mode < 3; ++mode) {
      ExecContext ctx;
      RowSourceFactory reopen;
      if (mode != 2) reopen = [&] { return NewValues(right); };
      auto join =
          NewMergeJoin(&ctx, NewValues(left), NewValues(right), reopen, 0, 0,
                       collation, reverse, mode == 0 ? int64_t{1} << 30 : 8);
      ASSERT_EQ(Show(Drain(join.get())), Show(want))
          << "round " << round << ", mode " << mode;
      rereads_checked += mode == 1 && !want.empty();
    }
  }
  EXPECT_GT(rereads_checked, 100);
}

// A merge join that makes a projection's rows (JoinLayout::outputs): each
// pair's values in the order the outputs name, a side's value twice, NULL
// for column -1 and for a column past its row's end, the rows held or read
// again alike.
TEST(MergeJoinTest, OutputsAreTheProjectionOfEachPair) {
  std::mt19937 rng(20261128);
  int rows_checked = 0;
  for (int round = 0; round < 100; ++round) {
    std::vector<Row> left = Rows(rng, 1 + rng() % 20, 0);
    std::vector<Row> right = Rows(rng, rng() % 20, 1000);
    auto by_key = [](const Row& a, const Row& b) {
      return CompareValues(a[0], b[0], nullptr) < 0;
    };
    std::stable_sort(left.begin(), left.end(), by_key);
    std::stable_sort(right.begin(), right.end(), by_key);
    JoinLayout layout;
    layout.outputs = {{true, 1},  {false, 1}, {false, 0},
                      {true, -1}, {true, 1},  {false, 7}};
    std::vector<Row> want;
    for (const Row& pair : EveryPair(left, right, nullptr)) {
      // pair = left key, left tag, right key, right tag
      want.push_back({pair[3], pair[1], pair[0], Value(), pair[3], Value()});
    }
    for (int64_t memory : {int64_t{1} << 30, int64_t{8}}) {
      ExecContext ctx;
      auto join = NewMergeJoin(
          &ctx, NewValues(left), NewValues(right),
          [&] { return NewValues(right); }, 0, 0, nullptr, false, memory,
          nullptr, layout);
      ASSERT_EQ(Show(Drain(join.get())), Show(want))
          << "round " << round << ", memory " << memory;
      rows_checked += static_cast<int>(want.size());
    }
  }
  EXPECT_GT(rows_checked, 100);
}

}  // namespace
}  // namespace levelql
