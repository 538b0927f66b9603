#include <gtest/gtest.h>

#include "store/get_status.h"
#include "store/put_status.h"

namespace apogee::store {
namespace {

TEST(StoreStatusTest, PutStatusNamesAreJavas) {
  EXPECT_EQ(PutStatusName(PutStatus::kPutOk), "PUT_OK");
  EXPECT_EQ(PutStatusName(PutStatus::kFlushDiskTimeout), "FLUSH_DISK_TIMEOUT");
  EXPECT_EQ(PutStatusName(PutStatus::kServiceNotAvailable), "SERVICE_NOT_AVAILABLE");
  EXPECT_EQ(PutStatusName(PutStatus::kPropertiesSizeExceeded), "PROPERTIES_SIZE_EXCEEDED");
}

TEST(StoreStatusTest, StoredStatusesAreTheSentOnes) {
  EXPECT_TRUE(PutStatusStored(PutStatus::kPutOk));
  EXPECT_TRUE(PutStatusStored(PutStatus::kFlushDiskTimeout));
  EXPECT_TRUE(PutStatusStored(PutStatus::kFlushSlaveTimeout));
  EXPECT_TRUE(PutStatusStored(PutStatus::kSlaveNotAvailable));
  EXPECT_FALSE(PutStatusStored(PutStatus::kMessageIllegal));
  EXPECT_FALSE(PutStatusStored(PutStatus::kServiceNotAvailable));
  EXPECT_FALSE(PutStatusStored(PutStatus::kOsPageCacheBusy));
}

TEST(StoreStatusTest, GetStatusNames) {
  EXPECT_EQ(GetStatusName(GetStatus::kFound), "FOUND");
  EXPECT_EQ(GetStatusName(GetStatus::kOffsetOverflowOne), "OFFSET_OVERFLOW_ONE");
  EXPECT_EQ(GetStatusName(GetStatus::kNoMatchedLogicQueue), "NO_MATCHED_LOGIC_QUEUE");
}

}  // namespace
}  // namespace apogee::store
