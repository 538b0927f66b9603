#include "ha/ha_connection.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <utility>
#include <vector>

#include "base/logging.h"
#include "ha/ha_auth.h"
#include "ha/ha_format.h"

namespace apogee::ha {
namespace {

std::shared_ptr<spdlog::logger> Log() { return GetLogger("ha"); }

// How long the writer sleeps when there is nothing to send (Java: 100 ms), unless woken.
constexpr auto kIdleWait = std::chrono::milliseconds(100);

}  // namespace

HaConnection::HaConnection(BlockingSocket socket, store::ReplicationStore* store,
                           const HaOptions& options, Callbacks callbacks, const Clock* clock,
                           TlsAccept tls)
    : socket_(std::move(socket)),
      store_(store),
      options_(options),
      callbacks_(std::move(callbacks)),
      clock_(clock),
      tls_(tls),
      address_(socket_.peer_address()) {}

HaConnection::~HaConnection() { Shutdown(); }

void HaConnection::Start() {
  reader_ = std::thread([this] { ReadLoop(); });
  writer_ = std::thread([this] { WriteLoop(); });
}

void HaConnection::Shutdown() {
  Close("shutdown");
  if (reader_.joinable()) reader_.join();
  if (writer_.joinable()) writer_.join();
}

void HaConnection::NotifyTransfer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    notified_ = true;
  }
  cv_.notify_all();
}

void HaConnection::Close(const std::string& why) {
  if (closed_.exchange(true)) return;
  if (why != "shutdown") Log()->info("HA connection from slave {} closed: {}", address_, why);
  socket_.Shutdown();
  NotifyTransfer();
}

void HaConnection::Diverged(const std::string& problem) {
  Log()->error("HA slave {}: replication stopped: {}", address_, problem);
  if (callbacks_.on_error) callbacks_.on_error(fmt::format("slave {}: {}", address_, problem));
  divergent_master_end_.store(store_->MaxPhyOffset());
  NotifyTransfer();
}

void HaConnection::ReadLoop() {
  std::vector<uint8_t> buf(kReportBufferSize);
  size_t filled = 0;
  const auto timeout = std::chrono::milliseconds(options_.housekeeping_interval_ms);
  // Plain or TLS, decided here rather than on the accept thread, so a peer that stalls
  // its handshake holds up only itself. The writer sends nothing before the first report.
  Status negotiated = socket_.NegotiateServer(
      tls_.context, tls_.allow_plain, timeout,
      std::chrono::milliseconds(options_.tls.handshake_timeout_ms));
  if (!negotiated.ok()) {
    Log()->warn("HA connection from {} refused: {}", address_, negotiated.message());
    Close(negotiated.ToString());
    return;
  }
  if (socket_.tls()) Log()->info("HA slave {} connected with TLS", address_);
  if (options_.auth.verify) {
    // Nothing is streamed before the slave says where it stands, so refusing here sends
    // the peer nothing but the challenge.
    if (Status s = MasterHandshake(socket_, options_.auth, timeout); !s.ok()) {
      Log()->warn("HA connection from {} refused: {}", address_, s.message());
      Close(fmt::format("authentication failed: {}", s.message()));
      return;
    }
  }
  while (!closed_) {
    Result<size_t> n = socket_.ReadSome(buf.data() + filled, buf.size() - filled, timeout);
    if (!n.ok()) {
      Close(n.status().code() == StatusCode::kTimeout
                ? fmt::format("no report for {} ms (haHousekeepingInterval)",
                              options_.housekeeping_interval_ms)
                : n.status().ToString());
      break;
    }
    filled += *n;
    if (filled < kReportSize) continue;
    // Only the newest complete report matters (ReadSocketService takes the last 8-byte word).
    const size_t complete = filled - filled % kReportSize;
    const int64_t offset = DecodeReport(buf.data() + complete - kReportSize);
    std::memmove(buf.data(), buf.data() + complete, filled - complete);
    filled -= complete;
    if (divergent_master_end_.load() >= 0) continue;

    const int64_t master_end = store_->MaxPhyOffset();
    if (offset > master_end) {
      Diverged(fmt::format(
          "the slave reports CommitLog end {} but the master's ends at {}: the slave holds "
          "data the master does not (a former master, or a master that lost its tail); "
          "not merging. Move the slave's store aside (or truncate it) and restart it",
          offset, master_end));
      continue;
    }
    if (slave_request_offset_.load() < 0) {
      slave_request_offset_.store(offset);
      Log()->info("HA slave {} connected, first report {}", address_, offset);
      NotifyTransfer();
    }
    ack_offset_.store(offset);
    if (callbacks_.on_ack) callbacks_.on_ack(offset);
  }
}

Status HaConnection::SendFrame(int64_t offset, std::string_view body) {
  uint8_t header[kTransferHeaderSize];
  EncodeTransferHeader(TransferHeader{offset, static_cast<int32_t>(body.size())}, header);
  const auto timeout = std::chrono::milliseconds(options_.housekeeping_interval_ms);
  APOGEE_RETURN_IF_ERROR(socket_.WriteAll(header, sizeof(header), timeout));
  if (!body.empty()) APOGEE_RETURN_IF_ERROR(socket_.WriteAll(body.data(), body.size(), timeout));
  return Status::OK();
}

void HaConnection::WriteLoop() {
  // Nothing is sent before the slave says where it stands.
  while (!closed_ && slave_request_offset_.load() < 0 && divergent_master_end_.load() < 0) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, kIdleWait, [this] { return notified_; });
    notified_ = false;
  }
  if (closed_) return;

  int64_t next = -1;
  if (divergent_master_end_.load() < 0) {
    next = FirstTransferOffset(slave_request_offset_.load(), store_->MaxPhyOffset(),
                               store_->MinPhyOffset(), options_.commit_log_file_size,
                               options_.new_slave_full_copy);
    if (next < store_->MinPhyOffset()) {
      Diverged(fmt::format(
          "the slave asks for CommitLog offset {} but the master's oldest file starts at {} "
          "(retention removed it); the slave cannot catch up. Empty its store and restart it",
          next, store_->MinPhyOffset()));
    } else {
      next_transfer_.store(next);
      Log()->info("HA slave {}: transfer starts at {}", address_, next);
    }
  }

  int64_t last_write_ms = clock_->SteadyMillis();
  while (!closed_) {
    const int64_t divergent_end = divergent_master_end_.load();
    if (divergent_end >= 0) {
      // Tell an Apogee slave where the master ends, so it stops too; then hang up.
      (void)SendFrame(divergent_end, {});
      Close("replication stopped (divergence)");
      break;
    }
    Result<store::RawSegment> seg =
        store_->ReadRaw(next, static_cast<size_t>(std::max(options_.transfer_batch_size, 1)));
    if (seg.ok() && !seg->data.empty()) {
      Status s = SendFrame(next, seg->data);
      if (!s.ok()) {
        Close(s.ToString());
        break;
      }
      next += static_cast<int64_t>(seg->data.size());
      next_transfer_.store(next);
      last_write_ms = clock_->SteadyMillis();
      continue;
    }
    if (clock_->SteadyMillis() - last_write_ms >= options_.heartbeat_interval_ms) {
      Status s = SendFrame(next, {});
      if (!s.ok()) {
        Close(s.ToString());
        break;
      }
      last_write_ms = clock_->SteadyMillis();
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, kIdleWait, [this] { return notified_; });
    notified_ = false;
  }
}

}  // namespace apogee::ha
