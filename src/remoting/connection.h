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
// Bounds (docs/security.md, "Resource limits"): reading stops while the unsent bytes
// pass the write high-water mark (or the server-wide write budget is spent and this
// connection holds more than the low mark) and resumes at the low mark; a peer that reads
// nothing for write_stall_timeout is closed. Reading also stops while
// max_requests_in_flight requests wait for or run in a processor. A frame must complete
// within frame_read_timeout of its first byte, and only complete frames and finished
// writes count as activity for the idle timeout, so dribbling bytes keeps nothing
// alive. Partial frames are charged to the server's partial-frame budget.
//
// Reads wait for readiness and then read into a per-IO-thread buffer, so an idle
// connection holds no read buffer of its own.
//
// TLS (docs/security.md, "TLS"): with a TLS context the connection first decides and
// handshakes, then runs the same read loop and limits over an ssl::stream. A server in
// permissive mode peeks at the first byte (0x16 = a TLS ClientHello, otherwise plain
// frames); enforcing closes a plain peer; a client handshakes at once. The handshake must
// finish within tls_handshake_timeout of its first byte (the idle timeout covers a peer
// that sends nothing at all). Frames queued before the handshake is done wait for it.
// Without a context nothing of this runs: the plain path is unchanged.
//
// Lifetime: owned by shared_ptr (pending handlers hold one); keeps its io_context alive
// so a Responder kept past the server's shutdown stays safe to use.
#pragma once

#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "remoting/byte_budget.h"
#include "remoting/channel.h"
#include "remoting/frame_decoder.h"
#include "remoting/limits.h"
#include "remoting/request_dispatcher.h"

namespace apogee::remoting {

struct ConnectionOptions {
  uint32_t max_frame_length = kDefaultMaxFrameLength;
  // Header bytes and extFields members (protocol::DecodeLimits). A header over the
  // length limit closes the connection; too many members answer the request with
  // SYSTEM_ERROR naming the limit.
  protocol::DecodeLimits decode_limits;
  // No complete frame read and no write finished for this long closes the connection
  // (Java: 120 s on both sides). Zero disables the check.
  std::chrono::milliseconds idle_timeout = std::chrono::seconds(120);
  // A frame must be complete this long after its first byte arrived. Zero disables.
  std::chrono::milliseconds frame_read_timeout = kDefaultFrameReadTimeout;
  // Unsent bytes past `write_high_water` stop reading until they fall to
  // `write_low_water`. Zero high water disables.
  size_t write_high_water = kDefaultWriteHighWaterMark;
  size_t write_low_water = kDefaultWriteLowWaterMark;
  // Reading stopped for the high-water mark and no write finished for this long closes
  // the connection. Zero disables.
  std::chrono::milliseconds write_stall_timeout = kDefaultWriteStallTimeout;
  // Requests waiting for or running in a processor; at this many reading stops. Zero =
  // unlimited.
  uint32_t max_requests_in_flight = kDefaultMaxRequestsInFlight;
  // Shared by the connections of one server; null = not counted.
  std::shared_ptr<ByteBudget> partial_frame_budget;
  std::shared_ptr<ByteBudget> write_budget;
  // "server" or "client", for log lines.
  std::string side = "server";
  // Keep the heads of written frames for the next frames (Connection::spare_heads_). For a
  // client's few connections, whose frames are made on the caller's thread. Without it (a
  // server's connections, so that ten thousand of them do not each keep some) the IO thread
  // keeps heads for the frames it encodes itself, shared by its connections.
  bool reuse_frame_heads = false;

