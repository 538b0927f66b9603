#include "protocol/send_headers.h"

#include <gtest/gtest.h>

#include "client_request_fixtures.h"
#include "protocol/request_code.h"

namespace apogee::protocol {
namespace {

TEST(SendHeadersTest, EverySendRealClientsMadeDecodes) {
  int v1 = 0;
  int v2 = 0;
  for (const auto& [source, request] : testing::LoadClientRequests()) {
    if (request.code != request_code::kSendMessage &&
        request.code != request_code::kSendMessageV2) {
      continue;
    }
    (request.code == request_code::kSendMessage ? v1 : v2)++;
    Result<SendMessageRequestHeader> h = DecodeSendMessageRequestHeader(request);
    ASSERT_TRUE(h.ok()) << source << ": " << h.status().ToString();
    EXPECT_FALSE(h->producer_group.empty()) << source;
    EXPECT_EQ(h->topic, "TopicTest") << source;
    EXPECT_EQ(h->default_topic, "TBW102") << source;
    EXPECT_EQ(h->default_topic_queue_nums, 4) << source;
    EXPECT_GE(h->queue_id, 0) << source;
    // The C++ client 1.2 sends a clock that is not epoch milliseconds (e.g. "39806306"),
    // so only positivity holds for every client.
    EXPECT_GT(h->born_timestamp, 0) << source;
    ASSERT_TRUE(h->properties.has_value()) << source;
    EXPECT_NE(h->properties->find("TAGS\x01"), std::string::npos) << source;
    EXPECT_FALSE(h->batch) << source;
  }
  EXPECT_GT(v1, 0);  // the C++ client sends code 10 with long names
  EXPECT_GT(v2, 0);  // ali-ons sends 310 with one-letter keys, as JSON numbers
}

TEST(SendHeadersTest, V2KeysMapOntoTheV1Fields) {
  RemotingCommand request = RemotingCommand::MakeRequest(request_code::kSendBatchMessage);
  request.has_ext_fields = true;
  for (const auto& [k, v] : {std::pair{"a", "PG"},
                             {"b", "T"},
                             {"c", "TBW102"},
                             {"d", "8"},
                             {"e", "-1"},
                             {"f", "4"},
                             {"g", "1700000000001"},
                             {"h", "3"},
                             {"i", "p"},
                             {"j", "2"},
                             {"k", "true"},
                             {"l", "16"},
                             {"m", "true"},
                             {"n", "broker-a"}}) {
    request.ext_fields.Set(k, v);
  }
  Result<SendMessageRequestHeader> h = DecodeSendMessageRequestHeader(request);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->producer_group, "PG");
  EXPECT_EQ(h->topic, "T");
  EXPECT_EQ(h->default_topic_queue_nums, 8);
  EXPECT_EQ(h->queue_id, -1);
  EXPECT_EQ(h->sys_flag, 4);
  EXPECT_EQ(h->born_timestamp, 1700000000001);
  EXPECT_EQ(h->flag, 3);
  EXPECT_EQ(h->properties, "p");
  EXPECT_EQ(h->reconsume_times, 2);
  EXPECT_TRUE(h->unit_mode);
  EXPECT_EQ(h->max_reconsume_times, 16);
  EXPECT_TRUE(h->batch);
  EXPECT_EQ(h->broker_name, "broker-a");

  // The same extFields under code 10 lack every long key.
  request.code = request_code::kSendMessage;
  EXPECT_EQ(DecodeSendMessageRequestHeader(request).status().message(),
            "the custom field producerGroup is null");
}

TEST(SendHeadersTest, ReplyCodesPickTheirKeySet) {
  RemotingCommand request = RemotingCommand::MakeRequest(request_code::kSendReplyMessageV2);
  SendMessageRequestHeaderV2 v2;
  v2.producer_group = "PG";
  v2.topic = "DefaultCluster_REPLY_TOPIC";
  v2.default_topic = "TBW102";
  EncodeCustomHeader(v2, &request);
  Result<SendMessageRequestHeader> h = DecodeSendMessageRequestHeader(request);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->topic, "DefaultCluster_REPLY_TOPIC");
  request.code = request_code::kSendReplyMessage;  // 324 carries V1 keys
  EXPECT_FALSE(DecodeSendMessageRequestHeader(request).ok());

