#include "client/consume_message_concurrently_service.h"

#include <gtest/gtest.h>

#include "client/offset_store_remote.h"

namespace apogee::client {
namespace {

const protocol::MessageQueue kMq{"T", "broker-a", 0};

class NullBroker : public OffsetBrokerAccess {
 public:
  Result<int64_t> QueryConsumerOffset(const std::string&, const protocol::MessageQueue&) override {
    return Status::NotFound("none");
  }
  Status UpdateConsumerOffset(const std::string&, const protocol::MessageQueue&, int64_t,
                              bool) override {
    return Status::OK();
  }
};

class FakeHost : public ConsumeServiceHost {
 public:
  FakeHost() : store_("G", std::make_shared<NullBroker>()) {}
  const std::string& ConsumerGroup() const override { return group_; }
  bool IsBroadcasting() const override { return broadcasting; }
  OffsetStore& GetOffsetStore() override { return store_; }
  RebalanceImpl& GetRebalance() override { std::abort(); }
  bool SendMessageBack(const MessageExt& msg, int32_t delay_level, const std::string&) override {
    sent_back.push_back(msg.queue_offset());
    last_delay = delay_level;
    return send_back_ok;
  }
  int32_t MaxReconsumeTimes(bool) const override { return 16; }

  bool broadcasting = false;
  bool send_back_ok = true;
  std::vector<int64_t> sent_back;
  int32_t last_delay = 0;
  RemoteBrokerOffsetStore store_;

 private:
  std::string group_ = "G";
};

std::vector<MessageExt> Msgs(std::initializer_list<int64_t> offsets) {
  std::vector<MessageExt> out;
  for (int64_t o : offsets) {
    MessageExt m;
    m.set_topic("T");
    m.set_queue_offset(o);
    out.push_back(m);
  }
  return out;
}

TEST(ConsumeConcurrentlyTest, SuccessCommitsPastTheBatch) {
  FakeHost host;
  ConsumeMessageConcurrentlyService service(
      &host,
      [](const std::vector<MessageExt>&, ConsumeConcurrentlyContext&) {
        return ConsumeConcurrentlyStatus::kConsumeSuccess;
      },
      1, 32);
  auto pq = std::make_shared<ProcessQueue>();
  pq->PutMessages(Msgs({0, 1, 2}));
  service.ConsumeBatch(Msgs({0, 1, 2}), pq, kMq);
  EXPECT_EQ(host.store_.ReadOffset(kMq, ReadOffsetType::kReadFromMemory), 3);
  EXPECT_TRUE(host.sent_back.empty());
}

TEST(ConsumeConcurrentlyTest, ReconsumeLaterSendsBackWithTheContextDelay) {
  FakeHost host;
  ConsumeMessageConcurrentlyService service(
      &host,
      [](const std::vector<MessageExt>&, ConsumeConcurrentlyContext& ctx) {
        ctx.delay_level_when_next_consume = 2;
        return ConsumeConcurrentlyStatus::kReconsumeLater;
      },
      1, 32);
  auto pq = std::make_shared<ProcessQueue>();
  pq->PutMessages(Msgs({5, 6}));
  service.ConsumeBatch(Msgs({5, 6}), pq, kMq);
  EXPECT_EQ(host.sent_back, (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(host.last_delay, 2);
  // Sent back = done here: the offset moves on.
  EXPECT_EQ(host.store_.ReadOffset(kMq, ReadOffsetType::kReadFromMemory), 7);
}

TEST(ConsumeConcurrentlyTest, AckIndexSendsBackOnlyTheRest) {
  FakeHost host;
  ConsumeMessageConcurrentlyService service(
      &host,
      [](const std::vector<MessageExt>&, ConsumeConcurrentlyContext& ctx) {
        ctx.ack_index = 0;
        return ConsumeConcurrentlyStatus::kConsumeSuccess;
      },
      1, 32);
  auto pq = std::make_shared<ProcessQueue>();
  pq->PutMessages(Msgs({1, 2, 3}));
  service.ConsumeBatch(Msgs({1, 2, 3}), pq, kMq);
  EXPECT_EQ(host.sent_back, (std::vector<int64_t>{2, 3}));
}

TEST(ConsumeConcurrentlyTest, FailedSendBackKeepsTheOffsetBack) {
  FakeHost host;
  host.send_back_ok = false;
  ConsumeMessageConcurrentlyService service(
      &host,
      [](const std::vector<MessageExt>&, ConsumeConcurrentlyContext&) {
        return ConsumeConcurrentlyStatus::kReconsumeLater;
      },
      1, 32);
  service.Start();
  auto pq = std::make_shared<ProcessQueue>();
  pq->PutMessages(Msgs({4}));
  service.ConsumeBatch(Msgs({4}), pq, kMq);
  // Still waiting in the ProcessQueue (to be consumed again locally in 5 s).
  EXPECT_EQ(pq->msg_count(), 1);
  EXPECT_EQ(host.store_.ReadOffset(kMq, ReadOffsetType::kReadFromMemory), 4);
  service.Shutdown();
}

TEST(ConsumeConcurrentlyTest, BroadcastingDropsFailuresWithoutSendBack) {
  FakeHost host;
  host.broadcasting = true;
  ConsumeMessageConcurrentlyService service(
      &host,
      [](const std::vector<MessageExt>&, ConsumeConcurrentlyContext&) {
        return ConsumeConcurrentlyStatus::kReconsumeLater;
      },
      1, 32);
  auto pq = std::make_shared<ProcessQueue>();
  pq->PutMessages(Msgs({0}));
  service.ConsumeBatch(Msgs({0}), pq, kMq);
  EXPECT_TRUE(host.sent_back.empty());
  EXPECT_EQ(host.store_.ReadOffset(kMq, ReadOffsetType::kReadFromMemory), 1);
}

TEST(ConsumeConcurrentlyTest, ThrowingListenerCountsAsReconsumeLater) {
  FakeHost host;
  ConsumeMessageConcurrentlyService service(
      &host,
      [](const std::vector<MessageExt>&, ConsumeConcurrentlyContext&) -> ConsumeConcurrentlyStatus {
        throw std::runtime_error("boom");
      },
      1, 32);
  auto pq = std::make_shared<ProcessQueue>();
  pq->PutMessages(Msgs({0}));
  service.ConsumeBatch(Msgs({0}), pq, kMq);
  EXPECT_EQ(host.sent_back.size(), 1u);
  auto direct = service.ConsumeMessageDirectly(Msgs({0})[0], "broker-a");
  EXPECT_EQ(direct.consume_result, "CR_THROW_EXCEPTION");
  EXPECT_EQ(direct.remark, "boom");
}

TEST(ConsumeConcurrentlyTest, DroppedQueueCommitsNothing) {
  FakeHost host;
  ConsumeMessageConcurrentlyService service(
      &host,
      [](const std::vector<MessageExt>&, ConsumeConcurrentlyContext&) {
        return ConsumeConcurrentlyStatus::kConsumeSuccess;
      },
      1, 32);
  auto pq = std::make_shared<ProcessQueue>();
  pq->PutMessages(Msgs({0}));
  pq->set_dropped(true);
  service.ConsumeBatch(Msgs({0}), pq, kMq);
  EXPECT_EQ(host.store_.ReadOffset(kMq, ReadOffsetType::kReadFromMemory), kOffsetNotFound);
}

}  // namespace
}  // namespace apogee::client
