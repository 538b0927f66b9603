#include "broker/processors/end_transaction_processor.h"

#include <gtest/gtest.h>

#include <string>

#include "broker/transaction/transaction_op.h"
#include "protocol/response_code.h"
#include "protocol/system_topics.h"
#include "unit/broker/transaction_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
using testing::Call;
using testing::TransactionHarness;

protocol::RemotingCommand EndRequest(const message::MessageExt& half, int32_t decision,
                                     const std::string& group = "PG_TX") {
  protocol::EndTransactionRequestHeader h;
  h.producer_group = group;
  h.tran_state_table_offset = half.queue_offset;
  h.commit_log_offset = half.commit_log_offset;
  h.commit_or_rollback = decision;
  h.msg_id = std::string(half.properties.Get("UNIQ_KEY").value_or(""));
  h.transaction_id = h.msg_id;
  protocol::RemotingCommand request = protocol::RemotingCommand::MakeRequest(37);
  protocol::EncodeCustomHeader(h, &request);
  return request;
}

TEST(EndTransactionProcessorTest, CommitStoresTheRealMessageAndAnOp) {
  TransactionHarness h;
  EndTransactionProcessor processor(h.config.get(), h.service.get());
  message::MessageExt half = h.PutHalf("U1", 1000);
  auto response = Call(processor, EndRequest(half, message::kTransactionCommitType));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->code, rc::kSuccess) << response->remark.value_or("");

  std::vector<message::MessageExt> real = h.ReadQueue("TxTopic", 1);
  ASSERT_EQ(real.size(), 1u);
  EXPECT_EQ(real[0].body, "body of U1");
  EXPECT_EQ(real[0].msg_id(), "U1");
  EXPECT_EQ(real[0].sys_flag & message::kTransactionTypeMask, message::kTransactionCommitType);
  EXPECT_EQ(real[0].prepared_transaction_offset, half.commit_log_offset);
  EXPECT_EQ(real[0].tags(), "TagA");

  std::vector<message::MessageExt> ops = h.ReadQueue(protocol::kTransOpHalfTopic, 0);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].body, "0");
  EXPECT_EQ(ops[0].tags(), "d");
}

TEST(EndTransactionProcessorTest, RollbackStoresOnlyTheOp) {
  TransactionHarness h;
  EndTransactionProcessor processor(h.config.get(), h.service.get());
  h.PutHalf("U0", 1000);
  message::MessageExt half = h.PutHalf("U1", 1000);
  auto response = Call(processor, EndRequest(half, message::kTransactionRollbackType));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->code, rc::kSuccess);
  EXPECT_TRUE(h.ReadQueue("TxTopic", 1).empty());
  std::vector<message::MessageExt> ops = h.ReadQueue(protocol::kTransOpHalfTopic, 0);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].body, "1");
}

TEST(EndTransactionProcessorTest, UnknownStateChangesNothing) {
  TransactionHarness h;
  EndTransactionProcessor processor(h.config.get(), h.service.get());
  message::MessageExt half = h.PutHalf("U1", 1000);
  auto response = Call(processor, EndRequest(half, 0));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->code, rc::kSuccess);
  EXPECT_TRUE(h.ReadQueue(protocol::kTransOpHalfTopic, 0).empty());
  EXPECT_TRUE(h.ReadQueue("TxTopic", 1).empty());
}

TEST(EndTransactionProcessorTest, MismatchesAreSystemErrorsNamingTheField) {
  TransactionHarness h;
  EndTransactionProcessor processor(h.config.get(), h.service.get());
  message::MessageExt half = h.PutHalf("U1", 1000);
  auto wrong_group = Call(processor, EndRequest(half, message::kTransactionCommitType, "PG_X"));
  ASSERT_TRUE(wrong_group);
  EXPECT_EQ(wrong_group->code, rc::kSystemError);
  EXPECT_NE(wrong_group->remark->find("The producer group wrong"), std::string::npos);

  message::MessageExt moved = half;
  moved.commit_log_offset += 3;
  auto missing = Call(processor, EndRequest(moved, message::kTransactionCommitType));
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->code, rc::kSystemError);
  EXPECT_NE(missing->remark->find("Find prepared transaction message failed"), std::string::npos);

  protocol::RemotingCommand no_header = protocol::RemotingCommand::MakeRequest(37);
  auto bad = Call(processor, no_header);
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->code, rc::kSystemError);
  EXPECT_TRUE(h.ReadQueue("TxTopic", 1).empty());
  EXPECT_TRUE(h.ReadQueue(protocol::kTransOpHalfTopic, 0).empty());
}

TEST(EndTransactionProcessorTest, DelayedCommitGoesThroughTheScheduleTopic) {
  TransactionHarness h;
  EndTransactionProcessor processor(h.config.get(), h.service.get());
  message::MessageProperties props;
  (void)props.Set(message::kPropertyDelayTimeLevel, "3");
  message::MessageExt half = h.PutHalf("U1", 1000, "PG_TX", 2, props);
  auto response = Call(processor, EndRequest(half, message::kTransactionCommitType));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->code, rc::kSuccess);
  EXPECT_TRUE(h.ReadQueue("TxTopic", 2).empty());
  std::vector<message::MessageExt> parked = h.ReadQueue(protocol::kScheduleTopic, 2);
  ASSERT_EQ(parked.size(), 1u);
  EXPECT_EQ(parked[0].properties.Get(message::kPropertyRealTopic), "TxTopic");
  EXPECT_EQ(parked[0].properties.Get(message::kPropertyRealQueueId), "2");
}

TEST(EndTransactionProcessorTest, SlaveRefuses) {
  auto settings = testing::TestSettings();
  settings.store.broker_role = "SLAVE";
  TransactionHarness h;
  // brokerRole is a start-up key: the processor reads it through a slave's config.
  BrokerConfig slave_config(settings);
  EndTransactionProcessor processor(&slave_config, h.service.get());
  message::MessageExt half = h.PutHalf("U1", 1000);
  auto response = Call(processor, EndRequest(half, message::kTransactionCommitType));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->code, rc::kSlaveNotAvailable);
}

}  // namespace
}  // namespace apogee::broker
