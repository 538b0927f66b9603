#include "client/client_instance.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <shared_mutex>

#include "base/clock.h"
#include "base/logging.h"
#include "base/service_thread.h"
#include "message/message_format.h"
#include "message/message_record.h"
#include "message/uniq_key.h"
#include "protocol/admin_bodies.h"
#include "protocol/client_headers.h"
#include "protocol/custom_header.h"
#include "protocol/mix_all.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/system_topics.h"

namespace apogee::client {

namespace rc = protocol::request_code;
namespace rs = protocol::response_code;
using protocol::RemotingCommand;

namespace {

// A shared hold of an instance's inner-use lock that a thread may take again while it
// holds it (DoRebalance -> a consumer -> route update -> UpdateTopicSubscribeInfo): only the
// outermost hold locks, so a waiting Unregister* cannot deadlock a nested reader.
class InnerUseGuard {
 public:
  explicit InnerUseGuard(std::shared_mutex* mu) : mu_(mu) {
    if (Depths()[mu_]++ == 0) mu_->lock_shared();
  }
  ~InnerUseGuard() {
    auto& depths = Depths();
    if (--depths[mu_] == 0) {
      depths.erase(mu_);
      mu_->unlock_shared();
    }
  }
  InnerUseGuard(const InnerUseGuard&) = delete;
  InnerUseGuard& operator=(const InnerUseGuard&) = delete;

 private:
  // This thread's hold count per lock.
  static std::map<std::shared_mutex*, int>& Depths() {
    thread_local std::map<std::shared_mutex*, int> depths;
    return depths;
  }
  std::shared_mutex* mu_;
};

std::mutex& RegistryMutex() {
  static std::mutex mu;
  return mu;
}

std::map<std::string, std::shared_ptr<ClientInstance>>& Registry() {
  static auto* registry = new std::map<std::string, std::shared_ptr<ClientInstance>>();
  return *registry;
}

}  // namespace

// Route refresh, heartbeats and offset persistence on one thread (Java's
// MQClientInstance.startScheduledTask), each on its own period.
class ClientInstance::Scheduler : public ServiceThread {
 public:
  explicit Scheduler(ClientInstance* instance)
      : ServiceThread("client-scheduler"), instance_(instance) {}
  ~Scheduler() override { Shutdown(); }

 protected:
  void Run() override {
    const ClientConfig& config = instance_->config();
    int64_t now = NowMillis();
    int64_t next_route = now + 10;
    int64_t next_heartbeat = now + 1000;
    int64_t next_persist = now + 10'000;
    while (!stopped()) {
      now = NowMillis();
      if (now >= next_route) {
        instance_->UpdateTopicRouteInfoFromNameServer();
        next_route = NowMillis() + std::max<int64_t>(config.poll_name_server_interval_ms, 10);
      }
      if (stopped()) break;
      if (now >= next_heartbeat) {
        instance_->SendHeartbeatToAllBrokers();
        next_heartbeat = NowMillis() + std::max<int64_t>(config.heartbeat_broker_interval_ms, 10);
      }
      if (stopped()) break;
      if (now >= next_persist) {
        instance_->PersistAllConsumerOffset();
        next_persist =
            NowMillis() + std::max<int64_t>(config.persist_consumer_offset_interval_ms, 10);
      }
      int64_t wait = std::min({next_route, next_heartbeat, next_persist}) - NowMillis();
      if (wait > 0) WaitForRunning(wait);
    }
  }

 private:
  ClientInstance* instance_;
};

// Java's RebalanceService: every 20 s, or at once after RebalanceImmediately().
class ClientInstance::RebalanceService : public ServiceThread {
 public:
  static constexpr int64_t kWaitIntervalMs = 20'000;

  explicit RebalanceService(ClientInstance* instance)
      : ServiceThread("client-rebalance"), instance_(instance) {}
  ~RebalanceService() override { Shutdown(); }

 protected:
  void Run() override {
    while (!stopped()) {
      WaitForRunning(kWaitIntervalMs);
      if (stopped()) break;
      instance_->DoRebalance();
    }
  }

