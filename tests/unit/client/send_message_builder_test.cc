#include "client/send_message_builder.h"

#include <gtest/gtest.h>

#include "client/message_convert.h"
#include "client/mq_client_api.h"
#include "message/batch.h"
#include "message/compression.h"
#include "message/message_format.h"
#include "message/properties.h"

namespace apogee::client {
namespace {

message::UniqKeyGenerator& Ids() {
  static message::UniqKeyGenerator ids(message::HostAddress::IPv4(10, 0, 0, 1, 0), 42, 7);
  return ids;
}

ProducerConfig Config() {
  ProducerConfig config;
  config.group_name = "G";
  return config;
}

TEST(CheckMessageTest, NamesTheBrokenRule) {
  EXPECT_TRUE(CheckMessage(Message("Topic_1-a%b|c", "x"), 100).ok());
  Status blank = CheckMessage(Message("", "x"), 100);
  EXPECT_TRUE(blank.Is(StatusCode::kInvalidArgument));
  EXPECT_NE(blank.message().find("blank"), std::string::npos);
  EXPECT_NE(CheckMessage(Message("a b", "x"), 100).message().find("illegal characters"),
            std::string::npos);
  EXPECT_NE(CheckMessage(Message(std::string(128, 'a'), "x"), 100).message().find("max length 127"),
            std::string::npos);
  EXPECT_TRUE(CheckMessage(Message(std::string(127, 'a'), "x"), 100).ok());
  EXPECT_NE(CheckMessage(Message("SCHEDULE_TOPIC_XXXX", "x"), 100).message().find("forbidden"),
            std::string::npos);
  EXPECT_NE(CheckMessage(Message("T", ""), 100).message().find("length is zero"), std::string::npos);
  EXPECT_NE(CheckMessage(Message("T", std::string(101, 'x')), 100).message().find("MAX: 100"),
            std::string::npos);
}

TEST(PrepareMessageTest, AddsUniqKeyUnlessSet) {
  auto prepared = PrepareMessage(Message("T", "tag", "hello"), Config(), Ids());
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  EXPECT_EQ(prepared->client_msg_id.size(), 32u);
  auto props = message::MessageProperties::Decode(prepared->properties);
  EXPECT_EQ(props.Get("UNIQ_KEY"), prepared->client_msg_id);
  EXPECT_EQ(props.Get("TAGS"), "tag");
  EXPECT_EQ(prepared->body, "hello");
  EXPECT_EQ(prepared->sys_flag, 0);
  EXPECT_FALSE(prepared->batch);

  Message with_id("T", "x");
  with_id.PutProperty("UNIQ_KEY", "MYID");
  auto kept = PrepareMessage(with_id, Config(), Ids());
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept->client_msg_id, "MYID");
}

// PrepareMessage appends a new UNIQ_KEY to the encoded properties instead of setting it in
// the map first: the text must be what setting it (then erasing a retry's reconsume
// properties) and encoding gave, for plain, keyed, retry, transaction and preset-id messages.
TEST(PrepareMessageTest, PropertiesAreThoseOfTheUniqKeySetInTheMap) {
  std::vector<Message> cases;
  cases.emplace_back("T", "x");
  cases.emplace_back("T", "tag", "x");
  cases.back().set_keys("k1 k2");
  cases.back().PutProperty("user", "v");
  cases.emplace_back("%RETRY%G", "x");
  cases.back().PutProperty("RECONSUME_TIME", "3");
  cases.back().PutProperty("a", "1");
  cases.back().PutProperty("MAX_RECONSUME_TIMES", "16");
  cases.emplace_back("T", "x");
  cases.back().PutProperty("TRAN_MSG", "true");
  cases.emplace_back("T", "x");
  cases.back().PutProperty("UNIQ_KEY", "MYID");
  cases.back().PutProperty("z", "last");
  for (const Message& msg : cases) {
    auto prepared = PrepareMessage(msg, Config(), Ids());
    ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
    Result<message::Message> wire = ToWireMessage(msg);
    ASSERT_TRUE(wire.ok());
    if (!wire->properties.Has("UNIQ_KEY")) {
      ASSERT_TRUE(wire->properties.Set("UNIQ_KEY", prepared->client_msg_id).ok());
    }
    if (msg.topic().starts_with("%RETRY%")) {
      wire->properties.Erase("RECONSUME_TIME");
      wire->properties.Erase("MAX_RECONSUME_TIMES");
    }
    EXPECT_EQ(prepared->properties, wire->properties.Encode()) << msg.topic();
  }
}

TEST(PrepareMessageTest, CompressesFromTheThresholdWithJavaSysFlag) {
  std::string small(4095, 'a');
  auto under = PrepareMessage(Message("T", small), Config(), Ids());
  ASSERT_TRUE(under.ok());
  EXPECT_EQ(under->sys_flag & message::kCompressedFlag, 0);
  EXPECT_EQ(under->body, small);

  std::string big(4096, 'a');
  auto over = PrepareMessage(Message("T", big), Config(), Ids());
  ASSERT_TRUE(over.ok());
  EXPECT_EQ(over->sys_flag, message::MarkZlibCompressed(0));
  EXPECT_NE(over->sys_flag & message::kCompressedFlag, 0);
  EXPECT_LT(over->body.size(), big.size());
  auto inflated = message::DecompressBody(over->body, over->sys_flag);
  ASSERT_TRUE(inflated.ok());
  EXPECT_EQ(*inflated, big);
}

TEST(PrepareMessageTest, TransactionHalfMessageFlag) {
  Message msg("T", "x");
  msg.PutProperty("TRAN_MSG", "true");
  auto prepared = PrepareMessage(msg, Config(), Ids());
  ASSERT_TRUE(prepared.ok());
  EXPECT_EQ(prepared->sys_flag & message::kTransactionTypeMask, message::kTransactionPreparedType);
}

TEST(PrepareMessageTest, RetryTopicMovesReconsumeTimesToTheHeader) {
  Message msg("%RETRY%G", "x");
  msg.PutProperty("RECONSUME_TIME", "3");
  msg.PutProperty("MAX_RECONSUME_TIMES", "16");
  auto prepared = PrepareMessage(msg, Config(), Ids());
  ASSERT_TRUE(prepared.ok());
  EXPECT_EQ(prepared->reconsume_times, 3);
  EXPECT_EQ(prepared->max_reconsume_times, 16);
  auto props = message::MessageProperties::Decode(prepared->properties);
  EXPECT_FALSE(props.Has("RECONSUME_TIME"));
  auto header = BuildSendHeader(*prepared, Config(), MessageQueue("%RETRY%G", "b", 0), 1);
  EXPECT_EQ(header.reconsume_times, 3);
  EXPECT_EQ(header.max_reconsume_times, 16);
}

// A pooled async send prepares each message into the PreparedMessage and header of an earlier
// one: every field must be what a fresh PrepareMessage and BuildSendHeader give, whatever the
// earlier message was (compressed, a retry with reconsume properties, a transaction half, a
// big body before a small one, a batch's header), and the frame the same bytes.
TEST(PrepareMessageTest, IntoAReusedMessageEqualsAFreshOne) {
  std::vector<Message> cases;
  cases.emplace_back("T", std::string(5000, 'z'));  // compressed
  cases.emplace_back("%RETRY%G", "tag", "x");
  cases.back().PutProperty("RECONSUME_TIME", "3");
  cases.back().PutProperty("MAX_RECONSUME_TIMES", "16");
  cases.emplace_back("T", "small");
  cases.back().PutProperty("TRAN_MSG", "true");
  cases.emplace_back("Other", "tag", std::string(3000, 'y'));
  cases.back().set_keys("k1 k2");
  cases.emplace_back("T", "x");
  cases.back().PutProperty("UNIQ_KEY", "MYID");
  cases.emplace_back("T", "y");
  ProducerConfig config = Config();
  config.default_topic_queue_nums = 6;
  // Each case after each other one, starting from a batch's header.
  for (size_t first = 0; first < cases.size(); ++first) {
    for (size_t second = 0; second < cases.size(); ++second) {
      auto batch = PrepareBatch({Message("B", "a", "1"), Message("B", "b", "2")}, config, Ids());
      ASSERT_TRUE(batch.ok());
      PreparedMessage reused = *batch;
      protocol::SendMessageRequestHeader header =
          BuildSendHeader(*batch, config, MessageQueue("B", "broker-x", 1), 5);
      for (size_t index : {first, second}) {
        const Message& msg = cases[index];
        ASSERT_TRUE(PrepareMessageInto(msg, config, Ids(), &reused).ok());
        auto fresh = PrepareMessage(msg, config, Ids());
        ASSERT_TRUE(fresh.ok());
        // The ids differ per call unless the message sets its own.
        if (msg.properties().count("UNIQ_KEY") == 0) {
          EXPECT_NE(reused.client_msg_id, fresh->client_msg_id);
          fresh->properties.replace(fresh->properties.find(fresh->client_msg_id),
                                    fresh->client_msg_id.size(), reused.client_msg_id);
          fresh->client_msg_id = reused.client_msg_id;
        }
        EXPECT_EQ(reused.topic, fresh->topic);
        EXPECT_EQ(reused.flag, fresh->flag);
        EXPECT_EQ(reused.sys_flag, fresh->sys_flag) << index;
        EXPECT_EQ(reused.properties, fresh->properties) << index;
        EXPECT_EQ(reused.body, fresh->body) << index;
        EXPECT_EQ(reused.batch, fresh->batch);
        EXPECT_EQ(reused.reconsume_times, fresh->reconsume_times) << index;
        EXPECT_EQ(reused.max_reconsume_times, fresh->max_reconsume_times) << index;
        const MessageQueue mq(msg.topic(), "broker-a", 2);
        FillSendHeader(reused, config, mq, 77, &header);
        protocol::SendMessageRequestHeader built = BuildSendHeader(*fresh, config, mq, 77);
        std::string reused_frame;
        std::string built_frame;
        for (SendHeaderForm form : {SendHeaderForm::kJsonMembers, SendHeaderForm::kExtFieldsMap}) {
          protocol::EncodeCommand(MakeSendRequest(header, reused.body, form), &reused_frame);
          protocol::EncodeCommand(MakeSendRequest(built, fresh->body, form), &built_frame);
        }
        EXPECT_EQ(reused_frame, built_frame) << first << " then " << second;
      }
    }
  }
  // An error leaves the message partly written, and the next one is whole again.
  PreparedMessage reused;
  EXPECT_FALSE(PrepareMessageInto(Message("", "x"), config, Ids(), &reused).ok());
  ASSERT_TRUE(PrepareMessageInto(Message("T", "ok"), config, Ids(), &reused).ok());
  EXPECT_EQ(reused.body, "ok");
}

TEST(PrepareBatchTest, EncodesEveryMessageWithItsOwnId) {
  std::vector<Message> msgs = {Message("T", "a", "one"), Message("T", "b", "two"),
                               Message("T", std::string(5000, 'z'))};
  auto prepared = PrepareBatch(msgs, Config(), Ids());
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  EXPECT_TRUE(prepared->batch);
  EXPECT_EQ(prepared->sys_flag, 0);  // batches are never compressed
  auto entries = message::DecodeBatchBody(prepared->body);
  ASSERT_TRUE(entries.ok());
  ASSERT_EQ(entries->size(), 3u);
  std::vector<std::string> ids;
  for (const auto& entry : *entries) {
    auto props = message::MessageProperties::Decode(entry.properties);
    ASSERT_TRUE(props.Get("UNIQ_KEY"));
    ids.emplace_back(*props.Get("UNIQ_KEY"));
  }
  EXPECT_EQ((*entries)[0].body, "one");
  EXPECT_EQ((*entries)[2].body, std::string(5000, 'z'));
  EXPECT_EQ(prepared->client_msg_id, ids[0] + "," + ids[1] + "," + ids[2]);
  EXPECT_NE(ids[0], ids[1]);
  EXPECT_EQ(message::MessageProperties::Decode(prepared->properties).Get("WAIT"), "true");
  auto header = BuildSendHeader(*prepared, Config(), MessageQueue("T", "broker-a", 2), 5);
  EXPECT_TRUE(header.batch);
  EXPECT_EQ(header.queue_id, 2);
}

TEST(PrepareBatchTest, RejectsWhatJavaRejects) {
  EXPECT_TRUE(PrepareBatch({}, Config(), Ids()).status().Is(StatusCode::kInvalidArgument));
  auto mixed = PrepareBatch({Message("A", "x"), Message("B", "y")}, Config(), Ids());
  EXPECT_NE(mixed.status().message().find("should be the same"), std::string::npos);
  Message delayed("A", "x");
  delayed.set_delay_time_level(2);
  EXPECT_NE(PrepareBatch({delayed}, Config(), Ids()).status().message().find("TimeDelayLevel"),
            std::string::npos);
  EXPECT_NE(PrepareBatch({Message("%RETRY%G", "x")}, Config(), Ids()).status().message().find("Retry"),
            std::string::npos);
  ProducerConfig tiny = Config();
  tiny.max_message_size = 30;
  EXPECT_NE(PrepareBatch({Message("A", std::string(20, 'x')), Message("A", std::string(20, 'x'))},
                         tiny, Ids())
                .status()
                .message()
                .find("batch body size"),
            std::string::npos);
}

TEST(BuildSendHeaderTest, CarriesEveryField) {
  auto prepared = PrepareMessage(Message("T", "tag", "b"), Config(), Ids());
  ASSERT_TRUE(prepared.ok());
  ProducerConfig config = Config();
  config.default_topic_queue_nums = 8;
  auto header = BuildSendHeader(*prepared, config, MessageQueue("T", "broker-a", 3), 1234);
  EXPECT_EQ(header.producer_group, "G");
  EXPECT_EQ(header.topic, "T");
  EXPECT_EQ(header.default_topic, "TBW102");
  EXPECT_EQ(header.default_topic_queue_nums, 8);
  EXPECT_EQ(header.queue_id, 3);
  EXPECT_EQ(header.born_timestamp, 1234);
  EXPECT_EQ(header.properties, prepared->properties);
  EXPECT_EQ(header.broker_name, "broker-a");
  EXPECT_FALSE(header.batch);
}

// An async send builds its header once, moving the prepared message's topic and properties
// into it, and sets each attempt's queue, broker and time: every attempt's header must be the
// one BuildSendHeader makes for it (a retried %RETRY% message and a batch too), and its frame
// the same bytes.
TEST(BuildSendHeaderTest, BuiltOnceAndSetPerAttemptEqualsBuiltPerAttempt) {
  Message retry("%RETRY%G", "tag", "b");
  retry.PutProperty(message::kPropertyReconsumeTime, "3");
  retry.PutProperty(message::kPropertyMaxReconsumeTimes, "16");
  std::vector<Result<PreparedMessage>> cases;
  cases.push_back(PrepareMessage(Message("T", "tag", "b"), Config(), Ids()));
  cases.push_back(PrepareMessage(retry, Config(), Ids()));
  cases.push_back(PrepareBatch({Message("T", "a", "1"), Message("T", "b", "2")}, Config(), Ids()));
  for (Result<PreparedMessage>& prepared : cases) {
    ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
    const PreparedMessage original = *prepared;
    protocol::SendMessageRequestHeader kept =
        BuildSendHeader(std::move(*prepared), Config(), MessageQueue(), 0);
    EXPECT_EQ(prepared->body, original.body);  // only the topic and properties move
    for (const MessageQueue& mq : {MessageQueue(original.topic, "broker-a", 3),
                                   MessageQueue(original.topic, "broker-bb", 0)}) {
      SetSendAttempt(mq, 1764744000123, &kept);
      protocol::SendMessageRequestHeader fresh =
          BuildSendHeader(original, Config(), mq, 1764744000123);
      std::string kept_frame;
      std::string fresh_frame;
      for (SendHeaderForm form : {SendHeaderForm::kJsonMembers, SendHeaderForm::kExtFieldsMap}) {
        protocol::EncodeCommand(MakeSendRequest(kept, original.body, form), &kept_frame);
        protocol::EncodeCommand(MakeSendRequest(fresh, original.body, form), &fresh_frame);
      }
      EXPECT_EQ(kept_frame, fresh_frame) << original.topic << " " << mq.ToString();
      EXPECT_EQ(kept.properties, original.properties);
      EXPECT_EQ(kept.reconsume_times, fresh.reconsume_times);
      EXPECT_EQ(kept.max_reconsume_times, fresh.max_reconsume_times);
      EXPECT_EQ(kept.batch, fresh.batch);
    }
  }
}

TEST(IsRetriableSendErrorTest, MatchesJavaRetryCodes) {
  EXPECT_TRUE(IsRetriableSendError(Status::Unavailable("x")));
  EXPECT_TRUE(IsRetriableSendError(Status::Timeout("x")));
  EXPECT_TRUE(IsRetriableSendError(Status::Busy("x")));
  EXPECT_TRUE(IsRetriableSendError(Status::NotFound("x")));
  EXPECT_FALSE(IsRetriableSendError(Status::InvalidArgument("x")));
  EXPECT_FALSE(IsRetriableSendError(Status::Aborted("x")));
}

}  // namespace
}  // namespace apogee::client
