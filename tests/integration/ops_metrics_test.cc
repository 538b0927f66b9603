// Operability on real processes: after a client sends and consumes, the broker's
// Prometheus endpoint, GET_BROKER_RUNTIME_INFO, VIEW_BROKER_STATS_DATA and
// GET_CONSUME_STATS show exactly what was sent and consumed, and the NameServer's endpoint
// answers too.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>

#include "apogee/lite_pull_consumer.h"
#include "apogee/producer.h"
#include "broker_process.h"
#include "protocol/admin_bodies.h"
#include "protocol/broker_stats_data.h"
#include "protocol/admin_headers.h"
#include "protocol/consumer_headers.h"
#include "protocol/custom_header.h"
#include "protocol/kv_table.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "remoting/remoting_client.h"
#include "testutil/http_get.h"
#include "testutil/test_util.h"

namespace apogee::testing {
namespace {

constexpr int kMessages = 20;
const std::string kTopic = "OpsMetricsTopic";
const std::string kGroup = "OpsMetricsGroup";

// The value of the one series of `family` whose labels contain every `needles` entry.
std::optional<double> SeriesValue(const std::string& scrape, const std::string& family,
                                  const std::vector<std::string>& needles) {
  std::regex line("(^|\n)" + family + "\\{([^}]*)\\} ([^\n]+)");
  for (auto it = std::sregex_iterator(scrape.begin(), scrape.end(), line); it != std::sregex_iterator(); ++it) {
    const std::string labels = (*it)[2].str();
    bool all = true;
    for (const std::string& n : needles) all = all && labels.find(n) != std::string::npos;
    if (all) return std::stod((*it)[3].str());
  }
  return std::nullopt;
}

class OpsMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    broker_metrics_port_ = PickFreePort();
    namesrv_metrics_port_ = PickFreePort();
    namesrv_ = std::make_unique<NamesrvProcess>(
        Props{{"metricsExporterType", "PROM"},
              {"metricsPromExporterHost", "127.0.0.1"},
              {"metricsPromExporterPort", std::to_string(namesrv_metrics_port_)}});
    broker_ = std::make_unique<BrokerProcess>(
        Props{{"metricsExporterType", "PROM"},
              {"metricsPromExporterHost", "127.0.0.1"},
              {"metricsPromExporterPort", std::to_string(broker_metrics_port_)}});
    ASSERT_TRUE(namesrv_->Start());
    ASSERT_TRUE(broker_->Start(namesrv_->addr()));
    client_.Start();
    // Registered once TBW102 has a route.
    ASSERT_TRUE(WaitUntil([&] { return QueryRoute(client_, namesrv_->addr(), "TBW102").ok(); },
                          std::chrono::seconds(15)))
        << broker_->ReadLog();
  }

  Result<protocol::RemotingCommand> CallBroker(protocol::RemotingCommand request) {
    return client_.InvokeSync(broker_->addr(), std::move(request), std::chrono::seconds(5));
  }

  uint16_t broker_metrics_port_ = 0;
  uint16_t namesrv_metrics_port_ = 0;
  std::unique_ptr<NamesrvProcess> namesrv_;
  std::unique_ptr<BrokerProcess> broker_;
  remoting::RemotingClient client_;
};