  ReplyMessageRequestHeader push;
  push.producer_group = "PG";
  push.born_host = "10.0.0.7:50000";
  push.store_host = "10.0.0.5:10911";
  ExtFields f;
  HeaderToExtFields(push, &f);
  EXPECT_EQ(f.Get("storeTimestamp"), "0");
  EXPECT_EQ(f.Get("unitMode"), "false");
  EXPECT_FALSE(f.Has("properties"));
  auto back = HeaderFromExtFields<ReplyMessageRequestHeader>(f);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->store_host, "10.0.0.5:10911");
  f.Erase("bornHost");
  EXPECT_EQ(HeaderFromExtFields<ReplyMessageRequestHeader>(f).status().message(),
            "the custom field bornHost is null");
}

TEST(SendHeadersTest, EncodingV2WritesOneLetterKeys) {
  SendMessageRequestHeaderV2 h;
  h.producer_group = "PG";
  h.topic = "T";
  h.default_topic = "TBW102";
  h.default_topic_queue_nums = 4;
  h.born_timestamp = 5;
  ExtFields f;
  HeaderToExtFields(h, &f);
  EXPECT_EQ(f.Get("a"), "PG");
  EXPECT_EQ(f.Get("g"), "5");
  EXPECT_EQ(f.Get("k"), "false");
  EXPECT_EQ(f.Get("m"), "false");
  EXPECT_FALSE(f.Has("i"));
  EXPECT_FALSE(f.Has("topic"));
  EXPECT_EQ(f.size(), 10u);
}

TEST(SendHeadersTest, ResponseHeaderCarriesWhatClientsRead) {
  SendMessageResponseHeader h{"0A00000100002A9F0000000000000000", 2, 42, "UNIQ", {}, {}};
  RemotingCommand response =
      RemotingCommand::MakeResponse(RemotingCommand::MakeRequest(request_code::kSendMessageV2), 0);
  EncodeCustomHeader(h, &response);
  EXPECT_EQ(response.ext_fields.Get("msgId"), "0A00000100002A9F0000000000000000");
  EXPECT_EQ(response.ext_fields.Get("queueId"), "2");
  EXPECT_EQ(response.ext_fields.Get("queueOffset"), "42");
  EXPECT_EQ(response.ext_fields.Get("transactionId"), "UNIQ");
  EXPECT_EQ(response.ext_fields.size(), 4u);
  Result<SendMessageResponseHeader> back = DecodeCustomHeader<SendMessageResponseHeader>(response);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->queue_offset, 42);
}

TEST(SendHeadersTest, EndTransactionAndSendBack) {
  ExtFields f;
  f.Set("producerGroup", "PG");
  f.Set("tranStateTableOffset", "7");
  f.Set("commitLogOffset", "1024");
  f.Set("commitOrRollback", "8");
  f.Set("fromTransactionCheck", "true");
  f.Set("msgId", "M");
  auto end = HeaderFromExtFields<EndTransactionRequestHeader>(f);
  ASSERT_TRUE(end.ok()) << end.status().ToString();
  EXPECT_EQ(end->commit_log_offset, 1024);
  EXPECT_EQ(end->commit_or_rollback, 8);
  EXPECT_TRUE(end->from_transaction_check);
  EXPECT_FALSE(end->transaction_id.has_value());
  f.Erase("msgId");
  EXPECT_EQ(HeaderFromExtFields<EndTransactionRequestHeader>(f).status().message(),
            "the custom field msgId is null");

  ExtFields b;
  b.Set("offset", "99");
  b.Set("group", "G");
  b.Set("delayLevel", "0");
  b.Set("maxReconsumeTimes", "3");
  auto back = HeaderFromExtFields<ConsumerSendMsgBackRequestHeader>(b);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->offset, 99);
  EXPECT_EQ(back->max_reconsume_times, 3);
  EXPECT_FALSE(back->unit_mode);
}

}  // namespace
}  // namespace apogee::protocol
