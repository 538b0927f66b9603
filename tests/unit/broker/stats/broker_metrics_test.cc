#include "broker/stats/broker_metrics.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <regex>

#include "broker/stats/broker_stats_manager.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/stats/rpc_latency.h"
#include "broker/processors/send_message_processor.h"
#include "unit/broker/send_pull_test_util.h"
#include "testutil/http_get.h"
#include "testutil/test_util.h"

namespace apogee::broker {
namespace {

bool Has(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

TEST(BrokerMetricsTest, ScrapeShowsWhatWasSentAndTheLag) {
  testing::BrokerHarness harness;
  BrokerStatsManager* stats = harness.context.stats.get();
  harness.AddTopic("MetricsTopic", 2);
  SendMessageProcessor send(harness.SendDeps());
  for (int i = 0; i < 3; ++i) {
    auto r = testing::Call(send, testing::SendRequest("MetricsTopic", 0, "body-" + std::to_string(i)));
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->code, 0) << r->remark.value_or("");
  }
  harness.WaitDispatched();
  auto offsets = std::make_shared<ConsumerOffsetManager>(harness.env.get(), "/store/config/consumerOffset.json");
  harness.context.consumer_offset_manager = offsets;
  offsets->CommitOffset("MetricsGroup", "MetricsTopic", 0, 1);
  offsets->CommitPullOffset("MetricsGroup", "MetricsTopic", 0, 2);
  stats->OnGet("MetricsTopic", "MetricsGroup", true, 1, 100);

  const std::string out = RenderBrokerMetrics(harness.context, *stats, harness.env.get());
  const std::string node = R"(cluster="[^"]+",node_type="broker",node_id="[^"]+")";
  EXPECT_TRUE(Has(out, "# TYPE rocketmq_messages_in_total counter\n")) << out;
  EXPECT_TRUE(Has(out, "rocketmq_messages_in_total\\{" + node +
                           R"(,topic="MetricsTopic",message_type="normal",is_system="false"\} 3\n)"))
      << out;
  EXPECT_TRUE(Has(out, "rocketmq_throughput_in_total\\{" + node + R"(,topic="MetricsTopic".*\} [1-9][0-9]+\n)"))
      << out;
  EXPECT_TRUE(Has(out, "rocketmq_messages_out_total\\{" + node +
                           R"(,topic="MetricsTopic",consumer_group="MetricsGroup",is_retry="false"\} 1\n)"))
      << out;
  EXPECT_TRUE(Has(out, "rocketmq_consumer_lag_messages\\{" + node +
                           R"(,topic="MetricsTopic",consumer_group="MetricsGroup",is_retry="false"\} 2\n)"))
      << out;
  EXPECT_TRUE(Has(out, "rocketmq_consumer_lag_latency\\{" + node + R"(,topic="MetricsTopic".*\} [0-9]+\n)")) << out;
  // Pulled up to 2, committed 1, stored 3: one in flight, one ready.
  EXPECT_TRUE(Has(out, "rocketmq_consumer_inflight_messages\\{" + node +
                           R"(,topic="MetricsTopic",consumer_group="MetricsGroup",is_retry="false"\} 1\n)"))
      << out;
  EXPECT_TRUE(Has(out, "rocketmq_consumer_ready_messages\\{" + node +
                           R"(,topic="MetricsTopic",consumer_group="MetricsGroup",is_retry="false"\} 1\n)"))
      << out;
  EXPECT_TRUE(Has(out, "rocketmq_storage_flush_behind_bytes\\{" + node + R"(\} [0-9]+\n)")) << out;
  EXPECT_TRUE(Has(out, "# TYPE apogee_commitlog_flush_latency_us histogram\n")) << out;
  EXPECT_TRUE(Has(out, "# TYPE apogee_group_commit_batch_size histogram\n")) << out;
  EXPECT_TRUE(Has(out, "rocketmq_message_size_count\\{" + node + R"(\} 3\n)")) << out;
  EXPECT_TRUE(Has(out, "rocketmq_topic_number\\{" + node + R"(\} [1-9][0-9]*\n)")) << out;
  EXPECT_TRUE(Has(out, "rocketmq_storage_dispatch_behind_bytes\\{" + node + R"(\} 0\n)")) << out;
  EXPECT_TRUE(Has(out, "apogee_disk_used_ratio\\{" + node + R"(\} 0(\.[0-9]+)?\n)")) << out;
}

remoting::ResponseSample Sample(int32_t request, int32_t response, int64_t elapsed_us,
                                bool long_polling = false, bool written = true) {
  remoting::ResponseSample s;
  s.request_code = request;
  s.response_code = response;
  s.elapsed_us = elapsed_us;
  s.long_polling = long_polling;
  s.written = written;
  return s;
}

TEST(BrokerMetricsTest, RpcLatencyHasRocketMQ51sLabels) {
  RpcLatencyRecorder rpc;
  rpc.OnResponse(Sample(310, 0, 2'500));    // SEND_MESSAGE_V2 / SUCCESS, 2.5 ms -> 2 ms
  rpc.OnResponse(Sample(310, 0, 40'000));   // 40 ms
  rpc.OnResponse(Sample(11, 19, 15'000'000, /*long_polling=*/true));  // a held pull, 15 s
  rpc.OnResponse(Sample(310, 0, 1'000, false, /*written=*/false));
  rpc.OnResponse(Sample(12345, 17, 1'000));  // no name for the request code: its number
  std::string out;
  metrics::PromWriter w(&out);
  rpc.Write(w, "C", "broker-a");
  // RemotingHelper.getRequestCodeDesc / getResponseCodeDesc: the names in lower case.
  const std::string node = R"(cluster="C",node_type="broker",node_id="broker-a",protocol_type="remoting",)";
  const std::string send = node + R"(is_long_polling="false",request_code="send_message_v2",response_code="success",result="success")";
  EXPECT_NE(out.find("# TYPE rocketmq_rpc_latency histogram\n"), std::string::npos) << out;
  EXPECT_NE(out.find("rocketmq_rpc_latency_count{" + send + "} 2\n"), std::string::npos) << out;
  // Whole milliseconds (Java's LongHistogram) in Java's buckets 1, 3, 5, 7, 10, 100 ms, 1, 2, 3 s.
  EXPECT_NE(out.find("rocketmq_rpc_latency_sum{" + send + "} 42\n"), std::string::npos) << out;
  EXPECT_NE(out.find("rocketmq_rpc_latency_bucket{" + send + R"(,le="3"} 1)"), std::string::npos) << out;
  EXPECT_NE(out.find("rocketmq_rpc_latency_bucket{" + send + R"(,le="7"} 1)"), std::string::npos) << out;
  EXPECT_NE(out.find("rocketmq_rpc_latency_bucket{" + send + R"(,le="100"} 2)"), std::string::npos) << out;
  const std::string pull = node + R"(is_long_polling="true",request_code="pull_message",response_code="pull_not_found",result="success")";
  EXPECT_NE(out.find("rocketmq_rpc_latency_bucket{" + pull + R"(,le="3000"} 0)"), std::string::npos) << out;
  EXPECT_NE(out.find("rocketmq_rpc_latency_count{" + pull + "} 1\n"), std::string::npos) << out;
  const std::string failed = node + R"(is_long_polling="false",request_code="send_message_v2",response_code="success",result="write_channel_failed")";
  EXPECT_NE(out.find("rocketmq_rpc_latency_count{" + failed + "} 1\n"), std::string::npos) << out;
  EXPECT_NE(out.find(R"(request_code="12345")"), std::string::npos) << out;
  EXPECT_EQ(out.find("SEND_MESSAGE_V2"), std::string::npos) << out;
}

TEST(BrokerMetricsTest, DeadLetterPutsAreCountedPerGroup) {
  ManualClock clock(0);
  BrokerStatsManager stats(&clock);
  stats.OnPut("%DLQ%OrderGroup", 2, 200, 1);
  stats.OnPut("Orders", 1, 100, 1);
  std::string out;
  metrics::PromWriter w(&out);
  WriteStatsMetrics(w, BrokerLabels{"C", "b"}, stats);
  EXPECT_TRUE(Has(out, R"(rocketmq_send_to_dlq_messages_total\{cluster="C",node_type="broker",node_id="b",consumer_group="OrderGroup"\} 2\n)"))
      << out;
  EXPECT_FALSE(Has(out, R"(rocketmq_send_to_dlq_messages_total\{[^}]*consumer_group="rders")")) << out;
}

TEST(BrokerMetricsTest, ExporterServesMetricsOnlyWhenEnabled) {
  testing::BrokerHarness harness;
  const size_t hooks = harness.context.start_hooks.size();
  RegisterMetricsExporter(harness.context, harness.context.stats, harness.env.get());  // DISABLE by default
  EXPECT_EQ(harness.context.start_hooks.size(), hooks);

  Status refused = harness.config->ApplyProperties({{"metricsExporterType", "OTLP_GRPC"}});
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.ToString().find("metricsExporterType"), std::string::npos) << refused.ToString();

  const uint16_t port = apogee::testing::PickFreePort();
  ASSERT_TRUE(harness.config
                  ->ApplyProperties({{"metricsExporterType", "PROM"},
                                     {"metricsPromExporterHost", "127.0.0.1"},
                                     {"metricsPromExporterPort", std::to_string(port)}})
                  .ok());
  RegisterMetricsExporter(harness.context, harness.context.stats, harness.env.get());
  ASSERT_TRUE(harness.RunStartHooks().ok());
  auto scrape = apogee::testing::HttpGet(port, "/metrics");
  EXPECT_EQ(scrape.status, 200);
  EXPECT_NE(scrape.body.find("# TYPE rocketmq_topic_number gauge"), std::string::npos) << scrape.body;
  EXPECT_EQ(apogee::testing::HttpGet(port, "/other").status, 404);
}

}  // namespace
}  // namespace apogee::broker