TEST_F(OpsMetricsTest, ScrapeAndRuntimeInfoMatchWhatWasSentAndConsumed) {
  ProducerConfig pc;
  pc.namesrv_addr = namesrv_->addr();
  pc.client_ip = "127.0.0.1";
  pc.group_name = "OpsMetricsProducer";
  Producer producer(pc);
  ASSERT_TRUE(producer.Start().ok());
  for (int i = 0; i < kMessages; ++i) {
    auto r = producer.Send(Message(kTopic, "TagA", "metrics-body-" + std::to_string(i)));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  LitePullConsumerConfig cc;
  cc.client.namesrv_addr = namesrv_->addr();
  cc.client.client_ip = "127.0.0.1";
  cc.group = kGroup;
  cc.consume_from_where = ConsumeFromWhere::kFirstOffset;
  cc.auto_commit = false;
  LitePullConsumer consumer(cc);
  ASSERT_TRUE(consumer.Subscribe(kTopic, "*").ok());
  ASSERT_TRUE(consumer.Start().ok());
  int received = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (received < kMessages && std::chrono::steady_clock::now() < deadline) {
    received += static_cast<int>(consumer.Poll(500).size());
  }
  ASSERT_EQ(received, kMessages);
  ASSERT_TRUE(consumer.CommitSync().ok());

  // Prometheus: what was sent and consumed, and no lag once committed.
  std::string scrape;
  const std::vector<std::string> topic = {"topic=\"" + kTopic + "\""};
  const std::vector<std::string> topic_group = {"topic=\"" + kTopic + "\"", "consumer_group=\"" + kGroup + "\""};
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto r = HttpGet(broker_metrics_port_, "/metrics");
        scrape = r.body;
        return r.status == 200 && SeriesValue(scrape, "rocketmq_messages_in_total", topic) == kMessages &&
               SeriesValue(scrape, "rocketmq_messages_out_total", topic_group) == kMessages &&
               SeriesValue(scrape, "rocketmq_consumer_lag_messages", topic_group) == 0;
      },
      std::chrono::seconds(30)))
      << scrape;
  EXPECT_GT(SeriesValue(scrape, "rocketmq_throughput_in_total", topic).value_or(0),
            kMessages * std::string("metrics-body-0").size() - 1);
  EXPECT_EQ(SeriesValue(scrape, "rocketmq_message_size_count", {}), kMessages) << scrape;
  EXPECT_GE(SeriesValue(scrape, "rocketmq_topic_number", {}).value_or(0), 1);
  // Committed everything: nothing in flight or ready.
  EXPECT_EQ(SeriesValue(scrape, "rocketmq_consumer_inflight_messages", topic_group), 0) << scrape;
  EXPECT_EQ(SeriesValue(scrape, "rocketmq_consumer_ready_messages", topic_group), 0) << scrape;
  // Every send answered SUCCESS, timed by the remoting layer.
  // RocketMQ 5.1's labels: codes as RemotingHelper names them (lower case), whether the
  // request was held, and the write's result.
  EXPECT_EQ(SeriesValue(scrape, "rocketmq_rpc_latency_count",
                        {"protocol_type=\"remoting\"", "is_long_polling=\"false\"",
                         "request_code=\"send_message_v2\"", "response_code=\"success\"",
                         "result=\"success\""}),
            kMessages)
      << scrape;
  EXPECT_GE(SeriesValue(scrape, "rocketmq_rpc_latency_count", {"request_code=\"pull_message\""}).value_or(0), 1)
      << scrape;
  // The flush families (ASYNC_FLUSH here: a flush waits for 4 dirty pages or the 10 s
  // thorough flush, and the group-commit histogram stays empty; the unit tests count them).
  EXPECT_TRUE(SeriesValue(scrape, "apogee_commitlog_flush_latency_us_count", {}).has_value()) << scrape;
  EXPECT_TRUE(SeriesValue(scrape, "apogee_group_commit_batch_size_count", {}).has_value()) << scrape;
  EXPECT_TRUE(SeriesValue(scrape, "rocketmq_storage_flush_behind_bytes", {}).has_value()) << scrape;
  EXPECT_GE(SeriesValue(scrape, "apogee_disk_used_ratio", {}).value_or(-1), 0.0) << scrape;
  EXPECT_GE(SeriesValue(scrape, "rocketmq_connections", {"client_type=\"producer\""}).value_or(0), 1) << scrape;
  EXPECT_GE(SeriesValue(scrape, "rocketmq_connections", {"client_type=\"consumer\""}).value_or(0), 1) << scrape;

  // A pull at the end of a queue with the suspend flag is held until its 300 ms suspend
  // timeout, then answered PULL_NOT_FOUND: is_long_polling="true".
  protocol::GetMaxOffsetRequestHeader max_header{kTopic, 0, true};
  auto max_request = protocol::RemotingCommand::MakeRequest(protocol::request_code::kGetMaxOffset);
  protocol::EncodeCustomHeader(max_header, &max_request);
  auto max = CallBroker(std::move(max_request));
  ASSERT_TRUE(max.ok());
  auto max_offset = protocol::DecodeCustomHeader<protocol::GetMaxOffsetResponseHeader>(*max);
  ASSERT_TRUE(max_offset.ok()) << max_offset.status().ToString();
  protocol::PullMessageRequestHeader pull_header;
  pull_header.consumer_group = kGroup;
  pull_header.topic = kTopic;
  pull_header.queue_id = 0;
  pull_header.queue_offset = max_offset->offset;
  pull_header.max_msg_nums = 32;
  pull_header.sys_flag = 0x2 | 0x4;  // PullSysFlag: suspend, with a subscription
  pull_header.subscription = "*";
  pull_header.sub_version = 1;
  pull_header.suspend_timeout_millis = 300;
  auto pull_request = protocol::RemotingCommand::MakeRequest(protocol::request_code::kPullMessage);
  protocol::EncodeCustomHeader(pull_header, &pull_request);
  auto held = CallBroker(std::move(pull_request));
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  EXPECT_EQ(held->code, protocol::response_code::kPullNotFound) << held->remark.value_or("");
  ASSERT_TRUE(WaitUntil(
      [&] {
        scrape = HttpGet(broker_metrics_port_, "/metrics").body;
        return SeriesValue(scrape, "rocketmq_rpc_latency_count",
                           {"is_long_polling=\"true\"", "request_code=\"pull_message\"",
                            "response_code=\"pull_not_found\"", "result=\"success\""})
                   .value_or(0) >= 1;
      },
      std::chrono::seconds(10)))
      << scrape;

  // GET_BROKER_RUNTIME_INFO (brokerStatus, clusterList): the totals and a non-zero rate.
  auto info = CallBroker(protocol::RemotingCommand::MakeRequest(protocol::request_code::kGetBrokerRuntimeInfo));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  auto kv = protocol::DecodeKVTable(info->body);
  ASSERT_TRUE(kv.ok());
  EXPECT_EQ(kv->table["msgPutTotalTodayNow"], std::to_string(kMessages));
  EXPECT_EQ(kv->table["msgGetTotalTodayNow"], std::to_string(kMessages));
  EXPECT_GT(std::stod(kv->table["putTps"]), 0.0) << kv->table["putTps"];
  EXPECT_GT(std::stod(kv->table["getTransferedTps"]), 0.0) << kv->table["getTransferedTps"];

  // GET_CONSUME_STATS: the group's consume TPS.
  protocol::GetConsumeStatsRequestHeader consume_header{kGroup, kTopic, std::nullopt};
  auto consume_request = protocol::RemotingCommand::MakeRequest(protocol::request_code::kGetConsumeStats);
  protocol::EncodeCustomHeader(consume_header, &consume_request);
  auto consume = CallBroker(std::move(consume_request));
  ASSERT_TRUE(consume.ok());
  auto stats = protocol::DecodeConsumeStats(consume->body);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_GT(stats->consume_tps, 0.0);
  for (const auto& [mq, w] : stats->offset_table) EXPECT_EQ(w.pull_offset, w.consumer_offset);

  // GET_BROKER_CONSUME_STATS (mqadmin brokerConsumeStats): the group, its rate, no lag.
  protocol::GetConsumeStatsInBrokerHeader in_broker{false};
  auto all_request = protocol::RemotingCommand::MakeRequest(protocol::request_code::kGetBrokerConsumeStats);
  protocol::EncodeCustomHeader(in_broker, &all_request);
  auto all = CallBroker(std::move(all_request));
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->code, protocol::response_code::kSuccess) << all->remark.value_or("");
  EXPECT_NE(all->body.find("{\"" + kGroup + "\":[{\"consumeTps\":"), std::string::npos) << all->body;
  EXPECT_NE(all->body.find("\"totalDiff\":0,\"totalInflightDiff\":0}"), std::string::npos) << all->body;
  EXPECT_NE(all->body.find("\"brokerAddr\":\"" + broker_->addr() + "\""), std::string::npos) << all->body;

  // VIEW_BROKER_STATS_DATA: the minute view counts every put once a 10 s snapshot exists.
  protocol::BrokerStatsData data;
  ASSERT_TRUE(WaitUntil(
      [&] {
        protocol::ViewBrokerStatsDataRequestHeader h{"TOPIC_PUT_NUMS", kTopic};
        auto request = protocol::RemotingCommand::MakeRequest(protocol::request_code::kViewBrokerStatsData);
        protocol::EncodeCustomHeader(h, &request);
        auto r = CallBroker(std::move(request));
        if (!r.ok() || r->code != protocol::response_code::kSuccess) return false;
        auto decoded = protocol::DecodeBrokerStatsData(r->body);
        if (decoded.ok()) data = *decoded;
        return decoded.ok() && data.stats_minute.sum == kMessages;
      },
      std::chrono::seconds(30)));
  EXPECT_GT(data.stats_minute.tps, 0.0);
  protocol::ViewBrokerStatsDataRequestHeader missing{"TOPIC_PUT_NUMS", "NoSuchTopic"};
  auto missing_request = protocol::RemotingCommand::MakeRequest(protocol::request_code::kViewBrokerStatsData);
  protocol::EncodeCustomHeader(missing, &missing_request);
  auto not_found = CallBroker(std::move(missing_request));
  ASSERT_TRUE(not_found.ok());
  EXPECT_EQ(not_found->code, protocol::response_code::kSystemError);
  EXPECT_EQ(not_found->remark, "The stats <TOPIC_PUT_NUMS> <NoSuchTopic> not exist");

  consumer.Shutdown();
  producer.Shutdown();
}

