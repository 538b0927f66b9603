#include "broker/schedule/timer_message_service.h"

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

TEST(TimerProgressTest, RangesMergeAndTheMarkAdvances) {
  TimerProgress p;
  p.MarkDelivered(3);
  p.MarkDelivered(5);
  p.MarkDelivered(4);
  EXPECT_EQ(p.Encode(), "{\"commitOffset\":0,\"deliveredRanges\":[[3,6]]}");
  EXPECT_TRUE(p.IsDelivered(4));
  EXPECT_FALSE(p.IsDelivered(2));
  EXPECT_FALSE(p.IsDelivered(6));
  p.MarkDelivered(9);
  p.AdvanceCommitOffset(3);  // 3..5 delivered: the mark jumps to 6
  EXPECT_EQ(p.commit_offset(), 6);
  EXPECT_EQ(p.Encode(), "{\"commitOffset\":6,\"deliveredRanges\":[[9,10]]}");
  p.AdvanceCommitOffset(12);
  EXPECT_EQ(p.Encode(), "{\"commitOffset\":12,\"deliveredRanges\":[]}");
  EXPECT_TRUE(p.IsDelivered(0));
}

TEST(TimerProgressTest, DecodeRoundTripAndErrors) {
  TimerProgress p;
  ASSERT_TRUE(p.Decode("{\"commitOffset\":7,\"deliveredRanges\":[[9,12],[20,21]]}").ok());
  EXPECT_EQ(p.commit_offset(), 7);
  EXPECT_TRUE(p.IsDelivered(11));
  EXPECT_FALSE(p.IsDelivered(12));
  EXPECT_TRUE(p.IsDelivered(20));
  EXPECT_EQ(p.Encode(), "{\"commitOffset\":7,\"deliveredRanges\":[[9,12],[20,21]]}");

  Status s = p.Decode("{\"deliveredRanges\":[]}");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("commitOffset"), std::string::npos) << s.ToString();
  s = p.Decode("{\"commitOffset\":7,\"deliveredRanges\":[[5,6]]}");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("deliveredRanges[0]"), std::string::npos) << s.ToString();
  EXPECT_FALSE(p.Decode("{\"commitOffset\":7,\"deliveredRanges\":[3]}").ok());
  EXPECT_EQ(p.commit_offset(), 7);  // a failed decode changes nothing
}

// A damaged or hostile timerOffset.json may hold a range of billions of offsets (found by
// config_json_fuzz: [7, 1222222223] took longer than the fuzzer's 25 s timeout when it was
// marked one offset at a time). Decoding is now independent of a range's length, and
// overlapping or touching ranges in the file merge into one.
TEST(TimerProgressTest, DecodeOfAHugeRangeIsImmediateAndRangesMerge) {
  TimerProgress p;
  ASSERT_TRUE(p.Decode("{\"commitOffset\":2,\"deliveredRanges\":"
                       "[[7,9223372036854775807],[20,21]]}")
                  .ok());
  EXPECT_TRUE(p.IsDelivered(7));
  EXPECT_TRUE(p.IsDelivered(9223372036854775806));
  EXPECT_FALSE(p.IsDelivered(6));
  EXPECT_EQ(p.Encode(),
            "{\"commitOffset\":2,\"deliveredRanges\":[[7,9223372036854775807]]}");
  ASSERT_TRUE(p.Decode("{\"commitOffset\":0,\"deliveredRanges\":[[1,5],[3,8],[8,9],[11,12]]}")
                  .ok());
  EXPECT_EQ(p.Encode(), "{\"commitOffset\":0,\"deliveredRanges\":[[1,9],[11,12]]}");
  p.MarkDeliveredRange(9, 11);  // fills the gap: one range
  EXPECT_EQ(p.Encode(), "{\"commitOffset\":0,\"deliveredRanges\":[[1,12]]}");
  p.MarkDeliveredRange(0, 3);  // overlaps the start
  EXPECT_EQ(p.Encode(), "{\"commitOffset\":0,\"deliveredRanges\":[[0,12]]}");
}

class TimerMessageServiceTest : public ::testing::Test {
 protected:
  TimerMessageServiceTest() : sender_(harness_.SendDeps()) { harness_.AddTopic("T", 4); }

