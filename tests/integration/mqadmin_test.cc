// Black-box tests of the mqadmin binary against a real mqnamesrv + mqbroker: each test
// runs `mqadmin <command> -n <namesrv> ...` as a child process and checks its output and
// exit code, the way an operator's script would.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "broker_process.h"
#include "protocol/namesrv_headers.h"
#include "protocol/remoting_command.h"
#include "remoting/remoting_client.h"
#include "testutil/test_util.h"
#include "tool_run.h"

namespace apogee::testing {
namespace {

class MQAdminTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new SingleBrokerCluster();
    ASSERT_TRUE(cluster_->Start());
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  ToolResult Admin(std::vector<std::string> args) {
    args.push_back("-n");
    args.push_back(cluster_->namesrv().addr());
    return RunTool("mqadmin", args);
  }
  // Runs a command that must succeed and returns its output.
  std::string AdminOk(const std::vector<std::string>& args) {
    ToolResult r = Admin(args);
    EXPECT_EQ(r.exit_code, 0) << "mqadmin " << args[0] << ":\n" << r.output;
    return r.output;
  }
  std::string BrokerAddr() { return cluster_->broker().addr(); }
  // Creates `topic` with `queues` queues and waits until the NameServer routes it. (Waits in
  // this file are generous: on a loaded 2-core machine a tool run can take seconds.)
  void CreateTopic(const std::string& topic, int queues) {
    std::string out = AdminOk({"updateTopic", "-c", "DefaultCluster", "-t", topic, "-r", std::to_string(queues),
                               "-w", std::to_string(queues)});
    ASSERT_NE(out.find("create topic to " + BrokerAddr() + " success."), std::string::npos) << out;
    ASSERT_TRUE(WaitUntil([&] { return Admin({"topicRoute", "-t", topic}).exit_code == 0; },
                          std::chrono::seconds(30)));
  }
  // sendMessage; returns the client msgId printed in the last column.
  std::string Send(const std::string& topic, const std::string& body, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"sendMessage", "-t", topic, "-p", body};
    args.insert(args.end(), extra.begin(), extra.end());
    std::string out = AdminOk(args);
    std::smatch m;
    EXPECT_TRUE(std::regex_search(out, m, std::regex("SEND_OK\\s+([0-9A-F]{32})"))) << out;
    return m.size() > 1 ? m[1].str() : "";
  }

  static SingleBrokerCluster* cluster_;
};

SingleBrokerCluster* MQAdminTest::cluster_ = nullptr;

TEST_F(MQAdminTest, UpdateTopicShowsInTopicListRouteAndStatus) {
  CreateTopic("AdminTopicA", 3);
  std::string list = AdminOk({"topicList"});
  EXPECT_TRUE(std::regex_search(list, std::regex("(^|\n)AdminTopicA\n"))) << list;

  std::string route = AdminOk({"topicRoute", "-t", "AdminTopicA"});
  EXPECT_NE(route.find("\"readQueueNums\": 3"), std::string::npos) << route;
  EXPECT_NE(route.find(BrokerAddr()), std::string::npos) << route;
  std::string table = AdminOk({"topicRoute", "-t", "AdminTopicA", "-l"});
  EXPECT_TRUE(std::regex_search(table, std::regex("DefaultCluster\\s+broker-a\\s+\\{0=" + BrokerAddr() +
                                                  "\\}\\s+3\\s+3\\s+6")))
      << table;

  std::string status = AdminOk({"topicStatus", "-t", "AdminTopicA"});
  for (int q = 0; q < 3; ++q) {
    EXPECT_TRUE(std::regex_search(status, std::regex("broker-a\\s+" + std::to_string(q) + "\\s+0\\s+0")))
        << status;
  }
  EXPECT_EQ(AdminOk({"topicClusterList", "-t", "AdminTopicA"}), "DefaultCluster\n");
}

