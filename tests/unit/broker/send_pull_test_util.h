// Shared fixture of the send / pull processor tests: a MemEnv store with tiny files, the
// broker's topic and group managers, a BrokerContext wired like the controller wires it,
// and a FakeChannel that records the responses a Responder sends.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/clock.h"
#include "base/scheduler.h"
#include "broker/broker_config.h"
#include "broker/broker_context.h"
#include "broker/broker_services.h"
#include "broker/processors/pull_message_processor.h"
#include "broker/processors/send_message_processor.h"
#include "broker/stats/broker_stats_manager.h"
#include "broker/subscription_group_manager.h"
#include "broker/topic_config_manager.h"
#include "env/env.h"
#include "env/mem_env.h"
#include "message/properties.h"
#include "protocol/custom_header.h"
#include "protocol/remoting_command.h"
#include "protocol/send_headers.h"
#include "remoting/channel.h"
#include "remoting/request_processor.h"
#include "store/message_store.h"
#include "testutil/test_util.h"

namespace apogee::broker::testing {

// Members an answer carries as JSON text (json_ext_fields, EncodeCustomHeaderToSend) read back
// into its map as a peer reads them off the wire, so tests look them up by key.
inline void ReadBackJsonMembers(protocol::RemotingCommand* command) {
  if (command->json_ext_fields.empty()) return;
  std::string frame;
  protocol::EncodeCommand(*command, &frame);
  Result<protocol::RemotingCommand> decoded =
      protocol::DecodeCommand(std::string_view(frame).substr(4));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  command->ext_fields = decoded->ext_fields;
  command->json_ext_fields.clear();
}

class FakeChannel : public remoting::Channel {
 public:
  explicit FakeChannel(std::string remote = "127.0.0.1:50123") : remote_(std::move(remote)) {}
  uint64_t id() const override { return 4242; }
  const std::string& RemoteAddress() const override { return remote_; }
  const std::string& LocalAddress() const override { return local_; }
  bool IsActive() const override { return active_; }
  void InvokeAsync(protocol::RemotingCommand, std::chrono::milliseconds,
                   remoting::ResponseCallback callback) override {
    callback(Status::Unavailable("fake channel"));
  }
  Result<protocol::RemotingCommand> InvokeSync(protocol::RemotingCommand,
                                               std::chrono::milliseconds) override {
    return Status::Unavailable("fake channel");
  }
  void InvokeOneway(protocol::RemotingCommand, remoting::WriteCallback on_written) override {
    if (on_written) on_written(Status::Unavailable("fake channel"));
  }
  void SendResponse(protocol::RemotingCommand response) override {
    ReadBackJsonMembers(&response);
    std::lock_guard<std::mutex> lock(mu_);
    responses_.push_back(std::move(response));
    cv_.notify_all();
  }
  void Close() override { active_ = false; }
  void set_active(bool active) { active_ = active; }

  // Waits for the n-th response (1-based).
  std::optional<protocol::RemotingCommand> WaitResponse(
      size_t n = 1, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, timeout, [&] { return responses_.size() >= n; })) return std::nullopt;
    return responses_[n - 1];
  }
  size_t ResponseCount() {
    std::lock_guard<std::mutex> lock(mu_);
    return responses_.size();
  }

 private:
  std::string remote_;
  std::string local_ = "127.0.0.1:10911";
  std::atomic<bool> active_{true};
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<protocol::RemotingCommand> responses_;
};

inline BrokerSettings TestSettings() {
  BrokerSettings s;
  s.broker_ip1 = "127.0.0.1";
  s.broker_name = "broker-a";
  s.broker_cluster_name = "TestCluster";
  s.listen_port = 10911;
  s.store.store_path_root_dir = "/store";
  s.store.mapped_file_size_commit_log = 256 * 1024;
  s.store.mapped_file_size_consume_queue = 20 * 256;
  s.store.max_hash_slot_num = 128;
  s.store.max_index_num = 512;
  s.store.flush_interval_commit_log = 10;
  s.store.flush_interval_consume_queue = 10;
  s.store.warm_mapped_file_enable = false;
  s.store.max_message_size = 64 * 1024;
  return s;
}

