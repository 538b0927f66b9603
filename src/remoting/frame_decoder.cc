#include "remoting/frame_decoder.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/coding.h"
#include "protocol/remoting_format.h"

namespace apogee::remoting {

namespace {
using protocol::kFrameLengthFieldSize;
using protocol::kHeaderLengthMask;
using protocol::kHeaderWordSize;
constexpr size_t kPrefixSize = kFrameLengthFieldSize + kHeaderWordSize;
// A buffer grown past this for one big frame is released once the frame is out.
constexpr size_t kSmallBufferCapacity = 64 * 1024;

uint32_t ReadU32(const char* p) { return DecodeFixed32(reinterpret_cast<const uint8_t*>(p)); }
}  // namespace

FrameDecoder::FrameDecoder(uint32_t max_frame_length, uint32_t max_header_length,
                           ByteBudget* budget)
    : max_frame_length_(std::max<uint32_t>(max_frame_length, kPrefixSize)),
      max_header_length_(max_header_length),
      budget_(budget) {}

FrameDecoder::~FrameDecoder() { ReleaseBuffer(); }

void FrameDecoder::ReleaseBuffer() {
  std::string().swap(buffer_);
  if (budget_ != nullptr && charged_ != 0) budget_->Release(charged_);
  charged_ = 0;
}

Status FrameDecoder::Fail(Status status) {
  error_ = status;
  ReleaseBuffer();
  std::string().swap(held_input_);
  return status;
}

Status FrameDecoder::CheckPrefix(std::string_view prefix) const {
  // L is unsigned on the wire as far as Netty is concerned; compare in 64 bits.
  uint64_t length = ReadU32(prefix.data());
  if (length + kFrameLengthFieldSize > max_frame_length_) {
    return Status::Corruption(fmt::format("frame length {} exceeds the limit of {} bytes", length,
                                          max_frame_length_ - kFrameLengthFieldSize));
  }
  if (length < kHeaderWordSize) {
    return Status::Corruption(
        fmt::format("frame length {} is shorter than the 4-byte header length word", length));
  }
  uint32_t header_length = ReadU32(prefix.data() + kFrameLengthFieldSize) & kHeaderLengthMask;
  if (header_length > length - kHeaderWordSize) {
    return Status::Corruption(fmt::format("bad header length {}: past the end of a {}-byte frame",
                                          header_length, length));
  }
  if (max_header_length_ != 0 && header_length > max_header_length_) {
    return Status::Corruption(fmt::format("header of {} bytes exceeds the limit of {} bytes",
                                          header_length, max_header_length_));
  }
  return Status::OK();
}

Status FrameDecoder::Append(std::string_view bytes, size_t frame_size) {
  // Grow with the bytes that actually arrived (doubling, capped at the frame size)
  // rather than reserving the announced size up front: 8 bytes from a peer must not
  // buy it a 16 MiB allocation.
  size_t needed = buffer_.size() + bytes.size();
  if (needed > buffer_.capacity()) {
    size_t target = std::min(frame_size, std::max({needed, 2 * buffer_.capacity(), size_t{256}}));
    if (budget_ != nullptr && target > charged_) {
      const size_t more = target - charged_;
      if (target <= kSmallBufferCapacity) {
        budget_->Acquire(more);
      } else if (!budget_->TryAcquire(more)) {
        return Status::Busy(fmt::format(
            "a frame of {} bytes cannot be buffered: partial frames of all connections hold {} "
            "bytes, the limit is {} bytes (serverPartialFramesMaxBytes)",
            frame_size, budget_->used(), budget_->limit()));
      }
      charged_ = target;
    }
    // A fresh string: reserve() on a non-empty one may round up to twice the old
    // capacity, past the frame size.
    std::string grown;
    grown.reserve(target);
    grown.append(buffer_);
    buffer_.swap(grown);
    if (budget_ != nullptr) budget_->NoteFreed(grown.capacity());
  }
  buffer_.append(bytes);
  return Status::OK();
}

Status FrameDecoder::Feed(std::string_view data, const FrameCallback& on_frame) {
  if (!error_.ok()) return error_;
  pause_requested_ = false;
  if (held_input_.empty()) return FeedInput(data, on_frame);
  // Input kept by a pause comes first; FeedInput may keep part of it again.
  std::string input = std::move(held_input_);
  held_input_.clear();
  input.append(data);
  return FeedInput(input, on_frame);
}

Status FrameDecoder::FeedInput(std::string_view data, const FrameCallback& on_frame) {
  // After each frame: stop here when the callback asked to, keeping the rest.
  auto paused = [this](std::string_view rest) {
    if (!pause_requested_) return false;
    held_input_.assign(rest);
    return true;
  };
  while (!data.empty()) {
    if (buffer_.empty() && data.size() >= kPrefixSize) {
      // Fast path: frames that arrive whole are handed out straight from `data`.
      Status prefix = CheckPrefix(data);
      if (!prefix.ok()) return Fail(std::move(prefix));
      size_t frame_size = kFrameLengthFieldSize + ReadU32(data.data());
      if (data.size() >= frame_size) {
        ++frames_decoded_;
        Status st = on_frame(data.substr(kFrameLengthFieldSize, frame_size - kFrameLengthFieldSize));
        if (!st.ok()) return Fail(std::move(st));
        data.remove_prefix(frame_size);
        if (paused(data)) return Status::OK();
        continue;
      }
      Status appended = Append(data, frame_size);
      if (!appended.ok()) return Fail(std::move(appended));
      return Status::OK();
    }
    // Slow path: complete the prefix first, then the rest of the frame.
    if (buffer_.size() < kPrefixSize) {
      size_t take = std::min(kPrefixSize - buffer_.size(), data.size());
      buffer_.append(data.substr(0, take));
      data.remove_prefix(take);
      if (buffer_.size() < kPrefixSize) return Status::OK();
      Status prefix = CheckPrefix(buffer_);
      if (!prefix.ok()) return Fail(std::move(prefix));
    }
    size_t frame_size = kFrameLengthFieldSize + ReadU32(buffer_.data());
    size_t take = std::min(frame_size - buffer_.size(), data.size());
    Status appended = Append(data.substr(0, take), frame_size);
    if (!appended.ok()) return Fail(std::move(appended));
    data.remove_prefix(take);
    if (buffer_.size() < frame_size) return Status::OK();
    ++frames_decoded_;
    Status st = on_frame(std::string_view(buffer_).substr(kFrameLengthFieldSize));
    if (!st.ok()) return Fail(std::move(st));
    buffer_.clear();
    if (buffer_.capacity() > kSmallBufferCapacity) {
      // Give a big frame's memory back rather than hold it for the connection's life.
      ReleaseBuffer();
    }
    if (paused(data)) return Status::OK();
  }
  return Status::OK();
}

}  // namespace apogee::remoting
