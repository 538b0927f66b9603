#include "remoting/connection.h"

#include <fmt/format.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <array>
#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <optional>
#include <span>

#include "base/logging.h"
#include "base/wakeup_batch.h"
#include "net/host_port.h"
#include "net/tls_context.h"
#include "protocol/kept_buffers.h"
#include "protocol/response_code.h"
#include "remoting/sync_waiter.h"

namespace apogee::remoting {

namespace asio = boost::asio;
using protocol::RemotingCommand;

namespace {

// Frames gathered into one write; bounds the buffer list and the latency of a batch.
constexpr size_t kMaxFramesPerWrite = 64;
// Buffers per sendmsg: Linux's IOV_MAX.
constexpr size_t kMaxIovecsPerSend = 1024;
// One read fills at most this much; the buffer belongs to the IO thread, not to a
// connection.
constexpr size_t kReadBufferSize = 64 * 1024;
// Reads per readiness before yielding to the other connections of the thread.
constexpr int kMaxReadsPerTurn = 16;
// TLS: one record's plaintext at most; a TLS connection has its own read buffer because
// its reads complete asynchronously (OpenSSL already holds about twice this per
// connection).
constexpr size_t kTlsReadBufferSize = 16 * 1024;
// TLS: pieces of a batch below this size are copied into one buffer so they leave in one
// record instead of a record (and a send) each; bigger ones are encrypted in place.
constexpr size_t kTlsCoalesceBelow = 16 * 1024;
// TLS: a staging buffer grown past this by a big batch is given back afterwards.
constexpr size_t kTlsStagingKeep = 1024 * 1024;

// Spare frame heads (Connection::spare_heads_): per connection (one async window of the
// producer: fewer left most of a refill burst to malloc) and its bytes, the size of one,
// and the bytes all connections of the process keep (the capacity of every kept head).
constexpr size_t kMaxSpareHeads = 256;
constexpr size_t kMaxSpareHeadBytesPerConnection = 512 * 1024;
constexpr size_t kMaxSpareHeadCapacity = 16 * 1024;
constexpr size_t kMaxSpareHeadBytes = 16 * 1024 * 1024;
std::atomic<size_t> g_spare_head_bytes{0};

// The request timer fires at most this often: a request times out up to this late, and a
// run of requests timing out one after another costs one scan of the table per period, not
// one per request.
constexpr auto kRequestTimerSlack = std::chrono::milliseconds(5);

// Kept nodes of the pending table (Connection::spare_pending_), per connection.
constexpr size_t kMaxSparePending = 256;

}  // namespace

size_t SpareFrameHeadBytesForTest() { return g_spare_head_bytes.load(); }

namespace {

// The frame heads an IO thread keeps for the frames it encodes itself (connections without
// reuse_frame_heads: a server's answers, made on the IO thread for every request it runs
// inline). Per thread, not per connection, so that ten thousand connections keep no more
// than one busy one; within the per-connection bounds above.
struct IoThreadSpareHeads {
  std::vector<std::string> heads;
  size_t bytes = 0;
};

IoThreadSpareHeads& ThreadSpareHeads() {
  thread_local IoThreadSpareHeads spare;
  return spare;
}


char* ThreadReadBuffer() {
  thread_local std::unique_ptr<char[]> buffer(new char[kReadBufferSize]);
  return buffer.get();
}

std::atomic<uint64_t> g_next_connection_id{1};

std::string EndpointOrUnknown(const asio::ip::tcp::endpoint& endpoint,
                              const boost::system::error_code& ec) {
  return ec ? std::string("unknown") : net::FormatEndpoint(endpoint);
}

}  // namespace

Connection::Connection(std::shared_ptr<asio::io_context> context, asio::ip::tcp::socket socket,
                       ConnectionOptions options,
                       std::shared_ptr<const RequestDispatcher> dispatcher,
                       std::string remote_label)
    : context_(std::move(context)),
      socket_(std::move(socket)),
      timer_(*context_),
      options_(std::move(options)),
      dispatcher_(std::move(dispatcher)),
      id_(g_next_connection_id.fetch_add(1, std::memory_order_relaxed)),
      phase_(options_.tls_role == ConnectionOptions::TlsRole::kNone ? Phase::kOpen
                                                                    : Phase::kDetect),
      decoder_(options_.max_frame_length, options_.decode_limits.max_header_length,
               options_.partial_frame_budget.get()),
      request_timer_(*context_),
      direct_writes_(options_.tls_role == ConnectionOptions::TlsRole::kNone) {
  boost::system::error_code ec;
  auto remote = socket_.remote_endpoint(ec);
  remote_address_ = remote_label.empty() ? EndpointOrUnknown(remote, ec) : std::move(remote_label);
  auto local = socket_.local_endpoint(ec);
  local_address_ = EndpointOrUnknown(local, ec);
}

Connection::~Connection() {
  // Bytes of a batch whose completion never ran (the context stopped first).
  if (options_.write_budget && queued_bytes_ != 0) options_.write_budget->Release(queued_bytes_);
  ReleaseSpareHeads();
}

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
    boost::system::error_code ec;
    self->socket_.non_blocking(true, ec);
    if (ec) {
      self->DoClose("cannot make the socket non-blocking: " + ec.message(), true);
      return;
    }
    self->ArmTimer(self->NextDeadline());
    using Role = ConnectionOptions::TlsRole;
    const Role role = self->options_.tls_role;
    if (role != Role::kNone && !self->options_.tls_context) {
      self->DoClose("TLS is configured but has no context", true);
      return;
    }
    switch (role) {
      case Role::kNone: self->ReadNow(); break;
      case Role::kServerPermissive:
      case Role::kServerEnforcing: self->WaitReadable(); break;  // then OnFirstByte
      case Role::kClient: self->StartHandshake(asio::ssl::stream_base::client); break;
    }
  });
}

