#include "store/delay_level_table.h"

#include <gtest/gtest.h>

#include <vector>

#include "env/mem_env.h"
#include "message/message_format.h"
#include "store/dispatch_request.h"
#include "store/message_store.h"
#include "store_test_util.h"
#include "testutil/test_util.h"

namespace apogee::store {
namespace {

TEST(DelayLevelTableTest, ParsesJavaDefaultLevels) {
  auto t = DelayLevelTable::Parse("1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->max_level(), 18);
  EXPECT_EQ(t->DelayMillis(1), 1000);
  EXPECT_EQ(t->DelayMillis(3), 10000);
  EXPECT_EQ(t->DelayMillis(5), 60000);
  EXPECT_EQ(t->DelayMillis(17), 3600000);
  EXPECT_EQ(t->DelayMillis(18), 7200000);
}

TEST(DelayLevelTableTest, DaysAndExtraBlanks) {
  auto t = DelayLevelTable::Parse("  2d   0s ");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->max_level(), 2);
  EXPECT_EQ(t->DelayMillis(1), 2LL * 24 * 3600 * 1000);
  EXPECT_EQ(t->DelayMillis(2), 0);
}

TEST(DelayLevelTableTest, LevelsAboveTheMaximumAreClamped) {
  auto t = DelayLevelTable::Parse("1s 2s 3s");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->Clamp(7), 3);
  EXPECT_EQ(t->DelayMillis(7), 3000);
  EXPECT_EQ(t->Clamp(0), 0);
  EXPECT_EQ(t->Clamp(-2), 0);
  EXPECT_EQ(t->DelayMillis(0), 0);
}

TEST(DelayLevelTableTest, BadPiecesAreNamed) {
  for (const char* bad : {"1s 5x", "s", "1s -3m", "10", "", "   ", "1.5s"}) {
    auto t = DelayLevelTable::Parse(bad);
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_NE(t.status().message().find("messageDelayLevel"), std::string::npos) << bad;
  }
  auto t = DelayLevelTable::Parse("1s 5x");
  EXPECT_NE(t.status().message().find("level 2 is '5x'"), std::string::npos)
      << t.status().ToString();
}

TEST(DelayLevelTableTest, QueueIdMapping) {
  EXPECT_EQ(DelayLevelToQueueId(1), 0);
  EXPECT_EQ(DelayLevelToQueueId(18), 17);
  EXPECT_EQ(QueueIdToDelayLevel(2), 3);
}

TEST(DelayLevelTableTest, StoreConfigRejectsABadTable) {
  StoreConfig c = testing::SmallConfig("/x");
  EXPECT_TRUE(c.Validate().ok());
  c.message_delay_level = "1s oops";
  EXPECT_FALSE(c.Validate().ok());
}

// The store gives SCHEDULE_TOPIC_XXXX records the delivery time as tag code, and timer
// topic records their TIMER_OUT_MS; other topics keep the tag hash.
TEST(DelayLevelTableTest, StoreDispatchesDeliveryTimesAsTagCodes) {
  std::unique_ptr<env::Env> mem = env::NewMemEnv();
  ManualClock clock(1700000000000);
  StoreConfig config = testing::SmallConfig("/store");
  config.message_delay_level = "1s 2s 3s";
  auto opened = MessageStore::Open(config, mem.get(), &clock);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::unique_ptr<MessageStore> store = std::move(*opened);
  ASSERT_TRUE(store->Start().ok());

  auto put = [&](const std::string& topic, int32_t queue_id,
                 std::initializer_list<message::MessageProperties::Entry> props) {
    testing::TestMessage m(topic, queue_id, "b", "TagA");
    message::MessageProperties p = message::MessageProperties::Decode(m.properties);
    for (const auto& e : props) ASSERT_TRUE(p.Set(e.first, e.second).ok());
    m.properties = p.Encode();
    m.Rebind();
    ASSERT_EQ(store->PutMessage(m.fields, true).get().status, PutStatus::kPutOk);
  };
  put(std::string(message::kScheduleTopic), 1, {{"DELAY", "2"}});
  put(std::string(message::kScheduleTopic), 2, {{"DELAY", "9"}});  // clamped to level 3
  put(std::string(message::kTimerTopic), 0, {{"TIMER_OUT_MS", "1700000123456"}});
  put("Plain", 0, {{"DELAY", "2"}});
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return store->DispatchBehindBytes() <= 0; },
                                         std::chrono::seconds(10)));

  auto tag_code_of = [&](std::string_view topic, int32_t queue_id) {
    std::vector<int64_t> codes;
    store->GetMessages(topic, queue_id, 0, 1, 1 << 20, [&](int64_t code) {
      codes.push_back(code);
      return true;
    });
    return codes.empty() ? int64_t{-1} : codes.front();
  };
  EXPECT_EQ(tag_code_of(message::kScheduleTopic, 1), 1700000000000 + 2000);
  EXPECT_EQ(tag_code_of(message::kScheduleTopic, 2), 1700000000000 + 3000);
  EXPECT_EQ(tag_code_of(message::kTimerTopic, 0), 1700000123456);
  EXPECT_EQ(tag_code_of("Plain", 0), 2598919);  // "TagA"'s Java hash
  store->Shutdown();
}

}  // namespace
}  // namespace apogee::store
