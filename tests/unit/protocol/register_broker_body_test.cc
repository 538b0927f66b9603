#include "protocol/register_broker_body.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include "base/coding.h"
#include "protocol/namesrv_headers.h"

namespace apogee::protocol {
namespace {

RegisterBrokerBody SampleBody() {
  RegisterBrokerBody body;
  body.topic_config_serialize_wrapper.data_version = {0, 1700000000000, 5};
  TopicConfig t;
  t.topic_name = "TopicTest";
  t.read_queue_nums = t.write_queue_nums = 4;
  body.topic_config_serialize_wrapper.topic_config_table["TopicTest"] = t;
  TopicConfig tbw;
  tbw.topic_name = "TBW102";
  tbw.perm = 7;
  tbw.read_queue_nums = tbw.write_queue_nums = 8;
  body.topic_config_serialize_wrapper.topic_config_table["TBW102"] = tbw;
  return body;
}

std::string Deflate(std::string_view plain) {
  uLongf bound = compressBound(static_cast<uLong>(plain.size()));
  std::string out(bound, '\0');
  compress2(reinterpret_cast<Bytef*>(out.data()), &bound,
            reinterpret_cast<const Bytef*>(plain.data()), static_cast<uLong>(plain.size()), 9);
  out.resize(bound);
  return out;
}

TEST(RegisterBrokerBodyTest, JsonGoldenAndRoundTrip) {
  RegisterBrokerBody body;
  body.topic_config_serialize_wrapper.data_version = {0, 7, 1};
  EXPECT_EQ(EncodeRegisterBrokerBody(body),
            R"({"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":)"
            R"({"counter":1,"stateVersion":0,"timestamp":7},"topicConfigTable":{}}})");
  Result<RegisterBrokerBody> back =
      DecodeRegisterBrokerBody(EncodeRegisterBrokerBody(SampleBody()));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, SampleBody());
}

TEST(RegisterBrokerBodyTest, CompressedRoundTrip) {
  const std::string compressed = EncodeCompressedRegisterBrokerBody(SampleBody());
  ASSERT_GE(compressed.size(), 2u);
  EXPECT_EQ(static_cast<uint8_t>(compressed[0]), 0x78);  // zlib header, as Java's Deflater
  Result<RegisterBrokerBody> back = DecodeCompressedRegisterBrokerBody(compressed);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  // The text form carries neither topicSysFlag nor order; the sample has neither set.
  EXPECT_EQ(*back, SampleBody());
}

// The layout a 4.9.7 broker writes: no mapping section after the filter server list.
TEST(RegisterBrokerBodyTest, DecodesJava497CompressedLayout) {
  std::string plain;
  ByteWriter w(&plain);
  const std::string dv = R"({"counter":2,"timestamp":99})";
  w.PutU32(static_cast<uint32_t>(dv.size()));
  w.PutBytes(dv);
  w.PutU32(1);
  const std::string topic = "TopicTest 4 4 6 SINGLE_TAG";
  w.PutU32(static_cast<uint32_t>(topic.size()));
  w.PutBytes(topic);
  w.PutU32(2);
  w.PutBytes("[]");
  Result<RegisterBrokerBody> body = DecodeCompressedRegisterBrokerBody(Deflate(plain));
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  EXPECT_EQ(body->topic_config_serialize_wrapper.data_version.counter, 2);
  EXPECT_EQ(
      body->topic_config_serialize_wrapper.topic_config_table.at("TopicTest").write_queue_nums, 4);

  // A 5.x broker adds mappings; their pieces are skipped.
  w.PutU32(1);
  w.PutU32(2);
  w.PutBytes("{}");
  ASSERT_TRUE(DecodeCompressedRegisterBrokerBody(Deflate(plain)).ok());
}

TEST(RegisterBrokerBodyTest, CompressedErrorsNameTheProblem) {
  EXPECT_NE(
      DecodeCompressedRegisterBrokerBody("not zlib").status().message().find("not a zlib stream"),
      std::string::npos);
  const std::string good = EncodeCompressedRegisterBrokerBody(SampleBody());
  EXPECT_NE(DecodeCompressedRegisterBrokerBody(good.substr(0, good.size() / 2))
                .status()
                .message()
                .find("truncated"),
            std::string::npos);
  std::string plain;
  ByteWriter w(&plain);
  w.PutU32(1000);
  w.PutBytes("{}");
  EXPECT_NE(DecodeCompressedRegisterBrokerBody(Deflate(plain))
                .status()
                .message()
                .find("DataVersion length 1000 exceeds"),
            std::string::npos);
  plain.clear();
  w.PutU32(2);
  w.PutBytes("{}");
  w.PutU32(0x7FFFFFFF);
  EXPECT_NE(
      DecodeCompressedRegisterBrokerBody(Deflate(plain)).status().message().find("bad topic count"),
      std::string::npos);
  // A zlib bomb stops at the limit.
  const std::string zeros(1 << 20, '\0');
  EXPECT_NE(DecodeCompressedRegisterBrokerBody(Deflate(zeros), 1000)
                .status()
                .message()
                .find("inflates past 1000 bytes"),
            std::string::npos);
}

TEST(RegisterBrokerBodyTest, RequestBodyByVersionAndFlag) {
  Result<RegisterBrokerBody> empty = DecodeRegisterBrokerRequestBody("", false, 401);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->topic_config_serialize_wrapper.topic_config_table.empty());
  EXPECT_EQ(empty->topic_config_serialize_wrapper.data_version, DataVersion{});

