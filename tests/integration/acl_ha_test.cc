// The HA port with aclEnable (issue 16): it used to stream the CommitLog, message bodies
// included, to anyone who wrote an 8-byte offset. Now a slave must answer the master's
// challenge with an admin account first (docs/format/ha_protocol.md "Authentication").
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "acl_harness.h"
#include "apogee/producer.h"
#include "base/string_util.h"
#include "protocol/admin_headers.h"
#include "protocol/custom_header.h"
#include "protocol/kv_table.h"

namespace apogee::testing {
namespace {

using namespace std::chrono_literals;
namespace req = protocol::request_code;
namespace rc = protocol::response_code;
using protocol::RemotingCommand;

// Connects to 127.0.0.1:port, writes `out`, and returns what arrives until the peer closes
// (or `deadline` passes).
std::string TalkRaw(uint16_t port, const std::string& out, std::chrono::milliseconds deadline) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string in;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      write(fd, out.data(), out.size()) == static_cast<ssize_t>(out.size())) {
    auto end = std::chrono::steady_clock::now() + deadline;
    char buf[4096];
    while (std::chrono::steady_clock::now() < end) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      ssize_t n = read(fd, buf, sizeof(buf));
      if (n <= 0) break;
      in.append(buf, static_cast<size_t>(n));
    }
  }
  close(fd);
  return in;
}

class AclHaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cluster_.Start());
    admin_ = SigningClient(kAclAdmin);
    protocol::CreateTopicRequestHeader h;
    h.topic = "TopicAcl";
    h.default_topic = "TBW102";
    h.read_queue_nums = h.write_queue_nums = 1;
    h.perm = 6;
    h.topic_filter_type = "SINGLE_TAG";
    RemotingCommand create = RemotingCommand::MakeRequest(req::kUpdateAndCreateTopic);
    protocol::EncodeCustomHeader(h, &create);
    auto created = admin_->InvokeSync(cluster_.broker().addr(), std::move(create), 5s);
    ASSERT_TRUE(created.ok() && created->code == rc::kSuccess);
    ASSERT_TRUE(cluster_.WaitForRoute("TopicAcl"));
    ProducerConfig config;
    config.namesrv_addr = cluster_.namesrv().addr();
    config.group_name = "AclHaProducer";
    config.instance_name = "acl_ha";
    config.access_key = kAclUser.access_key;
    config.secret_key = kAclUser.secret_key;
    Producer producer(config);
    ASSERT_TRUE(producer.Start().ok());
    auto sent = producer.Send(Message("TopicAcl", "tag", "secret-body-on-the-ha-port"));
    ASSERT_TRUE(sent.ok()) << sent.status().ToString();
    producer.Shutdown();
  }

  Result<int64_t> CommitLogEnd(const std::string& addr) {
    auto r = admin_->InvokeSync(addr, RemotingCommand::MakeRequest(req::kGetBrokerRuntimeInfo), 5s);
    if (!r.ok()) return r.status();
    if (r->code != rc::kSuccess) return Status::Internal(r->remark.value_or("runtime info"));
    APOGEE_ASSIGN_OR_RETURN(auto kv, protocol::DecodeKVTable(r->body));
    auto v = ParseInt64(kv.table["commitLogMaxOffset"]);
    if (!v) return Status::NotFound("commitLogMaxOffset");
    return *v;
  }

  std::unique_ptr<BrokerProcess> Slave(const std::string& credentials_file) {
    auto slave = std::make_unique<BrokerProcess>(
        Props{{"brokerId", "1"},
              {"brokerRole", "SLAVE"},
              {"aclEnable", "true"},
              {"aclFilePath", cluster_.files().acl_path()},
              {"aclCredentialsFile", credentials_file},
              {"haMasterAddress", "127.0.0.1:" + std::to_string(cluster_.broker().ha_port())}},
        "broker-a");
    return slave;
  }

  AclCluster cluster_;
  std::unique_ptr<remoting::RemotingClient> admin_;
};

TEST_F(AclHaTest, AnOffsetReportGetsNothing) {
  std::string got = TalkRaw(cluster_.broker().ha_port(), std::string(8, '\0'), 5s);
  EXPECT_EQ(got.size(), 0u) << "a peer that does not open with the hello gets no byte";
  EXPECT_EQ(got.find("secret-body-on-the-ha-port"), std::string::npos);
}

TEST_F(AclHaTest, AHelloAndAnOffsetReportGetOnlyTheChallenge) {
  std::string got =
      TalkRaw(cluster_.broker().ha_port(), std::string("APGH\x01", 5) + std::string(8, '\0'), 5s);
  ASSERT_GE(got.size(), 4u);
  EXPECT_EQ(got.substr(0, 4), "APGH");
  EXPECT_EQ(got.size(), 37u) << "magic, version and a 32-byte challenge, nothing else";
  EXPECT_EQ(got.find("secret-body-on-the-ha-port"), std::string::npos);
  EXPECT_TRUE(WaitUntil([&] { return cluster_.broker().ReadLog().find("refused") != std::string::npos; },
                        10s));
}

TEST_F(AclHaTest, SlaveWithTheAdminAccountReplicatesANonAdminIsRefused) {
  auto refused = Slave(cluster_.files().user_credentials_path());
  ASSERT_TRUE(refused->Start(cluster_.namesrv().addr()));
  EXPECT_TRUE(WaitUntil(
      [&] {
        return cluster_.broker().ReadLog().find("HA replication needs an admin account") !=
               std::string::npos;
      },
      15s))
      << cluster_.broker().ReadLog();
  refused->Stop();

  auto slave = Slave(cluster_.files().admin_credentials_path());
  ASSERT_TRUE(slave->Start(cluster_.namesrv().addr()));
  auto master_end = CommitLogEnd(cluster_.broker().addr());
  ASSERT_TRUE(master_end.ok()) << master_end.status().ToString();
  ASSERT_GT(*master_end, 0);
  EXPECT_TRUE(WaitUntil(
      [&] {
        auto end = CommitLogEnd(slave->addr());
        return end.ok() && *end == *master_end;
      },
      20s))
      << slave->ReadLog();
}

}  // namespace
}  // namespace apogee::testing
