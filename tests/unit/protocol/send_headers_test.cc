#include "protocol/send_headers.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

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

// The broker's send takes the header: the same header as the decode, for every send real
// clients made and in both key sets, with the string values moved out of the request.
TEST(SendHeadersTest, TakingTheHeaderGivesTheDecodedOne) {
  int taken = 0;
  for (const auto& [source, request] : testing::LoadClientRequests()) {
    if (request.code != request_code::kSendMessage &&
        request.code != request_code::kSendMessageV2) {
      continue;
    }
    Result<SendMessageRequestHeader> decoded = DecodeSendMessageRequestHeader(request);
    ASSERT_TRUE(decoded.ok()) << source;
    RemotingCommand copy = request;
    Result<SendMessageRequestHeader> took = TakeSendMessageRequestHeader(&copy);
    ASSERT_TRUE(took.ok()) << source << ": " << took.status().ToString();
    EXPECT_EQ(took->producer_group, decoded->producer_group) << source;
    EXPECT_EQ(took->topic, decoded->topic) << source;
    EXPECT_EQ(took->default_topic, decoded->default_topic) << source;
    EXPECT_EQ(took->default_topic_queue_nums, decoded->default_topic_queue_nums) << source;
    EXPECT_EQ(took->queue_id, decoded->queue_id) << source;
    EXPECT_EQ(took->sys_flag, decoded->sys_flag) << source;
    EXPECT_EQ(took->born_timestamp, decoded->born_timestamp) << source;
    EXPECT_EQ(took->flag, decoded->flag) << source;
    EXPECT_EQ(took->properties, decoded->properties) << source;
    EXPECT_EQ(took->reconsume_times, decoded->reconsume_times) << source;
    EXPECT_EQ(took->unit_mode, decoded->unit_mode) << source;
    EXPECT_EQ(took->batch, decoded->batch) << source;
    EXPECT_EQ(took->max_reconsume_times, decoded->max_reconsume_times) << source;
    EXPECT_EQ(took->broker_name, decoded->broker_name) << source;
    // Moved, not copied: the request keeps the keys with empty values.
    const char* topic_key = request.code == request_code::kSendMessage ? "topic" : "b";
    EXPECT_EQ(copy.ext_fields.Get(topic_key), "") << source;
    EXPECT_EQ(copy.ext_fields.size(), request.ext_fields.size()) << source;
    ++taken;
  }
  EXPECT_GT(taken, 0);

  // The same errors: a missing required string or number, and no check without extFields.
  RemotingCommand v2 = RemotingCommand::MakeRequest(request_code::kSendMessageV2);
  v2.has_ext_fields = true;
  v2.ext_fields.Set("b", "T");
  EXPECT_EQ(TakeSendMessageRequestHeader(&v2).status().message(),
            DecodeSendMessageRequestHeader(v2).status().message());
  EXPECT_EQ(TakeSendMessageRequestHeader(&v2).status().message(), "the custom field a is null");
  v2.ext_fields.Set("a", "PG");
  v2.ext_fields.Set("c", "TBW102");
  v2.ext_fields.Set("d", "four");
  EXPECT_EQ(TakeSendMessageRequestHeader(&v2).status().message(), "the custom field d is null");
  RemotingCommand bare = RemotingCommand::MakeRequest(request_code::kSendMessage);
  Result<SendMessageRequestHeader> empty = TakeSendMessageRequestHeader(&bare);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->topic.empty());
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

// The broker writes its answer from views; the frame must be the one the owning header gives,
// in both serializations.
TEST(SendHeadersTest, ResponseHeaderViewEncodesAsTheOwningOne) {
  const std::string msg_id = "0A00000100002A9F0000000000000000";
  const std::string uniq = "7F0000010B7A1B6D0B0C4B8A3F9E0001";
  SendMessageResponseHeader owning{msg_id, 2, 42, uniq, {}, {}};
  SendMessageResponseHeaderView view{msg_id, 2, 42, std::string_view(uniq), {}, {}};
  for (SerializeType type : {SerializeType::kJson, SerializeType::kRocketMQ}) {
    RemotingCommand request = RemotingCommand::MakeRequest(request_code::kSendMessageV2);
    request.serialize_type = type;
    RemotingCommand a = RemotingCommand::MakeResponse(request, 0);
    RemotingCommand b = RemotingCommand::MakeResponse(request, 0);
    AddExtFieldToSend("MSG_REGION", "DefaultRegion", &a);
    AddExtFieldToSend("MSG_REGION", "DefaultRegion", &b);
    EncodeCustomHeaderToSend(owning, &a);
    EncodeCustomHeaderToSend(view, &b);
    std::string frame_a;
    std::string frame_b;
    EncodeCommand(a, &frame_a);
    EncodeCommand(b, &frame_b);
    EXPECT_EQ(frame_a, frame_b) << static_cast<int>(type);
    Result<RemotingCommand> back = DecodeCommand(std::string_view(frame_b).substr(4));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->ext_fields.Get("msgId"), msg_id);
    EXPECT_EQ(back->ext_fields.Get("transactionId"), uniq);
    EXPECT_EQ(back->ext_fields.Get("MSG_REGION"), "DefaultRegion");
  }
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