  void SendTimer(const std::string& body, int64_t deliver_ms) {
    protocol::RemotingCommand request = SendRequest("T", 1, body);
    message::MessageProperties props =
        message::MessageProperties::Decode(request.ext_fields.Get("i").value_or(""));
    EXPECT_TRUE(props.Set("TIMER_DELIVER_MS", std::to_string(deliver_ms)).ok());
    request.ext_fields.Set("i", props.Encode());
    auto r = Call(sender_, std::move(request));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
    harness_.WaitDispatched();
  }

  std::vector<std::string> Bodies() {
    harness_.WaitDispatched();
    std::vector<std::string> out;
    store::GetMessageResult r = harness_.store->GetMessages("T", 1, 0, 32, 1 << 20);
    for (const store::MessageRef& ref : r.messages) {
      auto d = message::DecodeRecord(ref.data, static_cast<size_t>(ref.size));
      out.push_back(message::ToMessageExt(d.record)->body);
    }
    return out;
  }

  std::unique_ptr<TimerMessageService> Service() {
    return std::make_unique<TimerMessageService>(harness_.store.get(), harness_.env.get(),
                                                 "/store/config/timerOffset.json", 10000);
  }

  BrokerHarness harness_;
  SendMessageProcessor sender_;
};

TEST_F(TimerMessageServiceTest, DeliversInTimeOrderNeverEarly) {
  const int64_t base = NowMillis() + 3600 * 1000;
  SendTimer("late", base + 3000);
  SendTimer("early", base + 1000);
  SendTimer("middle", base + 2000);
  auto service = Service();
  EXPECT_EQ(service->ScanAndDeliver(base + 999), base + 1000);
  EXPECT_TRUE(Bodies().empty());
  EXPECT_EQ(service->pending_count(), 3u);
  EXPECT_EQ(service->ScanAndDeliver(base + 2000), base + 3000);
  EXPECT_EQ(Bodies(), (std::vector<std::string>{"early", "middle"}));
  EXPECT_EQ(service->ScanAndDeliver(base + 3000), INT64_MAX);
  EXPECT_EQ(Bodies(), (std::vector<std::string>{"early", "middle", "late"}));
  EXPECT_EQ(service->delivered_count(), 3);
}

TEST_F(TimerMessageServiceTest, RestartIndexesOnlyWhatWasNotDelivered) {
  const int64_t base = NowMillis() + 3600 * 1000;
  SendTimer("a", base + 5000);  // queue offset 0, stays pending
  SendTimer("b", base + 1000);  // queue offset 1, delivered before the restart
  {
    auto service = Service();
    service->ScanAndDeliver(base + 1000);
    ASSERT_TRUE(service->PersistProgress().ok());
  }
  auto content = env::ReadFileToString(harness_.env.get(), "/store/config/timerOffset.json");
  ASSERT_TRUE(content.ok());
  EXPECT_EQ(*content, "{\"commitOffset\":0,\"deliveredRanges\":[[1,2]]}");

  auto service = Service();
  ASSERT_TRUE(service->Start(&harness_.scheduler).ok());
  EXPECT_EQ(service->pending_count(), 1u);  // "a" only; "b" is not delivered twice
  ASSERT_TRUE(service->Shutdown().ok());
  EXPECT_EQ(Bodies(), (std::vector<std::string>{"b"}));
  auto again = Service();
  ASSERT_TRUE(again->Start(&harness_.scheduler).ok());
  EXPECT_EQ(again->ScanAndDeliver(base + 5000), INT64_MAX);
  ASSERT_TRUE(again->Shutdown().ok());
  EXPECT_EQ(Bodies(), (std::vector<std::string>{"b", "a"}));
}

TEST_F(TimerMessageServiceTest, TheThreadDeliversWhenDue) {
  auto service = Service();
  ASSERT_TRUE(service->Start(&harness_.scheduler).ok());
  const int64_t deliver = NowMillis() + 300;
  SendTimer("soon", deliver);
  service->NotifyArrival();
  ASSERT_TRUE(
      apogee::testing::WaitUntil([&] { return Bodies().size() == 1; }, std::chrono::seconds(5)));
  EXPECT_GE(NowMillis(), deliver);
  ASSERT_TRUE(service->Shutdown().ok());
}

}  // namespace
}  // namespace apogee::broker
