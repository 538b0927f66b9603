// Shared fixture of the transaction family tests: the send / pull harness (MemEnv store,
// topic and group managers, context) plus consumer offsets, a manual clock for the check
// rounds and a helper that parks a prepared message in the half topic the way the send
// path does (RedirectToHalf).
#pragma once

#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "base/clock.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/schedule/message_redirect.h"
#include "broker/topic_config_manager.h"
#include "broker/transaction/transactional_message_service.h"
#include "message/message.h"
#include "message/message_format.h"
#include "message/message_record.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker::testing {

class TransactionHarness : public BrokerHarness {
 public:
  TransactionHarness() {
    offsets = std::make_shared<ConsumerOffsetManager>(env.get(), "/store/config/consumerOffset.json");
    context.consumer_offset_manager = offsets;
    host = message::HostAddress::IPv4(127, 0, 0, 1, 10911);
    service = std::make_unique<TransactionalMessageService>(store.get(), offsets.get(), host,
                                                            &clock);
    AddTopic("TxTopic", 4);
  }

  // A prepared message of producer group `group` for TxTopic queue `queue_id`, parked in
  // the half topic. Returns the stored half message as GetHalfMessage reads it.
  message::MessageExt PutHalf(const std::string& uniq_key, int64_t born_ms,
                              const std::string& group = "PG_TX", int32_t queue_id = 1,
                              message::MessageProperties extra = {}) {
    message::MessageExt msg;
    msg.topic = "TxTopic";
    msg.queue_id = queue_id;
    msg.body = "body of " + uniq_key;
    msg.sys_flag = message::kTransactionPreparedType;
    msg.born_timestamp = born_ms;
    msg.born_host = message::HostAddress::IPv4(10, 0, 0, 7, 40000);
    msg.properties = std::move(extra);
    (void)msg.properties.Set(message::kPropertyUniqClientMessageIdKeyIdx, uniq_key);
    (void)msg.properties.Set(message::kPropertyProducerGroup, group);
    (void)msg.properties.Set(message::kPropertyTransactionPrepared, "true");
    (void)msg.properties.Set(message::kPropertyTags, "TagA");
    RedirectToHalf(RouteOf(&msg));
    store::PutResult put = service->PutAndWait(msg);
    EXPECT_TRUE(store::PutStatusStored(put.status));
    WaitDispatched();
    Result<message::MessageExt> half = service->GetHalfMessage(put.wrote_offset.value());
    EXPECT_TRUE(half.ok()) << half.status().ToString();
    return half.ok() ? *half : message::MessageExt{};
  }

  // Every message of `topic` queue `queue_id`, decoded.
  std::vector<message::MessageExt> ReadQueue(std::string_view topic, int32_t queue_id) {
    WaitDispatched();
    std::vector<message::MessageExt> out;
    store::GetMessageResult got = store->GetMessages(topic, queue_id, 0, 1000, 64 << 20);
    for (const store::MessageRef& ref : got.messages) {
      message::RecordDecodeResult d = message::DecodeRecord(ref.data, ref.size);
      EXPECT_EQ(d.status, message::RecordStatus::kMessage);
      Result<message::MessageExt> m = message::ToMessageExt(d.record);
      EXPECT_TRUE(m.ok());
      if (m.ok()) out.push_back(std::move(*m));
    }
    return out;
  }

  ManualClock clock{NowMillis()};
  std::shared_ptr<ConsumerOffsetManager> offsets;
  message::HostAddress host;
  std::unique_ptr<TransactionalMessageService> service;
};

}  // namespace apogee::broker::testing
