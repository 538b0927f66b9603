#include "protocol/request_code.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

TEST(RequestCodeTest, ValuesAreJavas) {
  EXPECT_EQ(request_code::kSendMessage, 10);
  EXPECT_EQ(request_code::kPullMessage, 11);
  EXPECT_EQ(request_code::kHeartBeat, 34);
  EXPECT_EQ(request_code::kRegisterBroker, 103);
  EXPECT_EQ(request_code::kGetRouteinfoByTopic, 105);
  EXPECT_EQ(request_code::kGetKvlistByNamespace, 219);
  EXPECT_EQ(request_code::kSendMessageV2, 310);
  EXPECT_EQ(request_code::kSendBatchMessage, 320);
  EXPECT_EQ(request_code::kLitePullMessage, 361);
  EXPECT_EQ(request_code::kBrokerHeartbeat, 904);
  EXPECT_EQ(request_code::kPopMessage, 200050);
  EXPECT_EQ(request_code::kBatchAckMessage, 200151);
}

TEST(RequestCodeTest, NamesForLogs) {
  EXPECT_EQ(request_code::Name(10), "SEND_MESSAGE");
  EXPECT_EQ(request_code::Name(105), "GET_ROUTEINFO_BY_TOPIC");
  EXPECT_EQ(request_code::Name(200151), "BATCH_ACK_MESSAGE");
  EXPECT_EQ(request_code::Name(1018), "RAFT_BROKER_HEART_BEAT_EVENT_REQUEST");
  EXPECT_EQ(request_code::Name(16), "UNKNOWN");
  EXPECT_EQ(request_code::Name(-1), "UNKNOWN");
  EXPECT_EQ(request_code::Name(999999), "UNKNOWN");
}

TEST(RequestCodeTest, EveryCodeBetweenFirstAndLastThatHasANameRoundTrips) {
  // The lookup is a binary search: a mis-sorted table would lose names.
  int named = 0;
  for (int32_t code = 0; code <= 3010; ++code) {
    if (request_code::Name(code) != "UNKNOWN") ++named;
  }
  for (int32_t code = 200050; code <= 200151; ++code) {
    if (request_code::Name(code) != "UNKNOWN") ++named;
  }
  EXPECT_EQ(named, 163);
}

}  // namespace
}  // namespace apogee::protocol