TEST_F(MQAdminTest, UpdateTopicAttributesInJavasFormatAreStored) {
  // mqadmin sends "+message.type=FIFO" (AttributeParser.parseToString) and the broker keeps it.
  std::string out = AdminOk({"updateTopic", "-c", "DefaultCluster", "-t", "AdminFifoTopic", "-r", "2", "-w",
                             "2", "-a", "+message.type=FIFO"});
  ASSERT_NE(out.find("success."), std::string::npos) << out;
  std::string topics;
  EXPECT_TRUE(WaitUntil(
      [&] {
        topics = ReadFileOrEmpty(cluster_->broker().config_dir() + "/topics.json");
        return std::regex_search(topics, std::regex(R"("AdminFifoTopic"[^}]*"attributes"\s*:\s*\{\s*"message.type"\s*:\s*"FIFO")"));
      },
      std::chrono::seconds(10)))
      << topics;
  // A bad attribute is refused by the broker with its reason.
  ToolResult bad = Admin({"updateTopic", "-c", "DefaultCluster", "-t", "AdminFifoTopic", "-a", "message.type"});
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
}

TEST_F(MQAdminTest, StatisticsShowWhatWasSentAndConsumed) {
  CreateTopic("AdminTopicS", 2);
  for (int i = 0; i < 3; ++i) Send("AdminTopicS", "s-" + std::to_string(i));
  std::string consumed;
  ASSERT_TRUE(WaitUntil(
      [&] {
        consumed = AdminOk({"consumeMessage", "-t", "AdminTopicS", "-g", "AdminGroupS"});
        return consumed.find("BODY: s-") != std::string::npos;
      },
      std::chrono::seconds(30)))
      << consumed;
  // brokerStatus: totals and the one-minute put rate are live (the suite's other tests send
  // to the same broker, so at least).
  std::string status = AdminOk({"brokerStatus", "-b", BrokerAddr()});
  std::smatch m;
  ASSERT_TRUE(std::regex_search(status, m, std::regex(R"(\nmsgPutTotalTodayNow\s+: (\d+))"))) << status;
  EXPECT_GE(std::stoll(m[1].str()), 3) << status;
  ASSERT_TRUE(std::regex_search(status, m, std::regex(R"(\nputTps\s+: [0-9.]+ ([0-9.]+) )"))) << status;
  EXPECT_GT(std::stod(m[1].str()), 0.0) << status;
  ASSERT_TRUE(std::regex_search(status, m, std::regex(R"(\nmsgGetTotalTodayNow\s+: (\d+))"))) << status;
  EXPECT_GE(std::stoll(m[1].str()), 1) << status;
  // consumerProgress: the group's one-minute consume rate.
  std::string progress = AdminOk({"consumerProgress", "-g", "AdminGroupS"});
  ASSERT_TRUE(std::regex_search(progress, m, std::regex("Consume TPS: ([0-9.]+)"))) << progress;
  EXPECT_GT(std::stod(m[1].str()), 0.0) << progress;
  // statsAll: once a 10 s snapshot exists, the minute view holds the 3 puts.
  std::string stats;
  EXPECT_TRUE(WaitUntil(
      [&] {
        stats = AdminOk({"statsAll", "-t", "AdminTopicS"});
        return std::regex_search(stats, std::regex(R"(AdminTopicS\s+AdminGroupS\s+\d+\s+[0-9.]+\s+[0-9.]+\s+3\s+\d+)"));
      },
      std::chrono::seconds(40)))
      << stats;
  EXPECT_NE(stats.find("#InTPS"), std::string::npos) << stats;
}

