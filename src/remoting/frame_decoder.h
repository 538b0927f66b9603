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
// After an error the decoder stays failed (the connection must be closed).
// Thread-safety: none; one decoder per connection, used by its IO thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"

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
  explicit FrameDecoder(uint32_t max_frame_length = kDefaultMaxFrameLength);

  // Consumes all of `data`, calling `on_frame` for each frame completed. Returns
  // Corruption naming the problem (length over the limit, frame shorter than its header
  // word, header length past the frame end) or the callback's error.
  Status Feed(std::string_view data, const FrameCallback& on_frame);

  // Bytes held for the frame in progress (for tests and metrics).
  size_t buffered() const { return buffer_.size(); }
  size_t buffer_capacity() const { return buffer_.capacity(); }
  bool failed() const { return !error_.ok(); }
  uint32_t max_frame_length() const { return max_frame_length_; }

 private:
  // Validates the 8-byte prefix (L and the header word) of a frame.
  Status CheckPrefix(std::string_view prefix) const;
  Status Fail(Status status);
  // Appends bytes of a frame of `frame_size` bytes, never reserving past that size.
  void Append(std::string_view bytes, size_t frame_size);

  uint32_t max_frame_length_;
  // The partial frame, prefix included; its capacity never exceeds the frame's size.
  std::string buffer_;
  Status error_;
};

}  // namespace apogee::remoting
