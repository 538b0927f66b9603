#include "protocol/response_code.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(ResponseCodeTest, ValuesAreJavas) {
  EXPECT_EQ(response_code::kSuccess, 0);
  EXPECT_EQ(response_code::kSystemError, 1);
  EXPECT_EQ(response_code::kRequestCodeNotSupported, 3);
  EXPECT_EQ(response_code::kFlushDiskTimeout, 10);
  EXPECT_EQ(response_code::kTopicNotExist, 17);
  EXPECT_EQ(response_code::kPullNotFound, 19);
  EXPECT_EQ(response_code::kPullOffsetMoved, 21);
  EXPECT_EQ(response_code::kQueryNotFound, 22);
  EXPECT_EQ(response_code::kFlowControl, 215);
  EXPECT_EQ(response_code::kGoAway, 1500);
  EXPECT_EQ(response_code::kRpcTimeOut, -1006);
}

TEST(ResponseCodeTest, NamesForLogs) {
  EXPECT_EQ(response_code::Name(0), "SUCCESS");
  EXPECT_EQ(response_code::Name(25), "SUBSCRIPTION_NOT_LATEST");
  EXPECT_EQ(response_code::Name(-1000), "RPC_UNKNOWN");
  EXPECT_EQ(response_code::Name(3002), "POLICY_NOT_EXIST");
  EXPECT_EQ(response_code::Name(209), "POLLING_FULL/UPDATE_AND_CREATE_ACL_CONFIG_FAILED");
  EXPECT_EQ(response_code::Name(5), "UNKNOWN");
}

TEST(ResponseCodeTest, EveryTableEntryIsFound) {
  int named = 0;
  for (int32_t code = -1006; code <= 3002; ++code) {
    if (response_code::Name(code) != "UNKNOWN") ++named;
  }
  EXPECT_EQ(named, 49);  // 52 names, three codes shared by 4.9.7 and 5.x
}

}  // namespace
}  // namespace apogee::protocol
