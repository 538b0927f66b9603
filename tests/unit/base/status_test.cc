#include "base/status.h"

#include <gtest/gtest.h>

namespace apogee {
namespace {

TEST(StatusTest, OkHasNoMessage) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "OK");
  EXPECT_EQ(s.message(), "");
}

TEST(StatusTest, ErrorCarriesCodeAndPrefix) {
  Status s = Status::NotFound("topic T").Prefixed("route");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_EQ(s.ToString(), "NotFound: route: topic T");
  Status copy = s;
  EXPECT_EQ(copy.ToString(), s.ToString());
}

TEST(StatusTest, FromErrnoMapsNoSpace) {
  EXPECT_TRUE(Status::FromErrno(ENOSPC, "write").Is(StatusCode::kNoSpace));
  EXPECT_TRUE(Status::FromErrno(EIO, "write").Is(StatusCode::kIOError));
}

Result<int> Half(int v) {
  if (v % 2) return Status::InvalidArgument("odd");
  return v / 2;
}

Result<int> Quarter(int v) {
  APOGEE_ASSIGN_OR_RETURN(int h, Half(v));
  APOGEE_ASSIGN_OR_RETURN(int q, Half(h));
  return q;
}

TEST(ResultTest, PropagatesErrors) {
  EXPECT_EQ(Quarter(8).value(), 2);
  EXPECT_FALSE(Quarter(6).ok());
  EXPECT_EQ(Quarter(6).status().message(), "odd");
}

}  // namespace
}  // namespace apogee