// Java's %-Ns: `s` left-aligned in at least `width` characters.
std::string Left(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

TEST_F(MQAdminTest, BrokerConsumeStatsPrintsEachConsumedQueuesLag) {
  CreateTopic("AdminTopicB", 2);
  for (int i = 0; i < 3; ++i) Send("AdminTopicB", "b0-" + std::to_string(i), {"-b", "broker-a", "-i", "0"});
  for (int i = 0; i < 2; ++i) Send("AdminTopicB", "b1-" + std::to_string(i), {"-b", "broker-a", "-i", "1"});
  // The group consumes (and commits) all five...
  int consumed = 0;
  ASSERT_TRUE(WaitUntil(
      [&] {
        std::string out = AdminOk({"consumeMessage", "-t", "AdminTopicB", "-g", "AdminGroupB"});
        for (size_t at = out.find("BODY: b"); at != std::string::npos; at = out.find("BODY: b", at + 1)) ++consumed;
        return consumed >= 5;
      },
      std::chrono::seconds(30)));
  EXPECT_EQ(consumed, 5);
  // ...then two more arrive in queue 0 and one in queue 1: lag 2 and 1.
  for (int i = 3; i < 5; ++i) Send("AdminTopicB", "b0-" + std::to_string(i), {"-b", "broker-a", "-i", "0"});
  Send("AdminTopicB", "b1-2", {"-b", "broker-a", "-i", "1"});

  const std::string header = Left("#Topic", 32) + "  " + Left("#Group", 32) + "  " + Left("#Broker Name", 32) +
                             "  " + Left("#QID", 4) + "  " + Left("#Broker Offset", 20) + "  " +
                             Left("#Consumer Offset", 20) + "  " + Left("#Diff", 20) + "  #LastTime\n";
  // Java's row: topic in 64 columns, then group, broker name, queue id, offsets, diff, the
  // store time of the last consumed message.
  auto row = [](int qid, int broker_offset, int consumer_offset) {
    return Left("AdminTopicB", 64) + "  " + Left("AdminGroupB", 32) + "  " + Left("broker-a", 32) + "  " +
           Left(std::to_string(qid), 4) + "  " + Left(std::to_string(broker_offset), 20) + "  " +
           Left(std::to_string(consumer_offset), 20) + "  " +
           Left(std::to_string(broker_offset - consumer_offset), 20) + "  " +
           R"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n)";
  };
  const std::regex queue0(row(0, 5, 3));
  const std::regex queue1(row(1, 3, 2));
  // Queue 0's row right before queue 1's (Collections.sort over the MessageQueues).
  const std::regex both(row(0, 5, 3) + row(1, 3, 2));
  std::string out;
  ASSERT_TRUE(WaitUntil(  // until the three new messages are dispatched to the ConsumeQueue
      [&] {
        out = AdminOk({"brokerConsumeStats", "-b", BrokerAddr()});
        return std::regex_search(out, both);
      },
      std::chrono::seconds(30)))
      << out;
  EXPECT_TRUE(out.starts_with(header)) << out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex("\n\nDiff Total: (\\d+)\n$"))) << out;
  EXPECT_GE(std::stoll(m[1].str()), 3) << out;  // other tests' groups may owe messages too

  // -l: only queues owing at least that many; -t: the timeout in milliseconds.
  out = AdminOk({"brokerConsumeStats", "-b", BrokerAddr(), "-l", "2", "-t", "10000"});
  EXPECT_TRUE(std::regex_search(out, queue0)) << out;
  EXPECT_FALSE(std::regex_search(out, queue1)) << out;
  // -o true: ordered topics only (AdminTopicB is not).
  out = AdminOk({"brokerConsumeStats", "-b", BrokerAddr(), "-o", "true"});
  EXPECT_EQ(out.find("AdminTopicB"), std::string::npos) << out;
  EXPECT_TRUE(out.starts_with(header)) << out;

  // -b is required; a bad number is refused.
  EXPECT_EQ(Admin({"brokerConsumeStats"}).exit_code, 1);
  EXPECT_EQ(Admin({"brokerConsumeStats", "-b", BrokerAddr(), "-l", "x"}).exit_code, 1);
}

TEST_F(MQAdminTest, ClusterListAndBrokerStatus) {
  std::string clusters = AdminOk({"clusterList"});
  EXPECT_TRUE(std::regex_search(clusters, std::regex("DefaultCluster\\s+broker-a\\s+0\\s+" + BrokerAddr())))
      << clusters;
  EXPECT_NE(clusters.find("true"), std::string::npos) << clusters;  // #ACTIVATED

  std::string status = AdminOk({"brokerStatus", "-b", BrokerAddr()});
  EXPECT_TRUE(std::regex_search(status, std::regex("\nputTps\\s+: "))) << status;
  EXPECT_TRUE(std::regex_search(status, std::regex("brokerVersionDesc\\s+: V"))) << status;
}