// The broker pieces the send / pull family needs, over a MemEnv.
class BrokerHarness {
 public:
  explicit BrokerHarness(BrokerSettings settings = TestSettings()) {
    config = std::make_unique<BrokerConfig>(settings);
    auto opened = store::MessageStore::Open(settings.store, env.get(), Clock::Real());
    EXPECT_TRUE(opened.ok()) << opened.status().ToString();
    store = std::move(*opened);
    topics = std::make_unique<TopicConfigManager>(config.get(), env.get(),
                                                  "/store/config/topics.json");
    groups = std::make_unique<SubscriptionGroupManager>(config.get(), env.get(),
                                                        "/store/config/subscriptionGroup.json");
    context.config = config.get();
    context.scheduler = &scheduler;
    context.store = store.get();
    context.topic_config_manager = topics.get();
    context.subscription_group_manager = groups.get();
    context.broker_addr = "127.0.0.1:10911";
    // As the controller: one statistics object, made before the families.
    context.stats = std::make_shared<BrokerStatsManager>(Clock::Real());
    // The controller forwards the store's arrivals to the observer list.
    BrokerContext* ctx = &context;
    store->SetMessageArrivingListener(
        [ctx](std::string_view topic, int32_t queue_id, int64_t next) {
          ctx->arrival_observers.Notify(topic, queue_id, next);
        });
    EXPECT_TRUE(store->Start().ok());
  }
  ~BrokerHarness() {
    for (auto it = context.shutdown_hooks.rbegin(); it != context.shutdown_hooks.rend(); ++it) {
      (*it)();
    }
    services.Shutdown();
    context.stats->Shutdown();
    store->Shutdown();
  }
  Status RunStartHooks() {
    context.stats->Start(&scheduler);
    APOGEE_RETURN_IF_ERROR(services.Start(&scheduler, config->Get()->IsSlave()));
    for (auto& hook : context.start_hooks) APOGEE_RETURN_IF_ERROR(hook());
    return Status::OK();
  }
  // The services as the controller builds them (broker_services.h), with their arrival
  // observers, built on first use: set the executors first.
  BrokerServices& Services() {
    if (!services_built) {
      EXPECT_TRUE(services.Build(context, env.get()).ok());
      services.AddArrivalObservers(&context.arrival_observers);
      services_built = true;
    }
    return services;
  }
  // A send processor's dependencies from this harness's parts, as CreateSendPullProcessors
  // fills them from the broker's (statistics included, no fencing).
  SendMessageProcessor::Deps SendDeps() const {
    SendMessageProcessor::Deps deps;
    deps.config = config.get();
    deps.store = store.get();
    deps.topics = topics.get();
    deps.groups = groups.get();
    deps.stats = context.stats.get();
    deps.broker_addr = context.broker_addr;
    return deps;
  }
  // A pull processor's; `offsets` and `consumers` may be null (see PullMessageProcessor).
  PullMessageProcessor::Deps PullDeps(ConsumerOffsetManager* offsets,
                                      ConsumerManager* consumers = nullptr) const {
    PullMessageProcessor::Deps deps;
    deps.config = config.get();
    deps.store = store.get();
    deps.topics = topics.get();
    deps.groups = groups.get();
    deps.offsets = offsets;
    deps.consumers = consumers;
    deps.stats = context.stats.get();
    return deps;
  }
  void AddTopic(const std::string& name, int32_t queues = 4,
                int32_t perm = protocol::kPermRead | protocol::kPermWrite) {
    protocol::TopicConfig c;
    c.topic_name = name;
    c.read_queue_nums = queues;
    c.write_queue_nums = queues;
    c.perm = perm;
    ASSERT_TRUE(topics->UpdateTopicConfig(c).ok());
  }
  void WaitDispatched() {
    ASSERT_TRUE(apogee::testing::WaitUntil([&] { return store->DispatchBehindBytes() <= 0; },
                                           std::chrono::seconds(10)));
  }

  Scheduler scheduler;  // first: the families' jobs are cancelled before it goes
  std::unique_ptr<env::Env> env = env::NewMemEnv();
  std::unique_ptr<BrokerConfig> config;
  std::unique_ptr<store::MessageStore> store;
  std::unique_ptr<TopicConfigManager> topics;
  std::unique_ptr<SubscriptionGroupManager> groups;
  BrokerContext context;
  BrokerServices services;  // after the store: shut down before it
  bool services_built = false;
};

// A SEND_MESSAGE_V2 request as the Java client builds it.
inline protocol::RemotingCommand SendRequest(const std::string& topic, int32_t queue_id,
                                             std::string body, const std::string& tags = "",
                                             int32_t code = 310) {
  protocol::SendMessageRequestHeader h;
  h.producer_group = "PG";
  h.topic = topic;
  h.default_topic = "TBW102";
  h.default_topic_queue_nums = 4;
  h.queue_id = queue_id;
  h.born_timestamp = 1700000000000;
  message::MessageProperties props;
  if (!tags.empty()) (void)props.Set("TAGS", tags);
  (void)props.Set("UNIQ_KEY", "7F0000010001000000000000000" + std::to_string(queue_id + 10));
  h.properties = props.Encode();
  protocol::RemotingCommand request = protocol::RemotingCommand::MakeRequest(code);
  if (code == 10) {
    protocol::EncodeCustomHeader(h, &request);
  } else {
    protocol::EncodeCustomHeader(protocol::SendMessageRequestHeaderV2{h}, &request);
  }
  request.body = std::move(body);
  request.opaque = 7;
  return request;
}

// Runs `processor` on `request` with a fresh FakeChannel and returns the first response.
inline std::optional<protocol::RemotingCommand> Call(
    remoting::RequestProcessor& processor, protocol::RemotingCommand request,
    std::shared_ptr<FakeChannel> channel = std::make_shared<FakeChannel>(),
    std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  remoting::Responder responder(channel, request);
  processor.ProcessRequest(std::move(request), responder);
  return channel->WaitResponse(1, timeout);
}

inline std::string Ext(const protocol::RemotingCommand& c, std::string_view key) {
  return std::string(c.ext_fields.Get(key).value_or("<absent>"));
}

}  // namespace apogee::broker::testing