 private:
  ClientInstance* instance_;
};

std::string ClientInstance::PidInstanceName() { return std::to_string(::getpid()); }

namespace {

acl::Credentials CredentialsOf(const ClientConfig& config) {
  acl::Credentials c{config.access_key, config.secret_key, std::nullopt, std::nullopt};
  if (!config.security_token.empty()) c.security_token = config.security_token;
  if (!config.ons_channel.empty()) c.ons_channel = config.ons_channel;
  return c;
}

}  // namespace

std::string ClientInstance::BuildClientId(const ClientConfig& config) {
  std::string ip = config.client_ip.empty() ? message::PickClientIp().AddressString()
                                            : config.client_ip;
  std::string id = ip + "@" + config.instance_name;
  if (!config.unit_name.empty()) id += "@" + config.unit_name;
  return id;
}

TlsConfig ClientInstance::TlsFromClientConfig(const ClientConfig& config) {
  TlsConfig tls;
  tls.enable = config.use_tls;
  tls.test_mode_enable = config.tls_test_mode_enable;
  tls.client_cert_path = config.tls_client_cert_path;
  tls.client_key_path = config.tls_client_key_path;
  tls.client_key_password = config.tls_client_key_password;
  tls.client_auth_server = config.tls_client_auth_server;
  tls.client_trust_cert_path = config.tls_client_trust_cert_path;
  tls.config_file = config.tls_config_file;
  return tls;
}

Result<std::shared_ptr<ClientInstance>> ClientInstance::GetOrCreate(const ClientConfig& input) {
  ClientConfig config = input;
  if (config.namesrv_addr.empty()) {
    const char* env = std::getenv("NAMESRV_ADDR");
    if (env != nullptr) config.namesrv_addr = env;
  }
  if (config.namesrv_addr.empty()) {
    return Status::InvalidArgument(
        "no NameServer address: set ClientConfig.namesrv_addr or NAMESRV_ADDR (host:port;host:port)");
  }
  if (config.client_ip.empty()) config.client_ip = message::PickClientIp().AddressString();
  TlsConfig tls;
  if (config.use_tls) {
    APOGEE_ASSIGN_OR_RETURN(tls, ResolveTlsConfig(TlsFromClientConfig(config), false, "client"));
  }
  std::string client_id = BuildClientId(config);
  std::lock_guard<std::mutex> lock(RegistryMutex());
  auto it = Registry().find(client_id);
  if (it != Registry().end()) return it->second;
  std::shared_ptr<ClientInstance> instance(new ClientInstance(config, client_id, std::move(tls)));
  APOGEE_RETURN_IF_ERROR(instance->api_.UpdateNameServerAddressList(config.namesrv_addr));
  Registry().emplace(client_id, instance);
  return instance;
}

ClientInstance::ClientInstance(ClientConfig config, std::string client_id, TlsConfig tls)
    : config_(std::move(config)),
      client_id_(std::move(client_id)),
      api_(MQClientAPIOptions{.callback_threads = static_cast<size_t>(
                                  std::max(1, config_.client_callback_executor_threads)),
                              .use_tls = config_.use_tls,
                              .tls = std::move(tls),
                              .credentials = CredentialsOf(config_),
                              .sync_wait_spin = std::chrono::microseconds(
                                  std::max<int64_t>(0, config_.sync_wait_spin_us))}) {
  RegisterServerRequestHandlers();
}

ClientInstance::~ClientInstance() {
  if (scheduler_) scheduler_->Shutdown();
  if (rebalance_) rebalance_->Shutdown();
  api_.Shutdown();
}

Status ClientInstance::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_) return Status::OK();
  api_.Start();
  scheduler_ = std::make_unique<Scheduler>(this);
  rebalance_ = std::make_unique<RebalanceService>(this);
  scheduler_->Start();
  rebalance_->Start();
  started_ = true;
  GetLogger("client")->info("client instance {} started, NameServers {}", client_id_,
                            config_.namesrv_addr);
  return Status::OK();
}