// ---- TLS set-up ----

void Connection::OnFirstByte() {
  unsigned char first = 0;
  boost::system::error_code ec;
  // A peek: on the plain path the frame decoder reads this byte again.
  socket_.receive(asio::buffer(&first, 1), asio::socket_base::message_peek, ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) {
    WaitReadable();
    return;
  }
  if (ec) {
    DoClose(ec == asio::error::eof ? "closed by peer" : "read failed: " + ec.message(), false);
    return;
  }
  if (first == net::kTlsHandshakeRecordType) {
    StartHandshake(asio::ssl::stream_base::server);
    return;
  }
  if (options_.tls_role == ConnectionOptions::TlsRole::kServerEnforcing) {
    DoClose(fmt::format("plain connection refused (first byte 0x{:02x} is no TLS handshake; "
                        "tls.server.mode=enforcing)",
                        first),
            true);
    return;
  }
  phase_ = Phase::kOpen;
  ReadNow();
}

void Connection::StartHandshake(asio::ssl::stream_base::handshake_type type) {
  tls_ = std::make_unique<TlsStream>(socket_, *options_.tls_context);
  phase_ = Phase::kHandshake;
  handshake_deadline_ = std::chrono::steady_clock::now() + options_.tls_handshake_timeout;
  ArmTimer(handshake_deadline_);
  tls_->async_handshake(type, [self = shared_from_this()](const boost::system::error_code& ec) {
    if (self->closed_on_io_) return;
    if (ec) {
      self->DoClose("TLS handshake failed: " + net::DescribeTlsError(ec), true);
      return;
    }
    self->phase_ = Phase::kOpen;
    self->last_activity_ = std::chrono::steady_clock::now();
    self->tls_read_buffer_.reset(new char[kTlsReadBufferSize]);
    // Frames a client queued while the handshake ran.
    if (!self->write_in_progress_ && !self->write_queue_.empty()) self->DoWrite();
    self->ReadNow();
  });
}

void Connection::StartTlsRead() {
  tls_reading_ = true;
  tls_->async_read_some(
      asio::buffer(tls_read_buffer_.get(), kTlsReadBufferSize),
      [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
        self->tls_reading_ = false;
        if (self->closed_on_io_) return;
        if (ec) {
          const bool eof = ec == asio::error::eof || ec == asio::ssl::error::stream_truncated;
          self->DoClose(eof ? "closed by peer" : "TLS read failed: " + net::DescribeTlsError(ec),
                        false);
          return;
        }
        if (!self->Decode(std::string_view(self->tls_read_buffer_.get(), n))) return;
        self->ReadNow();
      });
}

// ---- reading ----

void Connection::WaitReadable() {
  if (waiting_readable_ || closed_on_io_) return;
  waiting_readable_ = true;
  socket_.async_wait(asio::ip::tcp::socket::wait_read,
                     [self = shared_from_this()](const boost::system::error_code& ec) {
                       self->waiting_readable_ = false;
                       if (self->closed_on_io_) return;
                       if (ec) {
                         self->DoClose("read failed: " + ec.message(), false);
                         return;
                       }
                       // Still deciding plain or TLS: look at the first byte first.
                       if (self->phase_ == Phase::kDetect) {
                         self->OnFirstByte();
                       } else {
                         self->ReadNow();
                       }
                     });
}

bool Connection::ReadPaused() {
  bool paused = write_paused_;
  const uint32_t limit = options_.max_requests_in_flight;
  if (!paused && limit != 0 && in_flight_.load(std::memory_order_acquire) >= limit) {
    // Flag first, then look again: RequestFinished on another thread either sees the flag
    // or finished before the second look.
    in_flight_paused_.store(true, std::memory_order_seq_cst);
    if (in_flight_.load(std::memory_order_seq_cst) >= limit) {
      paused = true;
    } else {
      in_flight_paused_.store(false, std::memory_order_relaxed);
    }
  }
  if (paused && !read_paused_) {
    read_paused_ = true;
    read_paused_at_ = std::chrono::steady_clock::now();
  }
  return paused;
}

void Connection::EndReadPause() {
  read_paused_ = false;
  // Time spent paused by us does not count against the peer's frame deadline.
  if (decoder_.in_frame()) {
    frame_started_ += std::chrono::steady_clock::now() - read_paused_at_;
    ArmTimer(NextDeadline());
  }
}

void Connection::MaybeResumeReading() {
  if (closed_on_io_ || !read_paused_ || ReadPaused()) return;
  EndReadPause();
  // Read at once rather than wait: readiness that arrived while paused was already
  // reported and will not be reported again.
  ReadNow();
}

