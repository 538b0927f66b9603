#include "protocol/admin_bodies.h"

#include <gtest/gtest.h>

namespace apogee::protocol {
namespace {

MessageQueue Mq(std::string topic, int32_t queue_id, std::string broker = "broker-a") {
  return MessageQueue{std::move(topic), std::move(broker), queue_id};
}

TEST(AdminBodiesTest, TopicStatsTableUsesFastjsonObjectKeys) {
  TopicStatsTable table;
  table.offset_table[Mq("T", 1)] = TopicOffset{0, 7, 1700000000123};
  table.offset_table[Mq("T", 0)] = TopicOffset{2, 5, 0};
  EXPECT_EQ(EncodeTopicStatsTable(table),
            "{\"offsetTable\":{{\"brokerName\":\"broker-a\",\"queueId\":0,\"topic\":\"T\"}:"
            "{\"lastUpdateTimestamp\":0,\"maxOffset\":5,\"minOffset\":2},"
            "{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"T\"}:"
            "{\"lastUpdateTimestamp\":1700000000123,\"maxOffset\":7,\"minOffset\":0}},"
            "\"topicPutTps\":0.0}");
  auto decoded = DecodeTopicStatsTable(EncodeTopicStatsTable(table));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, table);
}

TEST(AdminBodiesTest, DecodersAcceptTheStringKeyForm) {
  // fastjson also reads a bean key given as a JSON string holding the object.
  const std::string text =
      "{\"offsetTable\":{\"{\\\"topic\\\":\\\"T\\\",\\\"brokerName\\\":\\\"b\\\","
      "\\\"queueId\\\":3}\":{\"minOffset\":1,\"maxOffset\":\"9\"}},\"topicPutTps\":1.5}";
  auto decoded = DecodeTopicStatsTable(text);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_EQ(decoded->offset_table.size(), 1u);
  EXPECT_EQ(decoded->offset_table.begin()->first, Mq("T", 3, "b"));
  EXPECT_EQ(decoded->offset_table.begin()->second.max_offset, 9);
  EXPECT_DOUBLE_EQ(decoded->topic_put_tps, 1.5);
}

TEST(AdminBodiesTest, ObjectKeyWithBracesInsideStringsSurvives) {
  ResetOffsetBody body;
  body.offset_table[Mq("we{ird}:\"t", 0)] = 42;
  auto decoded = DecodeResetOffsetBody(EncodeResetOffsetBody(body));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, body);
}

TEST(AdminBodiesTest, BadKeysAndValuesAreNamed) {
  auto bad_key = DecodeResetOffsetBody("{\"offsetTable\":{\"notAQueue\":1}}");
  ASSERT_FALSE(bad_key.ok());
  EXPECT_NE(bad_key.status().message().find("not a MessageQueue"), std::string::npos);

  auto missing_topic =
      DecodeResetOffsetBody("{\"offsetTable\":{{\"brokerName\":\"b\",\"queueId\":0}:1}}");
  ASSERT_FALSE(missing_topic.ok());
  EXPECT_NE(missing_topic.status().message().find("topic"), std::string::npos);

  auto bad_tps = DecodeConsumeStats("{\"consumeTps\":\"fast\",\"offsetTable\":{}}");
  ASSERT_FALSE(bad_tps.ok());
  EXPECT_NE(bad_tps.status().message().find("consumeTps"), std::string::npos);

  EXPECT_FALSE(DecodeResetOffsetBody("{\"offsetTable\":{{\"topic\":\"t\"").ok());
  EXPECT_FALSE(DecodeGroupList("[1,2]").ok());
}

TEST(AdminBodiesTest, ConsumeStatsRoundTrip) {
  ConsumeStats stats;
  stats.consume_tps = 2.25;
  stats.offset_table[Mq("T", 0)] = OffsetWrapper{10, 8, 8, 1700000000000};
  const std::string text = EncodeConsumeStats(stats);
  EXPECT_EQ(text.rfind("{\"consumeTps\":2.25,\"offsetTable\":{{\"brokerName\"", 0), 0u) << text;
  EXPECT_NE(text.find("{\"brokerOffset\":10,\"consumerOffset\":8,\"lastTimestamp\":1700000000000,"
                      "\"pullOffset\":8}"),
            std::string::npos)
      << text;
  auto decoded = DecodeConsumeStats(text);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, stats);
}

