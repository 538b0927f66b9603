// Test helper for the client-management tests: a Channel that records what the broker
// sends on it instead of writing to a socket.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/remoting_command.h"
#include "remoting/channel.h"

namespace apogee::broker::test {

class FakeClientChannel : public remoting::Channel {
 public:
  explicit FakeClientChannel(std::string address) : id_(NextId()), address_(std::move(address)) {}

  uint64_t id() const override { return id_; }
  const std::string& RemoteAddress() const override { return address_; }
  const std::string& LocalAddress() const override { return local_; }
  bool IsActive() const override { return active_.load(); }

  void InvokeAsync(protocol::RemotingCommand request, std::chrono::milliseconds,
                   remoting::ResponseCallback callback) override {
    Record(std::move(request));
    callback(Status::Unavailable("fake channel never answers"));
  }
  Result<protocol::RemotingCommand> InvokeSync(protocol::RemotingCommand request,
                                               std::chrono::milliseconds) override {
    Record(std::move(request));
    return Status::Unavailable("fake channel never answers");
  }
  void InvokeOneway(protocol::RemotingCommand request,
                    remoting::WriteCallback on_written) override {
    request.flag |= protocol::kFlagOneway;
    Record(std::move(request));
    if (on_written) on_written(Status::OK());
  }
  void SendResponse(protocol::RemotingCommand) override {}
  void Close() override {
    active_ = false;
    ++closes_;
  }

  std::vector<protocol::RemotingCommand> Sent() const {
    std::lock_guard<std::mutex> lock(mu_);
    return sent_;
  }
  void ClearSent() {
    std::lock_guard<std::mutex> lock(mu_);
    sent_.clear();
  }
  int closes() const { return closes_.load(); }

 private:
  static uint64_t NextId() {
    static std::atomic<uint64_t> next{1};
    return next++;
  }
  void Record(protocol::RemotingCommand request) {
    std::lock_guard<std::mutex> lock(mu_);
    sent_.push_back(std::move(request));
  }

  const uint64_t id_;
  const std::string address_;
  const std::string local_ = "127.0.0.1:10911";
  std::atomic<bool> active_{true};
  std::atomic<int> closes_{0};
  mutable std::mutex mu_;
  std::vector<protocol::RemotingCommand> sent_;
};

inline std::shared_ptr<FakeClientChannel> MakeFakeChannel(const std::string& address) {
  return std::make_shared<FakeClientChannel>(address);
}

}  // namespace apogee::broker::test