bool Connection::Decode(std::string_view bytes) {
  const uint64_t frames_before = decoder_.frames_decoded();
  const bool was_in_frame = decoder_.in_frame();
  // Responses that inline processors produce for the frames of this read are queued
  // and leave in one writev after the loop, not one write per response.
  // Service threads that inline processors wake for these frames (the reput, for each
  // ASYNC_FLUSH put) are woken once, after the loop (base/wakeup_batch.h).
  in_read_cycle_ = true;
  Status st;
  bool batch_ok;
  {
    ScopedWakeupBatch wakeups;
    st = decoder_.Feed(bytes, [this](std::string_view frame) { return OnFrame(frame); });
    batch_ok = wakeups.Finish();
  }
  in_read_cycle_ = false;
  if (closed_on_io_) return false;  // a processor closed it
  if (!batch_ok) {
    // The batch's end work failed (the CommitLog could not write the records these requests
    // put): their answers may claim what did not happen, so none of them leaves.
    DoClose("the work these requests left for the end of the read failed; answers withheld", true);
    return false;
  }
  if (!write_in_progress_ && !write_queue_.empty()) DoWrite();
  if (!st.ok()) {
    DoClose((st.code() == StatusCode::kBusy ? "" : "malformed frame: ") + st.message(), true);
    return false;
  }
  const auto now = std::chrono::steady_clock::now();
  if (decoder_.frames_decoded() != frames_before) last_activity_ = now;
  if (decoder_.in_frame() && (!was_in_frame || decoder_.frames_decoded() != frames_before)) {
    // A new frame began in this read: its deadline starts now.
    frame_started_ = now;
    if (options_.frame_read_timeout.count() > 0) ArmTimer(now + options_.frame_read_timeout);
  }
  return true;
}

void Connection::ReadNow() {
  if (closed_on_io_ || waiting_readable_ || tls_reading_ || phase_ != Phase::kOpen) return;
  char* buffer = ThreadReadBuffer();
  for (int turn = 0; turn < kMaxReadsPerTurn; ++turn) {
    if (ReadPaused()) return;  // MaybeResumeReading picks up from here
    if (read_paused_) EndReadPause();
    if (decoder_.has_held_input()) {
      // Requests left over from a pause come before anything new.
      if (!Decode({})) return;
      continue;
    }
    if (tls_) {
      StartTlsRead();
      return;
    }
    boost::system::error_code ec;
    size_t n = socket_.read_some(asio::buffer(buffer, kReadBufferSize), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      WaitReadable();
      return;
    }
    if (ec) {
      DoClose(ec == asio::error::eof ? "closed by peer" : "read failed: " + ec.message(), false);
      return;
    }
    if (!Decode(std::string_view(buffer, n))) return;
  }
  // Fairness: let the thread's other connections run, then go on reading.
  asio::post(*context_, [self = shared_from_this()] { self->ReadNow(); });
}

Status Connection::OnFrame(std::string_view frame) {
  protocol::RemotingCommand command;
  Status decoded = protocol::DecodeCommandInto(frame, options_.decode_limits, &command);
  if (!decoded.ok()) {
    // A limit on a well-formed frame: answer it and keep the connection.
    if (decoded.code() != StatusCode::kInvalidArgument) return decoded;
    AnswerRefused(command, decoded);
    return Status::OK();
  }
  if (command.IsResponse()) {
    OnResponse(std::move(command));
    if (closed_on_io_) return Status::Aborted("connection closed");
    if (ReadPaused()) decoder_.RequestPause();
    return Status::OK();
  }
  if (!command.IsOneway() && dispatcher_->response_observer() != nullptr) {
    std::lock_guard<std::mutex> lock(observed_mu_);
    observed_[command.opaque] = {command.code, std::chrono::steady_clock::now(), false};
  }
  if (options_.max_requests_in_flight == 0) {
    dispatcher_->Dispatch(shared_from_this(), std::move(command));
  } else {
    in_flight_.fetch_add(1, std::memory_order_acq_rel);
    auto self = shared_from_this();
    dispatcher_->Dispatch(self, std::move(command), self);
  }
  if (closed_on_io_) return Status::Aborted("connection closed");
  // Stop mid-read too: the rest of this read waits until the responses drain.
  if (ReadPaused()) decoder_.RequestPause();
  return Status::OK();
}

void Connection::AnswerRefused(const RemotingCommand& request, const Status& why) {
  GetLogger("remoting")->warn("{}: request code {} from {} refused: {}", options_.side,
                              request.code, remote_address_, why.message());
  if (request.IsResponse() || request.IsOneway()) return;
  RemotingCommand response = RemotingCommand::MakeResponse(
      request, protocol::response_code::kSystemError,
      fmt::format("request refused: {} (serverMaxHeaderFields)", why.message()));
  Enqueue(MakeFrame(response, nullptr));
}

void Connection::RequestFinished() {
  const uint32_t now = in_flight_.fetch_sub(1, std::memory_order_seq_cst) - 1;
  if (now < options_.max_requests_in_flight &&
      in_flight_paused_.load(std::memory_order_seq_cst) &&
      in_flight_paused_.exchange(false, std::memory_order_acq_rel)) {
    asio::post(*context_, [self = shared_from_this()] { self->MaybeResumeReading(); });
  }
}

void Connection::OnResponse(RemotingCommand response) {
  PendingRequest pending;
  bool found = false;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    auto it = pending_.find(response.opaque);
    if (it != pending_.end()) {
      auto node = pending_.extract(it);
      pending = std::move(node.mapped());
      found = true;
      if (options_.reuse_frame_heads && spare_pending_.size() < kMaxSparePending) {
        spare_pending_.push_back(std::move(node));
      }
    }
  }
  // The request timer stays armed: the next request's deadline is later (see request_timer_).
  if (!found) {
    // Late (after a timeout) or bogus; Java logs and drops it too.
    GetLogger("remoting")->warn("{}: response with unknown opaque {} (code {}) from {} dropped",
                                options_.side, response.opaque, response.code, remote_address_);
    return;
  }
  pending.Complete(std::move(response));
}

void Connection::PendingRequest::Complete(Result<RemotingCommand> response) {
  if (handler) {
    ResponseHandler::Deliver(std::move(handler), std::move(response));
  } else {
    callback(std::move(response));
  }
}

// ---- writing ----