bool ClientInstance::Unused() const { return producers_.empty() && consumers_.empty(); }

void ClientInstance::Shutdown() {
  {
    std::lock_guard<std::mutex> registry_lock(RegistryMutex());
    std::lock_guard<std::mutex> lock(mu_);
    if (!Unused()) return;
    auto it = Registry().find(client_id_);
    if (it != Registry().end() && it->second.get() == this) Registry().erase(it);
    if (!started_) return;
    started_ = false;
  }
  scheduler_->Shutdown();
  rebalance_->Shutdown();
  api_.Shutdown();
  GetLogger("client")->info("client instance {} shut down", client_id_);
}

Status ClientInstance::RegisterProducer(const std::string& group, ProducerInner* producer) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (producers_.contains(group)) {
      return Status::AlreadyExists(fmt::format(
          "producer group {} already registered in client {}; use another group or instanceName",
          group, client_id_));
    }
    producers_.emplace(group, producer);
  }
  SendHeartbeatToAllBrokers();
  return Status::OK();
}

void ClientInstance::UnregisterProducer(const std::string& group) {
  {
    std::unique_lock<std::shared_mutex> use_lock(inner_use_mu_);
    std::lock_guard<std::mutex> lock(mu_);
    producers_.erase(group);
  }
  std::map<std::string, std::map<int64_t, std::string>, std::less<>> brokers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    brokers = broker_addr_table_;
  }
  for (const auto& [name, addrs] : brokers) {
    for (const auto& [id, addr] : addrs) {
      Status status = api_.UnregisterClient(addr, client_id_, group, std::nullopt, api_timeout());
      if (!status.ok()) {
        GetLogger("client")->warn("unregister producer {} from {}: {}", group, addr,
                                  status.ToString());
      }
    }
  }
}

Status ClientInstance::RegisterConsumer(const std::string& group, ConsumerInner* consumer) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (consumers_.contains(group)) {
      return Status::AlreadyExists(fmt::format(
          "consumer group {} already registered in client {}; use another group or instanceName",
          group, client_id_));
    }
    consumers_.emplace(group, consumer);
  }
  return Status::OK();
}

void ClientInstance::UnregisterConsumer(const std::string& group) {
  {
    std::unique_lock<std::shared_mutex> use_lock(inner_use_mu_);
    std::lock_guard<std::mutex> lock(mu_);
    consumers_.erase(group);
  }
  std::map<std::string, std::map<int64_t, std::string>, std::less<>> brokers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    brokers = broker_addr_table_;
  }
  for (const auto& [name, addrs] : brokers) {
    for (const auto& [id, addr] : addrs) {
      Status status = api_.UnregisterClient(addr, client_id_, std::nullopt, group, api_timeout());
      if (!status.ok()) {
        GetLogger("client")->warn("unregister consumer {} from {}: {}", group, addr,
                                  status.ToString());
      }
    }
  }
}

std::vector<ConsumerInner*> ClientInstance::Consumers() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<ConsumerInner*> result;
  for (const auto& [group, consumer] : consumers_) result.push_back(consumer);
  return result;
}

ProducerInner* ClientInstance::FindProducer(std::string_view group) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = producers_.find(group);
  return it == producers_.end() ? nullptr : it->second;
}

ConsumerInner* ClientInstance::FindConsumer(std::string_view group) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = consumers_.find(group);
  return it == consumers_.end() ? nullptr : it->second;
}

// ---------------------------------------------------------------- routes

