// Test helpers for the ACL tests (acl_*_test.cc): a plain_acl.yml and credentials files
// in a temporary directory, an ACL-enabled NameServer + broker pair, and remoting clients
// that sign as a given account (or not at all), as an attacker or a user would.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <string>

#include "acl/signature.h"
#include "broker_process.h"
#include "namesrv_process.h"
#include "remoting/remoting_client.h"
#include "testutil/test_util.h"

namespace apogee::testing {

inline const acl::Credentials kAclAdmin{"adminAccess", "adminSecret1", std::nullopt, std::nullopt};
inline const acl::Credentials kAclUser{"userAccess", "userSecret1", std::nullopt, std::nullopt};

// admin: everything; user: only TopicAcl (PUB|SUB) and TopicRead (SUB), every group but
// BlockedGroup.
inline constexpr const char* kAclYaml = R"(globalWhiteRemoteAddresses:
accounts:
  - accessKey: adminAccess
    secretKey: adminSecret1
    admin: true
  - accessKey: userAccess
    secretKey: userSecret1
    whiteRemoteAddress:
    admin: false
    defaultTopicPerm: DENY
    defaultGroupPerm: SUB
    topicPerms:
      - TopicAcl=PUB|SUB
      - TopicRead=SUB
    groupPerms:
      - BlockedGroup=DENY
)";

class AclFiles {
 public:
  AclFiles() {
    Write(acl_path(), kAclYaml);
    Write(admin_credentials_path(), "accessKey: adminAccess\nsecretKey: adminSecret1\n");
    Write(user_credentials_path(), "accessKey: userAccess\nsecretKey: userSecret1\n");
  }
  std::string acl_path() const { return dir_.Join("plain_acl.yml"); }
  std::string admin_credentials_path() const { return dir_.Join("admin.yml"); }
  std::string user_credentials_path() const { return dir_.Join("user.yml"); }
  std::string dir() const { return dir_.path(); }

  static void Write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::trunc) << text;
  }

 private:
  TempDir dir_;
};

// A remoting client that signs every request with `credentials` (none: unsigned).
inline std::unique_ptr<remoting::RemotingClient> SigningClient(const acl::Credentials& credentials) {
  auto client = std::make_unique<remoting::RemotingClient>(
      remoting::RemotingClientOptions{.before_request = acl::SigningHook(credentials)});
  client->Start();
  return client;
}

// One request and its answer; a transport failure is a test failure (answered as code -1).
inline protocol::RemotingCommand CallOrFail(remoting::RemotingClient& client,
                                            const std::string& addr,
                                            protocol::RemotingCommand request) {
  auto res = client.InvokeSync(addr, std::move(request), std::chrono::seconds(5));
  EXPECT_TRUE(res.ok()) << addr << ": " << res.status().ToString();
  if (!res.ok()) return protocol::RemotingCommand::MakeRequest(-1);
  return *res;
}

// NameServer and broker with aclEnable=true on one plain_acl.yml; the broker signs its
// registrations with the admin account (aclCredentialsFile).
class AclCluster {
 public:
  explicit AclCluster(Props broker_extra = {})
      : namesrv_({{"aclEnable", "true"}, {"aclFilePath", files_.acl_path()}}),
        broker_(WithAcl(std::move(broker_extra))) {}

  bool Start() {
    if (!namesrv_.Start()) return false;
    if (!broker_.Start(namesrv_.addr())) return false;
    auto client = SigningClient({});
    bool ok = WaitUntil(
        [&] {
          auto res = client->InvokeSync(namesrv_.addr(), RouteRequest("TBW102"),
                                        std::chrono::seconds(3));
          return res.ok() && res->code == protocol::response_code::kSuccess;
        },
        std::chrono::seconds(15));
    if (!ok) ADD_FAILURE() << "broker did not register:\n" << broker_.ReadLog();
    return ok;
  }

  // True once the NameServer routes `topic`. Send only then: before, a producer takes the
  // default topic's route and its queue numbers.
  bool WaitForRoute(const std::string& topic) {
    auto client = SigningClient({});
    return WaitUntil(
        [&] {
          auto res = client->InvokeSync(namesrv_.addr(), RouteRequest(topic), std::chrono::seconds(3));
          return res.ok() && res->code == protocol::response_code::kSuccess;
        },
        std::chrono::seconds(15));
  }

  AclFiles& files() { return files_; }
  NamesrvProcess& namesrv() { return namesrv_; }
  BrokerProcess& broker() { return broker_; }

 private:
  Props WithAcl(Props extra) {
    extra.emplace("aclEnable", "true");
    extra.emplace("aclFilePath", files_.acl_path());
    extra.emplace("aclCredentialsFile", files_.admin_credentials_path());
    return extra;
  }

  AclFiles files_;
  NamesrvProcess namesrv_;
  BrokerProcess broker_;
};

}  // namespace apogee::testing
