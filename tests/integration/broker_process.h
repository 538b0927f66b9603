// Test helpers for black-box broker tests: a real mqbroker child process on free loopback
// ports (listenPort, listenPort - 2 and listenPort + 1 all free) with its own broker.conf,
// store directory and log, plus a NameServer + broker pair for tests that need a whole
// single-node cluster. Everyone's integration tests use these.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "namesrv_process.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/route_data.h"
#include "remoting/remoting_client.h"
#include "testutil/test_util.h"
#include "testutil/test_paths.h"

namespace apogee::testing {

inline std::string BrokerBinary() { return BinDir() + "/mqbroker"; }

// One mqbroker process. `extra` lines go into its broker.conf after the defaults below
// (later keys win), so a test can override any of them.
class BrokerProcess {
 public:
  explicit BrokerProcess(Props extra = {}, std::string broker_name = "broker-a")
      : extra_(std::move(extra)), broker_name_(std::move(broker_name)) {}
  ~BrokerProcess() { Stop(); }

  // Writes broker.conf (first call only picks the ports) and starts the process with
  // `-n namesrv_addr` (none when empty) plus `extra_args`; waits for the port.
  // False (with the log printed) on failure.
  bool Start(const std::string& namesrv_addr, const std::vector<std::string>& extra_args = {}) {
    if (port_ == 0) port_ = PickFreePort({-2, +1});
    WriteConfig();
    std::vector<std::string> argv = {BrokerBinary(), "-c", conf_path()};
    if (!namesrv_addr.empty()) {
      argv.push_back("-n");
      argv.push_back(namesrv_addr);
    }
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    if (!process_.Start(argv, dir_.Join("broker-" + std::to_string(++starts_) + ".log"),
                        {{"APOGEE_LOG_DIR", dir_.Join("logs")}})) {
      ADD_FAILURE() << "cannot start " << BrokerBinary();
      return false;
    }
    if (!WaitForPort(port_, std::chrono::seconds(20))) {
      ADD_FAILURE() << "mqbroker did not listen on " << port_ << ":\n" << process_.ReadLog();
      return false;
    }
    return true;
  }

  // SIGTERM and wait; returns the wait status (0 = clean exit).
  int Stop(std::chrono::milliseconds grace = std::chrono::seconds(20)) {
    if (!process_.running()) return 0;
    return process_.Stop(grace);
  }

  std::string addr() const { return "127.0.0.1:" + std::to_string(port_); }
  uint16_t port() const { return port_; }
  uint16_t fast_port() const { return static_cast<uint16_t>(port_ - 2); }
  uint16_t ha_port() const { return static_cast<uint16_t>(port_ + 1); }
  const std::string& broker_name() const { return broker_name_; }
  std::string store_dir() const { return dir_.Join("store"); }
  std::string config_dir() const { return dir_.Join("store/config"); }
  std::string conf_path() const { return dir_.Join("broker.conf"); }
  ChildProcess& process() { return process_; }
  std::string ReadLog() const { return process_.ReadLog(); }
  void SetExtra(const std::string& key, const std::string& value) { extra_[key] = value; }

 private:
  void WriteConfig() {
    std::ofstream out(conf_path());
    out << "brokerClusterName=DefaultCluster\n"
        << "brokerName=" << broker_name_ << "\n"
        << "brokerId=0\n"
        << "brokerIP1=127.0.0.1\n"
        << "bindAddress=127.0.0.1\n"
        << "listenPort=" << port_ << "\n"
        << "storePathRootDir=" << store_dir()
        << "\n"
        // Small files keep tests fast; the store pre-allocates them.
        << "mappedFileSizeCommitLog=" << (16 << 20) << "\n"
        << "mappedFileSizeConsumeQueue=" << (20 * 20000) << "\n"
        << "maxHashSlotNum=50000\n"
        << "maxIndexNum=200000\n";
    for (const auto& [k, v] : extra_) out << k << "=" << v << "\n";
  }

  TempDir dir_;
  Props extra_;
  std::string broker_name_;
  uint16_t port_ = 0;
  int starts_ = 0;
  ChildProcess process_;
};

// A NameServer and one broker registered with it.
class SingleBrokerCluster {
 public:
  explicit SingleBrokerCluster(Props broker_extra = {}) : broker_(std::move(broker_extra)) {}

  bool Start() {
    if (!namesrv_.Start()) return false;
    if (!broker_.Start(namesrv_.addr())) return false;
    // Registered once TBW102 has a route.
    remoting::RemotingClient client;
    client.Start();
    bool ok = WaitUntil(
        [&] {
          auto res =
              client.InvokeSync(namesrv_.addr(), RouteRequest("TBW102"), std::chrono::seconds(3));
          return res.ok() && res->code == protocol::response_code::kSuccess;
        },
        std::chrono::seconds(15));
    if (!ok) ADD_FAILURE() << "broker did not register:\n" << broker_.ReadLog();
    return ok;
  }

  NamesrvProcess& namesrv() { return namesrv_; }
  BrokerProcess& broker() { return broker_; }

 private:
  NamesrvProcess namesrv_;
  BrokerProcess broker_;
};

// The route of `topic` from a NameServer, or the error / non-SUCCESS code as a Status.
inline Result<protocol::TopicRouteData> QueryRoute(remoting::RemotingClient& client,
                                                   const std::string& namesrv_addr,
                                                   const std::string& topic) {
  auto res = client.InvokeSync(namesrv_addr, RouteRequest(topic), std::chrono::seconds(3));
  if (!res.ok()) return res.status();
  if (res->code != protocol::response_code::kSuccess) {
    return Status::NotFound("route of " + topic + ": code " + std::to_string(res->code) + " " +
                            res->remark.value_or(""));
  }
  return protocol::DecodeTopicRouteData(res->body);
}

}  // namespace apogee::testing