Connection::OutgoingFrame Connection::MakeFrame(const RemotingCommand& command,
                                                WriteCallback on_written) {
  OutgoingFrame frame;
  if (options_.reuse_frame_heads) {
    std::lock_guard<std::mutex> lock(spare_mu_);
    if (!spare_heads_.empty()) {
      frame.head = std::move(spare_heads_.back());
      spare_heads_.pop_back();
      spare_head_bytes_ -= frame.head.capacity();
      g_spare_head_bytes.fetch_sub(frame.head.capacity(), std::memory_order_relaxed);
      frame.head.clear();
    }
  } else if (OnIoThread()) {
    IoThreadSpareHeads& spare = ThreadSpareHeads();
    if (!spare.heads.empty()) {
      frame.head = std::move(spare.heads.back());
      spare.heads.pop_back();
      spare.bytes -= frame.head.capacity();
      frame.head.clear();
    }
  }
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
  if (direct_writes_ && write_queue_.empty() && !write_in_progress_) TakeWriterRole();
  const size_t bytes = frame.Bytes();
  queued_bytes_ += bytes;
  if (options_.write_budget) options_.write_budget->Acquire(bytes);
  write_queue_.push_back(std::move(frame));
  MaybePauseForWrites();
  if (!write_in_progress_ && !in_read_cycle_) DoWrite();
}

void Connection::MaybePauseForWrites() {
  const size_t high = options_.write_high_water;
  if (high == 0 || write_paused_) return;
  const size_t low = std::min(options_.write_low_water, high);
  const bool budget_spent = options_.write_budget && options_.write_budget->over_limit();
  if (queued_bytes_ > high || (budget_spent && queued_bytes_ > low)) {
    write_paused_ = true;
    write_progress_ = std::chrono::steady_clock::now();
    if (options_.write_stall_timeout.count() > 0) {
      ArmTimer(write_progress_ + options_.write_stall_timeout);
    }
  }
}

void Connection::MaybeResumeForWrites() {
  if (!write_paused_) return;
  // Every paused connection holds more than the low mark, so a write of its own is in
  // flight and its completion brings it here: no wake-up from elsewhere is needed.
  if (queued_bytes_ > std::min(options_.write_low_water, options_.write_high_water)) return;
  write_paused_ = false;
  MaybeResumeReading();
}

void Connection::FrameQueue::push_front(OutgoingFrame frame) {
  if (head_ > 0) {
    frames_[--head_] = std::move(frame);
  } else {
    frames_.insert(frames_.begin(), std::move(frame));
  }
}

