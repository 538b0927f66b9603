// libFuzzer target for remoting::FrameDecoder (and, for each frame it yields,
// protocol::DecodeCommand). Input: byte 0 picks the chunk size, the rest is the stream.
// Checks, besides the sanitizers: the decoder never buffers more than one max frame,
// every frame it yields has a header length inside the frame, and feeding in chunks
// yields exactly the frames and the error of feeding everything at once.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "base/coding.h"
#include "protocol/remoting_command.h"
#include "remoting/frame_decoder.h"

namespace {

constexpr uint32_t kMaxFrame = 4096;

struct Outcome {
  std::vector<std::string> frames;
  bool failed = false;
};

Outcome Decode(std::string_view stream, size_t chunk) {
  apogee::remoting::FrameDecoder decoder(kMaxFrame);
  Outcome out;
  auto on_frame = [&](std::string_view frame) {
    if (frame.size() < 4) std::abort();
    uint32_t header_length = apogee::DecodeFixed32(reinterpret_cast<const uint8_t*>(frame.data())) & 0xFFFFFF;
    if (header_length > frame.size() - 4) std::abort();
    out.frames.emplace_back(frame);
    auto command = apogee::protocol::DecodeCommand(frame);
    (void)command.ok();
    return apogee::Status::OK();
  };
  for (size_t pos = 0; pos < stream.size(); pos += chunk) {
    apogee::Status st = decoder.Feed(stream.substr(pos, chunk), on_frame);
    if (decoder.buffered() > kMaxFrame) std::abort();
    if (!st.ok()) {
      out.failed = true;
      break;
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t chunk = 1 + data[0] % 64;
  std::string_view stream(reinterpret_cast<const char*>(data + 1), size - 1);
  Outcome chunked = Decode(stream, chunk);
  Outcome whole = Decode(stream, stream.size() + 1);
  if (chunked.failed != whole.failed || chunked.frames != whole.frames) std::abort();
  return 0;
}
