// Black-box tests of the mqbench binary against a real mqnamesrv + mqbroker: a short
// producer run in each send mode prints per-second lines and a summary with non-zero TPS,
// and the consumer mode reads back what was produced.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <chrono>
#include <string>
#include <vector>

#include "broker_process.h"
#include "testutil/test_util.h"
#include "testutil/test_paths.h"

namespace apogee::testing {
namespace {

struct BenchRun {
  int exit_code = -1;
  std::string output;
};

BenchRun RunBench(const std::vector<std::string>& args) {
  static int runs = 0;
  TempDir dir;
  ChildProcess p;
  std::vector<std::string> argv = {BinDir() + "/mqbench"};
  argv.insert(argv.end(), args.begin(), args.end());
  BenchRun r;
  if (!p.Start(argv, dir.Join("bench-" + std::to_string(++runs) + ".log"))) {
    ADD_FAILURE() << "cannot start mqbench";
    return r;
  }
  int status = p.Wait(std::chrono::seconds(60));
  r.output = p.ReadLog();
  if (status == -1) {
    ADD_FAILURE() << "mqbench did not finish:\n" << r.output;
    p.Stop();
    return r;
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

// The JSON summary is the last line of a --json run.
rapidjson::Document LastLineJson(const std::string& output) {
  std::string text = output;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  std::string last = text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
  rapidjson::Document doc;
  doc.Parse(last.c_str());
  EXPECT_FALSE(doc.HasParseError()) << output;
  return doc;
}

class MQBenchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new SingleBrokerCluster();
    ASSERT_TRUE(cluster_->Start());
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  static SingleBrokerCluster* cluster_;
};

SingleBrokerCluster* MQBenchTest::cluster_ = nullptr;

TEST_F(MQBenchTest, SyncProducerForTwoSecondsReportsEverySecondAndASummary) {
  BenchRun r = RunBench({"producer", "-n", cluster_->namesrv().addr(), "-t", "BenchSync", "-c", "4", "-w", "2",
                         "-s", "1024", "-d", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("created topic BenchSync with 4 queues"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[    1s] tps"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("p99.9"), std::string::npos);
  EXPECT_NE(r.output.find("=== mqbench producer summary ==="), std::string::npos);
  EXPECT_NE(r.output.find("failed 0\n"), std::string::npos) << r.output;
}

TEST_F(MQBenchTest, AsyncProducerJsonSummaryHasNonZeroTps) {
  BenchRun r = RunBench({"producer", "-n", cluster_->namesrv().addr(), "-t", "BenchAsync", "-c", "2", "-w", "2",
                         "-m", "async", "-a", "16", "-d", "2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  rapidjson::Document doc = LastLineJson(r.output);
  ASSERT_TRUE(doc.IsObject());
  EXPECT_STREQ(doc["sendMode"].GetString(), "async");
  EXPECT_GT(doc["tps"].GetDouble(), 0.0);
  EXPECT_GT(doc["messages"].GetInt64(), 0);
  EXPECT_EQ(doc["failed"].GetInt64(), 0);
  EXPECT_GE(doc["elapsedSeconds"].GetDouble(), 2.0);
  EXPECT_GT(doc["latencyMs"]["max"].GetDouble(), 0.0);
  EXPECT_LE(doc["latencyMs"]["p50"].GetDouble(), doc["latencyMs"]["p99"].GetDouble());
}

TEST_F(MQBenchTest, QuantityStopsTheRunAndTheConsumerReadsItBack) {
  BenchRun sent = RunBench({"producer", "-n", cluster_->namesrv().addr(), "-t", "BenchQty", "-c", "2", "-w", "2",
                            "-b", "10", "-q", "2000", "--json"});
  ASSERT_EQ(sent.exit_code, 0) << sent.output;
  rapidjson::Document s = LastLineJson(sent.output);
  ASSERT_TRUE(s.IsObject());
  EXPECT_EQ(s["messages"].GetInt64(), 2000);
  EXPECT_EQ(s["batchSize"].GetInt(), 10);

  BenchRun read = RunBench({"consumer", "-n", cluster_->namesrv().addr(), "-t", "BenchQty", "-w", "2",
                            "--fromStart", "-q", "2000", "-d", "20", "--json"});
  ASSERT_EQ(read.exit_code, 0) << read.output;
  rapidjson::Document c = LastLineJson(read.output);
  ASSERT_TRUE(c.IsObject());
  EXPECT_STREQ(c["mode"].GetString(), "consumer");
  EXPECT_EQ(c["messages"].GetInt64(), 2000);
}

TEST_F(MQBenchTest, OnewayAndBadFlags) {
  BenchRun oneway = RunBench({"producer", "-n", cluster_->namesrv().addr(), "-t", "BenchOneway", "-c", "2", "-w",
                              "1", "-m", "oneway", "-q", "500"});
  ASSERT_EQ(oneway.exit_code, 0) << oneway.output;
  EXPECT_NE(oneway.output.find("messages 500"), std::string::npos) << oneway.output;

  BenchRun bad = RunBench({"producer", "-m", "sometimes"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.output.find("sendMode"), std::string::npos) << bad.output;
  // Nothing listens there: a setup error, not a run full of failures.
  BenchRun no_namesrv = RunBench({"producer", "-n", "127.0.0.1:1", "-t", "BenchNowhere", "-d", "1"});
  EXPECT_EQ(no_namesrv.exit_code, 1);
  EXPECT_NE(no_namesrv.output.find("mqbench: "), std::string::npos) << no_namesrv.output;
}

}  // namespace
}  // namespace apogee::testing
