#include "ha/ha_service.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "base/logging.h"
#include "base/service_thread.h"
#include "ha/ha_connection.h"
#include "net/tls_context.h"

namespace apogee::ha {
namespace {

std::shared_ptr<spdlog::logger> Log() { return GetLogger("ha"); }

constexpr auto kAcceptPoll = std::chrono::milliseconds(500);
constexpr size_t kMaxProblemsKept = 16;

}  // namespace

class HaService::AcceptService : public ServiceThread {
 public:
  explicit AcceptService(HaService* service)
      : ServiceThread("HAAcceptSocketService"), service_(service) {}

 protected:
  void Run() override {
    while (!stopped()) {
      Result<BlockingSocket> s = service_->listener_.Accept(kAcceptPoll);
      service_->ReapClosed();
      if (s.ok()) {
        service_->Accepted(std::move(s).value());
      } else if (s.status().code() != StatusCode::kTimeout && !service_->closing_.load()) {
        Log()->warn("HA accept failed: {}", s.status().ToString());
        WaitForRunning(kAcceptPoll.count());
      }
    }
  }

 private:
  HaService* service_;
};

HaService::HaService(store::ReplicationStore* store, const HaOptions& options, const Clock* clock)
    : store_(store), options_(options), clock_(clock), transfer_(clock) {}

HaService::~HaService() { Shutdown(); }

Status HaService::Start() {
  APOGEE_ASSIGN_OR_RETURN(TlsMode mode, ParseTlsMode(options_.tls.server_mode));
  if (mode != TlsMode::kDisabled) {
    auto context = net::MakeServerTlsContext(options_.tls);
    if (!context.ok()) return context.status().Prefixed("HA service TLS");
    tls_context_ = std::move(context).value();
  }
  allow_plain_ = mode != TlsMode::kEnforcing;
  Result<BlockingSocket> listener = BlockingSocket::Listen(options_.listen_host,
                                                           options_.listen_port);
  if (!listener.ok()) {
    return listener.status().Prefixed(
        fmt::format("HA service cannot listen on {}:{} (haListenPort)", options_.listen_host,
                    options_.listen_port));
  }
  listener_ = std::move(listener).value();
  // transfer_ starts its deadline thread with the first SYNC_MASTER wait.
  acceptor_ = std::make_unique<AcceptService>(this);
  acceptor_->Start();
  Log()->info("HA service listening on {}:{} (TLS {})", options_.listen_host, port(),
              TlsModeName(mode));
  return Status::OK();
}

void HaService::Shutdown() {
  std::vector<std::unique_ptr<HaConnection>> connections;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (shut_down_) return;
    shut_down_ = true;
    connections.swap(connections_);
  }
  closing_ = true;
  if (acceptor_) {
    listener_.Shutdown();
    acceptor_->Shutdown();
  }
  for (auto& c : connections) c->Shutdown();
  transfer_.Stop();
}

uint16_t HaService::port() const { return listener_.valid() ? listener_.local_port() : 0; }

void HaService::Accepted(BlockingSocket socket) {
  // Before a connection gets its two threads: past the cap it is closed (the socket's
  // destructor) and counted; the log line repeats only every 1,000 refusals.
  if (connection_count() >= static_cast<size_t>(std::max(1, options_.max_connections))) {
    const uint64_t refused = ++refused_;
    if (refused % 1000 == 1) {
      Log()->warn("HA connection refused: {} open (haMaxConnections); {} refused so far",
                  options_.max_connections, refused);
    }
    return;
  }
  HaConnection::Callbacks callbacks;
  callbacks.on_ack = [this](int64_t ack) { transfer_.OnAck(ack); };
  callbacks.on_error = [this](const std::string& problem) {
    std::lock_guard<std::mutex> lock(mu_);
    problems_.push_back(problem);
    if (problems_.size() > kMaxProblemsKept) problems_.erase(problems_.begin());
  };
  HaConnection::TlsAccept tls;
  tls.context = tls_context_ ? tls_context_->native_handle() : nullptr;
  tls.allow_plain = allow_plain_;
  auto connection = std::make_unique<HaConnection>(std::move(socket), store_, options_, callbacks,
                                                   clock_, tls);
  Log()->info("HA slave connected from {}", connection->address());
  std::lock_guard<std::mutex> lock(mu_);
  if (shut_down_) return;
  connection->Start();
  connections_.push_back(std::move(connection));
}

void HaService::ReapClosed() {
  std::vector<std::unique_ptr<HaConnection>> dead;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if ((*it)->closed()) {
        dead.push_back(std::move(*it));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& c : dead) c->Shutdown();  // joins its threads outside the lock
}

bool HaService::IsSlaveOk(int64_t master_put_where) const {
  return connection_count() > 0 &&
         master_put_where - transfer_.acked_offset() < options_.slave_fallbehind_max;
}

void HaService::WaitForReplica(int64_t next_offset, std::function<void(store::PutStatus)> done) {
  if (!IsSlaveOk(next_offset)) {
    done(store::PutStatus::kSlaveNotAvailable);
    return;
  }
  transfer_.Wait(next_offset, options_.slave_timeout_ms, std::move(done));
  NotifyTransfer();
}

void HaService::NotifyTransfer() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& c : connections_) c->NotifyTransfer();
}

size_t HaService::connection_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& c : connections_) n += c->closed() ? 0 : 1;
  return n;
}

std::vector<SlaveInfo> HaService::Slaves() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<SlaveInfo> out;
  for (const auto& c : connections_) {
    if (c->closed()) continue;
    out.push_back(SlaveInfo{c->address(), c->ack_offset(), c->next_transfer_offset()});
  }
  return out;
}

std::vector<std::string> HaService::Problems() const {
  std::lock_guard<std::mutex> lock(mu_);
  return problems_;
}

}  // namespace apogee::ha