void Connection::FrameQueue::pop_front() {
  frames_[head_] = OutgoingFrame();  // what it pins goes now
  ++head_;
  if (head_ == frames_.size()) {
    frames_.clear();
    head_ = 0;
  } else if (head_ >= 64 && head_ * 2 >= frames_.size()) {
    // A queue that never empties: drop the spent front, amortised over as many pops.
    frames_.erase(frames_.begin(), frames_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

std::vector<Connection::OutgoingFrame> Connection::FrameQueue::TakeAll() {
  std::vector<OutgoingFrame> taken;
  taken.reserve(frames_.size() - head_);
  for (size_t i = head_; i < frames_.size(); ++i) taken.push_back(std::move(frames_[i]));
  frames_.clear();
  head_ = 0;
  return taken;
}

void Connection::DoWrite() {
  // Until the TLS handshake is done frames wait; its completion starts the write.
  if (phase_ != Phase::kOpen) return;
  write_in_progress_ = true;
  std::vector<asio::const_buffer>& buffers = write_buffers_;
  buffers.clear();
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
  if (tls_) {
    CoalesceForTls(&buffers);
    // write_buffers_ stays as it is until the completion, so the span stays valid.
    const std::span<const asio::const_buffer> sequence(buffers.data(), buffers.size());
    asio::async_write(*tls_, sequence,
                      [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
                        self->FinishWrite(ec);
                      });
    return;
  }
  write_next_ = 0;
  write_skip_ = 0;
  ContinuePlainWrite();
}

void Connection::ContinuePlainWrite() {
  // Our own gather loop instead of asio::async_write: asio hands at most 16 buffers to
  // each sendmsg, so a pull's answer (a head and 32 records) took two or three system calls and
  // a batch of 64 send answers four, each a TCP transmit and a wake-up of the reader.
  std::vector<asio::const_buffer>& buffers = write_buffers_;
  // The IO thread's, as its read buffer: 16 KiB would be too much for every connection.
  thread_local std::array<iovec, kMaxIovecsPerSend> iovecs;
  for (;;) {
    if (write_next_ == buffers.size()) {
      // Done. Completed from the queue, never from inside DoWrite's caller, as asio does.
      asio::post(*context_, [self = shared_from_this()] { self->FinishWrite({}); });
      return;
    }
    if (!socket_.is_open()) {
      asio::post(*context_, [self = shared_from_this()] {
        self->FinishWrite(asio::error::operation_aborted);
      });
      return;
    }
    const size_t count = std::min(buffers.size() - write_next_, kMaxIovecsPerSend);
    for (size_t i = 0; i < count; ++i) {
      const asio::const_buffer& b = buffers[write_next_ + i];
      iovecs[i].iov_base = const_cast<void*>(b.data());
      iovecs[i].iov_len = b.size();
    }
    iovecs[0].iov_base = static_cast<char*>(iovecs[0].iov_base) + write_skip_;
    iovecs[0].iov_len -= write_skip_;
    msghdr message{};
    message.msg_iov = iovecs.data();
    message.msg_iovlen = count;
    const ssize_t sent = ::sendmsg(socket_.native_handle(), &message, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        // A full socket buffer: go on when the reader has made room.
        socket_.async_wait(asio::ip::tcp::socket::wait_write,
                           [self = shared_from_this()](const boost::system::error_code& ec) {
                             if (ec) {
                               self->FinishWrite(ec);
                             } else {
                               self->ContinuePlainWrite();
                             }
                           });
        return;
      }
      const boost::system::error_code ec(errno, boost::system::system_category());
      asio::post(*context_, [self = shared_from_this(), ec] { self->FinishWrite(ec); });
      return;
    }
    // Skip what went out: whole buffers, then part of the next one.
    size_t left = static_cast<size_t>(sent);
    while (left > 0) {
      const size_t rest = buffers[write_next_].size() - write_skip_;
      if (left < rest) {
        write_skip_ += left;
        break;
      }
      left -= rest;
      ++write_next_;
      write_skip_ = 0;
    }
    // Empty buffers never reach the list (DoWrite skips them), so a zero-byte send means
    // nothing was asked for: only possible when everything is already out.
    while (write_next_ < buffers.size() && buffers[write_next_].size() == write_skip_) {
      ++write_next_;
      write_skip_ = 0;
    }
  }
}

void Connection::FinishWrite(const boost::system::error_code& ec) {
  const auto now = std::chrono::steady_clock::now();
  last_activity_ = now;
  write_progress_ = now;
  std::vector<OutgoingFrame> done;
  done.swap(writing_);
  size_t done_bytes = 0;
  for (const auto& frame : done) done_bytes += frame.Bytes();
  queued_bytes_ -= done_bytes;
  if (options_.write_budget) options_.write_budget->Release(done_bytes);
  Status result =
      ec ? Status::Unavailable(fmt::format("write to {} failed: {}", remote_address_, ec.message()))
         : Status::OK();
  // Still "in progress" while callbacks run, so a frame they queue
  // waits for the DoWrite below instead of starting a second write.
  for (auto& frame : done) {
    if (frame.on_written) frame.on_written(result);
  }
  // Frames (and the memory they pin) go before anything else runs; their heads may stay.
  KeepSpareHeads(&done);
  done.clear();
  // The batch vector's room serves the next batch (writing_ is empty until DoWrite).
  if (writing_.empty()) writing_.swap(done);
  write_in_progress_ = false;
  if (ec) {
    DoClose("write failed: " + ec.message(), false);
    return;
  }
  if (closed_on_io_) return;
  MaybeResumeForWrites();
  if (!write_queue_.empty() && !write_in_progress_) {
    DoWrite();
  } else {
    MaybeReleaseWriterRole();
  }
}

void Connection::KeepSpareHeads(std::vector<OutgoingFrame>* written) {
  if (closed_on_io_) return;
  if (!options_.reuse_frame_heads) {
    // On the IO thread (a write's completion): its own list, no lock.
    IoThreadSpareHeads& spare = ThreadSpareHeads();
    for (OutgoingFrame& frame : *written) {
      if (spare.heads.size() >= kMaxSpareHeads) break;
      const size_t capacity = frame.head.capacity();
      if (capacity <= std::string().capacity() || capacity > kMaxSpareHeadCapacity) continue;
      if (spare.bytes + capacity > kMaxSpareHeadBytesPerConnection) break;
      spare.heads.push_back(std::move(frame.head));
      spare.bytes += capacity;
    }
    return;
  }
  std::lock_guard<std::mutex> lock(spare_mu_);
  for (OutgoingFrame& frame : *written) {
    if (!KeepSpareHeadLocked(&frame.head)) break;
  }
}

bool Connection::KeepSpareHeadLocked(std::string* head) {
  if (spare_heads_.size() >= kMaxSpareHeads) return false;
  const size_t capacity = head->capacity();
  // Short strings live inside the object (nothing to keep); big ones are not kept.
  if (capacity <= std::string().capacity() || capacity > kMaxSpareHeadCapacity) return true;
  if (spare_head_bytes_ + capacity > kMaxSpareHeadBytesPerConnection) return false;
  if (g_spare_head_bytes.fetch_add(capacity, std::memory_order_relaxed) + capacity >
      kMaxSpareHeadBytes) {
    g_spare_head_bytes.fetch_sub(capacity, std::memory_order_relaxed);
    return false;
  }
  spare_heads_.push_back(std::move(*head));
  spare_head_bytes_ += capacity;
  return true;
}

void Connection::ReleaseSpareHeads() {
  std::lock_guard<std::mutex> lock(spare_mu_);
  size_t spare_bytes = 0;
  for (const std::string& head : spare_heads_) spare_bytes += head.capacity();
  g_spare_head_bytes.fetch_sub(spare_bytes, std::memory_order_relaxed);
  std::vector<std::string>().swap(spare_heads_);
  spare_head_bytes_ = 0;
}

void Connection::CoalesceForTls(std::vector<asio::const_buffer>* buffers) {
  if (tls_write_staging_.capacity() > kTlsStagingKeep) std::string().swap(tls_write_staging_);
  tls_write_staging_.clear();
  size_t small_bytes = 0;
  for (const auto& b : *buffers) {
    if (b.size() < kTlsCoalesceBelow) small_bytes += b.size();
  }
  tls_write_staging_.reserve(small_bytes);
  struct Piece {
    const char* data;  // null: a run in the staging buffer starting at `offset`
    size_t offset;
    size_t size;
  };
  std::vector<Piece> pieces;
  pieces.reserve(buffers->size());
  for (const auto& b : *buffers) {
    const char* data = static_cast<const char*>(b.data());
    if (b.size() >= kTlsCoalesceBelow) {
      pieces.push_back({data, 0, b.size()});
      continue;
    }
    if (!pieces.empty() && pieces.back().data == nullptr) {
      pieces.back().size += b.size();
    } else {
      pieces.push_back({nullptr, tls_write_staging_.size(), b.size()});
    }
    tls_write_staging_.append(data, b.size());
  }
  buffers->clear();
  for (const Piece& p : pieces) {
    buffers->emplace_back(p.data != nullptr ? p.data : tls_write_staging_.data() + p.offset, p.size);
  }
}

// ---- requests we send ----

Connection::AddResult Connection::AddPending(int32_t opaque, PendingRequest& pending,
                                             bool only_if_alone) {
  bool arm;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    if (pending_closed_) return AddResult::kClosed;
    if (only_if_alone && !pending_.empty()) return AddResult::kNotAlone;
    pending.deadline = std::chrono::steady_clock::now() + pending.timeout;
    arm = WantRequestTimerLocked(pending.deadline);
    if (spare_pending_.empty()) {
      pending_.emplace(opaque, std::move(pending));
    } else {
      auto node = std::move(spare_pending_.back());
      spare_pending_.pop_back();
      node.key() = opaque;
      node.mapped() = std::move(pending);
      pending_.insert(std::move(node));
    }
  }
  if (arm) {
    if (OnIoThread()) {
      SyncRequestTimer();
    } else {
      asio::post(*context_, [self = shared_from_this()] { self->SyncRequestTimer(); });
    }
  }
  return AddResult::kAdded;
}

bool Connection::WantRequestTimerLocked(std::chrono::steady_clock::time_point deadline) {
  if (deadline >= request_timer_at_) return false;
  request_timer_at_ = deadline;
  return true;
}

void Connection::SyncRequestTimer() {
  if (closed_on_io_) return;
  std::chrono::steady_clock::time_point at;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    at = request_timer_at_;
  }
  if (at == request_timer_armed_) return;
  request_timer_armed_ = at;
  if (at == std::chrono::steady_clock::time_point::max()) {
    request_timer_.cancel();
    return;
  }
  request_timer_.expires_at(at);
  request_timer_.async_wait([self = shared_from_this(), at](const boost::system::error_code& ec) {
    // Re-armed for another time meanwhile (operation_aborted, or fired just before).
    if (ec || self->request_timer_armed_ != at) return;
    self->request_timer_armed_ = std::chrono::steady_clock::time_point::max();
    self->OnRequestTimer();
  });
}

