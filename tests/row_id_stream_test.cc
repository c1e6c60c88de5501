// The row-id stream combinators on a vector-backed fake: what leapfrog
// intersections seek, what merge unions drop, when an intersection falls
// back to its driver, and how each runs backwards. Keys are rendered as
// "(1)(4)(12)" so a failure reads as the streams do.
#include "engine/exec/row_id_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace levelql {
namespace {

// Keys as fixed-width numbers, so byte order is numeric order.
std::string K(int n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%06d", n);
  return buf;
}

// A pk-sorted stream over a vector of keys, counting the calls it gets.
class VectorStream : public RowIdStream {
 public:
  struct Calls {
    int nexts = 0;
    int seeks = 0;
  };
  VectorStream(std::vector<int> keys, bool reverse, Calls* calls)
      : reverse_(reverse), calls_(calls) {
    std::sort(keys.begin(), keys.end());
    if (reverse_) std::reverse(keys.begin(), keys.end());
    for (int k : keys) keys_.push_back(K(k));
  }
  bool Valid() const override { return pos_ < keys_.size(); }
  void Seek(std::string_view target) override {
    ++calls_->seeks;
    while (Valid() && (reverse_ ? keys_[pos_] > target : keys_[pos_] < target))
      ++pos_;
  }
  void Next() override {
    ++calls_->nexts;
    ++pos_;
  }
  std::string_view pk() const override { return keys_[pos_]; }
  Status status() const override { return Status::OK(); }
  bool reverse() const override { return reverse_; }