TEST_F(MQAdminTest, GetAndUpdateBrokerConfig) {
  std::string config = AdminOk({"getBrokerConfig", "-b", BrokerAddr()});
  EXPECT_TRUE(std::regex_search(config, std::regex("brokerName\\s+=  broker-a\n"))) << config;

  std::string updated = AdminOk({"updateBrokerConfig", "-b", BrokerAddr(), "-k", "defaultTopicQueueNums", "-v", "7"});
  EXPECT_EQ(updated, "update broker config success, " + BrokerAddr() + "\n");
  config = AdminOk({"getBrokerConfig", "-c", "DefaultCluster"});
  EXPECT_TRUE(std::regex_search(config, std::regex("defaultTopicQueueNums\\s+=  7\n"))) << config;

  // A key the broker does not allow at run time: refused, exit code 1, the reason shown.
  ToolResult refused = Admin({"updateBrokerConfig", "-b", BrokerAddr(), "-k", "brokerName", "-v", "x"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.output.find("NO_PERMISSION"), std::string::npos) << refused.output;
}

TEST_F(MQAdminTest, UpdateAndDeleteSubGroup) {
  std::string out = AdminOk({"updateSubGroup", "-b", BrokerAddr(), "-g", "AdminGroupS", "-r", "5"});
  EXPECT_NE(out.find("create subscription group to " + BrokerAddr() + " success."), std::string::npos) << out;
  EXPECT_NE(out.find("\"retryMaxTimes\":5"), std::string::npos) << out;
  out = AdminOk({"deleteSubGroup", "-b", BrokerAddr(), "-g", "AdminGroupS"});
  EXPECT_NE(out.find("delete subscription group [AdminGroupS] from broker [" + BrokerAddr() + "] success."),
            std::string::npos)
      << out;
}

TEST_F(MQAdminTest, SendMessageThenQueryByIdKeyAndOffset) {
  CreateTopic("AdminTopicQ", 2);
  std::string id = Send("AdminTopicQ", "hello-query", {"-k", "OrderKey42", "-c", "TagQ", "-b", "broker-a", "-i", "1"});
  ASSERT_FALSE(id.empty());

  // The IndexFile and ConsumeQueue are built asynchronously: poll briefly.
  std::string by_key;
  ASSERT_TRUE(WaitUntil(
      [&] {
        by_key = AdminOk({"queryMsgByKey", "-t", "AdminTopicQ", "-k", "OrderKey42"});
        return by_key.find(id) != std::string::npos;
      },
      std::chrono::seconds(30)))
      << by_key;
  EXPECT_TRUE(std::regex_search(by_key, std::regex(id + "\\s+1\\s+0\n"))) << by_key;

  std::string by_id = AdminOk({"queryMsgById", "-i", id, "-t", "AdminTopicQ"});
  EXPECT_NE(by_id.find("Topic:               AdminTopicQ"), std::string::npos) << by_id;
  EXPECT_NE(by_id.find("Tags:                [TagQ]"), std::string::npos) << by_id;
  EXPECT_NE(by_id.find("Keys:                [OrderKey42]"), std::string::npos) << by_id;
  EXPECT_NE(by_id.find("Message Body:        hello-query"), std::string::npos) << by_id;
  // The broker's offset id printed there finds the same message without a topic.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(by_id, m, std::regex("OffsetID:\\s+([0-9A-F]{32})"))) << by_id;
  std::string by_offset_id = AdminOk({"queryMsgById", "-i", m[1].str()});
  EXPECT_NE(by_offset_id.find("hello-query"), std::string::npos) << by_offset_id;

  std::string by_offset = AdminOk({"queryMsgByOffset", "-t", "AdminTopicQ", "-b", "broker-a", "-i", "1", "-o", "0"});
  EXPECT_NE(by_offset.find("Message Body:        hello-query"), std::string::npos) << by_offset;
  ToolResult missing = Admin({"queryMsgByOffset", "-t", "AdminTopicQ", "-b", "broker-a", "-i", "1", "-o", "5"});
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
}

TEST_F(MQAdminTest, ConsumeThenProgressShowsNoLagAndResetByTimeRewinds) {
  CreateTopic("AdminTopicC", 2);
  for (int i = 0; i < 4; ++i) Send("AdminTopicC", "c-" + std::to_string(i));
  // Wait until all four are dispatched to the ConsumeQueue.
  ASSERT_TRUE(WaitUntil(
      [&] {
        std::string s = AdminOk({"consumeMessage", "-t", "AdminTopicC"});
        return std::regex_search(s, std::regex("(BODY: c-[0-3][\\s\\S]*){4}"));
      },
      std::chrono::seconds(30)));

  std::string consumed = AdminOk({"consumeMessage", "-t", "AdminTopicC", "-g", "AdminGroupC"});
  for (int i = 0; i < 4; ++i) EXPECT_NE(consumed.find("BODY: c-" + std::to_string(i)), std::string::npos) << consumed;

  std::string progress = AdminOk({"consumerProgress", "-g", "AdminGroupC"});
  EXPECT_TRUE(std::regex_search(progress, std::regex("AdminTopicC\\s+broker-a\\s+0\\s+\\d+\\s+\\d+\\s+0\\s"))) << progress;
  EXPECT_NE(progress.find("Consume Diff Total: 0\n"), std::string::npos) << progress;

  // Back to the beginning of time: every message is owed again.
  std::string reset = AdminOk({"resetOffsetByTime", "-g", "AdminGroupC", "-t", "AdminTopicC", "-s", "0"});
  // The broker resets (and tells online members), or for an offline group mqadmin commits
  // the offsets itself queue by queue; either way a table of the new offsets is printed.
  EXPECT_TRUE(std::regex_search(reset, std::regex("#(offset|resetOffset)\n"))) << reset;
  progress = AdminOk({"consumerProgress", "-g", "AdminGroupC", "-t", "AdminTopicC"});
  EXPECT_NE(progress.find("Consume Diff Total: 4\n"), std::string::npos) << progress;
  // And to now: nothing owed.
  AdminOk({"resetOffsetByTime", "-g", "AdminGroupC", "-t", "AdminTopicC", "-s", "now"});
  progress = AdminOk({"consumerProgress", "-g", "AdminGroupC", "-t", "AdminTopicC"});
  EXPECT_NE(progress.find("Consume Diff Total: 0\n"), std::string::npos) << progress;

  // cloneGroupOffset gives a second group the same position.
  AdminOk({"cloneGroupOffset", "-s", "AdminGroupC", "-d", "AdminGroupD", "-t", "AdminTopicC"});
  progress = AdminOk({"consumerProgress", "-g", "AdminGroupD", "-t", "AdminTopicC"});
  EXPECT_NE(progress.find("Consume Diff Total: 0\n"), std::string::npos) << progress;
}

TEST_F(MQAdminTest, KvConfigReachesTheNameServer) {
  EXPECT_EQ(AdminOk({"updateKvConfig", "-s", "AdminNS", "-k", "color", "-v", "blue"}),
            "create or update kv config to namespace success.\n");
  remoting::RemotingClient client;
  client.Start();
  auto get = [&] {
    protocol::RemotingCommand req = protocol::RemotingCommand::MakeRequest(protocol::request_code::kGetKvConfig);
    protocol::EncodeCustomHeader(protocol::GetKVConfigRequestHeader{"AdminNS", "color"}, &req);
    return client.InvokeSync(cluster_->namesrv().addr(), req, std::chrono::seconds(3));
  };
  auto got = get();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->ext_fields.Get("value"), std::optional<std::string_view>("blue"));
  EXPECT_EQ(AdminOk({"deleteKvConfig", "-s", "AdminNS", "-k", "color"}), "delete kv config from namespace success.\n");
  got = get();
  ASSERT_TRUE(got.ok());
  EXPECT_NE(got->code, protocol::response_code::kSuccess);
}

