// Connection: the Channel implementation over one TCP socket, shared by RemotingServer
// and RemotingClient (internal to the remoting module; other modules see Channel).
//
// Everything that touches the socket, the write queue and the pending-request table
// runs on the connection's io_context, which one thread runs; public methods called
// from other threads encode the frame on the calling thread and post the rest there.
// Reads go through a FrameDecoder; a frame it rejects, or a header DecodeCommand cannot
// parse, closes this connection with one warning naming the peer and the reason.
// Writes are queued and sent in batches with scatter-gather (async_write over a buffer
// sequence), including a response's BodySegments, which are never copied. Responses made
// on the IO thread while the frames of one read are handled go out in one write after
// them.
//
// Lifetime: owned by shared_ptr (pending handlers hold one); keeps its io_context alive
// so a Responder kept past the server's shutdown stays safe to use.
#pragma once

#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "remoting/channel.h"
#include "remoting/frame_decoder.h"
#include "remoting/request_dispatcher.h"

namespace apogee::remoting {

struct ConnectionOptions {
  uint32_t max_frame_length = kDefaultMaxFrameLength;
  // No read and no write for this long closes the connection (Java: 120 s on both
  // sides). Zero disables the check.
  std::chrono::milliseconds idle_timeout = std::chrono::seconds(120);
  // "server" or "client", for log lines.
  std::string side = "server";
};

class Connection final : public Channel, public std::enable_shared_from_this<Connection> {
 public:
  // `remote_label` names the peer in errors; empty = the socket's remote endpoint.
  Connection(std::shared_ptr<boost::asio::io_context> context, boost::asio::ip::tcp::socket socket,
             ConnectionOptions options, std::shared_ptr<const RequestDispatcher> dispatcher,
             std::string remote_label = "");
  ~Connection() override;

  // Starts reading and the idle check, and reports OnChannelConnected. Call once.
  void Start();

  uint64_t id() const override { return id_; }
  const std::string& RemoteAddress() const override { return remote_address_; }
  const std::string& LocalAddress() const override { return local_address_; }
  bool IsActive() const override { return !closed_.load(std::memory_order_acquire); }

  void InvokeAsync(protocol::RemotingCommand request, std::chrono::milliseconds timeout,
                   ResponseCallback callback) override;
  // As InvokeAsync, but a timeout error reports `reported_timeout` (the caller's whole
  // budget, of which connecting used a part).
  void InvokeAsyncWithin(protocol::RemotingCommand request, std::chrono::milliseconds timeout,
                         std::chrono::milliseconds reported_timeout, ResponseCallback callback);
  Result<protocol::RemotingCommand> InvokeSync(protocol::RemotingCommand request,
                                               std::chrono::milliseconds timeout) override;
  void InvokeOneway(protocol::RemotingCommand request, WriteCallback on_written) override;
  void SendResponse(protocol::RemotingCommand response) override;
  void Close() override;

  // Closes with a reason that is logged (at warn when `is_error`) and given to pending
  // requests. Any thread.
  void CloseWithReason(std::string reason, bool is_error);

 private:
  struct OutgoingFrame {
    std::string head;  // prefix + header + owned body
    protocol::BodySegments segments;
    WriteCallback on_written;
  };
  struct PendingRequest {
    int32_t code = 0;
    std::chrono::milliseconds timeout{0};
    std::chrono::milliseconds reported_timeout{0};
    ResponseCallback callback;
    std::unique_ptr<boost::asio::steady_timer> timer;
  };

  static OutgoingFrame MakeFrame(const protocol::RemotingCommand& command, WriteCallback on_written);
  int32_t NextOpaque();

  // IO-thread halves.
  void DoRead();
  Status OnFrame(std::string_view frame);
  void OnResponse(protocol::RemotingCommand response);
  void Enqueue(OutgoingFrame frame);
  void DoWrite();
  void AddPending(int32_t opaque, PendingRequest pending);
  void OnRequestTimeout(int32_t opaque);
  void ArmIdleTimer(std::chrono::milliseconds delay);
  void OnIdleTimer();
  void DoClose(const std::string& reason, bool is_error);
  bool OnIoThread() const;

  // Declared first so it is destroyed last: the socket and timers need it.
  std::shared_ptr<boost::asio::io_context> context_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer idle_timer_;
  const ConnectionOptions options_;
  std::shared_ptr<const RequestDispatcher> dispatcher_;
  const uint64_t id_;
  std::string remote_address_;
  std::string local_address_;
  std::atomic<bool> closed_{false};
  std::atomic<int32_t> next_opaque_{0};

  // IO thread only.
  FrameDecoder decoder_;
  std::array<char, 64 * 1024> read_buffer_;
  std::deque<OutgoingFrame> write_queue_;
  std::vector<OutgoingFrame> writing_;  // the batch async_write is sending
  bool write_in_progress_ = false;
  bool in_read_cycle_ = false;  // frames of one read are being handled: defer the write
  std::unordered_map<int32_t, PendingRequest> pending_;
  std::chrono::steady_clock::time_point last_activity_;
  bool closed_on_io_ = false;
};

}  // namespace apogee::remoting
