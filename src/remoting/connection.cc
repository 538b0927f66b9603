#include "remoting/connection.h"

#include <fmt/format.h>

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <future>

#include "base/logging.h"
#include "net/host_port.h"

namespace apogee::remoting {

namespace asio = boost::asio;
using protocol::RemotingCommand;

namespace {

// Frames gathered into one writev; bounds the iovec array and the latency of a batch.
constexpr size_t kMaxFramesPerWrite = 64;

std::atomic<uint64_t> g_next_connection_id{1};

std::string EndpointOrUnknown(const asio::ip::tcp::endpoint& endpoint,
                              const boost::system::error_code& ec) {
  return ec ? std::string("unknown") : net::FormatEndpoint(endpoint);
}

}  // namespace

Connection::Connection(std::shared_ptr<asio::io_context> context, asio::ip::tcp::socket socket,
                       ConnectionOptions options, std::shared_ptr<const RequestDispatcher> dispatcher,
                       std::string remote_label)
    : context_(std::move(context)),
      socket_(std::move(socket)),
      idle_timer_(*context_),
      options_(std::move(options)),
      dispatcher_(std::move(dispatcher)),
      id_(g_next_connection_id.fetch_add(1, std::memory_order_relaxed)),
      decoder_(options_.max_frame_length) {
  boost::system::error_code ec;
  auto remote = socket_.remote_endpoint(ec);
  remote_address_ = remote_label.empty() ? EndpointOrUnknown(remote, ec) : std::move(remote_label);
  auto local = socket_.local_endpoint(ec);
  local_address_ = EndpointOrUnknown(local, ec);
}

Connection::~Connection() = default;

bool Connection::OnIoThread() const { return context_->get_executor().running_in_this_thread(); }

int32_t Connection::NextOpaque() {
  // Non-negative, as the C++ client does (& INT_MAX); unique per connection is enough
  // because each connection has its own pending table.
  return next_opaque_.fetch_add(1, std::memory_order_relaxed) & 0x7FFFFFFF;
}

void Connection::Start() {
  asio::post(*context_, [self = shared_from_this()] {
    self->last_activity_ = std::chrono::steady_clock::now();
    self->dispatcher_->NotifyConnected(self);
    if (self->closed_on_io_) return;
    self->DoRead();
    self->ArmIdleTimer(self->options_.idle_timeout);
  });
}

// ---- reading ----

void Connection::DoRead() {
  socket_.async_read_some(
      asio::buffer(read_buffer_),
      [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
        if (self->closed_on_io_) return;
        if (ec) {
          self->DoClose(ec == asio::error::eof ? "closed by peer" : "read failed: " + ec.message(),
                        false);
          return;
        }
        self->last_activity_ = std::chrono::steady_clock::now();
        // Responses that inline processors produce for the frames of this read are queued
        // and leave in one writev after the loop, not one write per response.
        self->in_read_cycle_ = true;
        Status st = self->decoder_.Feed(std::string_view(self->read_buffer_.data(), n),
                                        [&self](std::string_view frame) { return self->OnFrame(frame); });
        self->in_read_cycle_ = false;
        if (self->closed_on_io_) return;  // a processor closed it
        if (!self->write_in_progress_ && !self->write_queue_.empty()) self->DoWrite();
        if (!st.ok()) {
          self->DoClose("malformed frame: " + st.message(), true);
          return;
        }
        self->DoRead();
      });
}

Status Connection::OnFrame(std::string_view frame) {
  auto command = protocol::DecodeCommand(frame);
  if (!command.ok()) return command.status();
  if (command->IsResponse()) {
    OnResponse(std::move(command).value());
  } else {
    dispatcher_->Dispatch(shared_from_this(), std::move(command).value());
  }
  return closed_on_io_ ? Status::Aborted("connection closed") : Status::OK();
}

void Connection::OnResponse(RemotingCommand response) {
  auto it = pending_.find(response.opaque);
  if (it == pending_.end()) {
    // Late (after a timeout) or bogus; Java logs and drops it too.
    GetLogger("remoting")->warn("{}: response with unknown opaque {} (code {}) from {} dropped",
                                options_.side, response.opaque, response.code, remote_address_);
    return;
  }
  PendingRequest pending = std::move(it->second);
  pending_.erase(it);
  pending.timer->cancel();
  pending.callback(std::move(response));
}

// ---- writing ----

Connection::OutgoingFrame Connection::MakeFrame(const RemotingCommand& command,
                                                WriteCallback on_written) {
  OutgoingFrame frame;
  protocol::EncodeCommand(command, &frame.head);
  frame.segments = command.body_segments;
  frame.on_written = std::move(on_written);
  return frame;
}

void Connection::Enqueue(OutgoingFrame frame) {
  if (closed_on_io_) {
    if (frame.on_written) {
      frame.on_written(Status::Unavailable(fmt::format("connection to {} is closed", remote_address_)));
    }
    return;
  }
  write_queue_.push_back(std::move(frame));
  if (!write_in_progress_ && !in_read_cycle_) DoWrite();
}

void Connection::DoWrite() {
  write_in_progress_ = true;
  std::vector<asio::const_buffer> buffers;
  while (!write_queue_.empty() && writing_.size() < kMaxFramesPerWrite) {
    writing_.push_back(std::move(write_queue_.front()));
    write_queue_.pop_front();
  }
  // writing_ is not touched until the write completes, so the views stay valid.
  for (const OutgoingFrame& frame : writing_) {
    buffers.emplace_back(frame.head.data(), frame.head.size());
    for (std::string_view segment : frame.segments.segments) {
      if (!segment.empty()) buffers.emplace_back(segment.data(), segment.size());
    }
  }
  asio::async_write(socket_, buffers,
                    [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
                      self->last_activity_ = std::chrono::steady_clock::now();
                      std::vector<OutgoingFrame> done;
                      done.swap(self->writing_);
                      Status result =
                          ec ? Status::Unavailable(fmt::format("write to {} failed: {}",
                                                               self->remote_address_, ec.message()))
                             : Status::OK();
                      // Still "in progress" while callbacks run, so a frame they queue
                      // waits for the DoWrite below instead of starting a second write.
                      for (auto& frame : done) {
                        if (frame.on_written) frame.on_written(result);
                      }
                      self->write_in_progress_ = false;
                      if (ec) {
                        self->DoClose("write failed: " + ec.message(), false);
                        return;
                      }
                      if (!self->write_queue_.empty() && !self->closed_on_io_) self->DoWrite();
                    });
}

// ---- requests we send ----

void Connection::AddPending(int32_t opaque, PendingRequest pending) {
  pending.timer = std::make_unique<asio::steady_timer>(*context_);
  pending.timer->expires_after(pending.timeout);
  pending.timer->async_wait([self = shared_from_this(), opaque](const boost::system::error_code& ec) {
    if (!ec) self->OnRequestTimeout(opaque);
  });
  pending_.emplace(opaque, std::move(pending));
}

void Connection::OnRequestTimeout(int32_t opaque) {
  auto it = pending_.find(opaque);
  if (it == pending_.end()) return;
  PendingRequest pending = std::move(it->second);
  pending_.erase(it);
  pending.callback(Status::Timeout(fmt::format("request code {} to {} timed out after {} ms",
                                               pending.code, remote_address_,
                                               pending.reported_timeout.count())));
}

void Connection::InvokeAsync(RemotingCommand request, std::chrono::milliseconds timeout,
                             ResponseCallback callback) {
  InvokeAsyncWithin(std::move(request), timeout, timeout, std::move(callback));
}

void Connection::InvokeAsyncWithin(RemotingCommand request, std::chrono::milliseconds timeout,
                                   std::chrono::milliseconds reported_timeout,
                                   ResponseCallback callback) {
  request.opaque = NextOpaque();
  request.flag = 0;
  int32_t opaque = request.opaque;
  PendingRequest pending;
  pending.code = request.code;
  pending.timeout = timeout;
  pending.reported_timeout = reported_timeout;
  pending.callback = std::move(callback);
  // Encode on the caller's thread; only queueing happens on the IO thread.
  OutgoingFrame frame = MakeFrame(request, nullptr);
  asio::post(*context_, [self = shared_from_this(), opaque, pending = std::move(pending),
                         frame = std::move(frame)]() mutable {
    if (self->closed_on_io_) {
      pending.callback(Status::Unavailable(fmt::format(
          "connection to {} is closed; request code {} not sent", self->remote_address_, pending.code)));
      return;
    }
    self->AddPending(opaque, std::move(pending));
    self->Enqueue(std::move(frame));
  });
}

Result<RemotingCommand> Connection::InvokeSync(RemotingCommand request,
                                               std::chrono::milliseconds timeout) {
  if (OnIoThread()) {
    return Status::Internal(fmt::format(
        "InvokeSync to {} called on its own IO thread (would deadlock); use InvokeAsync",
        remote_address_));
  }
  if (!IsActive()) {
    return Status::Unavailable(fmt::format("connection to {} is closed", remote_address_));
  }
  auto promise = std::make_shared<std::promise<Result<RemotingCommand>>>();
  auto future = promise->get_future();
  InvokeAsync(std::move(request), timeout,
              [promise](Result<RemotingCommand> result) { promise->set_value(std::move(result)); });
  return future.get();
}

void Connection::InvokeOneway(RemotingCommand request, WriteCallback on_written) {
  request.opaque = NextOpaque();
  request.flag = protocol::kFlagOneway;
  OutgoingFrame frame = MakeFrame(request, std::move(on_written));
  asio::post(*context_, [self = shared_from_this(), frame = std::move(frame)]() mutable {
    self->Enqueue(std::move(frame));
  });
}

void Connection::SendResponse(RemotingCommand response) {
  if (!IsActive()) {
    GetLogger("remoting")->debug("response code {} (opaque {}) to closed connection {} dropped",
                                 response.code, response.opaque, remote_address_);
    return;
  }
  OutgoingFrame frame = MakeFrame(response, nullptr);
  if (OnIoThread()) {
    Enqueue(std::move(frame));
    return;
  }
  asio::post(*context_, [self = shared_from_this(), frame = std::move(frame)]() mutable {
    self->Enqueue(std::move(frame));
  });
}

// ---- idle and close ----

void Connection::ArmIdleTimer(std::chrono::milliseconds delay) {
  if (options_.idle_timeout.count() <= 0) return;
  idle_timer_.expires_after(delay);
  idle_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->OnIdleTimer();
  });
}