Status ClientInstance::UpdateTopicRouteInfoFromNameServer(const std::string& topic, bool is_default,
                                                          int32_t default_queue_nums) {
  std::lock_guard<std::mutex> update_lock(route_update_mu_);
  Result<protocol::TopicRouteData> route = api_.GetTopicRouteInfoFromNameServer(
      is_default ? protocol::kAutoCreateTopicKeyTopic : topic, api_timeout());
  if (!route.ok()) return route.status();
  if (is_default) {
    for (protocol::QueueData& qd : route->queue_datas) {
      int32_t nums = std::min(default_queue_nums, qd.read_queue_nums);
      qd.read_queue_nums = nums;
      qd.write_queue_nums = nums;
    }
  }
  bool changed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = route_table_.find(topic);
    auto info = publish_info_.find(topic);
    changed = it == route_table_.end() || it->second != *route || info == publish_info_.end() ||
              !info->second->ok();
  }
  if (!changed) {
    for (ConsumerInner* consumer : Consumers()) {
      if (consumer->IsSubscribeTopicNeedUpdate(topic)) changed = true;
    }
  }
  if (changed) ApplyRoute(topic, *route);
  return Status::OK();
}

void ClientInstance::ApplyRoute(const std::string& topic, const protocol::TopicRouteData& route) {
  bool new_broker = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    route_table_[topic] = route;
    publish_info_[topic] = std::make_shared<const TopicPublishInfo>(topic, route);
    // The address table is the union of every route held (Java's cleanOfflineBroker).
    std::map<std::string, std::map<int64_t, std::string>, std::less<>> table;
    for (const auto& [name, held] : route_table_) {
      for (const protocol::BrokerData& bd : held.broker_datas) {
        for (const auto& [id, addr] : bd.broker_addrs) table[bd.broker_name][id] = addr;
      }
    }
    for (const auto& [name, addrs] : table) {
      auto old = broker_addr_table_.find(name);
      if (old == broker_addr_table_.end() || old->second != addrs) new_broker = true;
    }
    broker_addr_table_ = std::move(table);
    route_version_.fetch_add(1, std::memory_order_release);
  }
  std::set<protocol::MessageQueue> subscribe_info = TopicRouteToSubscribeInfo(topic, route);
  {
    InnerUseGuard use_guard(&inner_use_mu_);
    for (ConsumerInner* consumer : Consumers()) {
      for (const protocol::SubscriptionData& sub : consumer->Subscriptions()) {
        if (sub.topic == topic) {
          consumer->UpdateTopicSubscribeInfo(topic, subscribe_info);
          break;
        }
      }
    }
  }
  // A broker seen for the first time learns about this client's groups now rather than at
  // the next periodic heartbeat (transaction check-backs need the producer's channel).
  if (new_broker) SendHeartbeatToAllBrokers();
}

Result<std::shared_ptr<const TopicPublishInfo>> ClientInstance::TryToFindTopicPublishInfo(
    const std::string& topic, int32_t default_queue_nums) {
  auto cached = [&]() -> std::shared_ptr<const TopicPublishInfo> {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = publish_info_.find(topic);
    if (it != publish_info_.end() && it->second->ok()) return it->second;
    return nullptr;
  };
  if (auto info = cached()) return info;
  Status status = UpdateTopicRouteInfoFromNameServer(topic);
  if (auto info = cached()) return info;
  if (status.IsNotFound()) {
    Status fallback = UpdateTopicRouteInfoFromNameServer(topic, true, default_queue_nums);
    if (auto info = cached()) return info;
    if (!fallback.IsNotFound()) status = fallback;
  }
  std::vector<std::string> addrs = api_.NameServerAddressList();
  StatusCode code = status.ok() || status.IsNotFound() ? StatusCode::kNotFound : status.code();
  return Status(code, fmt::format("No route info of this topic: {}, NameServers asked: {}{}", topic,
                                  fmt::join(addrs, ", "),
                                  status.ok() ? std::string(" (no writable queue with a master)")
                                              : " (" + status.message() + ")"));
}

std::optional<protocol::TopicRouteData> ClientInstance::GetTopicRouteData(
    const std::string& topic) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = route_table_.find(topic);
  if (it == route_table_.end()) return std::nullopt;
  return it->second;
}