// Messages a group has not pulled are ready, pulled but uncommitted ones in flight, and
// both count as lag (Java 5.1's ConsumerLagCalculator).
TEST_F(OpsMetricsTest, LagSplitsIntoInflightAndReady) {
  ProducerConfig pc;
  pc.namesrv_addr = namesrv_->addr();
  pc.client_ip = "127.0.0.1";
  pc.group_name = "OpsLagProducer";
  Producer producer(pc);
  ASSERT_TRUE(producer.Start().ok());
  const std::string topic = "OpsLagTopic";
  const std::string group = "OpsLagGroup";
  auto send = [&] {
    for (int i = 0; i < kMessages; ++i) {
      ASSERT_TRUE(producer.Send(Message(topic, "", "lag-" + std::to_string(i))).ok());
    }
  };
  LitePullConsumerConfig cc;
  cc.client.namesrv_addr = namesrv_->addr();
  cc.client.client_ip = "127.0.0.1";
  // Its own client instance (connection): once it shuts down, no pull of it stays parked
  // at the broker to be woken by step 3's messages.
  cc.client.instance_name = "OpsLagConsumer";
  cc.group = group;
  cc.consume_from_where = ConsumeFromWhere::kFirstOffset;
  cc.auto_commit = false;
  LitePullConsumer consumer(cc);
  ASSERT_TRUE(consumer.Subscribe(topic, "*").ok());
  auto poll_all = [&] {
    int received = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (received < kMessages && std::chrono::steady_clock::now() < deadline) {
      received += static_cast<int>(consumer.Poll(500).size());
    }
    ASSERT_EQ(received, kMessages);
  };
  std::string scrape;
  const std::vector<std::string> tg = {"topic=\"" + topic + "\"", "consumer_group=\"" + group + "\""};
  auto expect = [&](int lag, int inflight, int ready) {
    return WaitUntil(
        [&] {
          scrape = HttpGet(broker_metrics_port_, "/metrics").body;
          return SeriesValue(scrape, "rocketmq_consumer_lag_messages", tg) == lag &&
                 SeriesValue(scrape, "rocketmq_consumer_inflight_messages", tg) == inflight &&
                 SeriesValue(scrape, "rocketmq_consumer_ready_messages", tg) == ready;
        },
        std::chrono::seconds(30));
  };

  // 1. Everything consumed and committed: the group has offsets, no lag.
  send();
  ASSERT_TRUE(consumer.Start().ok());
  poll_all();
  ASSERT_TRUE(consumer.CommitSync().ok());
  ASSERT_TRUE(expect(0, 0, 0)) << scrape;
  // 2. Pulled, not committed: in flight.
  send();
  poll_all();
  ASSERT_TRUE(expect(kMessages, kMessages, 0)) << scrape;
  EXPECT_GT(SeriesValue(scrape, "rocketmq_consumer_lag_latency", tg).value_or(0), 0) << scrape;
  EXPECT_EQ(SeriesValue(scrape, "rocketmq_consumer_queueing_latency", tg), 0) << scrape;
  // 3. Committed, consumer gone, new messages: ready, waiting to be pulled.
  ASSERT_TRUE(consumer.CommitSync().ok());
  consumer.Shutdown();
  send();
  ASSERT_TRUE(expect(kMessages, 0, kMessages)) << scrape;
  EXPECT_GE(SeriesValue(scrape, "rocketmq_consumer_queueing_latency", tg).value_or(-1), 0) << scrape;
  producer.Shutdown();
}

TEST_F(OpsMetricsTest, NameServerEndpointCountsTopicsAndBrokers) {
  std::string scrape;
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto r = HttpGet(namesrv_metrics_port_, "/metrics");
        scrape = r.body;
        return r.status == 200 && SeriesValue(scrape, "apogee_namesrv_live_brokers", {}) == 1;
      },
      std::chrono::seconds(10)))
      << scrape;
  EXPECT_GE(SeriesValue(scrape, "rocketmq_topic_number", {"node_type=\"namesrv\""}).value_or(0), 1) << scrape;
  EXPECT_EQ(HttpGet(namesrv_metrics_port_, "/").status, 404);
  // A malformed request closes that connection only.
  EXPECT_EQ(HttpRaw(namesrv_metrics_port_, "\x01\x02 garbage\r\n\r\n").status, 400);
  EXPECT_EQ(HttpGet(namesrv_metrics_port_, "/metrics").status, 200);
}

}  // namespace
}  // namespace apogee::testing