  const std::string wrapper =
      EncodeTopicConfigSerializeWrapper(SampleBody().topic_config_serialize_wrapper);
  Result<RegisterBrokerBody> old = DecodeRegisterBrokerRequestBody(wrapper, false, 36);
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(*old, SampleBody());

  Result<RegisterBrokerBody> json =
      DecodeRegisterBrokerRequestBody(EncodeRegisterBrokerBody(SampleBody()), false, 37);
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(*json, SampleBody());
  Result<RegisterBrokerBody> zipped =
      DecodeRegisterBrokerRequestBody(EncodeCompressedRegisterBrokerBody(SampleBody()), true, 407);
  ASSERT_TRUE(zipped.ok());
  EXPECT_EQ(*zipped, SampleBody());
  EXPECT_FALSE(
      DecodeRegisterBrokerRequestBody(EncodeRegisterBrokerBody(SampleBody()), true, 407).ok());
}

TEST(RegisterBrokerBodyTest, ResultTravelsAsHeaderAndKVTableBody) {
  RegisterBrokerResult result;
  result.ha_server_addr = "10.0.0.5:10912";
  result.master_addr = "10.0.0.5:10911";
  result.kv_table.table["TopicA"] = "broker-a:4";
  RemotingCommand response = RemotingCommand::MakeResponse(RemotingCommand::MakeRequest(103), 0);
  EncodeRegisterBrokerResult(result, &response);
  EXPECT_EQ(response.ext_fields.Get("haServerAddr"), "10.0.0.5:10912");
  EXPECT_EQ(response.ext_fields.Get("masterAddr"), "10.0.0.5:10911");
  EXPECT_EQ(response.body, R"({"table":{"TopicA":"broker-a:4"}})");
  Result<RegisterBrokerResult> back = DecodeRegisterBrokerResult(response);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, result);

  RegisterBrokerResult master;  // a master gets neither address
  RemotingCommand r2 = RemotingCommand::MakeResponse(RemotingCommand::MakeRequest(103), 0);
  EncodeRegisterBrokerResult(master, &r2);
  EXPECT_TRUE(r2.ext_fields.empty());
  r2.body.clear();
  Result<RegisterBrokerResult> back2 = DecodeRegisterBrokerResult(r2);
  ASSERT_TRUE(back2.ok());
  EXPECT_EQ(*back2, master);
}

}  // namespace
}  // namespace apogee::protocol