Result<std::set<protocol::MessageQueue>> ClientInstance::FetchSubscribeMessageQueues(
    const std::string& topic) {
  APOGEE_RETURN_IF_ERROR(UpdateTopicRouteInfoFromNameServer(topic));
  std::optional<protocol::TopicRouteData> route = GetTopicRouteData(topic);
  if (!route) return Status::NotFound(fmt::format("No route info of this topic: {}", topic));
  std::set<protocol::MessageQueue> queues = TopicRouteToSubscribeInfo(topic, *route);
  if (queues.empty()) {
    return Status::NotFound(fmt::format("topic {} has no readable queue in its route", topic));
  }
  return queues;
}

void ClientInstance::UpdateTopicRouteInfoFromNameServer() {
  std::set<std::string> topics;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [topic, route] : route_table_) topics.insert(topic);
  }
  {
    InnerUseGuard use_guard(&inner_use_mu_);
    for (ConsumerInner* consumer : Consumers()) {
      for (const protocol::SubscriptionData& sub : consumer->Subscriptions()) {
        topics.insert(sub.topic);
      }
    }
  }
  for (const std::string& topic : topics) {
    Status status = UpdateTopicRouteInfoFromNameServer(topic);
    if (!status.ok()) {
      GetLogger("client")->debug("route refresh of {}: {}", topic, status.ToString());
    }
  }
}

// ---------------------------------------------------------------- broker addresses

std::optional<std::string> ClientInstance::FindBrokerAddressInPublish(
    std::string_view broker_name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = broker_addr_table_.find(broker_name);
  if (it == broker_addr_table_.end()) return std::nullopt;
  auto master = it->second.find(protocol::kMasterId);
  if (master == it->second.end()) return std::nullopt;
  return master->second;
}

std::optional<FindBrokerResult> ClientInstance::FindBrokerAddressInSubscribe(
    std::string_view broker_name, int64_t broker_id, bool only_this_broker) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = broker_addr_table_.find(broker_name);
  if (it == broker_addr_table_.end() || it->second.empty()) return std::nullopt;
  auto exact = it->second.find(broker_id);
  if (exact != it->second.end())
    return FindBrokerResult{exact->second, broker_id != protocol::kMasterId};
  if (only_this_broker) return std::nullopt;
  const auto& [id, addr] = *it->second.begin();
  return FindBrokerResult{addr, id != protocol::kMasterId};
}

std::optional<FindBrokerResult> ClientInstance::FindBrokerAddressInAdmin(
    std::string_view broker_name) const {
  return FindBrokerAddressInSubscribe(broker_name, protocol::kMasterId, false);
}

std::optional<std::string> ClientInstance::FindBrokerAddrByTopic(const std::string& topic) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = route_table_.find(topic);
  if (it == route_table_.end()) return std::nullopt;
  for (const protocol::BrokerData& bd : it->second.broker_datas) {
    if (bd.broker_addrs.empty()) continue;
    auto master = bd.broker_addrs.find(protocol::kMasterId);
    return master != bd.broker_addrs.end() ? master->second : bd.broker_addrs.begin()->second;
  }
  return std::nullopt;
}

Result<std::vector<std::string>> ClientInstance::FindConsumerIdList(const std::string& topic,
                                                                    const std::string& group) {
  std::optional<std::string> addr = FindBrokerAddrByTopic(topic);
  if (!addr) {
    APOGEE_RETURN_IF_ERROR(UpdateTopicRouteInfoFromNameServer(topic));
    addr = FindBrokerAddrByTopic(topic);
  }
  if (!addr) {
    return Status::NotFound(fmt::format("no broker serves topic {} (consumer list of group {})",
                                        topic, group));
  }
  return api_.GetConsumerIdListByGroup(*addr, group, api_timeout());
}

// ---------------------------------------------------------------- periodic work

protocol::HeartbeatData ClientInstance::PrepareHeartbeatData() const {
  protocol::HeartbeatData data;
  data.client_id = client_id_;
  std::vector<std::pair<std::string, ConsumerInner*>> consumers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [group, producer] : producers_) data.producer_data_set.push_back({group});
    for (const auto& [group, consumer] : consumers_) consumers.emplace_back(group, consumer);
  }
  for (const auto& [group, consumer] : consumers) {
    protocol::ConsumerData cd;
    cd.group_name = group;
    cd.consume_type = consumer->ConsumeType();
    cd.message_model = consumer->MessageModel();
    cd.consume_from_where = consumer->ConsumeFromWhere();
    cd.subscription_data_set = consumer->Subscriptions();
    cd.unit_mode = consumer->IsUnitMode();
    data.consumer_data_set.push_back(std::move(cd));
  }
  return data;
}

