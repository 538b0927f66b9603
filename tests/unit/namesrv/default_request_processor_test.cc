#include "namesrv/default_request_processor.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <fstream>
#include <sstream>

#include "base/crc32.h"
#include "protocol/register_broker_body.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/route_data.h"
#include "testutil/test_paths.h"
#include "protocol/topic_config.h"
#include "protocol/topic_sys_flag.h"

namespace apogee::namesrv {
namespace {

namespace rc = protocol::request_code;
namespace resp = protocol::response_code;
using protocol::RemotingCommand;

// The fields of one registered topic a test sets.
struct TopicSpec {
  std::string topic_name;
  int32_t read_queue_nums = 0;
  int32_t write_queue_nums = 0;
  int32_t perm = 0;
  int32_t topic_sys_flag = 0;
};

// A RegisterBrokerBody with the given topics, as a broker builds it.
protocol::RegisterBrokerBody Body(const std::vector<TopicSpec>& topics,
                                  protocol::DataVersion version = {0, 1000, 1}) {
  protocol::RegisterBrokerBody body;
  body.topic_config_serialize_wrapper.data_version = version;
  for (const TopicSpec& t : topics) {
    protocol::TopicConfig tc;
    tc.topic_name = t.topic_name;
    tc.read_queue_nums = t.read_queue_nums;
    tc.write_queue_nums = t.write_queue_nums;
    tc.perm = t.perm;
    tc.topic_sys_flag = t.topic_sys_flag;
    body.topic_config_serialize_wrapper.topic_config_table[t.topic_name] = tc;
  }
  return body;
}

std::string DataVersionJson(int64_t counter) {
  return protocol::EncodeDataVersion(protocol::DataVersion{0, 1000, counter});
}

class DefaultRequestProcessorTest : public ::testing::Test {
 protected:
  RemotingCommand Request(int32_t code, std::map<std::string, std::string> ext = {},
                          std::string body = "", int32_t version = 121) {
    RemotingCommand cmd = RemotingCommand::MakeRequest(code);
    cmd.opaque = 42;
    cmd.version = version;
    cmd.has_ext_fields = true;
    for (auto& [k, v] : ext) cmd.ext_fields.Set(k, v);
    cmd.body = std::move(body);
    return cmd;
  }

  RemotingCommand Register(std::string cluster, std::string name, int64_t id, std::string addr,
                           std::vector<TopicSpec> topics, ChannelId channel = 1,
                           bool compressed = false, bool with_crc = true) {
    std::string body = compressed ? protocol::EncodeCompressedRegisterBrokerBody(Body(topics))
                                  : protocol::EncodeRegisterBrokerBody(Body(topics));
    std::map<std::string, std::string> ext = {
        {"brokerName", name}, {"brokerAddr", addr}, {"clusterName", cluster},
        {"haServerAddr", addr + "-ha"}, {"brokerId", std::to_string(id)},
        {"compressed", compressed ? "true" : "false"},
        {"bodyCrc32", with_crc ? std::to_string(Crc32Masked(body)) : "0"}};
    return processor_.Process(Request(rc::kRegisterBroker, ext, body, 407), channel);
  }

