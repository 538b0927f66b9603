#include "remoting/remoting_server.h"

#include <malloc.h>

#include <boost/asio/steady_timer.hpp>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

#include <boost/asio/post.hpp>

#include "base/logging.h"
#include "net/io_context_pool.h"
#include "net/tcp_acceptor.h"
#include "net/tls_context.h"
#include "remoting/connection.h"
#include "remoting/request_dispatcher.h"

namespace apogee::remoting {

namespace {
// How long Shutdown() waits for connections to report closed before joining.
constexpr auto kShutdownCloseWait = std::chrono::seconds(5);
// After a flood, freed buffers stay in malloc's arenas; once this much was released
// (and the server holds little now) they are handed back to the OS.
constexpr uint64_t kTrimAfterReleased = 64ull * 1024 * 1024;
constexpr auto kTrimCheckPeriod = std::chrono::seconds(2);
// Allocations from this size on get their own mapping, unmapped when freed. glibc
// otherwise raises its mmap threshold to the largest block freed so far (up to 32 MiB),
// after which a flood's multi-MiB frame buffers come from the IO threads' arenas, and
// the free space at the top of each arena (up to the equally raised trim threshold, 16
// MiB and more per arena) is never returned: malloc_trim only releases free chunks
// inside an arena, not its top. Measured on the NameServer after 48 unfinished 16 MiB
// frames: RSS stayed 48 MiB over its baseline with the dynamic threshold, back to the
// baseline with this one (and the flood's peak halved).
constexpr int kMmapThreshold = 1 << 20;

// Process-wide, once: set before the first flood so no dynamic threshold is learnt.
void FixMallocThresholds() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Fixing M_MMAP_THRESHOLD also stops the dynamic trim threshold, which then stays
    // at glibc's 128 KiB default.
    if (mallopt(M_MMAP_THRESHOLD, kMmapThreshold) != 1) {
      GetLogger("remoting")->warn("mallopt(M_MMAP_THRESHOLD) failed; RSS may stay high after floods");
    }
  });
}

std::shared_ptr<ByteBudget> MakeBudget(uint64_t limit) { return std::make_shared<ByteBudget>(limit); }
}  // namespace

// IO threads that one or more servers use: started by the first Start(), stopped by the
// last Shutdown() (a pool stopped while another server still listens would never drain).
struct SharedIoThreads {
  explicit SharedIoThreads(size_t threads) : pool(threads, "remoting-io") {}
  void Acquire() {
    std::lock_guard lock(mu);
    if (users++ == 0) pool.Start();
  }
  void Release() {
    std::lock_guard lock(mu);
    if (--users == 0) pool.Stop();
  }
  net::IoContextPool pool;
  std::mutex mu;
  size_t users = 0;  // guarded by mu
};