TEST_F(MQAdminTest, WipeAndAddWritePerm) {
  CreateTopic("AdminTopicP", 1);
  std::string ns = cluster_->namesrv().addr();
  std::string wipe = AdminOk({"wipeWritePerm", "-b", "broker-a"});
  EXPECT_NE(wipe.find("wipe write perm of broker[broker-a] in name server[" + ns + "] OK"), std::string::npos) << wipe;
  std::string route = AdminOk({"topicRoute", "-t", "AdminTopicP", "-l"});
  EXPECT_TRUE(std::regex_search(route, std::regex("broker-a\\s+\\{0=\\S+\\}\\s+1\\s+1\\s+4"))) << route;
  std::string add = AdminOk({"addWritePerm", "-b", "broker-a"});
  EXPECT_NE(add.find("add write perm of broker[broker-a] in name server[" + ns + "] OK"), std::string::npos) << add;
  route = AdminOk({"topicRoute", "-t", "AdminTopicP", "-l"});
  EXPECT_TRUE(std::regex_search(route, std::regex("broker-a\\s+\\{0=\\S+\\}\\s+1\\s+1\\s+6"))) << route;
}

TEST_F(MQAdminTest, DeleteTopicRemovesItsRoute) {
  CreateTopic("AdminTopicDel", 1);
  std::string out = AdminOk({"deleteTopic", "-t", "AdminTopicDel", "-c", "DefaultCluster"});
  EXPECT_NE(out.find("delete topic [AdminTopicDel] from NameServer success."), std::string::npos) << out;
  ToolResult route = Admin({"topicRoute", "-t", "AdminTopicDel"});
  EXPECT_EQ(route.exit_code, 1);
  EXPECT_NE(route.output.find("No route info of this topic: AdminTopicDel"), std::string::npos) << route.output;
}

