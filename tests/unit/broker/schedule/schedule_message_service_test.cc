#include "broker/schedule/schedule_message_service.h"

#include <gtest/gtest.h>

#include "broker/processors/send_message_processor.h"
#include "message/message.h"
#include "message/message_record.h"
#include "protocol/response_code.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
using testing::BrokerHarness;
using testing::Call;
using testing::SendRequest;

BrokerSettings Settings() {
  BrokerSettings s = testing::TestSettings();
  s.store.message_delay_level = "1s 2s 5s";
  return s;
}

class ScheduleMessageServiceTest : public ::testing::Test {
 protected:
  ScheduleMessageServiceTest()
      : harness_(Settings()),
        sender_(harness_.SendDeps()),
        offsets_(harness_.env.get(), "/store/config/delayOffset.json") {
    harness_.AddTopic("T", 4);
  }

  // Sends `body` to T queue `queue_id` with DELAY `level`; returns the store time.
  int64_t SendDelayed(const std::string& body, int32_t queue_id, int32_t level) {
    protocol::RemotingCommand request = SendRequest("T", queue_id, body, "TagA");
    message::MessageProperties props =
        message::MessageProperties::Decode(request.ext_fields.Get("i").value_or(""));
    EXPECT_TRUE(props.Set("DELAY", std::to_string(level)).ok());
    request.ext_fields.Set("i", props.Encode());
    auto r = Call(sender_, std::move(request));
    EXPECT_TRUE(r && r->code == rc::kSuccess);
    harness_.WaitDispatched();
    const int32_t schedule_queue = level - 1;
    const int64_t offset =
        harness_.store->GetMaxOffsetInQueue("SCHEDULE_TOPIC_XXXX", schedule_queue) - 1;
    return harness_.store->GetMessageStoreTimestamp("SCHEDULE_TOPIC_XXXX", schedule_queue, offset);
  }

  std::vector<message::MessageExt> Read(int32_t queue_id) {
    harness_.WaitDispatched();
    std::vector<message::MessageExt> out;
    store::GetMessageResult r = harness_.store->GetMessages("T", queue_id, 0, 32, 1 << 20);
    for (const store::MessageRef& ref : r.messages) {
      auto d = message::DecodeRecord(ref.data, static_cast<size_t>(ref.size));
      out.push_back(*message::ToMessageExt(d.record));
    }
    return out;
  }

  std::unique_ptr<ScheduleMessageService> Service() {
    return std::make_unique<ScheduleMessageService>(
        harness_.store.get(), store::DelayLevelTable::Parse("1s 2s 5s").value(), &offsets_, 10000,
        Clock::Real());
  }

  BrokerHarness harness_;
  SendMessageProcessor sender_;
  DelayOffsetTable offsets_;
};

TEST_F(ScheduleMessageServiceTest, NothingIsDeliveredEarlyAndEverythingOnTime) {
  const int64_t stored = SendDelayed("two seconds", 1, 2);
  auto service = Service();
  // 1 ms before the delivery time: nothing moves, and the service knows when to wake.
  EXPECT_EQ(service->DeliverDue(stored + 1999), stored + 2000);
  EXPECT_TRUE(Read(1).empty());
  EXPECT_EQ(offsets_.Get(2), 0);

  EXPECT_EQ(service->DeliverDue(stored + 2000), INT64_MAX);
  std::vector<message::MessageExt> got = Read(1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].body, "two seconds");
  EXPECT_EQ(got[0].topic, "T");
  EXPECT_EQ(got[0].queue_id, 1);
  EXPECT_FALSE(got[0].properties.Has("DELAY"));
  EXPECT_EQ(got[0].properties.Get("TAGS"), "TagA");
  EXPECT_EQ(got[0].properties.Get("REAL_TOPIC"), "T");
  EXPECT_EQ(offsets_.Get(2), 1);
  EXPECT_EQ(service->delivered_count(), 1);
  // Delivered once only.
  EXPECT_EQ(service->DeliverDue(stored + 60000), INT64_MAX);
  EXPECT_EQ(Read(1).size(), 1u);
}

TEST_F(ScheduleMessageServiceTest, LevelsAreIndependentAndInOrder) {
  const int64_t a = SendDelayed("a", 0, 3);
  SendDelayed("b", 0, 1);
  SendDelayed("c", 0, 1);
  auto service = Service();
  // Level 1 is due after 1 s, level 3 after 5 s.
  const int64_t next = service->DeliverDue(a + 4000);
  EXPECT_EQ(next, a + 5000);
  std::vector<message::MessageExt> got = Read(0);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].body, "b");
  EXPECT_EQ(got[1].body, "c");
  service->DeliverDue(a + 5000);
  got = Read(0);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[2].body, "a");
}

TEST_F(ScheduleMessageServiceTest, ClockJumpBackDeliversInsteadOfWaitingForever) {
  const int64_t stored = SendDelayed("x", 2, 1);
  auto service = Service();
  // "Now" is an hour before the store time: the delivery time is more than the level's
  // delay ahead, so it counts as now.
  service->DeliverDue(stored - 3600 * 1000);
  EXPECT_EQ(Read(2).size(), 1u);
}

TEST_F(ScheduleMessageServiceTest, OffsetsSurviveARestartAndDeliveryResumes) {
  SendDelayed("first", 3, 1);
  auto service = Service();
  ASSERT_TRUE(service->Start(&harness_.scheduler).ok());
  ASSERT_TRUE(
      apogee::testing::WaitUntil([&] { return Read(3).size() == 1; }, std::chrono::seconds(5)));
  ASSERT_TRUE(service->Shutdown().ok());
  auto content = env::ReadFileToString(harness_.env.get(), "/store/config/delayOffset.json");
  ASSERT_TRUE(content.ok());
  EXPECT_NE(content->find("1:1"), std::string::npos) << *content;

  // A new service (a restarted broker) starts from the persisted offset: the first
  // message is not delivered twice, a new one is delivered when due.
  DelayOffsetTable reloaded(harness_.env.get(), "/store/config/delayOffset.json");
  ScheduleMessageService again(harness_.store.get(),
                               store::DelayLevelTable::Parse("1s 2s 5s").value(), &reloaded, 10000);
  ASSERT_TRUE(again.Start(&harness_.scheduler).ok());
  EXPECT_EQ(reloaded.Get(1), 1);
  SendDelayed("second", 3, 1);
  again.NotifyArrival();  // the broker's arrival hook does this
  ASSERT_TRUE(
      apogee::testing::WaitUntil([&] { return Read(3).size() == 2; }, std::chrono::seconds(5)));
  EXPECT_EQ(Read(3)[1].body, "second");
  ASSERT_TRUE(again.Shutdown().ok());
}

TEST_F(ScheduleMessageServiceTest, OffsetBeyondTheQueueIsCorrectedAtStart) {
  SendDelayed("x", 0, 2);
  offsets_.Update(2, 99);
  ASSERT_TRUE(offsets_.Persist().ok());
  auto service = Service();
  ASSERT_TRUE(service->Start(&harness_.scheduler).ok());
  EXPECT_EQ(offsets_.Get(2), 1);
  ASSERT_TRUE(service->Shutdown().ok());
}

}  // namespace
}  // namespace apogee::broker
