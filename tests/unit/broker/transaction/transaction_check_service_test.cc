#include "broker/transaction/transaction_check_service.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "broker/client/producer_manager.h"
#include "broker/transaction/transaction_op.h"
#include "unit/broker/fake_client_channel.h"
#include "protocol/client_headers.h"
#include "protocol/mix_all.h"
#include "protocol/request_code.h"
#include "protocol/system_topics.h"
#include "unit/broker/transaction_test_util.h"

namespace apogee::broker {
namespace {

using testing::TransactionHarness;

class TransactionCheckServiceTest : public ::testing::Test {
 protected:
  TransactionCheckServiceTest()
      : producers_(&clock_),
        listener_(h_.service.get(), &producers_, h_.topics.get()),
        channel_(std::make_shared<test::FakeClientChannel>("10.0.0.7:40000")) {}

  void RegisterProducer(const std::string& group) {
    ClientChannelInfo info;
    info.channel = channel_;
    info.client_id = "client-1";
    producers_.RegisterProducer(group, info);
  }

  TransactionHarness h_;
  ManualClock clock_;
  ProducerManager producers_;
  DefaultTransactionCheckListener listener_;
  std::shared_ptr<test::FakeClientChannel> channel_;
};

TEST_F(TransactionCheckServiceTest, AsksALiveProducerOfTheGroupOneWay) {
  RegisterProducer("PG_TX");
  message::MessageExt half = h_.PutHalf("U1", h_.clock.NowMillis(), "PG_TX", 3);
  listener_.ResolveHalfMessage(half);
  std::vector<protocol::RemotingCommand> all = channel_->Sent();
  ASSERT_EQ(all.size(), 1u);
  const protocol::RemotingCommand& sent = all[0];
  EXPECT_EQ(sent.code, protocol::request_code::kCheckTransactionState);
  EXPECT_TRUE(sent.flag & protocol::kFlagOneway);
  auto header = protocol::DecodeCustomHeader<protocol::CheckTransactionStateRequestHeader>(sent);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->tran_state_table_offset, half.queue_offset);
  EXPECT_EQ(header->commit_log_offset, half.commit_log_offset);
  EXPECT_EQ(header->msg_id, "U1");
  EXPECT_EQ(header->transaction_id, "U1");
  EXPECT_EQ(header->offset_msg_id, half.offset_msg_id);
  // The body is the message as the producer sent it: real topic and queue.
  auto decoded = message::DecodeMessages(sent.body);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_EQ(decoded->size(), 1u);
  EXPECT_EQ((*decoded)[0].topic, "TxTopic");
  EXPECT_EQ((*decoded)[0].queue_id, 3);
  EXPECT_EQ((*decoded)[0].body, "body of U1");
  EXPECT_EQ((*decoded)[0].commit_log_offset, half.commit_log_offset);
  EXPECT_EQ(listener_.checks_sent(), 1);
}

TEST_F(TransactionCheckServiceTest, NoProducerOnlineMeansNoCheck) {
  RegisterProducer("OTHER");
  message::MessageExt half = h_.PutHalf("U1", h_.clock.NowMillis());
  listener_.ResolveHalfMessage(half);
  EXPECT_TRUE(channel_->Sent().empty());
  EXPECT_EQ(listener_.checks_without_producer(), 1);
}

TEST_F(TransactionCheckServiceTest, DiscardMovesTheMessageToTheCheckMaxTopic) {
  message::MessageExt half = h_.PutHalf("U1", h_.clock.NowMillis());
  ASSERT_TRUE(listener_.ResolveDiscardMessage(half).ok());
  EXPECT_TRUE(h_.topics->SelectTopicConfig(protocol::kTransCheckMaxTimeTopic).has_value());
  std::vector<message::MessageExt> kept = h_.ReadQueue(protocol::kTransCheckMaxTimeTopic, 0);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].msg_id(), "U1");
  EXPECT_EQ(kept[0].properties.Get(message::kPropertyRealTopic), "TxTopic");
}

TEST_F(TransactionCheckServiceTest, CheckBodyNeedsTheRealTopic) {
  message::MessageExt half = h_.PutHalf("U1", 1);
  half.properties.Erase(message::kPropertyRealTopic);
  EXPECT_FALSE(DefaultTransactionCheckListener::EncodeCheckBody(half).ok());
}

TEST_F(TransactionCheckServiceTest, ServiceRunsRoundsWithTheConfiguredSettings) {
  RegisterProducer("PG_TX");
  ASSERT_TRUE(h_.config
                  ->UpdateAtRuntime({{"transactionTimeOut", "100"},
                                     {"transactionCheckInterval", "50"}})
                  .ok());
  h_.PutHalf("U1", NowMillis() - 1000);
  h_.clock.Set(NowMillis() + 1000);  // the round starts after the half message was stored
  Scheduler scheduler;
  TransactionCheckService service(h_.config.get(), h_.service.get(), &listener_);
  service.Start(&scheduler);
  EXPECT_TRUE(apogee::testing::WaitUntil([&] { return !channel_->Sent().empty(); },
                                         std::chrono::seconds(5)));
  service.Shutdown();
  EXPECT_GE(h_.offsets->QueryOffset(protocol::kTransSysConsumerGroup, protocol::kTransHalfTopic, 0),
            1);
}

TEST_F(TransactionCheckServiceTest, SlaveDoesNotCheck) {
  auto settings = testing::TestSettings();
  settings.store.broker_role = "SLAVE";
  BrokerConfig slave(settings);
  h_.PutHalf("U1", 1);
  TransactionCheckService service(&slave, h_.service.get(), &listener_);
  TransactionCheckRoundStats stats = service.CheckOnce();
  EXPECT_EQ(stats.checked + stats.discarded, 0);
  EXPECT_EQ(h_.offsets->QueryOffset(protocol::kTransSysConsumerGroup, protocol::kTransHalfTopic, 0),
            -1);
}

}  // namespace
}  // namespace apogee::broker
