#include "protocol/custom_header.h"

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "protocol/admin_headers.h"
#include "protocol/client_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/namesrv_headers.h"
#include "protocol/pop_headers.h"
#include "protocol/send_headers.h"

namespace apogee::protocol {
namespace {

// One field of every supported kind.
struct SampleHeader {
  std::string name;
  int32_t count = 0;
  int64_t offset = 0;
  bool flag = false;
  int32_t primitive = 7;
  std::optional<std::string> note;
  std::optional<int32_t> maybe_int;
  std::optional<int64_t> maybe_long;
  std::optional<bool> maybe_bool;

  static constexpr auto Fields() {
    using H = SampleHeader;
    return std::make_tuple(
        Required("name", &H::name), Required("count", &H::count), Required("offset", &H::offset),
        Required("flag", &H::flag), Optional("primitive", &H::primitive),
        Optional("note", &H::note), Optional("maybeInt", &H::maybe_int),
        Optional("maybeLong", &H::maybe_long), Optional("maybeBool", &H::maybe_bool));
  }
};

ExtFields Complete() {
  ExtFields f;
  f.Set("name", "n");
  f.Set("count", "-3");
  f.Set("offset", "9223372036854775807");
  f.Set("flag", "TRUE");
  return f;
}

// The frame of a request whose header went through the ExtFields map (EncodeCustomHeader)
// and of the same request with the members written straight as JSON (json_ext_fields).
template <typename H>
std::pair<std::string, std::string> BothFrames(const H& header, const std::string& body) {
  RemotingCommand by_map = RemotingCommand::MakeRequest(310);
  EncodeCustomHeader(header, &by_map);
  RemotingCommand direct = RemotingCommand::MakeRequest(310);
  direct.has_ext_fields = true;
  HeaderToJsonExtFields(header, &direct.json_ext_fields);
  for (RemotingCommand* c : {&by_map, &direct}) {
    c->opaque = 123456;
    c->body = body;
  }
  std::pair<std::string, std::string> frames;
  EncodeCommand(by_map, &frames.first);
  EncodeCommand(direct, &frames.second);
  return frames;
}

template <typename H>
void ExpectJsonMembersMatchTheMap(const H& header, const std::string& body = "body") {
  auto [by_map, direct] = BothFrames(header, body);
  ASSERT_EQ(by_map, direct);
  // And what the broker decodes from it is the header sent.
  Result<RemotingCommand> decoded = DecodeCommand(std::string_view(direct).substr(4));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  Result<H> back = DecodeCustomHeader<H>(*decoded);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  RemotingCommand again = RemotingCommand::MakeRequest(310);
  EncodeCustomHeader(*back, &again);
  RemotingCommand original = RemotingCommand::MakeRequest(310);
  EncodeCustomHeader(header, &original);
  EXPECT_EQ(again.ext_fields, original.ext_fields);
  EXPECT_EQ(decoded->body, body);
}

// Strings that need every kind of escape: each byte value alone, and runs around the
// eight-byte steps of the encoder's fast path.
std::vector<std::string> EscapeSamples() {
  std::vector<std::string> samples = {"",
                                      "plain",
                                      "quote\"back\\slash",
                                      "\x01\x02\x7f\xff",
                                      "UNIQ_KEY\x01"
                                      "AC11\x02WAIT\x01true\x02TAGS\x01t\"a\\g",
                                      "h\xc3\xa9llo \xe4\xb8\xad"};
  for (int c = 0; c < 256; ++c) samples.push_back(std::string(1, static_cast<char>(c)));
  for (size_t at = 0; at < 20; ++at) {
    std::string s(20, 'x');
    s[at] = '\x02';
    samples.push_back(s);
  }
  return samples;
}

TEST(CustomHeaderTest, JsonMembersAreTheBytesTheMapEncodesTo) {
  for (const std::string& text : EscapeSamples()) {
    SampleHeader h;
    h.name = text;
    h.note = text;
    ExpectJsonMembersMatchTheMap(h);
  }
  SampleHeader extremes;
  extremes.count = std::numeric_limits<int32_t>::min();
  extremes.offset = std::numeric_limits<int64_t>::max();
  extremes.flag = true;
  extremes.primitive = -1;
  extremes.maybe_int = std::numeric_limits<int32_t>::max();
  extremes.maybe_long = std::numeric_limits<int64_t>::min();
  extremes.maybe_bool = false;
  ExpectJsonMembersMatchTheMap(extremes);
  extremes.maybe_bool = true;
  ExpectJsonMembersMatchTheMap(extremes, "");
}

TEST(CustomHeaderTest, JsonMembersOfEmptyHeaderAreAnEmptyObject) {
  struct OnlyOptional {
    std::optional<std::string> a;
    static constexpr auto Fields() { return std::make_tuple(Optional("a", &OnlyOptional::a)); }
  };
  auto [by_map, direct] = BothFrames(OnlyOptional{}, "");
  EXPECT_EQ(by_map, direct);
  EXPECT_NE(direct.find(R"("extFields":{},)"), std::string::npos) << direct;
}

TEST(CustomHeaderTest, JsonMembersEscapeKeysThatNeedIt) {
  struct OddKeys {
    std::string a;
    int32_t b = 0;
    static constexpr auto Fields() {
      return std::make_tuple(
          Required("k\"e\\y\x01", &OddKeys::a),
          Required("a-key-longer-than-forty-bytes-written-the-slow-way", &OddKeys::b));
    }
  };
  auto [by_map, direct] = BothFrames(OddKeys{"v", 5}, "");
  EXPECT_EQ(by_map, direct);
  EXPECT_NE(direct.find(R"("k\"e\\y\u0001":"v")"), std::string::npos) << direct;
}

TEST(CustomHeaderTest, JsonMembersComeBeforeMapMembers) {
  RemotingCommand command = RemotingCommand::MakeRequest(310);
  HeaderToJsonExtFields(SampleHeader{}, &command.json_ext_fields);
  command.ext_fields.Set("AccessKey", "k\x01");
  std::string frame;
  EncodeCommand(command, &frame);
  Result<RemotingCommand> decoded = DecodeCommand(std::string_view(frame).substr(4));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  RemotingCommand expected = RemotingCommand::MakeRequest(310);
  EncodeCustomHeader(SampleHeader{}, &expected);
  expected.ext_fields.Set("AccessKey", "k\x01");
  EXPECT_EQ(decoded->ext_fields, expected.ext_fields);
}

// The send headers a producer writes, both key sets (V1 long names, V2 one letter), with
// the properties escapes every message has (\x01 and \x02 become \u0001 and \u0002).
TEST(CustomHeaderTest, SendHeadersAsJsonMembersMatchTheMapInBothKeySets) {
  std::vector<SendMessageRequestHeader> headers;
  SendMessageRequestHeader plain;
  plain.producer_group = "benchmark_producer";
  plain.topic = "BenchmarkTest";
  plain.default_topic = "TBW102";
  plain.default_topic_queue_nums = 4;
  plain.queue_id = 3;
  plain.born_timestamp = 1764744000123;
  plain.properties = std::string(
      "UNIQ_KEY\x01"
      "7F0000011A2B18B4AAC2\x02WAIT\x01true\x02");
  plain.broker_name = "broker-a";
  headers.push_back(plain);
  SendMessageRequestHeader retry = plain;
  retry.topic = "%RETRY%group";
  retry.reconsume_times = 2;
  retry.max_reconsume_times = 16;
  retry.unit_mode = true;
  retry.sys_flag = 1 | 4;
  retry.flag = -7;
  headers.push_back(retry);
  SendMessageRequestHeader batch = plain;
  batch.batch = true;
  batch.properties.reset();
  batch.broker_name.reset();
  batch.queue_id = -1;
  headers.push_back(batch);
  for (const std::string& text : EscapeSamples()) {
    SendMessageRequestHeader odd = plain;
    odd.properties = text;
    odd.producer_group = text;
    headers.push_back(odd);
  }
  for (const SendMessageRequestHeader& h : headers) {
    ExpectJsonMembersMatchTheMap(h);
    SendMessageRequestHeaderV2 v2;
    static_cast<SendMessageRequestHeader&>(v2) = h;
    ExpectJsonMembersMatchTheMap(v2, std::string(1024, 'b'));
  }
}

TEST(CustomHeaderTest, ReadsEveryType) {
  ExtFields f = Complete();
  f.Set("primitive", "+12");
  f.Set("note", "");
  f.Set("maybeInt", "5");
  f.Set("maybeLong", "-9223372036854775808");
  f.Set("maybeBool", "false");
  f.Set("unknown", "ignored");
  Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(f);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->name, "n");
  EXPECT_EQ(h->count, -3);
  EXPECT_EQ(h->offset, std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(h->flag);
  EXPECT_EQ(h->primitive, 12);
  EXPECT_EQ(h->note, "");
  EXPECT_EQ(h->maybe_int, 5);
  EXPECT_EQ(h->maybe_long, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(h->maybe_bool, false);
}

TEST(CustomHeaderTest, AbsentOptionalsKeepDefaults) {
  Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(Complete());
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->primitive, 7);
  EXPECT_FALSE(h->note.has_value());
  EXPECT_FALSE(h->maybe_int.has_value());
  EXPECT_FALSE(h->maybe_bool.has_value());
}

TEST(CustomHeaderTest, MissingRequiredFieldGivesJavasMessage) {
  for (const char* key : {"name", "count", "offset", "flag"}) {
    ExtFields f = Complete();
    f.Erase(key);
    Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(f);
    ASSERT_FALSE(h.ok()) << key;
    EXPECT_EQ(h.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(h.status().message(), std::string("the custom field ") + key + " is null");
  }
}

TEST(CustomHeaderTest, UnparsableNumberIsAbsent) {
  ExtFields f = Complete();
  f.Set("maybeInt", "12x");
  f.Set("maybeLong", " 1");
  f.Set("primitive", "2147483648");  // overflows int
  Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(f);
  ASSERT_TRUE(h.ok());
  EXPECT_FALSE(h->maybe_int.has_value());
  EXPECT_FALSE(h->maybe_long.has_value());
  EXPECT_EQ(h->primitive, 7);

  // ... and then the required check applies.
  for (const char* bad : {"", "1.0", "abc", "99999999999", "+-1", "-"}) {
    f = Complete();
    f.Set("count", bad);
    Result<SampleHeader> r = HeaderFromExtFields<SampleHeader>(f);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().message(), "the custom field count is null");
  }
}

TEST(CustomHeaderTest, BooleansFollowBooleanParseBoolean) {
  for (const auto& [text, expected] :
       {std::pair{"true", true}, {"True", true}, {"false", false}, {"yes", false}, {"1", false}}) {
    ExtFields f = Complete();
    f.Set("maybeBool", text);
    Result<SampleHeader> h = HeaderFromExtFields<SampleHeader>(f);
    ASSERT_TRUE(h.ok());
    EXPECT_EQ(h->maybe_bool, expected) << text;
  }
}

TEST(CustomHeaderTest, WritesJavaToStringAndSkipsNulls) {
  SampleHeader h;
  h.name = "n";
  h.count = -1;
  h.offset = 1795947434518;
  h.flag = true;
  h.maybe_bool = false;
  ExtFields f;
  HeaderToExtFields(h, &f);
  EXPECT_EQ(f.Get("name"), "n");
  EXPECT_EQ(f.Get("count"), "-1");
  EXPECT_EQ(f.Get("offset"), "1795947434518");
  EXPECT_EQ(f.Get("flag"), "true");
  EXPECT_EQ(f.Get("primitive"), "7");  // primitives are always sent
  EXPECT_EQ(f.Get("maybeBool"), "false");
  EXPECT_FALSE(f.Has("note"));
  EXPECT_FALSE(f.Has("maybeInt"));
  EXPECT_EQ(f.size(), 6u);
}

TEST(CustomHeaderTest, RoundTripsThroughACommand) {
  SampleHeader h;
  h.name = "x";
  h.count = 2;
  h.offset = -5;
  h.note = "text";
  h.maybe_long = 0;
  RemotingCommand command = RemotingCommand::MakeRequest(10);
  EncodeCustomHeader(h, &command);
  EXPECT_TRUE(command.has_ext_fields);
  Result<SampleHeader> back = DecodeCustomHeader<SampleHeader>(command);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->name, "x");
  EXPECT_EQ(back->count, 2);
  EXPECT_EQ(back->offset, -5);
  EXPECT_FALSE(back->flag);
  EXPECT_EQ(back->note, "text");
  EXPECT_EQ(back->maybe_long, 0);
  EXPECT_FALSE(back->maybe_int.has_value());
}

TEST(CustomHeaderTest, CommandWithoutExtFieldsSkipsRequiredChecks) {
  RemotingCommand command = RemotingCommand::MakeRequest(21);
  Result<SampleHeader> h = DecodeCustomHeader<SampleHeader>(command);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->name, "");
  // An empty but present extFields object does not.
  command.has_ext_fields = true;
  EXPECT_FALSE(DecodeCustomHeader<SampleHeader>(command).ok());
}

TEST(CustomHeaderTest, JavaIntegerParsing) {
  EXPECT_EQ(ParseJavaInt("0"), 0);
  EXPECT_EQ(ParseJavaInt("-2147483648"), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(ParseJavaInt("+7"), 7);
  EXPECT_EQ(ParseJavaInt("007"), 7);
  EXPECT_FALSE(ParseJavaInt("2147483648").has_value());
  EXPECT_FALSE(ParseJavaInt("").has_value());
  EXPECT_FALSE(ParseJavaInt("+").has_value());
  EXPECT_FALSE(ParseJavaInt("1 ").has_value());
  EXPECT_FALSE(ParseJavaInt("0x10").has_value());
  EXPECT_EQ(ParseJavaLong("1795947434518"), 1795947434518);
  EXPECT_FALSE(ParseJavaLong("9223372036854775808").has_value());
}

// Every declared header, every field set to a value that differs from its default, must
// come back unchanged through a real frame in both header serializations: the one field
// list is all either codec needs. Also catches a key declared twice in one list.
template <typename T>
void SampleValue(std::string_view key, T* out) {
  if constexpr (IsOptional<T>::value) {
    typename T::value_type v{};
    SampleValue(key, &v);
    *out = v;
  } else if constexpr (std::is_same_v<T, std::string>) {
    *out = std::string(key) + "-value";
  } else if constexpr (std::is_same_v<T, bool>) {
    *out = !*out;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    *out = -1000 - static_cast<int32_t>(key.size());
  } else {
    *out = (int64_t{1} << 40) + static_cast<int64_t>(key.size());
  }
}

template <typename H>
void ExpectSurvivesBothSerializations(const char* name) {
  H header{};
  size_t field_count = 0;
  std::set<std::string_view> keys;
  std::apply(
      [&](const auto&... field) {
        ((SampleValue(field.key, &(header.*field.member)), ++field_count, keys.insert(field.key)),
         ...);
      },
      H::Fields());
  EXPECT_EQ(keys.size(), field_count) << name << " declares a key twice";

  for (SerializeType type : {SerializeType::kJson, SerializeType::kRocketMQ}) {
    RemotingCommand command = RemotingCommand::MakeRequest(1);
    command.serialize_type = type;
    EncodeCustomHeader(header, &command);
    EXPECT_EQ(command.ext_fields.size(), field_count) << name;
    std::string frame;
    EncodeCommand(command, &frame);
    Result<RemotingCommand> decoded = DecodeCommand(std::string_view(frame).substr(4));
    ASSERT_TRUE(decoded.ok()) << name << ": " << decoded.status().ToString();
    Result<H> back = DecodeCustomHeader<H>(*decoded);
    ASSERT_TRUE(back.ok()) << name << ": " << back.status().ToString();
    auto expect_same = [&](const auto& field) {
      EXPECT_EQ((*back).*field.member, header.*field.member) << name << "." << field.key;
    };
    std::apply([&](const auto&... field) { (expect_same(field), ...); }, H::Fields());
  }
}

TEST(CustomHeaderTest, EveryDeclaredHeaderSurvivesBothSerializations) {
  ExpectSurvivesBothSerializations<RegisterBrokerRequestHeader>("RegisterBrokerRequestHeader");
  ExpectSurvivesBothSerializations<RegisterBrokerResponseHeader>("RegisterBrokerResponseHeader");
  ExpectSurvivesBothSerializations<UnRegisterBrokerRequestHeader>("UnRegisterBrokerRequestHeader");
  ExpectSurvivesBothSerializations<GetRouteInfoRequestHeader>("GetRouteInfoRequestHeader");
  ExpectSurvivesBothSerializations<PutKVConfigRequestHeader>("PutKVConfigRequestHeader");
  ExpectSurvivesBothSerializations<GetKVConfigRequestHeader>("GetKVConfigRequestHeader");
  ExpectSurvivesBothSerializations<GetKVConfigResponseHeader>("GetKVConfigResponseHeader");
  ExpectSurvivesBothSerializations<DeleteKVConfigRequestHeader>("DeleteKVConfigRequestHeader");
  ExpectSurvivesBothSerializations<GetKVListByNamespaceRequestHeader>(
      "GetKVListByNamespaceRequestHeader");
  ExpectSurvivesBothSerializations<QueryDataVersionRequestHeader>("QueryDataVersionRequestHeader");
  ExpectSurvivesBothSerializations<QueryDataVersionResponseHeader>(
      "QueryDataVersionResponseHeader");
  ExpectSurvivesBothSerializations<BrokerHeartbeatRequestHeader>("BrokerHeartbeatRequestHeader");
  ExpectSurvivesBothSerializations<GetTopicsByClusterRequestHeader>(
      "GetTopicsByClusterRequestHeader");
  ExpectSurvivesBothSerializations<DeleteTopicFromNamesrvRequestHeader>(
      "DeleteTopicFromNamesrvRequestHeader");
  ExpectSurvivesBothSerializations<RegisterTopicRequestHeader>("RegisterTopicRequestHeader");
  ExpectSurvivesBothSerializations<WipeWritePermOfBrokerRequestHeader>(
      "WipeWritePermOfBrokerRequestHeader");
  ExpectSurvivesBothSerializations<WipeWritePermOfBrokerResponseHeader>(
      "WipeWritePermOfBrokerResponseHeader");
  ExpectSurvivesBothSerializations<AddWritePermOfBrokerRequestHeader>(
      "AddWritePermOfBrokerRequestHeader");
  ExpectSurvivesBothSerializations<AddWritePermOfBrokerResponseHeader>(
      "AddWritePermOfBrokerResponseHeader");
  ExpectSurvivesBothSerializations<GetBrokerMemberGroupRequestHeader>(
      "GetBrokerMemberGroupRequestHeader");
  ExpectSurvivesBothSerializations<SendMessageRequestHeader>("SendMessageRequestHeader");
  ExpectSurvivesBothSerializations<SendMessageRequestHeaderV2>("SendMessageRequestHeaderV2");
  ExpectSurvivesBothSerializations<SendMessageResponseHeader>("SendMessageResponseHeader");
  ExpectSurvivesBothSerializations<ReplyMessageRequestHeader>("ReplyMessageRequestHeader");
  ExpectSurvivesBothSerializations<EndTransactionRequestHeader>("EndTransactionRequestHeader");
  ExpectSurvivesBothSerializations<ConsumerSendMsgBackRequestHeader>(
      "ConsumerSendMsgBackRequestHeader");
  ExpectSurvivesBothSerializations<RecallMessageRequestHeader>("RecallMessageRequestHeader");
  ExpectSurvivesBothSerializations<RecallMessageResponseHeader>("RecallMessageResponseHeader");
  ExpectSurvivesBothSerializations<PullMessageRequestHeader>("PullMessageRequestHeader");
  ExpectSurvivesBothSerializations<PullMessageResponseHeader>("PullMessageResponseHeader");
  ExpectSurvivesBothSerializations<QueryConsumerOffsetRequestHeader>(
      "QueryConsumerOffsetRequestHeader");
  ExpectSurvivesBothSerializations<QueryConsumerOffsetResponseHeader>(
      "QueryConsumerOffsetResponseHeader");
  ExpectSurvivesBothSerializations<UpdateConsumerOffsetRequestHeader>(
      "UpdateConsumerOffsetRequestHeader");
  ExpectSurvivesBothSerializations<GetConsumerListByGroupRequestHeader>(
      "GetConsumerListByGroupRequestHeader");
  ExpectSurvivesBothSerializations<SearchOffsetRequestHeader>("SearchOffsetRequestHeader");
  ExpectSurvivesBothSerializations<SearchOffsetResponseHeader>("SearchOffsetResponseHeader");
  ExpectSurvivesBothSerializations<GetMaxOffsetRequestHeader>("GetMaxOffsetRequestHeader");
  ExpectSurvivesBothSerializations<GetMaxOffsetResponseHeader>("GetMaxOffsetResponseHeader");
  ExpectSurvivesBothSerializations<GetMinOffsetRequestHeader>("GetMinOffsetRequestHeader");
  ExpectSurvivesBothSerializations<GetMinOffsetResponseHeader>("GetMinOffsetResponseHeader");
  ExpectSurvivesBothSerializations<GetEarliestMsgStoretimeRequestHeader>(
      "GetEarliestMsgStoretimeRequestHeader");
  ExpectSurvivesBothSerializations<GetEarliestMsgStoretimeResponseHeader>(
      "GetEarliestMsgStoretimeResponseHeader");
  ExpectSurvivesBothSerializations<ViewMessageRequestHeader>("ViewMessageRequestHeader");
  ExpectSurvivesBothSerializations<QueryMessageRequestHeader>("QueryMessageRequestHeader");
  ExpectSurvivesBothSerializations<QueryMessageResponseHeader>("QueryMessageResponseHeader");
  ExpectSurvivesBothSerializations<UnregisterClientRequestHeader>("UnregisterClientRequestHeader");
  ExpectSurvivesBothSerializations<NotifyConsumerIdsChangedRequestHeader>(
      "NotifyConsumerIdsChangedRequestHeader");
  ExpectSurvivesBothSerializations<CheckTransactionStateRequestHeader>(
      "CheckTransactionStateRequestHeader");
  ExpectSurvivesBothSerializations<ResetOffsetRequestHeader>("ResetOffsetRequestHeader");
  ExpectSurvivesBothSerializations<GetConsumerRunningInfoRequestHeader>(
      "GetConsumerRunningInfoRequestHeader");
  ExpectSurvivesBothSerializations<ConsumeMessageDirectlyResultRequestHeader>(
      "ConsumeMessageDirectlyResultRequestHeader");
  ExpectSurvivesBothSerializations<GetConsumerStatusRequestHeader>(
      "GetConsumerStatusRequestHeader");
  ExpectSurvivesBothSerializations<CreateTopicRequestHeader>("CreateTopicRequestHeader");
  ExpectSurvivesBothSerializations<DeleteTopicRequestHeader>("DeleteTopicRequestHeader");
  ExpectSurvivesBothSerializations<GetAllTopicConfigRequestHeader>(
      "GetAllTopicConfigRequestHeader");
  ExpectSurvivesBothSerializations<GetAllTopicConfigResponseHeader>(
      "GetAllTopicConfigResponseHeader");
  ExpectSurvivesBothSerializations<GetBrokerConfigResponseHeader>("GetBrokerConfigResponseHeader");
  ExpectSurvivesBothSerializations<GetAllSubscriptionGroupRequestHeader>(
      "GetAllSubscriptionGroupRequestHeader");
  ExpectSurvivesBothSerializations<GetAllSubscriptionGroupResponseHeader>(
      "GetAllSubscriptionGroupResponseHeader");
  ExpectSurvivesBothSerializations<DeleteSubscriptionGroupRequestHeader>(
      "DeleteSubscriptionGroupRequestHeader");
  ExpectSurvivesBothSerializations<GetSubscriptionGroupConfigRequestHeader>(
      "GetSubscriptionGroupConfigRequestHeader");
  ExpectSurvivesBothSerializations<GetTopicStatsInfoRequestHeader>(
      "GetTopicStatsInfoRequestHeader");
  ExpectSurvivesBothSerializations<GetConsumeStatsRequestHeader>("GetConsumeStatsRequestHeader");
  ExpectSurvivesBothSerializations<GetConsumerConnectionListRequestHeader>(
      "GetConsumerConnectionListRequestHeader");
  ExpectSurvivesBothSerializations<GetProducerConnectionListRequestHeader>(
      "GetProducerConnectionListRequestHeader");
  ExpectSurvivesBothSerializations<QueryTopicConsumeByWhoRequestHeader>(
      "QueryTopicConsumeByWhoRequestHeader");
  ExpectSurvivesBothSerializations<QueryConsumeTimeSpanRequestHeader>(
      "QueryConsumeTimeSpanRequestHeader");
  ExpectSurvivesBothSerializations<QueryCorrectionOffsetHeader>("QueryCorrectionOffsetHeader");
  ExpectSurvivesBothSerializations<ViewBrokerStatsDataRequestHeader>(
      "ViewBrokerStatsDataRequestHeader");
  ExpectSurvivesBothSerializations<GetConsumeStatsInBrokerHeader>("GetConsumeStatsInBrokerHeader");
  ExpectSurvivesBothSerializations<QueryConsumeQueueRequestHeader>(
      "QueryConsumeQueueRequestHeader");
  ExpectSurvivesBothSerializations<QueryTopicsByConsumerRequestHeader>(
      "QueryTopicsByConsumerRequestHeader");
  ExpectSurvivesBothSerializations<QuerySubscriptionByConsumerRequestHeader>(
      "QuerySubscriptionByConsumerRequestHeader");
  ExpectSurvivesBothSerializations<GetTopicConfigRequestHeader>("GetTopicConfigRequestHeader");
  ExpectSurvivesBothSerializations<ResumeCheckHalfMessageRequestHeader>(
      "ResumeCheckHalfMessageRequestHeader");
  ExpectSurvivesBothSerializations<CloneGroupOffsetRequestHeader>("CloneGroupOffsetRequestHeader");
  ExpectSurvivesBothSerializations<PopMessageRequestHeader>("PopMessageRequestHeader");
  ExpectSurvivesBothSerializations<PopMessageResponseHeader>("PopMessageResponseHeader");
  ExpectSurvivesBothSerializations<AckMessageRequestHeader>("AckMessageRequestHeader");
  ExpectSurvivesBothSerializations<ChangeInvisibleTimeRequestHeader>(
      "ChangeInvisibleTimeRequestHeader");
  ExpectSurvivesBothSerializations<ChangeInvisibleTimeResponseHeader>(
      "ChangeInvisibleTimeResponseHeader");
  ExpectSurvivesBothSerializations<NotificationRequestHeader>("NotificationRequestHeader");
  ExpectSurvivesBothSerializations<NotificationResponseHeader>("NotificationResponseHeader");
}

// A send's answer written for sending (AddExtFieldToSend, EncodeCustomHeaderToSend): a JSON
// answer's frame is byte for byte the one built through the map; a binary answer keeps the map.
TEST(CustomHeaderTest, AnswerWrittenToSendIsTheFrameTheMapMakes) {
  SendMessageResponseHeader header;
  header.msg_id = "7F00000100002A9F0000000000AB12CD";
  header.queue_id = 3;
  header.queue_offset = 123456;
  header.transaction_id = "tx\x01\"";
  for (SerializeType type : {SerializeType::kJson, SerializeType::kRocketMQ}) {
    RemotingCommand request = RemotingCommand::MakeRequest(310);
    request.serialize_type = type;
    RemotingCommand by_map = RemotingCommand::MakeResponse(request, 0);
    by_map.has_ext_fields = true;
    by_map.ext_fields.Set("MSG_REGION", "DefaultRegion");
    by_map.ext_fields.Set("TRACE_ON", "true");
    EncodeCustomHeader(header, &by_map);
    RemotingCommand to_send = RemotingCommand::MakeResponse(request, 0);
    AddExtFieldToSend("MSG_REGION", "DefaultRegion", &to_send);
    AddExtFieldToSend("TRACE_ON", "true", &to_send);
    EncodeCustomHeaderToSend(header, &to_send);
    EXPECT_EQ(to_send.json_ext_fields.empty(), type == SerializeType::kRocketMQ);
    EXPECT_EQ(to_send.ext_fields.empty(), type == SerializeType::kJson);
    std::string a;
    std::string b;
    EncodeCommand(by_map, &a);
    EncodeCommand(to_send, &b);
    EXPECT_EQ(a, b) << static_cast<int>(type);
    Result<RemotingCommand> decoded = DecodeCommand(std::string_view(b).substr(4));
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(decoded->ext_fields.Get("transactionId"), "tx\x01\"");
    EXPECT_EQ(decoded->ext_fields.Get("MSG_REGION"), "DefaultRegion");
  }
}

}  // namespace
}  // namespace apogee::protocol
