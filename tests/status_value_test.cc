// Tests for the two plain values every levelql call passes around: Status
// (an OK one is a null word; an error owns its code and message) and Value
// (one word, a string or a list; assigning one kind over another).
#include <gtest/gtest.h>

#include <utility>

#include "levelql/status.h"
#include "levelql/value.h"

namespace levelql {
namespace {

TEST(StatusTest, OkHasNoCodeAndAnEmptyMessage) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), Status::Code::kOk);
  EXPECT_EQ(ok.message(), "");
  EXPECT_EQ(ok.ToString(), "OK");
}

TEST(StatusTest, CopiesOwnTheirMessage) {
  Status error = Status::NotFound("at 1:5: no table t");
  Status copy = error;
  error = Status::OK();
  EXPECT_TRUE(error.ok());
  EXPECT_FALSE(copy.ok());
  EXPECT_EQ(copy.code(), Status::Code::kNotFound);
  EXPECT_EQ(copy.ToString(), "NotFound at 1:5: no table t");
  Status assigned;
  assigned = copy;
  copy = Status::Busy("later");
  EXPECT_EQ(assigned.message(), "at 1:5: no table t");
  assigned = assigned;  // NOLINT: self-assignment keeps it
  EXPECT_EQ(assigned.code(), Status::Code::kNotFound);
}

TEST(StatusTest, MovesLeaveTheErrorWithTheTarget) {
  Status error = Status::TypeError("not a number");
  Status moved = std::move(error);
  EXPECT_EQ(moved.code(), Status::Code::kTypeError);
  // The moved-from error still fails, with its code (as before Status
  // held them by pointer).
  EXPECT_EQ(error.code(), Status::Code::kTypeError);  // NOLINT: use after move
  Status assigned;
  assigned = std::move(moved);
  EXPECT_EQ(moved.code(), Status::Code::kTypeError);  // NOLINT: use after move
  EXPECT_EQ(assigned.message(), "not a number");
  moved = std::move(assigned);
  EXPECT_EQ(moved.ToString(), "TypeError: not a number");
  Result<int> result = std::move(moved);
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "not a number");
  EXPECT_EQ(Status::Corruption("x").WithPrefix("in t: ").message(), "in t: x");
  EXPECT_TRUE(Status::OK().WithPrefix("in t: ").ok());
}

// Every kind assigned over every kind, by copy and by move: the target
// holds the source's value and type, and the source of a copy is kept.
TEST(ValueTest, AssigningOneKindOverAnother) {
  const std::vector<Value> kinds = {
      Value::Null(),
      Value::Int(-7),
      Value::Real(2.5),
      Value::Text("a text longer than the short-string buffer"),
      Value::Text("short"),
      Value::Blob(std::string("\0b", 2)),
      Value::Bool(true),
      Value::Timestamp(1234567),
      Value::List({Value::Int(1), Value::Text("x")})};
  for (const Value& from : kinds) {
    for (const Value& to : kinds) {
      SCOPED_TRACE(std::string(TypeName(from.type())) + " over " +
                   std::string(TypeName(to.type())));
      Value copied = to;
      copied = from;
      EXPECT_EQ(copied.type(), from.type());
      EXPECT_EQ(copied, from);
      Value source = from;
      Value moved = to;
      moved = std::move(source);
      EXPECT_EQ(moved.type(), from.type());
      EXPECT_EQ(moved, from);
    }
  }
  Value self = Value::Real(-0.5);
  self = self;  // NOLINT: self-assignment keeps it
  EXPECT_EQ(self, Value::Real(-0.5));
}

}  // namespace
}  // namespace levelql
