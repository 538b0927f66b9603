// Test helpers for black-box NameServer tests: a real mqnamesrv child process on a free
// loopback port with its own config, KV file and log directory, and request builders that
// speak as a broker or a client would (through the protocol module's codecs only).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "protocol/register_broker_body.h"
#include "protocol/remoting_command.h"
#include "protocol/request_code.h"
#include "protocol/topic_config.h"
#include "testutil/test_util.h"
#include "base/crc32.h"
#include "testutil/test_paths.h"

namespace apogee::testing {

inline std::string NamesrvBinary() { return BinDir() + "/mqnamesrv"; }

using Props = std::map<std::string, std::string>;

// One mqnamesrv process. Extra properties are appended to its config file.
class NamesrvProcess {
 public:
  explicit NamesrvProcess(std::map<std::string, std::string> extra = {},
                          std::string kv_path = "")
      : extra_(std::move(extra)), kv_path_(kv_path.empty() ? dir_.Join("kvConfig.json") : kv_path) {}

  // Starts the process and waits for its port; false (with the log printed) on failure.
  bool Start() {
    port_ = PickFreePort();
    std::string conf = dir_.Join("namesrv.conf");
    std::ofstream out(conf);
    out << "listenPort=" << port_ << "\nbindAddress=127.0.0.1\nkvConfigPath=" << kv_path_ << "\n";
    for (const auto& [k, v] : extra_) out << k << "=" << v << "\n";
    out.close();
    if (!process_.Start({NamesrvBinary(), "-c", conf}, dir_.Join("namesrv.log"),
                        {{"APOGEE_LOG_DIR", dir_.path()}})) {
      return false;
    }
    if (!WaitForPort(port_, std::chrono::seconds(10))) {
      ADD_FAILURE() << "mqnamesrv did not listen on " << port_ << ":\n" << process_.ReadLog();
      return false;
    }
    return true;
  }

  std::string addr() const { return "127.0.0.1:" + std::to_string(port_); }
  uint16_t port() const { return port_; }
  ChildProcess& process() { return process_; }
  const std::string& kv_path() const { return kv_path_; }

 private:
  TempDir dir_;
  std::map<std::string, std::string> extra_;
  std::string kv_path_;
  uint16_t port_ = 0;
  ChildProcess process_;
};

struct TopicSpec {
  std::string name;
  int32_t queues = 4;
  int32_t perm = 6;
};

// REGISTER_BROKER as a 4.9 Java broker sends it: RegisterBrokerBody JSON (or the zlib
// form), bodyCrc32 over the exact body bytes, compressed flag always present.
inline protocol::RemotingCommand RegisterBrokerRequest(const std::string& cluster,
                                                       const std::string& broker_name,
                                                       int64_t broker_id,
                                                       const std::string& broker_addr,
                                                       const std::vector<TopicSpec>& topics,
                                                       int64_t counter = 1,
                                                       bool compressed = false) {
  protocol::RegisterBrokerBody body;
  body.topic_config_serialize_wrapper.data_version = protocol::DataVersion{0, 1700000000000, counter};
  for (const TopicSpec& t : topics) {
    protocol::TopicConfig tc;
    tc.topic_name = t.name;
    tc.read_queue_nums = t.queues;
    tc.write_queue_nums = t.queues;
    tc.perm = t.perm;
    body.topic_config_serialize_wrapper.topic_config_table[t.name] = tc;
  }
  protocol::RemotingCommand req =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kRegisterBroker);
  req.version = 407;  // V4_9_7
  req.body = compressed ? protocol::EncodeCompressedRegisterBrokerBody(body)
                        : protocol::EncodeRegisterBrokerBody(body);
  req.has_ext_fields = true;
  req.ext_fields.Set("brokerName", broker_name);
  req.ext_fields.Set("brokerAddr", broker_addr);
  req.ext_fields.Set("clusterName", cluster);
  req.ext_fields.Set("haServerAddr", broker_addr + "-ha");
  req.ext_fields.Set("brokerId", std::to_string(broker_id));
  req.ext_fields.Set("compressed", compressed ? "true" : "false");
  req.ext_fields.Set("bodyCrc32", std::to_string(Crc32Masked(req.body)));
  return req;
}

inline protocol::RemotingCommand RouteRequest(const std::string& topic, int32_t version = 407) {
  protocol::RemotingCommand req =
      protocol::RemotingCommand::MakeRequest(protocol::request_code::kGetRouteinfoByTopic);
  req.version = version;
  req.has_ext_fields = true;
  req.ext_fields.Set("topic", topic);
  return req;
}

}  // namespace apogee::testing