  // TLS: none (plain), a server that accepts plain and TLS (permissive) or TLS only
  // (enforcing), or a client. A role other than kNone needs `tls_context`.
  enum class TlsRole { kNone, kServerPermissive, kServerEnforcing, kClient };
  TlsRole tls_role = TlsRole::kNone;
  std::shared_ptr<boost::asio::ssl::context> tls_context;
  std::chrono::milliseconds tls_handshake_timeout = std::chrono::seconds(10);
};

// The bytes of frame heads all connections keep for reuse (tests).
size_t SpareFrameHeadBytesForTest();

class Connection final : public Channel,
                         public RequestTracker,
                         public std::enable_shared_from_this<Connection> {
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
  // As above, with the answer going to `handler` (no std::function per call).
  void InvokeAsyncWithin(protocol::RemotingCommand request, std::chrono::milliseconds timeout,
                         std::chrono::milliseconds reported_timeout, ResponseHandlerPtr handler);
  Result<protocol::RemotingCommand> InvokeSync(protocol::RemotingCommand request,
                                               std::chrono::milliseconds timeout) override;
  void InvokeOneway(protocol::RemotingCommand request, WriteCallback on_written) override;
  void SendResponse(protocol::RemotingCommand response) override;
  // remoting::NoteSuspended for a request of this connection.
  void NoteSuspended(int32_t opaque, bool suspended);
  void Close() override;

  // Closes with a reason that is logged (at warn when `is_error`) and given to pending
  // requests. Any thread.
  void CloseWithReason(std::string reason, bool is_error);

  // RequestTracker: a request this connection dispatched left the processor. Any thread.
  void RequestFinished() override;

 private:
  struct OutgoingFrame {
    std::string head;  // prefix + header + owned body
    protocol::BodySegments segments;
    WriteCallback on_written;
    size_t Bytes() const { return head.size() + segments.TotalSize(); }
  };
  struct PendingRequest {
    int32_t code = 0;
    std::chrono::milliseconds timeout{0};
    std::chrono::milliseconds reported_timeout{0};
    // One of the two is set.
    ResponseCallback callback;
    ResponseHandlerPtr handler;
    // When the request times out; set by AddPending.
    std::chrono::steady_clock::time_point deadline;
    void Complete(Result<protocol::RemotingCommand> response);
  };

  // Encodes into a spare head when one is kept (any thread).
  OutgoingFrame MakeFrame(const protocol::RemotingCommand& command, WriteCallback on_written);
  // IO thread: keeps the heads of written frames for MakeFrame, within the bounds below.
  void KeepSpareHeads(std::vector<OutgoingFrame>* written);
  // spare_mu_ held: keeps `head` if the bounds allow; false when the list is full.
  bool KeepSpareHeadLocked(std::string* head);
  // Frees every kept head and takes them off the process-wide count.
  void ReleaseSpareHeads();
  int32_t NextOpaque();
  // Both InvokeAsyncWithin: encodes here, registers `pending` and queues on the IO thread.
  void SendTwoWay(protocol::RemotingCommand request, PendingRequest pending);

  // Where the connection is: deciding plain or TLS (permissive/enforcing server),
  // handshaking, or carrying frames.
  enum class Phase { kDetect, kHandshake, kOpen };
  using TlsStream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket&>;

  // IO-thread halves.
  // TLS set-up: look at the first byte (after WaitReadable); run the handshake.
  void OnFirstByte();
  void StartHandshake(boost::asio::ssl::stream_base::handshake_type type);
  // TLS data path: one async_read_some into tls_read_buffer_ at a time.
  void StartTlsRead();
  // Waits for the socket to become readable (only after a read found it drained), then
  // reads (or, in Phase::kDetect, looks at the first byte).
  void WaitReadable();
  // Reads what the socket has, up to a fairness budget, unless reading is paused.
  void ReadNow();
  // Feeds bytes (or input held by a pause) to the decoder; false when the connection closed.
  bool Decode(std::string_view bytes);
  // Whether reading must stop now (write high-water mark, requests in flight).
  bool ReadPaused();
  // Called when a pause reason went away.
  void MaybeResumeReading();
  void EndReadPause();
  Status OnFrame(std::string_view frame);
  void AnswerRefused(const protocol::RemotingCommand& request, const Status& why);
  void OnResponse(protocol::RemotingCommand response);
  void Enqueue(OutgoingFrame frame);
  // IO thread: queues the responses and requests other threads handed over (SendResponse,
  // SendTwoWay) and writes them in one go.
  void DrainHandoff();
  void DoWrite();
  // Plain sockets: sends write_buffers_ from write_next_ / write_skip_ with sendmsg calls of
  // up to kMaxIovecsPerSend buffers, waiting for room when the socket buffer is full.
  void ContinuePlainWrite();
  // The batch in writing_ went out (or failed): releases it and starts the next one.
  void FinishWrite(const boost::system::error_code& ec);
  // TLS: copies runs of small buffers into tls_write_staging_ (see kTlsCoalesceBelow).
  void CoalesceForTls(std::vector<boost::asio::const_buffer>* buffers);
  // Registers a request's answer (any thread); `pending` is untouched unless kAdded. With
  // `only_if_alone`, only when no other answer is awaited.
  enum class AddResult { kAdded, kNotAlone, kClosed };
  AddResult AddPending(int32_t opaque, PendingRequest& pending, bool only_if_alone);
  // A caller's thread writes a two-way request itself (handoff_mu_ held, io_writing_ false):
  // what the socket does not take at once is left for the IO thread (direct_remainder_).
  void WriteDirectLocked(OutgoingFrame frame);
  // IO thread, before it queues a frame while idle: marks the IO thread as the writer
  // (io_writing_) and puts a direct write's remainder first.
  void TakeWriterRole();
  // IO thread, when it has nothing left to write: gives the write side back to callers
  // (or writes a direct write's remainder that arrived meanwhile).
  void MaybeReleaseWriterRole();
  // Request deadlines: one timer per connection (request_timer_), not one per request. Any
  // thread: moves the wanted expiry earlier (pending_mu_ held); true when the IO thread must
  // re-arm.
  bool WantRequestTimerLocked(std::chrono::steady_clock::time_point deadline);
  // IO thread: arms request_timer_ for request_timer_at_ (or cancels it).
  void SyncRequestTimer();
  // IO thread: fails the requests past their deadline and re-arms for the next one.
  void OnRequestTimer();
  // Write high-water mark: stop reading (on enqueue), resume (on a finished write).
  void MaybePauseForWrites();
  void MaybeResumeForWrites();
  // The housekeeping timer: idle, frame deadline, write stall.
  void ArmTimer(std::chrono::steady_clock::time_point at);
  void OnTimer();
  std::chrono::steady_clock::time_point NextDeadline() const;
  void DoClose(const std::string& reason, bool is_error);
  bool OnIoThread() const;

  // Declared first so it is destroyed last: the socket and timers need it.
  std::shared_ptr<boost::asio::io_context> context_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer timer_;
  const ConnectionOptions options_;
  std::shared_ptr<const RequestDispatcher> dispatcher_;
  const uint64_t id_;
  std::string remote_address_;
  std::string local_address_;
  std::atomic<bool> closed_{false};
  std::atomic<int32_t> next_opaque_{0};
  // Requests dispatched and not finished, and whether reading waits for that to drop.
  std::atomic<uint32_t> in_flight_{0};
  std::atomic<bool> in_flight_paused_{false};

  // TLS: null on plain connections. On the IO thread only.
  std::unique_ptr<TlsStream> tls_;
  std::unique_ptr<char[]> tls_read_buffer_;  // allocated once the handshake is done
  std::string tls_write_staging_;            // small pieces of a batch, coalesced
  bool tls_reading_ = false;                 // an async_read_some is outstanding
  Phase phase_ = Phase::kOpen;
  std::chrono::steady_clock::time_point handshake_deadline_;

  // IO thread only.
  FrameDecoder decoder_;
  bool waiting_readable_ = false;  // an async_wait is outstanding
  // Frames waiting for a write, oldest first: a vector read from a moving head, because a
  // deque allocates and frees a block every few frames as a steady stream cycles through.
  class FrameQueue {
   public:
    bool empty() const { return head_ == frames_.size(); }
    OutgoingFrame& front() { return frames_[head_]; }
    void push_back(OutgoingFrame frame) { frames_.push_back(std::move(frame)); }
    void push_front(OutgoingFrame frame);
    void pop_front();
    // Empties the queue; the frames, oldest first.
    std::vector<OutgoingFrame> TakeAll();

   private:
    std::vector<OutgoingFrame> frames_;
    size_t head_ = 0;
  };
  FrameQueue write_queue_;
  std::vector<OutgoingFrame> writing_;  // the batch being sent
  // The buffers of that batch, kept between writes (no allocation per write); TLS gives them
  // to async_write as a span, so that asio's copy of the sequence is not a vector either.
  std::vector<boost::asio::const_buffer> write_buffers_;
  size_t write_next_ = 0;  // plain sockets: the first buffer of write_buffers_ not fully sent
  size_t write_skip_ = 0;  // and how much of it went out already
  bool write_in_progress_ = false;
  bool in_read_cycle_ = false;  // frames of one read are being handled: defer the write
  size_t queued_bytes_ = 0;  // in write_queue_ and writing_
  bool write_paused_ = false;
  std::chrono::steady_clock::time_point write_progress_;  // last finished write while paused
  // Requests waiting for their answer. Written by the IO thread and, for a direct write, by
  // the caller's thread; read by the IO thread.
  std::mutex pending_mu_;
  std::unordered_map<int32_t, PendingRequest> pending_;  // guarded by pending_mu_
  bool pending_closed_ = false;                          // guarded by pending_mu_
  // Nodes of answered requests, kept for the next requests (a client's connections only,
  // options_.reuse_frame_heads): the node would be allocated on the caller's thread and
  // freed on the IO thread, once per request. At most kMaxSparePending.
  std::vector<std::unordered_map<int32_t, PendingRequest>::node_type> spare_pending_;
  // The requests' deadlines share one timer. An asio timer per request cost an allocation,
  // a wait handler made on the caller's thread and freed on the IO thread, a cancel and its
  // completion, and timer queue updates, per request. The timer is armed for the earliest
  // deadline and left armed when answers arrive: a new request's deadline is almost always
  // later than the armed one (equal timeouts), so adding one needs no post to the IO thread.
  // When it fires, the table is scanned (at most once per kRequestTimerSlack).
  boost::asio::steady_timer request_timer_;
  // Guarded by pending_mu_: when request_timer_ should fire (max: not needed).
  std::chrono::steady_clock::time_point request_timer_at_ =
      std::chrono::steady_clock::time_point::max();
  // IO thread: what request_timer_ is armed for (max: not armed).
  std::chrono::steady_clock::time_point request_timer_armed_ =
      std::chrono::steady_clock::time_point::max();
  // With a ResponseObserver: code, arrival and long-polling mark of each two-way request
  // by opaque, until its response is sent (any thread).
  struct ObservedRequest {
    int32_t code = 0;
    std::chrono::steady_clock::time_point arrived;
    bool suspended = false;
  };
  // Responses finished off the IO thread (the group commit completes a dozen sends at once,
  // a pull pool thread answers a pull): queued here and handed over with one post per batch,
  // not one post (a handler allocated on one thread, freed on the other, and a wake-up) each.
  // They are encoded by the IO thread, not by the thread that finished them: the group
  // commit's next fdatasync does not wait for a dozen encodes, and the frame heads and JSON
  // texts are taken and given back on one thread (the IO thread's kept ones).
  struct HandedResponse {
    protocol::RemotingCommand response;
    WriteCallback on_written;
  };
  std::mutex handoff_mu_;
  std::vector<HandedResponse> handoff_;  // guarded by handoff_mu_
  // Two-way requests from other threads (SendTwoWay), handed over the same way: the
  // producer's sending thread would otherwise post (allocate a handler, maybe wake the IO
  // thread) once per send.
  struct OutgoingRequest {
    int32_t opaque = 0;
    PendingRequest pending;
    OutgoingFrame frame;
  };
  std::vector<OutgoingRequest> request_handoff_;        // guarded by handoff_mu_
  std::vector<OutgoingRequest> request_handoff_spare_;  // IO thread: kept for reuse
  // Direct writes (plain connections): a thread that sends a two-way request while no other
  // is awaited, the IO thread has nothing to write and nothing is handed over writes the
  // frame to the socket itself (non-blocking), which spares the IO thread a wake-up; a sync
  // call then costs one wake-up of the IO thread (its answer) instead of two. Guarded by
  // handoff_mu_: whether the IO thread owns the socket's write side (frames queued or a
  // write in flight), the rest of a frame the socket did not take at once (written by the IO
  // thread before anything else), and whether the socket was closed.
  const bool direct_writes_;
  bool io_writing_ = false;
  std::optional<OutgoingFrame> direct_remainder_;
  bool socket_closed_ = false;
  bool handoff_posted_ = false;         // guarded by handoff_mu_: a DrainHandoff is on its way
  std::vector<HandedResponse> handoff_spare_;  // IO thread: the drained vector, kept for reuse
  // Heads of written frames, kept with their capacity for the next frames. A frame is often
  // encoded on another thread than the IO thread that writes and frees it (the producer's
  // sending thread, the group commit), and glibc serves memory freed across threads through
  // its arena lock; reusing the head avoids both. Only with options_.reuse_frame_heads;
  // bounded per connection (kMaxSpareHeads of at most kMaxSpareHeadCapacity bytes, and
  // kMaxSpareHeadBytesPerConnection in all) and per process (kMaxSpareHeadBytes).
  std::mutex spare_mu_;
  std::vector<std::string> spare_heads_;  // guarded by spare_mu_
  size_t spare_head_bytes_ = 0;           // guarded by spare_mu_: their capacity
  std::mutex observed_mu_;
  std::unordered_map<int32_t, ObservedRequest> observed_;  // guarded by observed_mu_
  std::chrono::steady_clock::time_point last_activity_;
  std::chrono::steady_clock::time_point frame_started_;
  std::chrono::steady_clock::time_point read_paused_at_;
  bool read_paused_ = false;
  std::chrono::steady_clock::time_point timer_at_ = std::chrono::steady_clock::time_point::max();
  bool closed_on_io_ = false;
};

}  // namespace apogee::remoting