void Connection::OnIdleTimer() {
  if (closed_on_io_) return;
  auto idle_for = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - last_activity_);
  if (idle_for < options_.idle_timeout) {
    ArmIdleTimer(options_.idle_timeout - idle_for);
    return;
  }
  dispatcher_->NotifyIdle(shared_from_this());
  DoClose(fmt::format("idle for {} ms", idle_for.count()), false);
}

void Connection::Close() { CloseWithReason("closed locally", false); }

void Connection::CloseWithReason(std::string reason, bool is_error) {
  if (OnIoThread()) {
    DoClose(reason, is_error);
    return;
  }
  asio::post(*context_, [self = shared_from_this(), reason = std::move(reason), is_error] {
    self->DoClose(reason, is_error);
  });
}

void Connection::DoClose(const std::string& reason, bool is_error) {
  if (closed_on_io_) return;
  closed_on_io_ = true;
  closed_.store(true, std::memory_order_release);
  auto logger = GetLogger("remoting");
  if (is_error) {
    logger->warn("{}: closing connection {}: {}", options_.side, remote_address_, reason);
  } else {
    logger->info("{}: connection {} closed: {}", options_.side, remote_address_, reason);
  }
  boost::system::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  idle_timer_.cancel();

  auto pending = std::move(pending_);
  pending_.clear();
  for (auto& [opaque, request] : pending) {
    request.timer->cancel();
    request.callback(Status::Unavailable(
        fmt::format("connection to {} closed ({}) before the response to request code {} arrived",
                    remote_address_, reason, request.code)));
  }
  auto queued = std::move(write_queue_);
  write_queue_.clear();
  for (auto& frame : queued) {
    if (frame.on_written) {
      frame.on_written(Status::Unavailable(
          fmt::format("connection to {} closed ({}) before the frame was sent", remote_address_, reason)));
    }
  }
  dispatcher_->NotifyClosed(shared_from_this());
}

}  // namespace apogee::remoting
