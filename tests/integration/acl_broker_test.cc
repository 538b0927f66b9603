// The attacks of issue 16 against a broker with aclEnable=true, each now refused, and the
// signed traffic that must keep working (C++ client with credentials). Loopback only.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "acl_harness.h"
#include "apogee/producer.h"
#include "client/mq_client_api.h"
#include "protocol/admin_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/heartbeat_data.h"

namespace apogee::testing {
namespace {

using namespace std::chrono_literals;
namespace req = protocol::request_code;
namespace rc = protocol::response_code;
using protocol::RemotingCommand;

class AclBrokerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cluster_.Start());
    anonymous_ = SigningClient({});
    user_ = SigningClient(kAclUser);
    admin_ = SigningClient(kAclAdmin);
    ASSERT_EQ(Call(*admin_, CreateTopic("TopicAcl")).code, rc::kSuccess);
    ASSERT_EQ(Call(*admin_, CreateTopic("TopicOther")).code, rc::kSuccess);
    ASSERT_TRUE(cluster_.WaitForRoute("TopicAcl"));
    ASSERT_TRUE(cluster_.WaitForRoute("TopicOther"));
  }

  std::string broker() { return cluster_.broker().addr(); }

  RemotingCommand Call(remoting::RemotingClient& client, RemotingCommand request) {
    return CallOrFail(client, broker(), std::move(request));
  }

  static RemotingCommand CreateTopic(const std::string& topic) {
    protocol::CreateTopicRequestHeader h;
    h.topic = topic;
    h.default_topic = "TBW102";
    h.read_queue_nums = 2;
    h.write_queue_nums = 2;
    h.perm = 6;
    h.topic_filter_type = "SINGLE_TAG";
    RemotingCommand request = RemotingCommand::MakeRequest(req::kUpdateAndCreateTopic);
    protocol::EncodeCustomHeader(h, &request);
    return request;
  }
  static RemotingCommand UpdateConfig(const std::string& body) {
    RemotingCommand request = RemotingCommand::MakeRequest(req::kUpdateBrokerConfig);
    request.body = body;
    return request;
  }
  static RemotingCommand DeleteTopic(const std::string& topic) {
    protocol::DeleteTopicRequestHeader h;
    h.topic = topic;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kDeleteTopicInBroker);
    protocol::EncodeCustomHeader(h, &request);
    return request;
  }
  static RemotingCommand UpdateOffset(const std::string& group, const std::string& topic) {
    protocol::UpdateConsumerOffsetRequestHeader h;
    h.consumer_group = group;
    h.topic = topic;
    h.queue_id = 0;
    h.commit_offset = 1000;
    RemotingCommand request = RemotingCommand::MakeRequest(req::kUpdateConsumerOffset);
    protocol::EncodeCustomHeader(h, &request);
    return request;
  }

  static void ExpectRefused(const RemotingCommand& response, const std::string& remark_part) {
    EXPECT_EQ(response.code, rc::kNoPermission) << response.remark.value_or("");
    EXPECT_NE(response.remark.value_or("").find(remark_part), std::string::npos)
        << response.remark.value_or("");
    EXPECT_EQ(response.remark.value_or("").find("Secret1"), std::string::npos);
  }

  AclCluster cluster_;
  std::unique_ptr<remoting::RemotingClient> anonymous_, user_, admin_;
};

TEST_F(AclBrokerTest, BrokerPermissionZeroNeedsAdmin) {
  ExpectRefused(Call(*anonymous_, UpdateConfig("brokerPermission=0\n")), "No accessKey");
  ExpectRefused(Call(*user_, UpdateConfig("brokerPermission=0\n")),
                "Need admin permission for request code=25");
  // brokerPermission stays an admin's tool.
  EXPECT_EQ(Call(*admin_, UpdateConfig("brokerPermission=6\n")).code, rc::kSuccess);
}

TEST_F(AclBrokerTest, SecurityKeysAreRefusedEvenForAdmin) {
  for (const char* body : {"aclEnable=false\n", "brokerRole=SLAVE\n", "listenPort=1\n",
                           "brokerIP1=127.0.0.2\n", "aclFilePath=/tmp/open.yml\n",
                           "namesrvAddr=127.0.0.2:9876\n"}) {
    RemotingCommand r = Call(*admin_, UpdateConfig(body));
    EXPECT_EQ(r.code, rc::kNoPermission) << body << " -> " << r.remark.value_or("");
  }
}