TEST_F(MQAdminTest, UsageErrorsExitWithOne) {
  ToolResult unknown = RunTool("mqadmin", {"noSuchCommand"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.output.find("unknown command 'noSuchCommand'"), std::string::npos);
  ToolResult flag = Admin({"topicRoute", "-t", "X", "--frobnicate"});
  EXPECT_EQ(flag.exit_code, 1);
  EXPECT_NE(flag.output.find("--frobnicate"), std::string::npos) << flag.output;
  ToolResult help = RunTool("mqadmin", {"help", "resetOffsetByTime"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("-s,--timestamp <arg>"), std::string::npos) << help.output;
  ToolResult no_ns = RunTool("mqadmin", {"topicList"});
  EXPECT_EQ(no_ns.exit_code, 1);
  EXPECT_NE(no_ns.output.find("NAMESRV_ADDR"), std::string::npos) << no_ns.output;
}

// Java's mqadmin runs a command given only a broker (-b) without any NameServer; so does ours.
// Commands that need one still fail with the hint (above), even those that ask every NameServer.
TEST_F(MQAdminTest, BrokerOnlyCommandsNeedNoNameServer) {
  ToolResult status = RunTool("mqadmin", {"brokerStatus", "-b", BrokerAddr()});
  EXPECT_EQ(status.exit_code, 0) << status.output;
  EXPECT_TRUE(std::regex_search(status.output, std::regex("brokerVersionDesc\\s+: V"))) << status.output;
  ToolResult config = RunTool("mqadmin", {"getBrokerConfig", "-b", BrokerAddr()});
  EXPECT_EQ(config.exit_code, 0) << config.output;
  EXPECT_TRUE(std::regex_search(config.output, std::regex("brokerName\\s+=  broker-a\n"))) << config.output;
  ToolResult kv = RunTool("mqadmin", {"updateKvConfig", "-s", "ns", "-k", "k", "-v", "v"});
  EXPECT_EQ(kv.exit_code, 1) << kv.output;
  EXPECT_NE(kv.output.find("NAMESRV_ADDR"), std::string::npos) << kv.output;
}

}  // namespace
}  // namespace apogee::testing