// Keeps the set of live connections; registered as the dispatcher's first listener.
class RemotingServer::Impl : public ChannelEventListener,
                             public std::enable_shared_from_this<RemotingServer::Impl> {
 public:
  Impl(RemotingServerOptions options, std::shared_ptr<SharedIoThreads> io)
      : options_(std::move(options)),
        io_(io != nullptr ? std::move(io) : std::make_shared<SharedIoThreads>(options_.io_threads)),
        pool_(io_->pool),
        acceptor_(&pool_),
        dispatcher_(std::make_shared<RequestDispatcher>()),
        partial_frames_(MakeBudget(options_.partial_frame_budget)),
        unsent_(MakeBudget(options_.write_budget)) {}

  void OnChannelConnected(const ChannelPtr& channel) override {
    {
      std::lock_guard lock(mu_);
      if (!shutting_down_) {
        channels_[channel->id()] = std::static_pointer_cast<Connection>(channel);
        return;
      }
    }
    // Accepted just before Shutdown() closed the acceptor; it must not outlive it.
    channel->Close();
  }
  void OnChannelClosed(const ChannelPtr& channel) override {
    std::lock_guard lock(mu_);
    channels_.erase(channel->id());
    cv_.notify_all();
  }

  Status Start() {
    FixMallocThresholds();
    ConnectionOptions connection_options;
    APOGEE_ASSIGN_OR_RETURN(TlsMode tls_mode, ParseTlsMode(options_.tls.server_mode));
    if (tls_mode != TlsMode::kDisabled) {
      auto context = net::MakeServerTlsContext(options_.tls);
      if (!context.ok()) return context.status().Prefixed("TLS (tls.server.mode=" +
                                                          options_.tls.server_mode + ")");
      connection_options.tls_context = std::move(context).value();
      connection_options.tls_role = tls_mode == TlsMode::kEnforcing
                                        ? ConnectionOptions::TlsRole::kServerEnforcing
                                        : ConnectionOptions::TlsRole::kServerPermissive;
      connection_options.tls_handshake_timeout =
          std::chrono::milliseconds(options_.tls.handshake_timeout_ms);
    }
    APOGEE_RETURN_IF_ERROR(acceptor_.Listen(options_.listen_host, options_.listen_port));
    io_->Acquire();
    connection_options.max_frame_length = options_.max_frame_length;
    connection_options.idle_timeout = options_.channel_max_idle;
    connection_options.decode_limits = options_.decode_limits;
    connection_options.frame_read_timeout = options_.frame_read_timeout;
    connection_options.write_high_water = options_.write_high_water;
    connection_options.write_low_water = options_.write_low_water;
    connection_options.write_stall_timeout = options_.write_stall_timeout;
    connection_options.max_requests_in_flight = options_.max_requests_in_flight;
    connection_options.partial_frame_budget = partial_frames_;
    connection_options.write_budget = unsent_;
    connection_options.side = "remoting server";
    acceptor_.Start([this, connection_options](std::shared_ptr<boost::asio::io_context> context,
                                               boost::asio::ip::tcp::socket socket) {
      auto connection = std::make_shared<Connection>(std::move(context), std::move(socket),
                                                     connection_options, dispatcher_);
      connection->Start();
    });
    started_ = true;
    {
      std::lock_guard lock(mu_);
      shutting_down_ = false;
    }
    trim_timer_ = std::make_unique<boost::asio::steady_timer>(*pool_.context(0));
    trim_stopped_ = false;
    ArmTrimTimer();
    GetLogger("remoting")->info("remoting server listening on {}:{} (TLS {})",
                                options_.listen_host, acceptor_.port(), TlsModeName(tls_mode));
    return Status::OK();
  }

  std::vector<ChannelPtr> Channels() const {
    std::lock_guard lock(mu_);
    std::vector<ChannelPtr> out;
    for (const auto& [id, c] : channels_) out.push_back(c);
    return out;
  }

  // Gives memory freed after a flood back to the OS (glibc keeps freed chunks in its
  // arenas; a flood of 1 GiB would otherwise stay in RSS for good).
  void ArmTrimTimer() {
    trim_timer_->expires_after(kTrimCheckPeriod);
    trim_timer_->async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
      auto self = weak.lock();
      if (ec || !self || self->trim_stopped_) return;
      self->released_ += self->partial_frames_->TakeReleased() + self->unsent_->TakeReleased();
      const uint64_t held = self->partial_frames_->used() + self->unsent_->used();
      if (self->released_ >= kTrimAfterReleased && held < self->released_ / 4) {
        GetLogger("remoting")->info("returning memory to the OS after {} MiB of buffers were freed",
                                    self->released_ >> 20);
        self->released_ = 0;
        malloc_trim(0);
      }
      self->ArmTrimTimer();
    });
  }

  RemotingServerStats Stats() const {
    RemotingServerStats stats;
    {
      std::lock_guard lock(mu_);
      stats.connections = channels_.size();
    }
    stats.partial_frame_bytes = partial_frames_->used();
    stats.unsent_bytes = unsent_->used();
    return stats;
  }

  void Shutdown() {
    if (!started_) return;
    started_ = false;
    {
      std::lock_guard lock(mu_);
      shutting_down_ = true;
    }
    acceptor_.Close();
    boost::asio::post(*pool_.context(0), [self = shared_from_this()] {
      self->trim_stopped_ = true;
      self->trim_timer_->cancel();
    });
    for (const auto& channel : Channels()) channel->Close();
    {
      std::unique_lock lock(mu_);
      if (!cv_.wait_for(lock, kShutdownCloseWait, [this] { return channels_.empty(); })) {
        GetLogger("remoting")->warn("remoting server: {} connections did not close in time",
                                    channels_.size());
      }
    }
    io_->Release();
  }

  RemotingServerOptions options_;
  std::shared_ptr<SharedIoThreads> io_;
  net::IoContextPool& pool_;  // io_->pool
  net::TcpAcceptor acceptor_;
  std::shared_ptr<RequestDispatcher> dispatcher_;
  std::shared_ptr<ByteBudget> partial_frames_;
  std::shared_ptr<ByteBudget> unsent_;
  std::unique_ptr<boost::asio::steady_timer> trim_timer_;  // on context 0
  uint64_t released_ = 0;                                  // trim timer only
  bool trim_stopped_ = false;                              // context 0 after Start
  bool started_ = false;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::unordered_map<uint64_t, std::shared_ptr<Connection>> channels_;  // guarded by mu_
  bool shutting_down_ = false;                                           // guarded by mu_
};

RemotingServer::RemotingServer(RemotingServerOptions options)
    : impl_(std::make_shared<Impl>(
          options, options.share_io_threads_with != nullptr
                       ? options.share_io_threads_with->impl_->io_
                       : nullptr)) {
  impl_->dispatcher_->AddListener(impl_);
}

RemotingServer::~RemotingServer() {
  Shutdown();
  // The dispatcher (kept alive by stray Responders) must not keep Impl alive through
  // the listener list, so break the cycle.
  impl_->dispatcher_ = nullptr;
}

void RemotingServer::RegisterProcessor(int32_t request_code,
                                       std::shared_ptr<RequestProcessor> processor,
                                       std::shared_ptr<Executor> executor) {
  impl_->dispatcher_->RegisterProcessor(request_code, std::move(processor), std::move(executor));
}

void RemotingServer::RegisterDefaultProcessor(std::shared_ptr<RequestProcessor> processor,
                                              std::shared_ptr<Executor> executor) {
  impl_->dispatcher_->RegisterDefaultProcessor(std::move(processor), std::move(executor));
}

void RemotingServer::SetResponseObserver(std::shared_ptr<ResponseObserver> observer) {
  impl_->dispatcher_->SetResponseObserver(std::move(observer));
}

void RemotingServer::SetRequestGuard(RequestGuard guard) {
  impl_->dispatcher_->SetRequestGuard(std::move(guard));
}

void RemotingServer::AddChannelEventListener(std::shared_ptr<ChannelEventListener> listener) {
  impl_->dispatcher_->AddListener(std::move(listener));
}

Status RemotingServer::Start() { return impl_->Start(); }
uint16_t RemotingServer::port() const { return impl_->acceptor_.port(); }
std::vector<ChannelPtr> RemotingServer::Channels() const { return impl_->Channels(); }
RemotingServerStats RemotingServer::Stats() const { return impl_->Stats(); }
void RemotingServer::Shutdown() { impl_->Shutdown(); }

}  // namespace apogee::remoting
