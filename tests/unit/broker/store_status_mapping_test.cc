#include "broker/store_status_mapping.h"

#include <gtest/gtest.h>

#include "protocol/response_code.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
using store::GetStatus;
using store::PutStatus;

TEST(StoreStatusMappingTest, PutStatusesMapToJavaCodes) {
  EXPECT_EQ(MapPutStatus(PutStatus::kPutOk, "", 100).code, rc::kSuccess);
  EXPECT_TRUE(MapPutStatus(PutStatus::kPutOk, "", 100).remark.empty());
  EXPECT_EQ(MapPutStatus(PutStatus::kFlushDiskTimeout, "", 100).code, rc::kFlushDiskTimeout);
  EXPECT_EQ(MapPutStatus(PutStatus::kFlushSlaveTimeout, "", 100).code, rc::kFlushSlaveTimeout);
  EXPECT_EQ(MapPutStatus(PutStatus::kSlaveNotAvailable, "", 100).code, rc::kSlaveNotAvailable);
  EXPECT_EQ(MapPutStatus(PutStatus::kCreateMappedFileFailed, "", 100).code, rc::kSystemError);
  EXPECT_EQ(MapPutStatus(PutStatus::kMessageIllegal, "", 100).code, rc::kMessageIllegal);
  EXPECT_EQ(MapPutStatus(PutStatus::kPropertiesSizeExceeded, "", 100).code, rc::kMessageIllegal);
  EXPECT_EQ(MapPutStatus(PutStatus::kServiceNotAvailable, "", 100).code, rc::kServiceNotAvailable);
  EXPECT_EQ(MapPutStatus(PutStatus::kUnknownError, "", 100).code, rc::kSystemError);
}

TEST(StoreStatusMappingTest, PageCacheBusyIsJavasFlowControlRemark) {
  ResponseCodeAndRemark m = MapPutStatus(PutStatus::kOsPageCacheBusy, "", 100);
  EXPECT_EQ(m.code, rc::kSystemBusy);
  EXPECT_EQ(m.remark, "[PC_SYNCHRONIZED]broker busy, start flow control for a while");
}

TEST(StoreStatusMappingTest, RemarksNameTheLimitAndTheStoreReason) {
  EXPECT_NE(MapPutStatus(PutStatus::kMessageIllegal, "", 4194304).remark.find("4194304"),
            std::string::npos);
  EXPECT_NE(MapPutStatus(PutStatus::kServiceNotAvailable, "fdatasync failed: EIO", 1)
                .remark.find("fdatasync failed: EIO"),
            std::string::npos);
  EXPECT_FALSE(MapPutStatus(PutStatus::kServiceNotAvailable, "", 1).remark.empty());
}

TEST(StoreStatusMappingTest, GetStatusesMapAsPullMessageProcessor) {
  EXPECT_EQ(MapGetStatus(GetStatus::kFound, 5).code, rc::kSuccess);
  EXPECT_EQ(MapGetStatus(GetStatus::kFound, 5).remark, "FOUND");
  EXPECT_EQ(MapGetStatus(GetStatus::kNoMatchedMessage, 5).code, rc::kPullRetryImmediately);
  EXPECT_EQ(MapGetStatus(GetStatus::kMessageWasRemoving, 5).code, rc::kPullRetryImmediately);
  EXPECT_EQ(MapGetStatus(GetStatus::kOffsetFoundNull, 5).code, rc::kPullNotFound);
  EXPECT_EQ(MapGetStatus(GetStatus::kOffsetOverflowOne, 5).code, rc::kPullNotFound);
  EXPECT_EQ(MapGetStatus(GetStatus::kOffsetOverflowOne, 5).remark, "OFFSET_OVERFLOW_ONE");
  EXPECT_EQ(MapGetStatus(GetStatus::kOffsetOverflowBadly, 5).code, rc::kPullOffsetMoved);
  EXPECT_EQ(MapGetStatus(GetStatus::kOffsetTooSmall, 5).code, rc::kPullOffsetMoved);
}

TEST(StoreStatusMappingTest, EmptyOrUnknownQueueDependsOnRequestedOffset) {
  EXPECT_EQ(MapGetStatus(GetStatus::kNoMessageInQueue, 0).code, rc::kPullNotFound);
  EXPECT_EQ(MapGetStatus(GetStatus::kNoMessageInQueue, 3).code, rc::kPullOffsetMoved);
  EXPECT_EQ(MapGetStatus(GetStatus::kNoMatchedLogicQueue, 0).code, rc::kPullNotFound);
  EXPECT_EQ(MapGetStatus(GetStatus::kNoMatchedLogicQueue, 1).code, rc::kPullOffsetMoved);
}

TEST(StoreStatusMappingTest, StrictAckTurnsUnmetPoliciesIntoRetriableFailures) {
  for (PutStatus s : {PutStatus::kFlushDiskTimeout, PutStatus::kFlushSlaveTimeout,
                      PutStatus::kSlaveNotAvailable}) {
    ResponseCodeAndRemark strict = MapPutStatus(s, "", 100, /*strict_ack=*/true);
    EXPECT_EQ(strict.code, rc::kSystemError) << PutStatusName(s);
    EXPECT_NE(strict.remark.find("strictAckEnable"), std::string::npos) << strict.remark;
    EXPECT_EQ(MapPutStatus(s, "", 100, /*strict_ack=*/false).code, MapPutStatus(s, "", 100).code);
  }
  // Other outcomes are unchanged.
  EXPECT_EQ(MapPutStatus(PutStatus::kPutOk, "", 100, true).code, rc::kSuccess);
  EXPECT_EQ(MapPutStatus(PutStatus::kServiceNotAvailable, "", 100, true).code,
            rc::kServiceNotAvailable);
  EXPECT_EQ(MapPutStatus(PutStatus::kMessageIllegal, "", 100, true).code, rc::kMessageIllegal);
}

}  // namespace
}  // namespace apogee::broker