TEST_F(AclBrokerTest, DeleteTopicNeedsAdmin) {
  ExpectRefused(Call(*anonymous_, DeleteTopic("TopicAcl")), "No accessKey");
  ExpectRefused(Call(*user_, DeleteTopic("TopicAcl")), "Need admin permission for request code=215");
  EXPECT_EQ(Call(*admin_, DeleteTopic("TopicOther")).code, rc::kSuccess);
}

TEST_F(AclBrokerTest, UpdateConsumerOffsetNeedsSubscribeRights) {
  ExpectRefused(Call(*anonymous_, UpdateOffset("G", "TopicAcl")), "No accessKey");
  ExpectRefused(Call(*user_, UpdateOffset("BlockedGroup", "TopicAcl")), "group:BlockedGroup");
  ExpectRefused(Call(*user_, UpdateOffset("G", "TopicOther")), "SUB permission for topic:TopicOther");
  EXPECT_EQ(Call(*user_, UpdateOffset("G", "TopicAcl")).code, rc::kSuccess);
}

TEST_F(AclBrokerTest, WrongSecretAndUnknownKeyAreRefused) {
  auto wrong = SigningClient({"userAccess", "userSecret2", std::nullopt, std::nullopt});
  ExpectRefused(Call(*wrong, UpdateOffset("G", "TopicAcl")),
                "Check signature failed for accessKey=userAccess");
  auto unknown = SigningClient({"strangerKey", "userSecret1", std::nullopt, std::nullopt});
  ExpectRefused(Call(*unknown, UpdateOffset("G", "TopicAcl")), "No acl config for strangerKey");
}

TEST_F(AclBrokerTest, ClientWithCredentialsSendsAndPullsOnlyWhereAllowed) {
  ProducerConfig config;
  config.namesrv_addr = cluster_.namesrv().addr();
  config.group_name = "AclProducerGroup";
  config.instance_name = "acl_it";
  config.access_key = kAclUser.access_key;
  config.secret_key = kAclUser.secret_key;
  config.retry_times_when_send_failed = 0;
  Producer producer(config);
  ASSERT_TRUE(producer.Start().ok());
  auto sent = producer.Send(Message("TopicAcl", "tag", "hello acl"));
  ASSERT_TRUE(sent.ok()) << sent.status().ToString();
  auto denied = producer.Send(Message("TopicOther", "tag", "nope"));
  ASSERT_FALSE(denied.ok());
  EXPECT_NE(denied.status().message().find("PUB permission for topic:TopicOther"), std::string::npos)
      << denied.status().ToString();
  producer.Shutdown();

  client::MQClientAPIOptions options;
  options.credentials = kAclUser;
  client::MQClientAPI api(options);
  api.Start();
  // The broker serves pulls of a group it has a heartbeat from (signed, SUB on group and
  // topic).
  protocol::HeartbeatData heartbeat;
  heartbeat.client_id = "127.0.0.1@acl_it";
  protocol::ConsumerData consumer;
  consumer.group_name = "AclConsumerGroup";
  protocol::SubscriptionData subscription;
  subscription.topic = "TopicAcl";
  subscription.sub_string = "*";
  consumer.subscription_data_set.push_back(subscription);
  heartbeat.consumer_data_set.push_back(consumer);
  auto beat = api.SendHeartbeat(broker(), heartbeat, 5s);
  ASSERT_TRUE(beat.ok()) << beat.status().ToString();
  protocol::PullMessageRequestHeader h;
  h.consumer_group = "AclConsumerGroup";
  h.topic = "TopicAcl";
  h.queue_id = sent->message_queue.queue_id();
  h.queue_offset = 0;
  h.max_msg_nums = 32;
  h.sys_flag = 2;  // subscription
  h.subscription = "*";
  h.expression_type = "TAG";
  h.suspend_timeout_millis = 1000;
  std::string last;
  bool pulled = WaitUntil(
      [&] {
        auto r = api.PullMessageSync(broker(), h, 5s);
        last = r.ok() ? "code " + std::to_string(r->code) + " " + r->remark : r.status().ToString();
        return r.ok() && r->code == rc::kSuccess && r->body.find("hello acl") != std::string::npos;
      },
      10s);
  EXPECT_TRUE(pulled) << last;
  // A refusal is an error of the pull call carrying the broker's code and remark.
  h.consumer_group = "BlockedGroup";
  auto blocked = api.PullMessageSync(broker(), h, 5s);
  ASSERT_FALSE(blocked.ok());
  EXPECT_NE(blocked.status().message().find("group:BlockedGroup"), std::string::npos)
      << blocked.status().ToString();
  api.Shutdown();
}