TEST(AdminBodiesTest, ConsumerConnectionRoundTripWithEnumNames) {
  ConsumerConnection c;
  c.connection_set.push_back(Connection{"10.0.0.1@1", "10.0.0.1:5000", LanguageCode::kCpp, 333});
  c.consume_type = ConsumeType::kConsumeActively;
  c.message_model = MessageModel::kBroadcasting;
  c.consume_from_where = ConsumeFromWhere::kConsumeFromFirstOffset;
  SubscriptionData sub;
  sub.topic = "T";
  sub.sub_string = "a||b";
  sub.tags_set = {"a", "b"};
  sub.code_set = {97, 98};
  sub.sub_version = 17;
  c.subscription_table["T"] = sub;
  const std::string text = EncodeConsumerConnection(c);
  EXPECT_NE(text.find("\"connectionSet\":[{\"clientAddr\":\"10.0.0.1:5000\",\"clientId\":"
                      "\"10.0.0.1@1\",\"language\":\"CPP\",\"version\":333}]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"consumeFromWhere\":\"CONSUME_FROM_FIRST_OFFSET\",\"consumeType\":"
                      "\"CONSUME_ACTIVELY\",\"messageModel\":\"BROADCASTING\""),
            std::string::npos)
      << text;
  auto decoded = DecodeConsumerConnection(text);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, c);

  auto ordinal = DecodeConsumerConnection("{\"messageModel\":0}");
  ASSERT_TRUE(ordinal.ok()) << ordinal.status().ToString();
  EXPECT_EQ(ordinal->message_model, MessageModel::kBroadcasting);
  auto bad = DecodeConsumerConnection("{\"consumeType\":\"SOMETIMES\"}");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("consumeType"), std::string::npos);
}

TEST(AdminBodiesTest, ProducerConnectionAndGroupList) {
  ProducerConnection p;
  p.connection_set.push_back(Connection{"id", "1.2.3.4:5", LanguageCode::kNodeJs, 121});
  auto decoded = DecodeProducerConnection(EncodeProducerConnection(p));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, p);

  GroupList list;
  list.group_list = {"g2", "g1"};
  EXPECT_EQ(EncodeGroupList(list), "{\"groupList\":[\"g1\",\"g2\"]}");
  auto groups = DecodeGroupList("{\"groupList\":[\"x\",\"y\"],\"other\":1}");
  ASSERT_TRUE(groups.ok());
  EXPECT_EQ(groups->group_list, (std::set<std::string>{"x", "y"}));
}

TEST(AdminBodiesTest, ResetOffsetBodyForCIsAnArray) {
  ResetOffsetBody body;
  body.offset_table[Mq("T", 1)] = 5;
  EXPECT_EQ(EncodeResetOffsetBodyForC(body),
            "{\"offsetTable\":[{\"brokerName\":\"broker-a\",\"offset\":5,\"queueId\":1,"
            "\"topic\":\"T\"}]}");
  auto decoded = DecodeResetOffsetBodyForC(EncodeResetOffsetBodyForC(body));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, body);
  EXPECT_EQ(EncodeResetOffsetBody(body),
            "{\"offsetTable\":{{\"brokerName\":\"broker-a\",\"queueId\":1,\"topic\":\"T\"}:5}}");
}

// Every prefix and every single-byte corruption of valid bodies either decodes or fails
// with a Status; never a crash or a read past the end (run under ASan in CI).
TEST(AdminBodiesTest, DecodersSurviveTruncationAndCorruption) {
  ConsumeStats stats;
  stats.offset_table[Mq("T\"{", 0)] = OffsetWrapper{1, 2, 3, 4};
  stats.offset_table[Mq("U", 1)] = OffsetWrapper{5, 6, 7, 8};
  ConsumerConnection connection;
  connection.connection_set.push_back(Connection{"id", "addr", LanguageCode::kGo, 1});
  connection.subscription_table["T"].topic = "T";
  const std::string bodies[] = {EncodeConsumeStats(stats), EncodeConsumerConnection(connection)};
  const char replacements[] = {'{', '}', '"', '\\', ':', ',', '[', 'x'};
  size_t decoded = 0;
  for (const std::string& body : bodies) {
    for (size_t n = 0; n <= body.size(); ++n) {
      const std::string prefix = body.substr(0, n);
      decoded += DecodeConsumeStats(prefix).ok() + DecodeConsumerConnection(prefix).ok() +
                 DecodeResetOffsetBody(prefix).ok() + DecodeTopicStatsTable(prefix).ok();
    }
    for (size_t i = 0; i < body.size(); ++i) {
      for (char c : replacements) {
        std::string mutated = body;
        mutated[i] = c;
        decoded += DecodeConsumeStats(mutated).ok() + DecodeConsumerConnection(mutated).ok() +
                   DecodeResetOffsetBody(mutated).ok() + DecodeTopicStatsTable(mutated).ok();
      }
    }
  }
  EXPECT_GT(decoded, 0u);  // the untouched full bodies decode
}

}  // namespace
}  // namespace apogee::protocol
