// A real single-member etcd (Debian's etcd-server, installed by scripts/install-deps.sh) for
// the failover tests: free loopback client and peer ports, data in a temporary directory,
// stopped with the test.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "testutil/test_util.h"

namespace apogee::testing {

inline std::string EtcdBinary() {
  for (const char* path : {"/usr/bin/etcd", "/usr/local/bin/etcd"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return "etcd";
}

class EtcdProcess {
 public:
  bool Start() {
    client_port_ = PickFreePort();
    peer_port_ = PickFreePort({});
    while (peer_port_ == client_port_) peer_port_ = PickFreePort({});
    const std::string client = "http://127.0.0.1:" + std::to_string(client_port_);
    const std::string peer = "http://127.0.0.1:" + std::to_string(peer_port_);
    if (!process_.Start({EtcdBinary(), "--name", "apogee-test", "--data-dir", dir_.Join("data"),
                         "--listen-client-urls", client, "--advertise-client-urls", client,
                         "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                         "--initial-cluster", "apogee-test=" + peer, "--log-level", "warn"},
                        dir_.Join("etcd.log"))) {
      ADD_FAILURE() << "cannot start " << EtcdBinary() << " (scripts/install-deps.sh installs "
                    << "etcd-server)";
      return false;
    }
    if (!WaitForPort(client_port_, std::chrono::seconds(20))) {
      ADD_FAILURE() << "etcd did not listen on " << client_port_ << ":\n" << process_.ReadLog();
      return false;
    }
    return true;
  }
  void Stop() { process_.Stop(std::chrono::seconds(5)); }

  uint16_t client_port() const { return client_port_; }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(client_port_); }
  std::string ReadLog() const { return process_.ReadLog(); }

 private:
  TempDir dir_;
  uint16_t client_port_ = 0;
  uint16_t peer_port_ = 0;
  ChildProcess process_;
};

}  // namespace apogee::testing