void Connection::OnRequestTimer() {
  if (closed_on_io_) return;
  const auto now = std::chrono::steady_clock::now();
  std::vector<std::pair<int32_t, PendingRequest>> expired;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    auto next = std::chrono::steady_clock::time_point::max();
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->second.deadline <= now) {
        expired.emplace_back(it->first, std::move(it->second));
        it = pending_.erase(it);
      } else {
        next = std::min(next, it->second.deadline);
        ++it;
      }
    }
    if (next != std::chrono::steady_clock::time_point::max()) {
      next = std::max(next, now + kRequestTimerSlack);
    }
    request_timer_at_ = next;
  }
  SyncRequestTimer();
  // In the order they were due, as one timer per request would have failed them.
  std::sort(expired.begin(), expired.end(), [](const auto& a, const auto& b) {
    return a.second.deadline != b.second.deadline ? a.second.deadline < b.second.deadline
                                                  : a.first < b.first;
  });
  for (auto& [opaque, pending] : expired) {
    pending.Complete(Status::Timeout(fmt::format("request code {} to {} timed out after {} ms",
                                                 pending.code, remote_address_,
                                                 pending.reported_timeout.count())));
  }
}

void Connection::InvokeAsync(RemotingCommand request, std::chrono::milliseconds timeout,
                             ResponseCallback callback) {
  InvokeAsyncWithin(std::move(request), timeout, timeout, std::move(callback));
}

void Connection::InvokeAsyncWithin(RemotingCommand request, std::chrono::milliseconds timeout,
                                   std::chrono::milliseconds reported_timeout,
                                   ResponseCallback callback) {
  SendTwoWay(std::move(request), PendingRequest{.timeout = timeout,
                                                .reported_timeout = reported_timeout,
                                                .callback = std::move(callback)});
}

void Connection::InvokeAsyncWithin(RemotingCommand request, std::chrono::milliseconds timeout,
                                   std::chrono::milliseconds reported_timeout,
                                   ResponseHandlerPtr handler) {
  SendTwoWay(std::move(request), PendingRequest{.timeout = timeout,
                                                .reported_timeout = reported_timeout,
                                                .handler = std::move(handler)});
}

void Connection::SendTwoWay(RemotingCommand request, PendingRequest pending) {
  request.opaque = NextOpaque();
  request.flag = 0;
  int32_t opaque = request.opaque;
  pending.code = request.code;
  // Encode on the caller's thread; only queueing happens on the IO thread, unless the
  // caller may write the frame itself.
  OutgoingFrame frame = MakeFrame(request, nullptr);
  protocol::KeepText(&request.json_ext_fields);
  bool post;
  {
    std::lock_guard<std::mutex> lock(handoff_mu_);
    // Only a request with no other in flight: a pipeline of requests (async sends) is
    // better handed over in batches and written with one writev than sent one by one.
    if (direct_writes_ && !io_writing_ && !handoff_posted_ && !socket_closed_ &&
        frame.segments.segments.empty() && !OnIoThread()) {
      // The answer is registered before the frame leaves, so it cannot arrive first.
      if (AddPending(opaque, pending, /*only_if_alone=*/true) == AddResult::kAdded) {
        WriteDirectLocked(std::move(frame));
        return;
      }
      // Not alone, or closed meanwhile (the hand-over below fails it on the IO thread).
    }
    request_handoff_.push_back({opaque, std::move(pending), std::move(frame)});
    post = !handoff_posted_;
    handoff_posted_ = true;
  }
  if (post) asio::post(*context_, [self = shared_from_this()] { self->DrainHandoff(); });
}

