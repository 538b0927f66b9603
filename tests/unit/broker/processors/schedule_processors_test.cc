#include "broker/processors/schedule_processors.h"

#include <gtest/gtest.h>

#include <thread>

#include "base/clock.h"
#include "broker/processors/send_pull_processors.h"
#include "unit/broker/processors/table_test_util.h"
#include "message/message_id.h"
#include "message/message_record.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/executor.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
using testing::BrokerHarness;
using testing::Ext;
using testing::SendRequest;

BrokerSettings Settings(bool slave = false) {
  BrokerSettings s = testing::TestSettings();
  s.store.message_delay_level = "1s 2s 3s";
  if (slave) s.store.broker_role = "SLAVE";
  return s;
}

// The family on real servers over loopback, after the send/pull family, as the
// controller registers it.
class ScheduleProcessorsTest : public ::testing::Test {
 protected:
  explicit ScheduleProcessorsTest(bool slave = false) : harness_(Settings(slave)) {
    remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    main_ = std::make_unique<remoting::RemotingServer>(options);
    fast_ = std::make_unique<remoting::RemotingServer>(options);
    harness_.context.executors.send =
        std::make_shared<remoting::ThreadPoolExecutor>("send", 2, 100);
    harness_.context.executors.pull =
        std::make_shared<remoting::ThreadPoolExecutor>("pull", 2, 100);
    BrokerProcessors processors;
    CreateSendPullProcessors(harness_.context, harness_.Services(), &processors);
    CreateScheduleProcessors(harness_.context, &processors);
    testing::ApplyTable(harness_.context, processors, *main_, fast_.get());
    EXPECT_TRUE(harness_.RunStartHooks().ok());
    EXPECT_TRUE(main_->Start().ok());
    EXPECT_TRUE(fast_->Start().ok());
    client_.Start();
    harness_.AddTopic("T", 1);
  }
  ~ScheduleProcessorsTest() override {
    client_.Shutdown();
    main_->Shutdown();
    fast_->Shutdown();
  }
  std::string MainAddr() const { return "127.0.0.1:" + std::to_string(main_->port()); }
  std::string FastAddr() const { return "127.0.0.1:" + std::to_string(fast_->port()); }

  protocol::RemotingCommand Delayed(const std::string& body, int32_t level) {
    protocol::RemotingCommand request = SendRequest("T", 0, body);
    message::MessageProperties props =
        message::MessageProperties::Decode(request.ext_fields.Get("i").value_or(""));
    EXPECT_TRUE(props.Set("DELAY", std::to_string(level)).ok());
    request.ext_fields.Set("i", props.Encode());
    return request;
  }

  BrokerHarness harness_;
  std::unique_ptr<remoting::RemotingServer> main_;
  std::unique_ptr<remoting::RemotingServer> fast_;
  remoting::RemotingClient client_;
};

TEST_F(ScheduleProcessorsTest, InstallsTheServicesOnceAndKeepsLongPollingHooked) {
  ASSERT_NE(harness_.services.schedule, nullptr);
  ASSERT_NE(harness_.services.timer, nullptr);
  EXPECT_TRUE(harness_.context.start_hooks.empty());
  EXPECT_TRUE(harness_.context.shutdown_hooks.empty());
  // Long polling hears arrivals first, then the delay and timer services.
  EXPECT_EQ(harness_.context.arrival_observers.Names(),
            (std::vector<std::string>{"PullRequestHoldService", "ScheduleMessageService",
                                      "TimerMessageService"}));
}

