#include "store/store_checkpoint.h"

#include <gtest/gtest.h>

#include <limits>

#include "base/coding.h"
#include "env/mem_env.h"

namespace apogee::store {
namespace {

TEST(StoreCheckpointTest, NewFileIsZeroAndFourKiB) {
  auto env = env::NewMemEnv();
  auto cp = StoreCheckpoint::Open(env.get(), "/root/checkpoint");
  ASSERT_TRUE(cp.ok()) << cp.status().ToString();
  EXPECT_EQ((*cp)->physic_msg_timestamp(), 0);
  EXPECT_EQ((*cp)->MinTimestamp(), 0);
  EXPECT_EQ(*env->GetFileSize("/root/checkpoint"), 4096u);
}

TEST(StoreCheckpointTest, FlushPersistsJavaLayout) {
  auto env = env::NewMemEnv();
  {
    auto cp = StoreCheckpoint::Open(env.get(), "/root/checkpoint");
    ASSERT_TRUE(cp.ok());
    (*cp)->set_physic_msg_timestamp(1700000005000);
    (*cp)->set_logics_msg_timestamp(1700000004000);
    (*cp)->set_index_msg_timestamp(1700000000000);
    ASSERT_TRUE((*cp)->Flush().ok());
  }
  auto bytes = env::ReadFileToString(env.get(), "/root/checkpoint");
  ASSERT_TRUE(bytes.ok());
  const auto* p = reinterpret_cast<const uint8_t*>(bytes->data());
  EXPECT_EQ(DecodeFixed64(p), 1700000005000u);
  EXPECT_EQ(DecodeFixed64(p + 8), 1700000004000u);
  EXPECT_EQ(DecodeFixed64(p + 16), 1700000000000u);

  auto cp = StoreCheckpoint::Open(env.get(), "/root/checkpoint");
  ASSERT_TRUE(cp.ok());
  EXPECT_EQ((*cp)->physic_msg_timestamp(), 1700000005000);
  // min(physic, logics) - 3 s
  EXPECT_EQ((*cp)->MinTimestamp(), 1700000001000);
  EXPECT_EQ((*cp)->MinTimestampIndex(), 1700000000000);
}

TEST(StoreCheckpointTest, MinTimestampNotBelowZero) {
  auto env = env::NewMemEnv();
  auto cp = StoreCheckpoint::Open(env.get(), "/checkpoint");
  ASSERT_TRUE(cp.ok());
  (*cp)->set_physic_msg_timestamp(1000);
  (*cp)->set_logics_msg_timestamp(2000);
  EXPECT_EQ((*cp)->MinTimestamp(), 0);
  // A corrupt file's INT64_MIN must not overflow the safety margin (store_file_fuzz).
  (*cp)->set_physic_msg_timestamp(std::numeric_limits<int64_t>::min());
  EXPECT_EQ((*cp)->MinTimestamp(), 0);
  (*cp)->set_physic_msg_timestamp(3001);
  (*cp)->set_logics_msg_timestamp(3001);
  EXPECT_EQ((*cp)->MinTimestamp(), 1);
}

}  // namespace
}  // namespace apogee::store
