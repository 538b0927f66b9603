#include "admin/bench_config.h"

#include <gtest/gtest.h>

namespace apogee::admin {
namespace {

TEST(BenchConfigTest, DefaultsFollowTheEnvironment) {
  auto c = ParseBenchArgs({}, "env:9876");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->mode, BenchMode::kProducer);
  EXPECT_EQ(c->namesrv_addr, "env:9876");
  EXPECT_EQ(c->topic, "BenchmarkTest");
  EXPECT_EQ(c->group, "benchmark_producer");
  EXPECT_EQ(c->send_mode, SendMode::kSync);
  EXPECT_EQ(ParseBenchArgs({}, "")->namesrv_addr, "127.0.0.1:9876");
}

TEST(BenchConfigTest, ProducerFlags) {
  auto c = ParseBenchArgs({"producer", "-n", "a:1", "-t", "T", "-w", "8", "-s", "2048", "-m", "async", "-a", "64",
                           "-q", "1000", "-d", "2.5", "-c", "8", "--cluster", "C", "--json", "-k", "true"},
                          "");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->namesrv_addr, "a:1");
  EXPECT_EQ(c->topic, "T");
  EXPECT_EQ(c->threads, 8);
  EXPECT_EQ(c->message_size, 2048);
  EXPECT_EQ(c->send_mode, SendMode::kAsync);
  EXPECT_EQ(c->async_window, 64);
  EXPECT_EQ(c->message_quantity, 1000);
  EXPECT_DOUBLE_EQ(c->duration_seconds, 2.5);
  EXPECT_EQ(c->create_queue_nums, 8);
  EXPECT_EQ(c->cluster, "C");
  EXPECT_TRUE(c->json);
  EXPECT_TRUE(c->key_enable);
}

TEST(BenchConfigTest, ConsumerMode) {
  auto c = ParseBenchArgs({"consumer", "--fromStart", "-w", "2"}, "");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->mode, BenchMode::kConsumer);
  EXPECT_TRUE(c->from_start);
  EXPECT_EQ(c->group, "benchmark_consumer");
}

TEST(BenchConfigTest, BadFlagsAreErrors) {
  EXPECT_FALSE(ParseBenchArgs({"producer", "-m", "fast"}, "").ok());
  EXPECT_FALSE(ParseBenchArgs({"producer", "-w", "0"}, "").ok());
  EXPECT_FALSE(ParseBenchArgs({"producer", "--nope"}, "").ok());
  EXPECT_FALSE(ParseBenchArgs({"sideways"}, "").ok());
  auto batch_async = ParseBenchArgs({"producer", "-b", "8", "-m", "async"}, "");
  ASSERT_FALSE(batch_async.ok());
  EXPECT_NE(batch_async.status().message().find("--batchSize"), std::string::npos);
}

TEST(BenchConfigTest, HelpIsNotAnError) {
  bool help = false;
  std::string usage;
  auto c = ParseBenchArgs({"-h"}, "", &help, &usage);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(help);
  EXPECT_NE(usage.find("--asyncWindow"), std::string::npos);
  EXPECT_EQ(SendModeName(SendMode::kOneway), "oneway");
}

}  // namespace
}  // namespace apogee::admin
