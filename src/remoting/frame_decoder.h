// FrameDecoder: splits a TCP byte stream into remoting frames (docs/protocol/remoting.md
// §2.1), like Netty's LengthFieldBasedFrameDecoder in RocketMQ's NettyDecoder.
//
// Incremental: Feed() takes chunks of any size (one byte at a time works) and keeps a
// partial frame between calls. Bounded: a frame's length L is checked against the limit
// before anything is allocated for it, and the decoder never holds more than one frame
// (at most max_frame_length bytes), and memory grows with the bytes received, not with
// the length a peer announces. It also rejects, as soon as the 8 prefix bytes are
// in, a frame too short for its header word and a header length past the frame end,
// so a bad peer is dropped before its body is buffered.
//
// Two more bounds, both optional: a header length over `max_header_length` is refused
// from the prefix (before the header is buffered), and the buffer's capacity is charged
// to a ByteBudget shared by every connection of a server, so partial frames of all
// connections together stay under a limit (a buffer may always grow to 64 KiB; past
// that, growth that does not fit the budget fails the decoder with Busy).
//
// A callback may ask to pause (RequestPause): Feed() returns after that frame and keeps
// the rest of its input (at most one read's worth) until the next Feed(), which decodes
// it first. That lets a connection stop handing out requests mid-read when its peer
// stops reading responses.
//
// After an error the decoder stays failed (the connection must be closed).
// Thread-safety: none; one decoder per connection, used by its IO thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "remoting/byte_budget.h"

namespace apogee::remoting {

// Netty's maxFrameLength default in RocketMQ (com.rocketmq.remoting.frameMaxLength).
inline constexpr uint32_t kDefaultMaxFrameLength = 16 * 1024 * 1024;

class FrameDecoder {
 public:
  // Receives each complete frame without its 4-byte length prefix, i.e. exactly the
  // bytes protocol::DecodeCommand expects. The view is valid only during the call.
  // A non-OK return stops decoding and is returned from Feed().
  using FrameCallback = std::function<Status(std::string_view frame)>;

  // `max_frame_length` counts the 4 length bytes, as Netty does: the largest accepted
  // L is max_frame_length - 4.
  // `max_header_length` 0 = only the frame bound; `budget` may be null (not counted)
  // and must outlive the decoder.
  explicit FrameDecoder(uint32_t max_frame_length = kDefaultMaxFrameLength,
                        uint32_t max_header_length = 0, ByteBudget* budget = nullptr);
  ~FrameDecoder();
  FrameDecoder(const FrameDecoder&) = delete;
  FrameDecoder& operator=(const FrameDecoder&) = delete;

  // Consumes all of `data`, calling `on_frame` for each frame completed. Returns
  // Corruption naming the problem (length over the limit, frame shorter than its header
  // word, header length past the frame end or over the header limit), Busy
  // naming the budget when the partial frame cannot grow, or the callback's error.
  Status Feed(std::string_view data, const FrameCallback& on_frame);

  // Bytes held for the frame in progress (for tests and metrics).
  size_t buffered() const { return buffer_.size(); }
  // True while a frame has started but not completed.
  bool in_frame() const { return !buffer_.empty(); }
  // From inside a FrameCallback: stop after this frame; the rest of the input is kept.
  void RequestPause() { pause_requested_ = true; }
  // Frees everything held (the connection closed; the decoder may outlive it) and fails
  // later Feed() calls.
  void Discard() { (void)Fail(Status::Aborted("decoder discarded")); }
  // Input kept by a pause, decoded by the next Feed() (which may be given nothing).
  bool has_held_input() const { return !held_input_.empty(); }
  // Frames handed to callbacks so far (tells a caller whether a new frame began).
  uint64_t frames_decoded() const { return frames_decoded_; }
  size_t buffer_capacity() const { return buffer_.capacity(); }
  bool failed() const { return !error_.ok(); }
  uint32_t max_frame_length() const { return max_frame_length_; }

 private:
  Status FeedInput(std::string_view data, const FrameCallback& on_frame);
  // Validates the 8-byte prefix (L and the header word) of a frame.
  Status CheckPrefix(std::string_view prefix) const;
  Status Fail(Status status);
  // Appends bytes of a frame of `frame_size` bytes, never reserving past that size.
  Status Append(std::string_view bytes, size_t frame_size);
  // Frees the buffer and returns its bytes to the budget.
  void ReleaseBuffer();

  uint32_t max_frame_length_;
  uint32_t max_header_length_;
  ByteBudget* budget_;
  // Bytes taken from budget_ (the buffer's capacity when it was last grown).
  size_t charged_ = 0;
  uint64_t frames_decoded_ = 0;
  bool pause_requested_ = false;
  std::string held_input_;
  // The partial frame, prefix included; its capacity never exceeds the frame's size.
  std::string buffer_;
  Status error_;
};

}  // namespace apogee::remoting