  ManualClock clock_;
  NamesrvConfig config_;
  KvConfigManager kv_{""};
  RouteInfoManager routes_{&clock_, 120000};
  DefaultRequestProcessor processor_{&config_, &kv_, &routes_, &clock_};
};

TEST_F(DefaultRequestProcessorTest, ResponsesEchoOpaqueAndCarryVersion) {
  RemotingCommand out = processor_.Process(Request(rc::kGetBrokerClusterInfo), 0);
  EXPECT_EQ(out.code, resp::kSuccess);
  EXPECT_EQ(out.opaque, 42);
  EXPECT_TRUE(out.IsResponse());
  EXPECT_GE(out.version, 401);
}

TEST_F(DefaultRequestProcessorTest, UnknownCodeIsNotSupported) {
  RemotingCommand out = processor_.Process(Request(9999), 0);
  EXPECT_EQ(out.code, resp::kRequestCodeNotSupported);
  EXPECT_EQ(out.remark.value(), " request type 9999 not supported");
}

// A RegisterBrokerBody as a 4.9 Java broker writes it (fastjson, sorted keys); the second
// topic has no topicName, so the table key names it.
constexpr const char* kJavaRegisterBody =
    R"({"filterServerList":["10.0.0.9:1"],"topicConfigSerializeWrapper":{"dataVersion":)"
    R"({"counter":3,"timestamp":1700000000123},"topicConfigTable":{"TopicTest":{"order":false,)"
    R"("perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG","topicName":"TopicTest",)"
    R"("topicSysFlag":0,"writeQueueNums":4},"TBW102":{"order":false,"perm":7,)"
    R"("readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicSysFlag":1,"writeQueueNums":8}}}})";

TEST_F(DefaultRequestProcessorTest, RegistersTheBodyAJavaBrokerWrites) {
  const std::string body = kJavaRegisterBody;
  RemotingCommand reg =
      processor_.Process(Request(rc::kRegisterBroker,
                                 {{"brokerName", "broker-a"},
                                  {"brokerAddr", "a:1"},
                                  {"clusterName", "c1"},
                                  {"haServerAddr", "a:2"},
                                  {"brokerId", "0"},
                                  {"compressed", "false"},
                                  {"bodyCrc32", std::to_string(Crc32Masked(body))}},
                                 body, 407),
                         1);
  ASSERT_EQ(reg.code, resp::kSuccess) << reg.remark.value_or("");
  auto tbw = routes_.GetTopicRoute("TBW102");
  ASSERT_TRUE(tbw.has_value());
  EXPECT_EQ(tbw->queue_datas[0], (protocol::QueueData{"broker-a", 8, 8, 7, 1}));
  auto test = routes_.GetTopicRoute("TopicTest");
  ASSERT_TRUE(test.has_value());
  EXPECT_EQ(test->queue_datas[0], (protocol::QueueData{"broker-a", 4, 4, 6, 0}));
  EXPECT_EQ(test->filter_server_table.at("a:1"), std::vector<std::string>{"10.0.0.9:1"});
  EXPECT_EQ(routes_.QueryBrokerDataVersion("c1", "a:1"),
            (protocol::DataVersion{0, 1700000000123, 3}));
}

TEST_F(DefaultRequestProcessorTest, RegisterThenRouteInBothJsonFlavours) {
  RemotingCommand reg = Register("c1", "broker-a", 0, "10.0.0.1:10911", {{"T", 4, 4, 6, 0}});
  ASSERT_EQ(reg.code, resp::kSuccess) << reg.remark.value_or("");
  EXPECT_FALSE(reg.ext_fields.Has("masterAddr"));
  EXPECT_TRUE(reg.body.empty());  // no ORDER_TOPIC_CONFIG namespace yet

  RemotingCommand old_client = processor_.Process(Request(rc::kGetRouteinfoByTopic, {{"topic", "T"}}), 0);
  ASSERT_EQ(old_client.code, resp::kSuccess);
  EXPECT_NE(old_client.body.find(R"({0:"10.0.0.1:10911"})"), std::string::npos) << old_client.body;

  RemotingCommand new_client = processor_.Process(
      Request(rc::kGetRouteinfoByTopic, {{"topic", "T"}}, "", 401), 0);
  EXPECT_NE(new_client.body.find(R"({"0":"10.0.0.1:10911"})"), std::string::npos);

  RemotingCommand flagged = processor_.Process(
      Request(rc::kGetRouteinfoByTopic, {{"topic", "T"}, {"acceptStandardJsonOnly", "true"}}), 0);
  EXPECT_NE(flagged.body.find(R"({"0":"10.0.0.1:10911"})"), std::string::npos);
}

TEST_F(DefaultRequestProcessorTest, UnknownTopicIsTopicNotExistWithJavaRemark) {
  RemotingCommand out = processor_.Process(Request(rc::kGetRouteinfoByTopic, {{"topic", "Nope"}}), 0);
  EXPECT_EQ(out.code, resp::kTopicNotExist);
  EXPECT_EQ(out.remark.value().rfind("No topic route info in name server for the topic: Nope", 0),
            0u);
}

TEST_F(DefaultRequestProcessorTest, MissingRequiredFieldIsSystemErrorNamingIt) {
  RemotingCommand out = processor_.Process(Request(rc::kGetRouteinfoByTopic), 0);
  EXPECT_EQ(out.code, resp::kSystemError);
  EXPECT_NE(out.remark.value().find("topic"), std::string::npos);
  RemotingCommand reg = processor_.Process(
      Request(rc::kRegisterBroker, {{"brokerName", "b"}, {"brokerAddr", "a:1"},
                                    {"clusterName", "c"}, {"haServerAddr", "h"}}),
      0);
  EXPECT_EQ(reg.code, resp::kSystemError);
  EXPECT_NE(reg.remark.value().find("brokerId"), std::string::npos);
}

TEST_F(DefaultRequestProcessorTest, CrcMismatchIsRejected) {
  std::string body = protocol::EncodeRegisterBrokerBody(Body({{"T", 4, 4, 6, 0}}));
  RemotingCommand out = processor_.Process(
      Request(rc::kRegisterBroker,
              {{"brokerName", "b"}, {"brokerAddr", "a:1"}, {"clusterName", "c"},
               {"haServerAddr", "h"}, {"brokerId", "0"},
               {"bodyCrc32", std::to_string(Crc32Masked(body) ^ 1)}},
              body, 407),
      0);
  EXPECT_EQ(out.code, resp::kSystemError);
  EXPECT_NE(out.remark.value().find("crc32 not match"), std::string::npos);
  EXPECT_FALSE(routes_.GetTopicRoute("T").has_value());
}

TEST_F(DefaultRequestProcessorTest, CompressedBodyAndUncheckedCrc) {
  RemotingCommand out = Register("c1", "broker-a", 0, "a:1", {{"Z", 2, 2, 6, 0}}, 1,
                                 /*compressed=*/true, /*with_crc=*/false);
  ASSERT_EQ(out.code, resp::kSuccess) << out.remark.value_or("");
  EXPECT_EQ(routes_.GetTopicRoute("Z")->queue_datas[0].write_queue_nums, 2);
}

TEST_F(DefaultRequestProcessorTest, UndecodableBodyIsSystemError) {
  std::string body = "{broken";
  RemotingCommand out = processor_.Process(
      Request(rc::kRegisterBroker,
              {{"brokerName", "b"}, {"brokerAddr", "a:1"}, {"clusterName", "c"},
               {"haServerAddr", "h"}, {"brokerId", "0"}},
              body, 407),
      0);
  EXPECT_EQ(out.code, resp::kSystemError);
  EXPECT_NE(out.remark.value().find("RegisterBrokerBody"), std::string::npos) << *out.remark;
}

TEST_F(DefaultRequestProcessorTest, SlaveGetsMasterAndHaAddressInHeader) {
  Register("c1", "broker-a", 0, "m:10911", {{"T", 4, 4, 6, 0}});
  RemotingCommand out = Register("c1", "broker-a", 1, "s:10911", {}, 2);
  ASSERT_EQ(out.code, resp::kSuccess);
  EXPECT_EQ(out.ext_fields.Get("masterAddr").value(), "m:10911");
  EXPECT_EQ(out.ext_fields.Get("haServerAddr").value(), "m:10911-ha");
}

TEST_F(DefaultRequestProcessorTest, OrderTopicConfigInRegisterResultAndRoute) {
  ASSERT_EQ(processor_.Process(Request(rc::kPutKvConfig, {{"namespace", "ORDER_TOPIC_CONFIG"},
                                                          {"key", "T"},
                                                          {"value", "broker-a:4"}}),
                               0)
                .code,
            resp::kSuccess);
  RemotingCommand reg = Register("c1", "broker-a", 0, "a:1", {{"T", 4, 4, 6, 0}});
  EXPECT_EQ(reg.body, R"({"table":{"T":"broker-a:4"}})");

  RemotingCommand route = processor_.Process(Request(rc::kGetRouteinfoByTopic, {{"topic", "T"}}), 0);
  EXPECT_EQ(route.body.find("orderTopicConf"), std::string::npos);  // orderMessageEnable=false
  ASSERT_TRUE(config_.UpdateAtRuntime({{"orderMessageEnable", "true"}}).ok());
  route = processor_.Process(Request(rc::kGetRouteinfoByTopic, {{"topic", "T"}}), 0);
  EXPECT_NE(route.body.find(R"("orderTopicConf":"broker-a:4")"), std::string::npos);
}

TEST_F(DefaultRequestProcessorTest, KvConfigRequests) {
  auto get = [&] {
    return processor_.Process(Request(rc::kGetKvConfig, {{"namespace", "ns"}, {"key", "k"}}), 0);
  };
  RemotingCommand missing = get();
  EXPECT_EQ(missing.code, resp::kQueryNotFound);
  EXPECT_EQ(missing.remark.value(), "No config item, Namespace: ns Key: k");
  processor_.Process(Request(rc::kPutKvConfig, {{"namespace", "ns"}, {"key", "k"}, {"value", "v"}}),
                     0);
  RemotingCommand found = get();
  EXPECT_EQ(found.code, resp::kSuccess);
  EXPECT_EQ(found.ext_fields.Get("value").value(), "v");
  RemotingCommand list = processor_.Process(Request(rc::kGetKvlistByNamespace, {{"namespace", "ns"}}), 0);
  EXPECT_EQ(list.body, R"({"table":{"k":"v"}})");
  EXPECT_EQ(processor_.Process(Request(rc::kDeleteKvConfig, {{"namespace", "ns"}, {"key", "k"}}), 0)
                .code,
            resp::kSuccess);
  EXPECT_EQ(get().code, resp::kQueryNotFound);
  EXPECT_EQ(processor_.Process(Request(rc::kGetKvlistByNamespace, {{"namespace", "ns"}}), 0).code,
            resp::kQueryNotFound);
  EXPECT_EQ(processor_.Process(Request(rc::kPutKvConfig, {{"namespace", "ns"}}), 0).code,
            resp::kSystemError);
  // A 1 MB value is refused, naming the limit; nothing is stored.
  RemotingCommand big = processor_.Process(
      Request(rc::kPutKvConfig,
              {{"namespace", "ns"}, {"key", "big"}, {"value", std::string(1 << 20, 'v')}}),
      0);
  EXPECT_EQ(big.code, resp::kInvalidParameter);
  EXPECT_NE(big.remark.value_or("").find("65536"), std::string::npos) << big.remark.value_or("");
  EXPECT_EQ(
      processor_.Process(Request(rc::kGetKvConfig, {{"namespace", "ns"}, {"key", "big"}}), 0).code,
      resp::kQueryNotFound);
}

TEST_F(DefaultRequestProcessorTest, TopicListsAndGating) {
  Register("c1", "broker-a", 0, "a:1",
           {{"T1", 4, 4, 6, 0}, {"U", 4, 4, 6, protocol::kTopicSysFlagUnit}});
  Register("c2", "broker-b", 0, "b:1", {{"T2", 4, 4, 6, 0}}, 2);
  EXPECT_EQ(processor_.Process(Request(rc::kGetAllTopicListFromNameserver), 0).body,
            R"({"topicList":["T1","T2","U"]})");
  EXPECT_EQ(processor_.Process(Request(rc::kGetTopicsByCluster, {{"cluster", "c2"}}), 0).body,
            R"({"topicList":["T2"]})");
  EXPECT_EQ(processor_.Process(Request(rc::kGetUnitTopicList), 0).body, R"({"topicList":["U"]})");
  EXPECT_EQ(processor_.Process(Request(rc::kGetHasUnitSubTopicList), 0).body,
            R"({"topicList":[]})");
  EXPECT_EQ(processor_.Process(Request(rc::kGetSystemTopicListFromNs), 0).body,
            R"({"brokerAddr":"a:1","topicList":["broker-a","broker-b","c1","c2"]})");
  ASSERT_TRUE(config_.UpdateAtRuntime({{"enableAllTopicList", "false"},
                                       {"enableTopicList", "false"}})
                  .ok());
  RemotingCommand off = processor_.Process(Request(rc::kGetAllTopicListFromNameserver), 0);
  EXPECT_EQ(off.code, resp::kSystemError);
  EXPECT_EQ(off.remark.value(), "disable");
  EXPECT_EQ(processor_.Process(Request(rc::kGetTopicsByCluster, {{"cluster", "c2"}}), 0).code,
            resp::kSystemError);
}

TEST_F(DefaultRequestProcessorTest, WipeAddDeleteAndUnregister) {
  Register("c1", "broker-a", 0, "a:1", {{"T1", 4, 4, 6, 0}, {"T2", 4, 4, 6, 0}});
  RemotingCommand wipe = processor_.Process(Request(rc::kWipeWritePermOfBroker, {{"brokerName", "broker-a"}}), 0);
  EXPECT_EQ(wipe.ext_fields.Get("wipeTopicCount").value(), "2");
  EXPECT_EQ(routes_.GetTopicRoute("T1")->queue_datas[0].perm, 4);
  RemotingCommand add = processor_.Process(Request(rc::kAddWritePermOfBroker, {{"brokerName", "broker-a"}}), 0);
  EXPECT_EQ(add.ext_fields.Get("addTopicCount").value(), "2");
  processor_.Process(Request(rc::kDeleteTopicInNamesrv, {{"topic", "T2"}}), 0);
  EXPECT_FALSE(routes_.GetTopicRoute("T2").has_value());
  processor_.Process(Request(rc::kUnregisterBroker, {{"brokerName", "broker-a"},
                                                     {"brokerAddr", "a:1"},
                                                     {"clusterName", "c1"},
                                                     {"brokerId", "0"}}),
                     0);
  EXPECT_FALSE(routes_.GetTopicRoute("T1").has_value());
}

TEST_F(DefaultRequestProcessorTest, RegisterTopicInNamesrv) {
  Register("c1", "broker-a", 0, "a:1", {});
  protocol::TopicRouteData route;
  route.queue_datas = {protocol::QueueData{"broker-a", 2, 2, 6, 0}};
  RemotingCommand ok = processor_.Process(
      Request(rc::kRegisterTopicInNamesrv, {{"topic", "Static"}},
              protocol::EncodeTopicRouteData(route, protocol::MapKeyStyle::kQuoted)),
      0);
  EXPECT_EQ(ok.code, resp::kSuccess) << ok.remark.value_or("");
  EXPECT_TRUE(routes_.GetTopicRoute("Static").has_value());
  route.queue_datas[0].broker_name = "ghost";
  RemotingCommand bad = processor_.Process(
      Request(rc::kRegisterTopicInNamesrv, {{"topic", "Other"}},
              protocol::EncodeTopicRouteData(route, protocol::MapKeyStyle::kQuoted)),
      0);
  EXPECT_EQ(bad.code, resp::kSystemError);
  EXPECT_NE(bad.remark.value_or("").find("ghost"), std::string::npos);
  RemotingCommand garbage = processor_.Process(
      Request(rc::kRegisterTopicInNamesrv, {{"topic", "Other"}}, "{not json"), 0);
  EXPECT_EQ(garbage.code, resp::kSystemError);
}

TEST_F(DefaultRequestProcessorTest, QueryDataVersion) {
  Register("c1", "broker-a", 0, "a:1", {{"T", 4, 4, 6, 0}});
  std::map<std::string, std::string> ext = {
      {"brokerName", "broker-a"}, {"brokerAddr", "a:1"}, {"clusterName", "c1"}, {"brokerId", "0"}};
  RemotingCommand same = processor_.Process(
      Request(rc::kQueryDataVersion, ext, DataVersionJson(1)), 0);
  EXPECT_EQ(same.ext_fields.Get("changed").value(), "false");
  EXPECT_EQ(protocol::DecodeDataVersion(same.body).value(), (protocol::DataVersion{0, 1000, 1}));
  RemotingCommand changed = processor_.Process(
      Request(rc::kQueryDataVersion, ext, DataVersionJson(2)), 0);
  EXPECT_EQ(changed.ext_fields.Get("changed").value(), "true");
  ext["brokerAddr"] = "unknown:1";
  RemotingCommand unknown = processor_.Process(
      Request(rc::kQueryDataVersion, ext, DataVersionJson(1)), 0);
  EXPECT_EQ(unknown.ext_fields.Get("changed").value(), "true");
  EXPECT_TRUE(unknown.body.empty());
}

TEST_F(DefaultRequestProcessorTest, NamesrvConfigGetAndUpdate) {
  RemotingCommand get = processor_.Process(Request(rc::kGetNamesrvConfig), 0);
  EXPECT_NE(get.body.find("listenPort=9876\n"), std::string::npos);

  RemotingCommand ok = processor_.Process(
      Request(rc::kUpdateNamesrvConfig, {}, "brokerChannelExpiredTime=1000\n"), 0);
  EXPECT_EQ(ok.code, resp::kSuccess) << ok.remark.value_or("");
  EXPECT_EQ(config_.Snapshot().broker_channel_expired_time, 1000);
  // The new default timeout applies to brokers registering from now on.
  Register("c1", "broker-a", 0, "a:1", {{"T", 4, 4, 6, 0}}, 5);
  clock_.Advance(1001);
  EXPECT_EQ(routes_.ScanNotActiveBroker(), std::vector<ChannelId>{5});

  RemotingCommand refused = processor_.Process(
      Request(rc::kUpdateNamesrvConfig, {}, "kvConfigPath=/tmp/evil\n"), 0);
  EXPECT_EQ(refused.code, resp::kNoPermission);
  EXPECT_NE(refused.remark.value().find("kvConfigPath"), std::string::npos);
  RemotingCommand bad = processor_.Process(
      Request(rc::kUpdateNamesrvConfig, {}, "orderMessageEnable=maybe\n"), 0);
  EXPECT_EQ(bad.code, resp::kSystemError);
  RemotingCommand garbage = processor_.Process(Request(rc::kUpdateNamesrvConfig, {}, "no equals"), 0);
  EXPECT_EQ(garbage.code, resp::kSystemError);
}

TEST_F(DefaultRequestProcessorTest, BrokerHeartbeatRefreshesLiveness) {
  Register("c1", "broker-a", 0, "a:1", {{"T", 4, 4, 6, 0}}, 3);
  clock_.Advance(100000);
  processor_.Process(Request(rc::kBrokerHeartbeat, {{"clusterName", "c1"},
                                                     {"brokerAddr", "a:1"},
                                                     {"brokerName", "broker-a"}}),
                     0);
  clock_.Advance(100000);
  EXPECT_TRUE(routes_.ScanNotActiveBroker().empty());
}

// Every request the real clients (ali-ons 3.12.0, the C++ client 1.2) sent to the
// NameServer, replayed: all must be answered with a route in the bare-key form (both send
// versions below 401), whatever extra keys (AccessKey, Signature, OnsChannel) they carry.
TEST_F(DefaultRequestProcessorTest, ReplaysRealClientNameServerRequests) {
  Register("DefaultCluster", "broker-a", 0, "127.0.0.1:10911",
           {{"TopicTest", 4, 4, 6, 0}, {"TBW102", 8, 8, 7, 0}, {"%RETRY%G1", 1, 1, 6, 0}});
  int replayed = 0;
  for (const char* file : {"ali-ons-3.12.0.jsonl", "rocketmq-client-cpp-1.2.jsonl"}) {
    std::ifstream in(::apogee::testing::FixturesDir() + "/client-requests/" + file);
    ASSERT_TRUE(in) << file;
    std::string line;
    while (std::getline(in, line)) {
      rapidjson::Document d;
      d.Parse(line.c_str());
      ASSERT_FALSE(d.HasParseError()) << line;
      if (d["port"].GetInt() != 9876) continue;
      RemotingCommand req = RemotingCommand::MakeRequest(d["code"].GetInt());
      req.version = d["version"].GetInt();
      req.language = protocol::LanguageFromName(d["language"].GetString());
      req.opaque = d["opaque"].GetInt();
      req.has_ext_fields = true;
      for (const auto& m : d["extFields"].GetObject()) {
        req.ext_fields.Set(m.name.GetString(), m.value.IsString() ? m.value.GetString() : "");
      }
      RemotingCommand out = processor_.Process(req, 0);
      EXPECT_EQ(out.code, resp::kSuccess) << file << ": " << line;
      EXPECT_EQ(out.opaque, req.opaque);
      EXPECT_NE(out.body.find(R"("brokerAddrs":{0:"127.0.0.1:10911"})"), std::string::npos)
          << out.body;
      ++replayed;
    }
  }
  EXPECT_GE(replayed, 10);
}

TEST_F(DefaultRequestProcessorTest, HandledCodesCoverEveryNameServerRequest) {
  std::vector<int32_t> codes = processor_.HandledCodes();
  for (int32_t code : {100, 101, 102, 103, 104, 105, 106, 205, 206, 216, 217, 219, 224, 304, 311, 312,
                       313, 318, 319, 322, 327, 904}) {
    EXPECT_NE(std::find(codes.begin(), codes.end(), code), codes.end()) << code;
  }
}

}  // namespace
}  // namespace apogee::namesrv