 private:
  std::vector<std::string> keys_;
  size_t pos_ = 0;
  bool reverse_;
  Calls* calls_;
};

std::unique_ptr<RowIdStream> Stream(std::vector<int> keys,
                                    VectorStream::Calls* calls,
                                    bool reverse = false) {
  return std::make_unique<VectorStream>(std::move(keys), reverse, calls);
}

std::string Drain(RowIdStream& s) {
  std::string out;
  for (; s.Valid(); s.Next()) {
    out += "(" + std::to_string(std::stoi(std::string(s.pk()))) + ")";
  }
  return out;
}

std::vector<int> Range(int from, int to, int step = 1) {
  std::vector<int> out;
  for (int i = from; i < to; i += step) out.push_back(i);
  return out;
}

// 0..4999 intersected with the same keys but one in 100 (`most`): nearly
// every candidate matches.
std::vector<int> NearlyAll() {
  std::vector<int> most;
  for (int i = 0; i < 5000; ++i) {
    if (i % 100 != 7) most.push_back(i);
  }
  return most;
}

std::unique_ptr<RowIdStream> NearlyAllIntersection(bool exact,
                                                   VectorStream::Calls* driver,
                                                   VectorStream::Calls* other) {
  std::vector<std::unique_ptr<RowIdStream>> children;
  children.push_back(Stream(Range(0, 5000), driver));
  children.push_back(Stream(NearlyAll(), other));
  return NewIntersectStream(std::move(children), nullptr, exact);
}

TEST(IntersectStream, YieldsKeysEveryStreamHas) {
  VectorStream::Calls a, b, c;
  std::vector<std::unique_ptr<RowIdStream>> children;
  children.push_back(Stream({1, 4, 5, 12, 30}, &a));
  children.push_back(Stream({2, 4, 12, 13, 30}, &b));
  children.push_back(Stream({4, 12, 30, 31}, &c));
  auto s = NewIntersectStream(std::move(children), nullptr);
  EXPECT_EQ(Drain(*s), "(4)(12)(30)");
}

TEST(IntersectStream, SkipsAheadWithSeekInsteadOfStepping) {
  VectorStream::Calls dense, sparse;
  std::vector<std::unique_ptr<RowIdStream>> children;
  children.push_back(Stream({5000, 9000}, &sparse));
  children.push_back(Stream(Range(0, 10000), &dense));
  auto s = NewIntersectStream(std::move(children), nullptr);
  EXPECT_EQ(Drain(*s), "(5000)(9000)");
  // The dense stream jumps to each candidate: a handful of seeks, not
  // 10,000 steps.
  EXPECT_LE(dense.seeks, 3);
  EXPECT_LE(dense.nexts, 2);
}

TEST(IntersectStream, StaysAnIntersectionWhenItRejectsMostCandidates) {
  // a = i % 3 and b = i % 10 over 30,000 rows: 1,000 of 2,488 candidates
  // match. The fallback must count the rejected candidates, not only the
  // matches, and never give up on a 40% intersection.
  std::vector<int> a, b;
  for (int i = 0; i < 30000; ++i) {
    if (i % 3 == 1) a.push_back(i);
    if (i % 10 == 1) b.push_back(i);
  }
  VectorStream::Calls ca, cb;
  std::vector<std::unique_ptr<RowIdStream>> children;
  children.push_back(Stream(b, &cb));
  children.push_back(Stream(a, &ca));
  auto s = NewIntersectStream(std::move(children), nullptr);
  int n = 0;
  for (; s->Valid(); s->Next()) {
    const int key = std::stoi(std::string(s->pk()));
    ASSERT_EQ(key % 30, 1) << "a key only one stream has";
    ++n;
  }
  EXPECT_EQ(n, 1000);
}

TEST(IntersectStream, FallsBackToItsDriverWhenNearlyEveryKeyMatches) {
  // Every key but one in 100 matches: after 256 candidates the intersection
  // continues with the driver alone (the plan re-checks the WHERE clause),
  // so the other stream is no longer asked.
  const std::vector<int> most = NearlyAll();
  VectorStream::Calls driver, other;
  auto s = NearlyAllIntersection(/*exact=*/false, &driver, &other);
  int n = 0;
  for (; s->Valid(); s->Next()) ++n;
  EXPECT_GT(n, static_cast<int>(most.size()));  // a superset: keys of the
  EXPECT_LE(n, 5000);                           // driver past the switch
  EXPECT_LT(other.seeks + other.nexts, 600);
}

TEST(IntersectStream, AnExactIntersectionNeverFallsBackToItsDriver) {
  // The same streams as above, for a plan that re-checks nothing (rows made
  // from the keys alone): every key it gives must be in both streams.
  VectorStream::Calls driver, other;
  auto s = NearlyAllIntersection(/*exact=*/true, &driver, &other);
  std::vector<int> got;
  for (; s->Valid(); s->Next()) got.push_back(std::stoi(std::string(s->pk())));
  EXPECT_EQ(got, NearlyAll());
}

TEST(IntersectStream, RunsBackwards) {
  VectorStream::Calls a, b;
  std::vector<std::unique_ptr<RowIdStream>> children;
  children.push_back(Stream({1, 4, 5, 12, 30}, &a, true));
  children.push_back(Stream({2, 4, 12, 13, 30}, &b, true));
  auto s = NewIntersectStream(std::move(children), nullptr);
  EXPECT_EQ(Drain(*s), "(30)(12)(4)");
}

TEST(UnionStream, MergesInOrderAndDropsRepeats) {
  VectorStream::Calls a, b, c;
  std::vector<std::unique_ptr<RowIdStream>> children;
  children.push_back(Stream({1, 4, 12}, &a));
  children.push_back(Stream({4, 5, 12, 30}, &b));
  children.push_back(Stream({}, &c));
  auto s = NewUnionStream(std::move(children), nullptr);
  EXPECT_EQ(Drain(*s), "(1)(4)(5)(12)(30)");
}

TEST(UnionStream, SeeksEveryChildAndRunsBackwards) {
  VectorStream::Calls a, b;
  std::vector<std::unique_ptr<RowIdStream>> children;
  children.push_back(Stream({1, 4, 12}, &a, true));
  children.push_back(Stream({4, 5, 12, 30}, &b, true));
  auto s = NewUnionStream(std::move(children), nullptr);
  s->Seek(K(11));
  EXPECT_EQ(Drain(*s), "(5)(4)(1)");
}

TEST(UnionStream, CountsItsRemainingKeysOnce) {
  VectorStream::Calls a, b;
  std::vector<std::unique_ptr<RowIdStream>> children;
  children.push_back(Stream({1, 4, 12}, &a));
  children.push_back(Stream({4, 5, 12, 30}, &b));
  auto s = NewUnionStream(std::move(children), nullptr);
  s->Next();  // past 1: 4, 5, 12 and 30 remain, 4 and 12 in both
  int64_t n = -1;
  ASSERT_TRUE(s->CountRemaining(&n));
  EXPECT_EQ(n, 4);
}

TEST(SkipStream, CountsWhatItsStreamHasLeftPastTheSkip) {
  VectorStream::Calls a, b;
  std::vector<std::unique_ptr<RowIdStream>> children;
  children.push_back(Stream({1, 4, 12}, &a));
  children.push_back(Stream({4, 5, 12, 30}, &b));
  auto s =
      NewSkipStream(NewUnionStream(std::move(children), nullptr), 2, nullptr);
  int64_t n = -1;
  ASSERT_TRUE(s->CountRemaining(&n));
  EXPECT_EQ(n, 3);  // 5, 12, 30
}

TEST(SkipStream, CountsTheKeysItHandsOutForExplainAnalyze) {
  VectorStream::Calls a;
  NodeStats stats;
  auto s = NewSkipStream(Stream({1, 4, 12, 30, 31}, &a), 2, &stats);
  EXPECT_EQ(Drain(*s), "(12)(30)(31)");
  EXPECT_EQ(stats.rows, 3u);
}

TEST(IntersectStream, CountsOnlyWhenExact) {
  for (bool exact : {false, true}) {
    VectorStream::Calls driver, other;
    auto s = NearlyAllIntersection(exact, &driver, &other);
    int64_t n = -1;
    // An inexact one may fall back to its driver: its keys are no count.
    EXPECT_EQ(s->CountRemaining(&n), exact);
    if (exact) {
      EXPECT_EQ(n, static_cast<int64_t>(NearlyAll().size()));
    }
  }
}

TEST(SortedStream, SortsDropsRepeatsAndSeeks) {
  VectorStream::Calls a;
  // Not pk-sorted on input: the vector stream sorts, so feed a union of a
  // reverse stream to get descending input.
  auto s = NewSortedStream(Stream({30, 4, 12, 4, 1}, &a, true), false, nullptr);
  s->Seek(K(5));
  EXPECT_EQ(Drain(*s), "(12)(30)");
  auto r = NewSortedStream(Stream({30, 4, 12, 4, 1}, &a, false), true, nullptr);
  EXPECT_EQ(Drain(*r), "(30)(12)(4)(1)");
}

TEST(ResumeAtPk, MovesPastTheKeyInEitherDirection) {
  VectorStream::Calls a;
  auto s = Stream({1, 4, 12, 30}, &a);
  ResumeAtPk(s.get(), K(4), false);
  EXPECT_EQ(Drain(*s), "(12)(30)");
  auto r = Stream({1, 4, 12, 30}, &a, true);
  ResumeAtPk(r.get(), K(12), false);
  EXPECT_EQ(Drain(*r), "(4)(1)");
  auto gap = Stream({1, 4, 12, 30}, &a, true);
  ResumeAtPk(gap.get(), K(13), false);  // a key the stream does not have
  EXPECT_EQ(Drain(*gap), "(12)(4)(1)");
}

TEST(ResumeAtPk, InclusiveStopsAtTheKeyOrThePlaceItWouldBe) {
  VectorStream::Calls a;
  auto s = Stream({1, 4, 12, 30}, &a);
  ResumeAtPk(s.get(), K(4), true);
  EXPECT_EQ(Drain(*s), "(4)(12)(30)");
  auto r = Stream({1, 4, 12, 30}, &a, true);
  ResumeAtPk(r.get(), K(12), true);
  EXPECT_EQ(Drain(*r), "(12)(4)(1)");
  auto gap = Stream({1, 4, 12, 30}, &a);
  ResumeAtPk(gap.get(), K(5), true);  // a key the stream does not have
  EXPECT_EQ(Drain(*gap), "(12)(30)");
  auto rgap = Stream({1, 4, 12, 30}, &a, true);
  ResumeAtPk(rgap.get(), K(5), true);
  EXPECT_EQ(Drain(*rgap), "(4)(1)");
}

}  // namespace
}  // namespace levelql