TEST_F(ScheduleProcessorsTest, DelayedMessageArrivesAfterItsDelayNotBefore) {
  const int64_t sent_at = NowMillis();
  auto sent = client_.InvokeSync(FastAddr(), Delayed("in a second", 1), std::chrono::seconds(5));
  ASSERT_TRUE(sent.ok()) << sent.status().ToString();
  ASSERT_EQ(sent->code, rc::kSuccess) << sent->remark.value_or("");
  int64_t arrived_at = 0;
  ASSERT_TRUE(apogee::testing::WaitUntil(
      [&] {
        if (harness_.store->GetMaxOffsetInQueue("T", 0) < 1) return false;
        arrived_at = NowMillis();
        return true;
      },
      std::chrono::seconds(5)));
  const int64_t stored_at = harness_.store->GetMessageStoreTimestamp("SCHEDULE_TOPIC_XXXX", 0, 0);
  const int64_t delivered_store_time = harness_.store->GetMessageStoreTimestamp("T", 0, 0);
  EXPECT_GE(delivered_store_time, stored_at + 1000);  // never early
  EXPECT_LT(arrived_at - sent_at, 1000 + 800);        // and not much late
}

TEST_F(ScheduleProcessorsTest, SendBackIsServedOnBothPorts) {
  auto sent =
      client_.InvokeSync(MainAddr(), SendRequest("T", 0, "fail me"), std::chrono::seconds(5));
  ASSERT_TRUE(sent.ok());
  const int64_t offset = message::ParseOffsetMsgId(Ext(*sent, "msgId"))->physical_offset;
  for (const std::string& addr : {MainAddr(), FastAddr()}) {
    protocol::ConsumerSendMsgBackRequestHeader h;
    h.offset = offset;
    h.group = "cg";
    h.delay_level = 1;
    protocol::RemotingCommand request =
        protocol::RemotingCommand::MakeRequest(protocol::request_code::kConsumerSendMsgBack);
    protocol::EncodeCustomHeader(h, &request);
    auto r = client_.InvokeSync(addr, std::move(request), std::chrono::seconds(5));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  }
  // Both copies reach %RETRY%cg after level 1 (1 s).
  ASSERT_TRUE(apogee::testing::WaitUntil(
      [&] { return harness_.store->GetMaxOffsetInQueue("%RETRY%cg", 0) == 2; },
      std::chrono::seconds(5)));
}

TEST_F(ScheduleProcessorsTest, ShutdownWritesDelayOffsets) {
  auto sent = client_.InvokeSync(MainAddr(), Delayed("x", 1), std::chrono::seconds(5));
  ASSERT_TRUE(sent.ok());
  ASSERT_TRUE(apogee::testing::WaitUntil(
      [&] { return harness_.store->GetMaxOffsetInQueue("T", 0) == 1; }, std::chrono::seconds(5)));
  harness_.services.Shutdown();
  auto content = env::ReadFileToString(harness_.env.get(), "/store/config/delayOffset.json");
  ASSERT_TRUE(content.ok());
  EXPECT_EQ(*content, "{\"offsetTable\":{1:1}}");
}

class ScheduleOnSlaveTest : public ScheduleProcessorsTest {
 protected:
  ScheduleOnSlaveTest() : ScheduleProcessorsTest(true) {}
};

TEST_F(ScheduleOnSlaveTest, ASlaveDoesNotDeliver) {
  message::MessageProperties props;
  (void)props.Set("DELAY", "1");
  (void)props.Set("REAL_TOPIC", "T");
  (void)props.Set("REAL_QID", "0");
  std::string properties = props.Encode();
  message::RecordFields f;
  f.topic = "SCHEDULE_TOPIC_XXXX";
  f.queue_id = 0;
  f.body = "replicated";
  f.properties = properties;
  f.born_host = message::HostAddress::IPv4(127, 0, 0, 1, 1);
  f.store_host = message::HostAddress::IPv4(127, 0, 0, 1, 2);
  f.physical_offset = harness_.store->MaxPhyOffset();
  f.store_timestamp = NowMillis();
  // A slave's CommitLog grows by replication only.
  auto record = message::EncodeRecordToString(f);
  ASSERT_TRUE(record.ok());
  ASSERT_TRUE(harness_.store->AppendRaw(f.physical_offset, *record).ok());
  harness_.WaitDispatched();
  ASSERT_EQ(harness_.store->GetMaxOffsetInQueue("SCHEDULE_TOPIC_XXXX", 0), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(harness_.store->GetMaxOffsetInQueue("T", 0), 0);
}

}  // namespace
}  // namespace apogee::broker