TEST_F(AclBrokerTest, FileChangesApplyWithoutRestartAndBrokenFilesAreIgnored) {
  ExpectRefused(Call(*user_, UpdateOffset("G", "TopicOther")), "topic:TopicOther");
  std::string yaml = kAclYaml;
  std::string opened = yaml;
  opened.replace(opened.find("TopicRead=SUB"), 13, "TopicOther=SUB");
  AclFiles::Write(cluster_.files().acl_path(), opened);
  EXPECT_TRUE(WaitUntil([&] { return Call(*user_, UpdateOffset("G", "TopicOther")).code == rc::kSuccess; },
                        10s));
  // A broken file keeps the last good one, and the log says why.
  AclFiles::Write(cluster_.files().acl_path(), "accounts: [ broken\n");
  EXPECT_TRUE(WaitUntil(
      [&] { return cluster_.broker().ReadLog().find("is not usable, keeping the previous one") !=
                   std::string::npos; },
      10s));
  EXPECT_EQ(Call(*user_, UpdateOffset("G", "TopicOther")).code, rc::kSuccess);
}

// Where the file is found (issue 16 item 4): <rocketmqHome>/conf/plain_acl.yml as Java, a
// -Drocketmq.acl.plain.file relative to rocketmqHome, and aclFilePath over both.
class AclFileLookupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(home_.Join("conf"));
    admin_ = SigningClient(kAclAdmin);
    anonymous_ = SigningClient({});
  }
  // OK when the broker at `addr` enforces kAclYaml: unsigned admin calls are refused, the
  // admin account's are not.
  void ExpectEnforced(const std::string& addr) {
    RemotingCommand refused =
        CallOrFail(*anonymous_, addr, RemotingCommand::MakeRequest(req::kGetBrokerConfig));
    EXPECT_EQ(refused.code, rc::kNoPermission) << refused.remark.value_or("");
    RemotingCommand allowed =
        CallOrFail(*admin_, addr, RemotingCommand::MakeRequest(req::kGetBrokerConfig));
    EXPECT_EQ(allowed.code, rc::kSuccess) << allowed.remark.value_or("");
  }

  TempDir home_;
  std::unique_ptr<remoting::RemotingClient> admin_, anonymous_;
};

TEST_F(AclFileLookupTest, DefaultIsRocketmqHomeConf) {
  AclFiles::Write(home_.Join("conf/plain_acl.yml"), kAclYaml);
  BrokerProcess broker({{"aclEnable", "true"}, {"rocketmqHome", home_.path()}});
  ASSERT_TRUE(broker.Start(""));
  ExpectEnforced(broker.addr());
  EXPECT_NE(broker.ReadLog().find(home_.Join("conf/plain_acl.yml")), std::string::npos);
}

TEST_F(AclFileLookupTest, JvmPropertyIsRelativeToHomeAndAclFilePathWins) {
  AclFiles::Write(home_.Join("conf/other_acl.yml"), kAclYaml);
  BrokerProcess by_property({{"aclEnable", "true"}, {"rocketmqHome", home_.path()}});
  ASSERT_TRUE(by_property.Start("", {"-Drocketmq.acl.plain.file=conf/other_acl.yml"}));
  ExpectEnforced(by_property.addr());
  by_property.Stop();

  // No file at the property's place: aclFilePath must be the one read.
  AclFiles::Write(home_.Join("explicit.yml"), kAclYaml);
  BrokerProcess by_key({{"aclEnable", "true"},
                        {"rocketmqHome", home_.path()},
                        {"aclFilePath", home_.Join("explicit.yml")}});
  ASSERT_TRUE(by_key.Start("", {"-Drocketmq.acl.plain.file=conf/absent.yml"}));
  ExpectEnforced(by_key.addr());
}

TEST(AclBrokerStartupTest, MissingAclFileStopsTheBroker) {
  TempDir dir;
  uint16_t port = PickFreePort({-2, +1});
  std::string conf = dir.Join("broker.conf");
  std::ofstream(conf) << "brokerName=acl-missing\nbrokerIP1=127.0.0.1\nbindAddress=127.0.0.1\n"
                      << "listenPort=" << port << "\nstorePathRootDir=" << dir.Join("store")
                      << "\naclEnable=true\naclFilePath=" << dir.Join("missing.yml") << "\n";
  ChildProcess process;
  ASSERT_TRUE(process.Start({BrokerBinary(), "-c", conf}, dir.Join("broker.log"),
                            {{"APOGEE_LOG_DIR", dir.Join("logs")}}));
  EXPECT_TRUE(WaitUntil([&] { return !process.running(); }, 20s));
  EXPECT_NE(process.ReadLog().find("missing.yml"), std::string::npos) << process.ReadLog();
}

}  // namespace
}  // namespace apogee::testing
