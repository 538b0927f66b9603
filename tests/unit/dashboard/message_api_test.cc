#include "dashboard/message_api.h"

#include <gtest/gtest.h>

#include "api_test_util.h"
#include "message/message_format.h"
#include "message/message_id.h"
#include "message/message_record.h"

namespace apogee::dashboard {
namespace {

namespace rc = protocol::request_code;
using testing::ApiHarness;
using testing::kMasterAddr;
using testing::Request;
using testing::Text;

std::string Record(int32_t queue_id, int64_t queue_offset, int64_t phy, int64_t store_ts, const std::string& keys,
                   const std::string& uniq, const std::string& body) {
  message::MessageProperties props;
  if (!keys.empty()) {
    EXPECT_TRUE(props.Set(message::kPropertyKeys, keys).ok());
  }
  EXPECT_TRUE(props.Set(message::kPropertyUniqClientMessageIdKeyIdx, uniq).ok());
  EXPECT_TRUE(props.Set(message::kPropertyTags, "TagA").ok());
  std::string encoded = props.Encode();
  message::RecordFields f;
  f.queue_id = queue_id;
  f.queue_offset = queue_offset;
  f.physical_offset = phy;
  f.born_timestamp = store_ts - 1;
  f.store_timestamp = store_ts;
  f.born_host = message::HostAddress::IPv4(10, 0, 0, 9, 5555);
  f.store_host = message::HostAddress::IPv4(10, 0, 0, 1, 10911);
  f.topic = "T";
  f.body = body;
  f.properties = encoded;
  return *message::EncodeRecordToString(f);
}

TEST(MessageApiTest, ByKeyKeepsExactMatchesOnly) {
  ApiHarness h;
  h.transport().OnBody(rc::kQueryMessage, Record(1, 5, 0, 1000, "K1 other", "AAAA", "x") +
                                              Record(2, 6, 200, 1001, "K1x", "BBBB", "y"));
  auto json = MessagesByKey(h.admin(), Request({{"topic", "T"}, {"key", "K1"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto doc = testing::ParseJson(*json);
  ASSERT_EQ(doc["messages"].Size(), 1u);
  const auto& m = doc["messages"][0];
  EXPECT_EQ(Text(m["msgId"]), "AAAA");
  EXPECT_EQ(Text(m["keys"]), "K1 other");
  EXPECT_EQ(Text(m["tags"]), "TagA");
  EXPECT_EQ(Text(m["queueId"]), "1");
  EXPECT_EQ(Text(m["offsetMsgId"]), message::CreateOffsetMsgId(message::HostAddress::IPv4(10, 0, 0, 1, 10911), 0));
  EXPECT_FALSE(m.HasMember("bodyHex"));  // lists carry summaries
  EXPECT_TRUE(MessagesByKey(h.admin(), Request({{"topic", "T"}, {"key", "K"}, {"max", "0"}}))
                  .status()
                  .Is(StatusCode::kInvalidArgument));
}

TEST(MessageApiTest, ByOffsetIdReadsTheStoreHostAndCarriesBodyAndProperties) {
  ApiHarness h;
  h.transport().OnBody(rc::kViewMessageById, Record(0, 3, 4096, 1000, "K", "CCCC", std::string("hi\0\xff", 4)));
  std::string id = message::CreateOffsetMsgId(message::HostAddress::IPv4(10, 0, 0, 1, 10911), 4096);
  auto json = MessageById(h.admin(), Request({{"id", id}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto calls = h.transport().CallsWithCode(rc::kViewMessageById);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, kMasterAddr);
  auto doc = testing::ParseJson(*json);
  const auto& m = doc["messages"][0];
  EXPECT_EQ(Text(m["bodyHex"]), "686900FF");
  EXPECT_EQ(Text(m["bodySize"]), "4");
  EXPECT_EQ(Text(m["properties"]["KEYS"]), "K");
  EXPECT_EQ(Text(m["properties"]["UNIQ_KEY"]), "CCCC");
}

TEST(MessageApiTest, ByClientIdNeedsTheTopicAndUsesTheIndex) {
  ApiHarness h;
  auto no_topic = MessageById(h.admin(), Request({{"id", "C0A8000100002A9F0000000000000000"}}));
  EXPECT_TRUE(no_topic.status().IsNotFound()) << no_topic.status().ToString();
  h.transport().OnBody(rc::kQueryMessage, Record(0, 3, 4096, 1000, "", "UNIQ1", "by-uniq"));
  auto json = MessageById(h.admin(), Request({{"id", "UNIQ1"}, {"topic", "T"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto q = h.transport().CallsWithCode(rc::kQueryMessage);
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0].request.ext_fields.Get("_UNIQUE_KEY_QUERY"), std::optional<std::string_view>("true"));
  auto missing = MessageById(h.admin(), Request({{"id", "OTHER"}, {"topic", "T"}}));
  EXPECT_TRUE(missing.status().IsNotFound());
}

TEST(MessageApiTest, ByTimeSearchesEachQueueAndStopsPastTheEnd) {
  ApiHarness h;
  h.transport().On(rc::kSearchOffsetByTimestamp, testing::OffsetAnswer(0));
  h.transport().On(rc::kGetMaxOffset, testing::OffsetAnswer(3));
  // Every queue holds offsets 0..2 stored at 1000, 2000, 3000.
  h.transport().On(rc::kPullMessage, [](const std::string&, const protocol::RemotingCommand& req) {
    int32_t queue = std::stoi(std::string(req.ext_fields.Get("queueId").value_or("0")));
    int64_t from = std::stoll(std::string(req.ext_fields.Get("queueOffset").value_or("0")));
    protocol::RemotingCommand r = protocol::RemotingCommand::MakeResponse(req, 0);
    for (int64_t o = from; o < 3; ++o) {
      r.body += Record(queue, o, queue * 1000 + o * 100, 1000 * (o + 1), "", "U" + std::to_string(queue) + std::to_string(o), "b");
    }
    r.ext_fields.Set("nextBeginOffset", "3");
    r.ext_fields.Set("minOffset", "0");
    r.ext_fields.Set("maxOffset", "3");
    r.ext_fields.Set("suggestWhichBrokerId", "0");
    return r;
  });
  auto json = MessagesByTime(h.admin(), Request({{"topic", "T"}, {"begin", "1500"}, {"end", "2500"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto doc = testing::ParseJson(*json);
  ASSERT_EQ(doc["messages"].Size(), 4u);  // offset 1 of each of the 4 queues
  for (const auto& m : doc["messages"].GetArray()) EXPECT_EQ(Text(m["storeTimestamp"]), "2000");
  EXPECT_EQ(Text(doc["truncated"]), "false");
  EXPECT_TRUE(MessagesByTime(h.admin(), Request({{"topic", "T"}, {"begin", "5"}, {"end", "1"}}))
                  .status()
                  .Is(StatusCode::kInvalidArgument));
}

TEST(MessageApiTest, ResendSendsTheMessageBackToTheGroupAtItsBroker) {
  ApiHarness h;
  h.transport().OnBody(rc::kViewMessageById, Record(0, 3, 4096, 1000, "K", "CCCC", "hello"));
  h.transport().On(rc::kConsumerSendMsgBack, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, 0);
  });
  std::string id = message::CreateOffsetMsgId(message::HostAddress::IPv4(10, 0, 0, 1, 10911), 4096);
  auto json = ResendMessage(h.admin(), Request({{"id", id}, {"group", "G"}}));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto calls = h.transport().CallsWithCode(rc::kConsumerSendMsgBack);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].addr, kMasterAddr);
  const auto& f = calls[0].request.ext_fields;
  EXPECT_EQ(f.Get("offset"), std::optional<std::string_view>("4096"));
  EXPECT_EQ(f.Get("group"), std::optional<std::string_view>("G"));
  EXPECT_EQ(f.Get("delayLevel"), std::optional<std::string_view>("1"));
  EXPECT_EQ(f.Get("originMsgId"), std::optional<std::string_view>("CCCC"));
  EXPECT_EQ(f.Get("originTopic"), std::optional<std::string_view>("T"));
  auto doc = testing::ParseJson(*json);
  EXPECT_EQ(Text(doc["retryTopic"]), "%RETRY%G");
}

TEST(MessageApiTest, ResendNeedsAnOffsetIdAndShowsTheBrokersRefusal) {
  ApiHarness h;
  EXPECT_TRUE(ResendMessage(h.admin(), Request({{"id", "UNIQ1"}, {"group", "G"}}))
                  .status()
                  .Is(StatusCode::kInvalidArgument));
  std::string id = message::CreateOffsetMsgId(message::HostAddress::IPv4(10, 0, 0, 1, 10911), 4096);
  EXPECT_TRUE(ResendMessage(h.admin(), Request({{"id", id}})).status().Is(StatusCode::kInvalidArgument));
  h.transport().OnBody(rc::kViewMessageById, Record(0, 3, 4096, 1000, "K", "CCCC", "hello"));
  h.transport().On(rc::kConsumerSendMsgBack, [](const std::string&, const protocol::RemotingCommand& req) {
    return protocol::RemotingCommand::MakeResponse(req, protocol::response_code::kSubscriptionGroupNotExist,
                                                   "subscription group not exist, G");
  });
  auto refused = ResendMessage(h.admin(), Request({{"id", id}, {"group", "G"}}));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("subscription group not exist, G"), std::string::npos);
}

}  // namespace
}  // namespace apogee::dashboard