void Connection::WriteDirectLocked(OutgoingFrame frame) {
  const std::string& head = frame.head;
  const ssize_t sent =
      ::send(socket_.native_handle(), head.data(), head.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
  const size_t written = sent > 0 ? static_cast<size_t>(sent) : 0;
  if (written == head.size()) {
    if (options_.reuse_frame_heads) {
      std::lock_guard<std::mutex> lock(spare_mu_);
      KeepSpareHeadLocked(&frame.head);
    }
    return;
  }
  // A full socket buffer or an error: the IO thread writes the rest before anything else
  // (or finds the error and closes). Nothing else is written until it has.
  if (written != 0) frame.head.erase(0, written);
  direct_remainder_ = std::move(frame);
  io_writing_ = true;
  if (!handoff_posted_) {
    handoff_posted_ = true;
    asio::post(*context_, [self = shared_from_this()] { self->DrainHandoff(); });
  }
}

void Connection::TakeWriterRole() {
  std::lock_guard<std::mutex> lock(handoff_mu_);
  io_writing_ = true;
  if (direct_remainder_) {
    const size_t bytes = direct_remainder_->Bytes();
    queued_bytes_ += bytes;
    if (options_.write_budget) options_.write_budget->Acquire(bytes);
    write_queue_.push_front(std::move(*direct_remainder_));
    direct_remainder_.reset();
  }
}

void Connection::MaybeReleaseWriterRole() {
  if (!direct_writes_ || closed_on_io_ || !write_queue_.empty() || write_in_progress_) return;
  {
    std::lock_guard<std::mutex> lock(handoff_mu_);
    if (!direct_remainder_) {
      io_writing_ = false;
      return;
    }
  }
  // A direct write's rest arrived while this thread was idle: it goes now.
  TakeWriterRole();
  if (!in_read_cycle_) DoWrite();
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
  SyncWaiter waiter;
  InvokeAsync(std::move(request), timeout,
              [&waiter](Result<RemotingCommand> result) { waiter.Complete(std::move(result)); });
  return waiter.Wait();
}

void Connection::InvokeOneway(RemotingCommand request, WriteCallback on_written) {
  request.opaque = NextOpaque();
  request.flag = protocol::kFlagOneway;
  OutgoingFrame frame = MakeFrame(request, std::move(on_written));
  asio::post(*context_, [self = shared_from_this(), frame = std::move(frame)]() mutable {
    self->Enqueue(std::move(frame));
  });
}

void NoteSuspended(Channel& channel, int32_t opaque, bool suspended) {
  if (auto* connection = dynamic_cast<Connection*>(&channel)) {
    connection->NoteSuspended(opaque, suspended);
  }
}

void Connection::NoteSuspended(int32_t opaque, bool suspended) {
  if (dispatcher_->response_observer() == nullptr) return;
  std::lock_guard<std::mutex> lock(observed_mu_);
  auto it = observed_.find(opaque);
  if (it != observed_.end()) it->second.suspended = suspended;
}

void Connection::SendResponse(RemotingCommand response) {
  // With an observer: the sample is reported when the write finishes (or fails), as
  // RocketMQ's writeResponse records rpc latency in its write listener.
  WriteCallback on_written;
  if (ResponseObserver* observer = dispatcher_->response_observer()) {
    std::optional<ObservedRequest> started;
    {
      std::lock_guard<std::mutex> lock(observed_mu_);
      auto it = observed_.find(response.opaque);
      if (it != observed_.end()) {
        started = it->second;
        observed_.erase(it);
      }
    }
    if (started) {
      on_written = [observer, started = *started, response_code = response.code](Status written) {
        ResponseSample sample;
        sample.request_code = started.code;
        sample.response_code = response_code;
        sample.elapsed_us = std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::steady_clock::now() - started.arrived)
                                .count();
        sample.long_polling = started.suspended;
        sample.written = written.ok();
        observer->OnResponse(sample);
      };
    }
  }
  if (!IsActive()) {
    GetLogger("remoting")->debug("response code {} (opaque {}) to closed connection {} dropped",
                                 response.code, response.opaque, remote_address_);
    if (on_written) on_written(Status::Unavailable("connection closed"));
    return;
  }
  if (OnIoThread()) {
    Enqueue(MakeFrame(response, std::move(on_written)));
    protocol::KeepText(&response.json_ext_fields);
    return;
  }
  bool post;
  {
    std::lock_guard<std::mutex> lock(handoff_mu_);
    handoff_.push_back({std::move(response), std::move(on_written)});
    post = !handoff_posted_;
    handoff_posted_ = true;
  }
  if (post) asio::post(*context_, [self = shared_from_this()] { self->DrainHandoff(); });
}

