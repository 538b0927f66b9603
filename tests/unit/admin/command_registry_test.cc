#include "admin/command_registry.h"

#include <gtest/gtest.h>

#include "command_test_util.h"

namespace apogee::admin {
namespace {

using testing::CommandHarness;

TEST(CommandRegistryTest, HasEveryRequiredSubCommand) {
  CommandRegistry r = BuildMQAdminRegistry();
  for (const char* name :
       {"updateTopic", "deleteTopic", "topicList", "topicRoute", "topicStatus", "topicClusterList",
        "updateSubGroup", "deleteSubGroup", "clusterList", "brokerStatus", "getBrokerConfig",
        "updateBrokerConfig", "consumerProgress", "consumerConnection", "producerConnection", "queryMsgById",
        "queryMsgByKey", "queryMsgByOffset", "resetOffsetByTime", "cloneGroupOffset", "sendMessage",
        "consumeMessage", "updateKvConfig", "deleteKvConfig", "wipeWritePerm", "addWritePerm", "redriveDlq",
        "getSyncStateSet", "getBrokerEpoch", "electMaster", "statsAll", "brokerConsumeStats"}) {
    EXPECT_NE(r.Find(name), nullptr) << name;
  }
  EXPECT_EQ(r.Names().size(), 32u);
}

TEST(CommandRegistryTest, HelpForEveryCommandListsItsFlags) {
  CommandHarness h;
  for (const std::string& name : h.registry().Names()) {
    auto res = h.Run({"help", name});
    EXPECT_EQ(res.exit_code, 0) << name;
    EXPECT_NE(res.out.find("usage: mqadmin " + name), std::string::npos) << name;
    // electMaster's -n is the broker name, as in Java (its own flag replaces the common one).
    if (name != "electMaster") {
      EXPECT_NE(res.out.find("-n,--namesrvAddr"), std::string::npos) << name;
    }
    for (const OptionSpec& o : h.registry().Find(name)->spec.options) {
      EXPECT_NE(res.out.find("--" + o.long_name), std::string::npos) << name << " --" << o.long_name;
    }
    // -h on the command itself prints the same and needs no required flag.
    auto dash_h = h.Run({name, "-h"});
    EXPECT_EQ(dash_h.exit_code, 0) << name;
    EXPECT_EQ(dash_h.out, res.out) << name;
  }
  EXPECT_TRUE(h.transport().calls().empty());
}

TEST(CommandRegistryTest, NoArgumentsListsCommands) {
  CommandHarness h;
  auto res = h.Run({});
  EXPECT_EQ(res.exit_code, 0);
  EXPECT_NE(res.out.find("updateTopic"), std::string::npos);
  EXPECT_NE(res.out.find("Update or create topic."), std::string::npos);
  EXPECT_EQ(h.Run({"help"}).out, res.out);
}

TEST(CommandRegistryTest, UnknownCommandFailsWithExitCodeOne) {
  CommandHarness h;
  auto res = h.Run({"updateTopicz", "-t", "T"});
  EXPECT_EQ(res.exit_code, 1);
  EXPECT_NE(res.err.find("unknown command 'updateTopicz'"), std::string::npos) << res.err;
  EXPECT_EQ(h.Run({"help", "nope"}).exit_code, 1);
}

TEST(CommandRegistryTest, UnknownFlagAndMissingRequiredFlagFail) {
  CommandHarness h;
  auto unknown = h.Run({"topicRoute", "-t", "T", "--bogus", "1"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("--bogus"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("usage: mqadmin topicRoute"), std::string::npos);
  auto missing = h.Run({"topicRoute"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("missing required option -t"), std::string::npos) << missing.err;
  EXPECT_TRUE(h.transport().calls().empty());
}

TEST(CommandRegistryTest, NoNameServerIsAClearError) {
  CommandHarness h;
  auto res = h.Run({"topicList"}, /*env_namesrv=*/"");
  EXPECT_EQ(res.exit_code, 1);
  EXPECT_NE(res.err.find("NAMESRV_ADDR"), std::string::npos) << res.err;
}

TEST(CommandRegistryTest, FailedRequestNamesTheCommandAndTheCause) {
  CommandHarness h;
  auto res = h.Run({"topicStatus", "-t", "%RETRY%x"});
  EXPECT_EQ(res.exit_code, 1);
  EXPECT_NE(res.err.find("mqadmin topicStatus failed: No route info of this topic: %RETRY%x"), std::string::npos)
      << res.err;
}

TEST(CommandRegistryTest, DuplicateNamesAreRefused) {
  CommandRegistry r;
  EXPECT_TRUE(r.Add({{"x", "first", {}}, nullptr}));
  EXPECT_FALSE(r.Add({{"x", "second", {}}, nullptr}));
  EXPECT_EQ(r.Find("x")->spec.description, "first");
}

}  // namespace
}  // namespace apogee::admin
