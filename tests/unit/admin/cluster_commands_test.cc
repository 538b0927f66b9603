#include "admin/cluster_commands.h"

#include <gtest/gtest.h>

#include "command_test_util.h"
#include "protocol/kv_table.h"

namespace apogee::admin {
namespace {

namespace rc = protocol::request_code;
using testing::CommandHarness;

TEST(ClusterCommandsTest, ClusterListOneRowPerBroker) {
  CommandHarness h;
  protocol::KVTable kv;
  kv.table = {{"brokerVersionDesc", "V4_9_4"}, {"putTps", "12.5 1.0 1.0"}, {"brokerActive", "true"},
              {"commitLogDiskRatio", "0.25"}};
  h.transport().OnBody(rc::kGetBrokerRuntimeInfo, protocol::EncodeKVTable(kv));
  auto res = h.Run({"clusterList"});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  std::istringstream lines(res.out);
  std::string header, row, extra;
  std::getline(lines, header);
  std::getline(lines, row);
  EXPECT_FALSE(std::getline(lines, extra));
  EXPECT_EQ(header.substr(0, 24), "#Cluster Name           ");
  EXPECT_EQ(row.substr(0, 50), "DefaultCluster          broker-a                0 ");
  EXPECT_NE(row.find("V4_9_4"), std::string::npos);
  EXPECT_NE(row.find("12.50("), std::string::npos) << row;
  EXPECT_NE(row.find("0.2500"), std::string::npos);
  EXPECT_NE(row.find("true"), std::string::npos);
  EXPECT_EQ(h.Run({"clusterList", "-c", "Other"}).exit_code, 1);
}

}  // namespace
}  // namespace apogee::admin