void Connection::DrainHandoff() {
  std::vector<HandedResponse> frames;
  frames.swap(handoff_spare_);
  std::vector<OutgoingRequest> requests;
  requests.swap(request_handoff_spare_);
  {
    std::lock_guard<std::mutex> lock(handoff_mu_);
    frames.swap(handoff_);
    requests.swap(request_handoff_);
    handoff_posted_ = false;
    // Until these are queued, no caller may write past them.
    if (direct_writes_ && (!frames.empty() || !requests.empty())) io_writing_ = true;
  }
  // One write for the batch, as for the answers produced in one read cycle.
  const bool was_deferring = in_read_cycle_;
  in_read_cycle_ = true;
  for (HandedResponse& handed : frames) {
    Enqueue(MakeFrame(handed.response, std::move(handed.on_written)));
    protocol::KeepText(&handed.response.json_ext_fields);
  }
  for (OutgoingRequest& request : requests) {
    if (closed_on_io_ ||
        AddPending(request.opaque, request.pending, /*only_if_alone=*/false) != AddResult::kAdded) {
      request.pending.Complete(
          Status::Unavailable(fmt::format("connection to {} is closed; request code {} not sent",
                                          remote_address_, request.pending.code)));
      continue;
    }
    Enqueue(std::move(request.frame));
  }
  in_read_cycle_ = was_deferring;
  frames.clear();
  handoff_spare_.swap(frames);
  requests.clear();
  request_handoff_spare_.swap(requests);
  if (!closed_on_io_ && !in_read_cycle_ && !write_in_progress_ && !write_queue_.empty()) DoWrite();
  // Nothing to write (or the rest of a direct write, handed over alone).
  if (!in_read_cycle_) MaybeReleaseWriterRole();
}

// ---- idle, slow frames, stalled writes ----

std::chrono::steady_clock::time_point Connection::NextDeadline() const {
  auto next = std::chrono::steady_clock::time_point::max();
  if (phase_ == Phase::kHandshake) next = handshake_deadline_;
  if (options_.idle_timeout.count() > 0) next = std::min(next, last_activity_ + options_.idle_timeout);
  if (options_.frame_read_timeout.count() > 0 && decoder_.in_frame() && !read_paused_) {
    next = std::min(next, frame_started_ + options_.frame_read_timeout);
  }
  if (options_.write_stall_timeout.count() > 0 && write_paused_) {
    next = std::min(next, write_progress_ + options_.write_stall_timeout);
  }
  return next;
}

void Connection::ArmTimer(std::chrono::steady_clock::time_point at) {
  if (closed_on_io_ || at == std::chrono::steady_clock::time_point::max() || at >= timer_at_) return;
  timer_at_ = at;
  timer_.expires_at(at);
  timer_.async_wait([self = shared_from_this(), at](const boost::system::error_code& ec) {
    // A later ArmTimer for an earlier time replaced this wait (operation_aborted).
    if (ec || self->timer_at_ != at) return;
    self->timer_at_ = std::chrono::steady_clock::time_point::max();
    self->OnTimer();
  });
}

void Connection::OnTimer() {
  if (closed_on_io_) return;
  const auto now = std::chrono::steady_clock::now();
  auto ms = [](auto d) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  };
  if (phase_ == Phase::kHandshake && now >= handshake_deadline_) {
    DoClose(fmt::format("TLS handshake not done within {} ms (limit "
                        "serverTlsHandshakeTimeoutMillis={})",
                        options_.tls_handshake_timeout.count(),
                        options_.tls_handshake_timeout.count()),
            true);
    return;
  }
  if (options_.frame_read_timeout.count() > 0 && decoder_.in_frame() && !read_paused_ &&
      now - frame_started_ >= options_.frame_read_timeout) {
    DoClose(fmt::format("frame not complete {} ms after its first byte ({} bytes received; "
                        "limit serverFrameReadTimeoutMillis={})",
                        ms(now - frame_started_), decoder_.buffered(),
                        options_.frame_read_timeout.count()),
            true);
    return;
  }
  if (options_.write_stall_timeout.count() > 0 && write_paused_ &&
      now - write_progress_ >= options_.write_stall_timeout) {
    DoClose(fmt::format("peer read nothing for {} ms with {} response bytes unsent "
                        "(limit serverWriteStallTimeoutMillis={})",
                        ms(now - write_progress_), queued_bytes_,
                        options_.write_stall_timeout.count()),
            true);
    return;
  }
  if (options_.idle_timeout.count() > 0 && now - last_activity_ >= options_.idle_timeout) {
    dispatcher_->NotifyIdle(shared_from_this());
    DoClose(fmt::format("idle for {} ms", ms(now - last_activity_)), false);
    return;
  }
  ArmTimer(NextDeadline());
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
  std::optional<OutgoingFrame> remainder;
  {
    // No thread writes to the descriptor after this (a direct write holds the lock).
    std::lock_guard<std::mutex> lock(handoff_mu_);
    socket_closed_ = true;
    remainder.swap(direct_remainder_);
  }
  boost::system::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  timer_.cancel();
  timer_at_ = std::chrono::steady_clock::time_point::max();
  request_timer_.cancel();
  request_timer_armed_ = std::chrono::steady_clock::time_point::max();
  // Responders of held requests may keep this object alive for a while; its buffers go now.
  decoder_.Discard();
  ReleaseSpareHeads();

  std::unordered_map<int32_t, PendingRequest> pending;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    pending_closed_ = true;
    pending.swap(pending_);
    spare_pending_.clear();
  }
  for (auto& [opaque, request] : pending) {
    request.Complete(Status::Unavailable(
        fmt::format("connection to {} closed ({}) before the response to request code {} arrived",
                    remote_address_, reason, request.code)));
  }
  std::vector<OutgoingFrame> queued = write_queue_.TakeAll();
  size_t queued_bytes = 0;
  for (const auto& frame : queued) queued_bytes += frame.Bytes();
  queued_bytes_ -= queued_bytes;
  if (options_.write_budget) options_.write_budget->Release(queued_bytes);
  for (auto& frame : queued) {
    if (frame.on_written) {
      frame.on_written(Status::Unavailable(
          fmt::format("connection to {} closed ({}) before the frame was sent", remote_address_, reason)));
    }
  }
  dispatcher_->NotifyClosed(shared_from_this());
}

}  // namespace apogee::remoting