void ClientInstance::SendHeartbeatToAllBrokers() {
  std::lock_guard<std::mutex> heartbeat_lock(heartbeat_mu_);
  protocol::HeartbeatData data;
  {
    InnerUseGuard use_guard(&inner_use_mu_);
    data = PrepareHeartbeatData();
  }
  if (data.producer_data_set.empty() && data.consumer_data_set.empty()) return;
  std::map<std::string, std::map<int64_t, std::string>, std::less<>> brokers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    brokers = broker_addr_table_;
  }
  bool consumers = !data.consumer_data_set.empty();
  for (const auto& [name, addrs] : brokers) {
    for (const auto& [id, addr] : addrs) {
      if (!consumers && id != protocol::kMasterId) continue;  // producers talk to masters only
      Result<int32_t> version = api_.SendHeartbeat(addr, data, api_timeout());
      if (!version.ok()) {
        GetLogger("client")->warn("heartbeat to {} ({} id {}): {}", addr, name, id,
                                  version.status().ToString());
      }
    }
  }
}

void ClientInstance::PersistAllConsumerOffset() {
  InnerUseGuard use_guard(&inner_use_mu_);
  for (ConsumerInner* consumer : Consumers()) consumer->PersistConsumerOffset();
}

void ClientInstance::DoRebalance() {
  InnerUseGuard use_guard(&inner_use_mu_);
  for (ConsumerInner* consumer : Consumers()) consumer->DoRebalance();
}

void ClientInstance::RebalanceImmediately() {
  std::lock_guard<std::mutex> lock(mu_);
  if (rebalance_) rebalance_->Wakeup();
}

// ---------------------------------------------------------------- broker-initiated requests

