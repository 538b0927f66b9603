#include "broker/processors/send_pull_processors.h"

#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "broker/client/consumer_offset_manager.h"
#include "broker/processors/pull_message_processor.h"
#include "unit/broker/processors/table_test_util.h"
#include "message/message_record.h"
#include "protocol/consumer_headers.h"
#include "protocol/pull_sys_flag.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using testing::BrokerHarness;
using testing::Ext;
using testing::SendRequest;

protocol::RemotingCommand Pull(int64_t offset, int64_t suspend_ms) {
  protocol::PullMessageRequestHeader h;
  h.consumer_group = "CG";
  h.topic = "T";
  h.queue_id = 0;
  h.queue_offset = offset;
  h.max_msg_nums = 32;
  h.sys_flag = protocol::kPullFlagSubscription | protocol::kPullFlagSuspend;
  h.suspend_timeout_millis = suspend_ms;
  h.subscription = "*";
  protocol::RemotingCommand request = protocol::RemotingCommand::MakeRequest(req::kPullMessage);
  protocol::EncodeCustomHeader(h, &request);
  return request;
}

// The family registered on real servers over loopback, as BrokerController does.
class SendPullProcessorsTest : public ::testing::Test {
 protected:
  SendPullProcessorsTest() {
    remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    main_ = std::make_unique<remoting::RemotingServer>(options);
    fast_ = std::make_unique<remoting::RemotingServer>(options);
    harness_.context.executors.send = std::make_shared<remoting::ThreadPoolExecutor>("send", 2, 100);
    harness_.context.executors.pull = std::make_shared<remoting::ThreadPoolExecutor>("pull", 2, 100);
    BrokerProcessors processors;
    CreateSendPullProcessors(harness_.context, harness_.Services(), &processors);
    table_ = testing::ApplyTable(harness_.context, processors, *main_, fast_.get());
    EXPECT_TRUE(harness_.RunStartHooks().ok());
    EXPECT_TRUE(main_->Start().ok());
    EXPECT_TRUE(fast_->Start().ok());
    client_.Start();
    harness_.AddTopic("T", 1);
  }
  ~SendPullProcessorsTest() override {
    client_.Shutdown();
    main_->Shutdown();
    fast_->Shutdown();
  }
  std::string MainAddr() const { return "127.0.0.1:" + std::to_string(main_->port()); }
  std::string FastAddr() const { return "127.0.0.1:" + std::to_string(fast_->port()); }

  BrokerHarness harness_;
  std::unique_ptr<remoting::RemotingServer> main_;
  std::unique_ptr<remoting::RemotingServer> fast_;
  remoting::RemotingClient client_;
  ProcessorTable table_;
};

TEST_F(SendPullProcessorsTest, RegistersOnceAndWiresLongPolling) {
  ASSERT_NE(harness_.context.consumer_offset_manager, nullptr);
  // Pulls are main-port only; sends and offsets are on both ports.
  ASSERT_NE(table_.Find(req::kPullMessage), nullptr);
  EXPECT_EQ(table_.Find(req::kPullMessage)->ports, RowPorts::kMainOnly);
  EXPECT_EQ(table_.Find(req::kSendMessageV2)->ports, RowPorts::kMainAndFast);
  ASSERT_NE(harness_.services.pull_hold, nullptr);
  EXPECT_EQ(harness_.context.arrival_observers.Names().front(), "PullRequestHoldService");
  // The family only builds processors: nothing of it starts or stops through hooks.
  EXPECT_TRUE(harness_.context.start_hooks.empty());
  EXPECT_TRUE(harness_.context.shutdown_hooks.empty());
}

TEST_F(SendPullProcessorsTest, SendThenLongPollOverTheWire) {
  // Park a pull first, then send: the pull is answered with the message.
  std::promise<Result<protocol::RemotingCommand>> pulled;
  client_.InvokeAsync(MainAddr(), Pull(0, 10000), std::chrono::seconds(15),
                      [&](Result<protocol::RemotingCommand> r) { pulled.set_value(std::move(r)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto sent = client_.InvokeSync(FastAddr(), SendRequest("T", 0, "over the wire"),
                                 std::chrono::seconds(5));
  ASSERT_TRUE(sent.ok()) << sent.status().ToString();
  ASSERT_EQ(sent->code, rc::kSuccess) << sent->remark.value_or("");
  auto future = pulled.get_future();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  Result<protocol::RemotingCommand> r = future.get();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->code, rc::kSuccess) << r->remark.value_or("");
  EXPECT_EQ(Ext(*r, "nextBeginOffset"), "1");
  auto msgs = message::DecodeMessages(r->body);
  ASSERT_TRUE(msgs.ok()) << msgs.status().ToString();
  ASSERT_EQ(msgs->size(), 1u);
  EXPECT_EQ((*msgs)[0].body, "over the wire");
  EXPECT_EQ((*msgs)[0].offset_msg_id, Ext(*sent, "msgId"));
}

TEST_F(SendPullProcessorsTest, PullIsNotServedOnTheFastPort) {
  auto r = client_.InvokeSync(FastAddr(), Pull(0, 0), std::chrono::seconds(5));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->code, rc::kRequestCodeNotSupported);
}

TEST_F(SendPullProcessorsTest, OffsetsPersistAtServicesShutdown) {
  protocol::UpdateConsumerOffsetRequestHeader h;
  h.consumer_group = "CG";
  h.topic = "T";
  h.queue_id = 0;
  h.commit_offset = 5;
  protocol::RemotingCommand request =
      protocol::RemotingCommand::MakeRequest(req::kUpdateConsumerOffset);
  protocol::EncodeCustomHeader(h, &request);
  ASSERT_TRUE(client_.InvokeOneway(MainAddr(), std::move(request), std::chrono::seconds(5)).ok());
  ASSERT_TRUE(apogee::testing::WaitUntil(
      [&] { return harness_.context.consumer_offset_manager->QueryOffset("CG", "T", 0) == 5; },
      std::chrono::seconds(5)));
  harness_.services.Shutdown();
  ConsumerOffsetManager reloaded(harness_.env.get(), "/store/config/consumerOffset.json");
  ASSERT_TRUE(reloaded.Load().ok());
  EXPECT_EQ(reloaded.QueryOffset("CG", "T", 0), 5);
}

}  // namespace
}  // namespace apogee::broker
