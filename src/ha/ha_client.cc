#include "ha/ha_client.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "base/logging.h"
#include "ha/ha_auth.h"
#include "ha/ha_format.h"
#include "ha/slave_stream.h"
#include "net/tls_context.h"

namespace apogee::ha {
namespace {

std::shared_ptr<spdlog::logger> Log() { return GetLogger("ha"); }

constexpr auto kConnectTimeout = std::chrono::milliseconds(3000);
// The read wait, so reports and Stop() are never delayed by more than this.
constexpr int64_t kReadSliceMs = 200;
// Java's HAClient buffer; grown if a frame is larger (a master with a bigger batch size).
constexpr size_t kReadBufferSize = 4 << 20;

}  // namespace

HaClient::HaClient(store::ReplicationStore* store, const HaOptions& options, const Clock* clock)
    : ServiceThread("HAClient"), store_(store), options_(options), clock_(clock) {
  if (options_.tls.enable) {
    auto context = net::MakeClientTlsContext(options_.tls);
    if (context.ok()) {
      tls_context_ = std::move(context).value();
    } else {
      tls_error_ = context.status().Prefixed("HA link TLS (tls.enable=true)");
      Log()->error("{}", tls_error_.message());
    }
  }
}

HaClient::~HaClient() { Stop(); }

void HaClient::UpdateMasterAddress(const std::string& address) {
  std::lock_guard<std::mutex> lock(mu_);
  if (address == master_address_) return;
  Log()->info("HA master address {} -> {}", master_address_.empty() ? "(none)" : master_address_,
              address);
  master_address_ = address;
  if (socket_ != nullptr) socket_->Shutdown();
  Wakeup();
}

std::string HaClient::master_address() const {
  std::lock_guard<std::mutex> lock(mu_);
  return master_address_;
}

std::string HaClient::problem() const {
  std::lock_guard<std::mutex> lock(mu_);
  return problem_;
}

void HaClient::SetProblem(const std::string& problem) {
  Log()->error("HA replication stopped: {}", problem);
  std::lock_guard<std::mutex> lock(mu_);
  problem_ = problem;
  diverged_ = true;
}

void HaClient::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (socket_ != nullptr) socket_->Shutdown();
  }
  Shutdown();
}

void HaClient::Run() {
  int64_t backoff = options_.reconnect_min_ms;
  while (!stopped()) {
    const std::string address = master_address();
    if (diverged_ || address.empty()) {
      WaitForRunning(1000);
      continue;
    }
    const int64_t started = clock_->SteadyMillis();
    Status s = Session(address);
    connected_ = false;
    if (stopped() || diverged_) continue;
    Log()->warn("HA connection to master {} ended: {}; reconnecting in {} ms", address,
                s.ToString(), backoff);
    WaitForRunning(backoff);
    // A connection that lived a while was healthy: start the backoff over.
    backoff = clock_->SteadyMillis() - started > options_.heartbeat_interval_ms
                  ? options_.reconnect_min_ms
                  : std::min(backoff * 2, options_.reconnect_max_ms);
  }
}

Status HaClient::Report(BlockingSocket& socket, int64_t offset) {
  uint8_t buf[kReportSize];
  EncodeReport(offset, buf);
  return socket.WriteAll(buf, sizeof(buf),
                         std::chrono::milliseconds(options_.housekeeping_interval_ms));
}

Status HaClient::Session(const std::string& address) {
  APOGEE_RETURN_IF_ERROR(tls_error_);
  APOGEE_ASSIGN_OR_RETURN(BlockingSocket socket, BlockingSocket::Connect(address, kConnectTimeout));
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopped() || address != master_address_) return Status::Aborted("master address changed");
    socket_ = &socket;
  }
  struct Unpublish {
    HaClient* self;
    ~Unpublish() {
      std::lock_guard<std::mutex> lock(self->mu_);
      self->socket_ = nullptr;
    }
  } unpublish{this};
  if (tls_context_) {
    Status handshake = socket.StartTlsClient(
        tls_context_->native_handle(), std::chrono::milliseconds(options_.tls.handshake_timeout_ms));
    if (!handshake.ok()) return handshake.Prefixed("HA TLS handshake with master " + address);
  }
  // The ACL challenge runs inside TLS when both are on.
  if (options_.auth.sign) APOGEE_RETURN_IF_ERROR(SlaveHandshake(socket, options_.auth, kConnectTimeout));
  connected_ = true;

  // Bytes in [expected, verify_end) are ones the slave already has: compare, do not append.
  const int64_t local_end = store_->MaxPhyOffset();
  const int64_t verify_end = options_.resume_check ? local_end : 0;
  const int64_t expected =
      options_.resume_check ? ResumeCheckStart(local_end, options_.commit_log_file_size) : local_end;
  Log()->info("HA connected to master {}; CommitLog ends at {}, asking from {}", address,
              local_end, expected);
  APOGEE_RETURN_IF_ERROR(Report(socket, expected));
  SlaveStream stream(store_, address, expected, verify_end, options_.commit_log_file_size);
  int64_t last_reported = expected;
  int64_t last_report_ms = clock_->SteadyMillis();
  int64_t last_receive_ms = last_report_ms;

  std::vector<uint8_t> buf(kReadBufferSize);
  size_t filled = 0;
  while (!stopped()) {
    // Report what we hold once the check range is behind us (a report inside the range
    // would move the master's start).
    const int64_t now = clock_->SteadyMillis();
    const int64_t holding =
        stream.expected() >= verify_end ? store_->MaxPhyOffset() : last_reported;
    if (holding > last_reported || now - last_report_ms >= options_.heartbeat_interval_ms) {
      APOGEE_RETURN_IF_ERROR(Report(socket, holding));
      last_reported = holding;
      last_report_ms = now;
    }
    if (now - last_receive_ms > options_.housekeeping_interval_ms) {
      return Status::Timeout(fmt::format("nothing from the master for {} ms (haHousekeepingInterval)",
                                         options_.housekeeping_interval_ms));
    }
    if (filled == buf.size()) buf.resize(buf.size() * 2);
    Result<size_t> n = socket.ReadSome(buf.data() + filled, buf.size() - filled,
                                       std::chrono::milliseconds(kReadSliceMs));
    if (!n.ok()) {
      if (n.status().code() == StatusCode::kTimeout) continue;
      return n.status();
    }
    filled += *n;
    last_receive_ms = clock_->SteadyMillis();

    Result<size_t> used = stream.Consume(buf.data(), filled);
    if (!used.ok()) {
      if (!stream.problem().empty()) SetProblem(stream.problem());
      return used.status();
    }
    if (buf.size() < stream.needed()) buf.resize(stream.needed());
    std::memmove(buf.data(), buf.data() + *used, filled - *used);
    filled -= *used;
  }
  return Status::Aborted("stopped");
}

}  // namespace apogee::ha