void ClientInstance::RegisterServerRequestHandlers() {
  // The handlers run on the API's callback executor, which the destructor drains before
  // the instance goes away, so `this` outlives them.
  api_.RegisterServerRequestHandler(
      rc::kNotifyConsumerIdsChanged,
      [this](const RemotingCommand& request, const std::string& addr) -> std::optional<RemotingCommand> {
        auto header = protocol::DecodeCustomHeader<protocol::NotifyConsumerIdsChangedRequestHeader>(request);
        GetLogger("client")->info("consumer ids of group {} changed (broker {}); rebalancing",
                                  header.ok() ? header->consumer_group : "?", addr);
        RebalanceImmediately();
        return std::nullopt;
      });

  api_.RegisterServerRequestHandler(
      rc::kCheckTransactionState,
      [this](const RemotingCommand& request, const std::string& addr) -> std::optional<RemotingCommand> {
        auto header = protocol::DecodeCustomHeader<protocol::CheckTransactionStateRequestHeader>(request);
        auto messages = message::DecodeMessages(request.body);
        if (!header.ok() || !messages.ok() || messages->empty()) {
          GetLogger("client")->warn("CHECK_TRANSACTION_STATE from {} unreadable: {}", addr,
                                    !header.ok() ? header.status().ToString()
                                    : !messages.ok() ? messages.status().ToString()
                                                     : std::string("no message in body"));
          return std::nullopt;
        }
        const message::MessageExt& msg = messages->front();
        std::optional<std::string_view> group =
            msg.properties.Get(message::kPropertyProducerGroup);
        InnerUseGuard use_guard(&inner_use_mu_);
        ProducerInner* producer = group ? FindProducer(*group) : nullptr;
        if (producer == nullptr) {
          GetLogger("client")->warn("CHECK_TRANSACTION_STATE from {} for group {}: no such producer here",
                                    addr, group ? std::string(*group) : "(none)");
          return std::nullopt;
        }
        producer->CheckTransactionState(addr, msg, *header);
        return std::nullopt;
      });

  api_.RegisterServerRequestHandler(
      rc::kResetConsumerClientOffset,
      [this](const RemotingCommand& request, const std::string& addr) -> std::optional<RemotingCommand> {
        auto header = protocol::DecodeCustomHeader<protocol::ResetOffsetRequestHeader>(request);
        if (!header.ok()) {
          return RemotingCommand::MakeResponse(request, rs::kSystemError, header.status().message());
        }
        auto body = protocol::DecodeResetOffsetBody(request.body);
        if (!body.ok()) body = protocol::DecodeResetOffsetBodyForC(request.body);
        if (!body.ok()) {
          return RemotingCommand::MakeResponse(request, rs::kSystemError, body.status().message());
        }
        InnerUseGuard use_guard(&inner_use_mu_);
        ConsumerInner* consumer = FindConsumer(header->group);
        if (consumer == nullptr) {
          return RemotingCommand::MakeResponse(
              request, rs::kSystemError,
              fmt::format("The Consumer Group <{}> not exist in this consumer", header->group));
        }
        GetLogger("client")->info("broker {} resets offsets of group {} topic {}", addr,
                                  header->group, header->topic);
        consumer->ResetOffset(header->topic, body->offset_table);
        return RemotingCommand::MakeResponse(request, rs::kSuccess);
      });

  api_.RegisterServerRequestHandler(
      rc::kGetConsumerRunningInfo,
      [this](const RemotingCommand& request, const std::string& addr) -> std::optional<RemotingCommand> {
        auto header = protocol::DecodeCustomHeader<protocol::GetConsumerRunningInfoRequestHeader>(request);
        if (!header.ok()) {
          return RemotingCommand::MakeResponse(request, rs::kSystemError, header.status().message());
        }
        InnerUseGuard use_guard(&inner_use_mu_);
        ConsumerInner* consumer = FindConsumer(header->consumer_group);
        if (consumer == nullptr) {
          return RemotingCommand::MakeResponse(
              request, rs::kSystemError,
              fmt::format("The Consumer Group <{}> not exist in this consumer",
                          header->consumer_group));
        }
        Result<std::string> info = consumer->ConsumerRunningInfo(header->jstack_enable);
        if (!info.ok()) {
          return RemotingCommand::MakeResponse(request, rs::kSystemError, info.status().message());
        }
        RemotingCommand response = RemotingCommand::MakeResponse(request, rs::kSuccess);
        response.body = std::move(info).value();
        return response;
      });

  api_.RegisterServerRequestHandler(
      rc::kConsumeMessageDirectly,
      [this](const RemotingCommand& request, const std::string& addr) -> std::optional<RemotingCommand> {
        auto header =
            protocol::DecodeCustomHeader<protocol::ConsumeMessageDirectlyResultRequestHeader>(request);
        if (!header.ok()) {
          return RemotingCommand::MakeResponse(request, rs::kSystemError, header.status().message());
        }
        auto messages = message::DecodeMessages(request.body);
        if (!messages.ok() || messages->empty()) {
          return RemotingCommand::MakeResponse(
              request, rs::kSystemError,
              messages.ok() ? "no message in body" : messages.status().message());
        }
        InnerUseGuard use_guard(&inner_use_mu_);
        ConsumerInner* consumer = FindConsumer(header->consumer_group);
        if (consumer == nullptr) {
          return RemotingCommand::MakeResponse(
              request, rs::kSystemError,
              fmt::format("The Consumer Group <{}> not exist in this consumer",
                          header->consumer_group));
        }
        Result<std::string> result =
            consumer->ConsumeMessageDirectly(messages->front(), header->broker_name.value_or(""));
        if (!result.ok()) {
          return RemotingCommand::MakeResponse(request, rs::kSystemError, result.status().message());
        }
        RemotingCommand response = RemotingCommand::MakeResponse(request, rs::kSuccess);
        response.body = std::move(result).value();
        return response;
      });
}

}  // namespace apogee::client
