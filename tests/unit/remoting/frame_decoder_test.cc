#include "remoting/frame_decoder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/coding.h"

namespace apogee::remoting {
namespace {

// A frame with the given header and body bytes (serialize type 0).
std::string Frame(std::string_view header, std::string_view body, uint8_t type = 0) {
  std::string out(8, '\0');
  EncodeFixed32(reinterpret_cast<uint8_t*>(out.data()),
                static_cast<uint32_t>(4 + header.size() + body.size()));
  EncodeFixed32(reinterpret_cast<uint8_t*>(out.data() + 4),
                (uint32_t{type} << 24) | static_cast<uint32_t>(header.size()));
  out.append(header);
  out.append(body);
  return out;
}

std::string Prefix(uint32_t length, uint32_t header_word) {
  std::string out(8, '\0');
  EncodeFixed32(reinterpret_cast<uint8_t*>(out.data()), length);
  EncodeFixed32(reinterpret_cast<uint8_t*>(out.data() + 4), header_word);
  return out;
}

struct Collector {
  std::vector<std::string> frames;
  FrameDecoder::FrameCallback callback() {
    return [this](std::string_view f) {
      frames.emplace_back(f);
      return Status::OK();
    };
  }
};

TEST(FrameDecoderTest, WholeFramesInOneChunk) {
  FrameDecoder decoder;
  Collector c;
  std::string stream = Frame("{\"code\":1}", "body") + Frame("{}", "") + Frame("h", "b", 1);
  ASSERT_TRUE(decoder.Feed(stream, c.callback()).ok());
  ASSERT_EQ(c.frames.size(), 3u);
  EXPECT_EQ(c.frames[0], Frame("{\"code\":1}", "body").substr(4));
  EXPECT_EQ(c.frames[1], Frame("{}", "").substr(4));
  EXPECT_EQ(c.frames[2], Frame("h", "b", 1).substr(4));
  EXPECT_EQ(decoder.buffered(), 0u);
}

TEST(FrameDecoderTest, ByteAtATime) {
  FrameDecoder decoder;
  Collector c;
  std::string stream = Frame("{\"code\":105}", std::string(300, 'x')) + Frame("{}", "z");
  for (char ch : stream) {
    ASSERT_TRUE(decoder.Feed(std::string_view(&ch, 1), c.callback()).ok());
  }
  ASSERT_EQ(c.frames.size(), 2u);
  EXPECT_EQ(c.frames[0], Frame("{\"code\":105}", std::string(300, 'x')).substr(4));
  EXPECT_EQ(c.frames[1], Frame("{}", "z").substr(4));
  EXPECT_EQ(decoder.buffered(), 0u);
}

TEST(FrameDecoderTest, ChunksSplittingFramesAnywhere) {
  std::string stream;
  for (int i = 0; i < 20; ++i) stream += Frame(std::string(i, 'h'), std::string(i * 7, 'b'));
  for (size_t chunk = 1; chunk < 40; ++chunk) {
    FrameDecoder decoder;
    Collector c;
    for (size_t pos = 0; pos < stream.size(); pos += chunk) {
      ASSERT_TRUE(decoder.Feed(std::string_view(stream).substr(pos, chunk), c.callback()).ok());
    }
    ASSERT_EQ(c.frames.size(), 20u) << "chunk " << chunk;
    EXPECT_EQ(c.frames[19], Frame(std::string(19, 'h'), std::string(133, 'b')).substr(4));
  }
}

TEST(FrameDecoderTest, LargestFrameAcceptedOneMoreRejected) {
  // max 64: L may be at most 60 (Netty counts the 4 length bytes).
  {
    FrameDecoder decoder(64);
    Collector c;
    ASSERT_TRUE(decoder.Feed(Frame("", std::string(56, 'b')), c.callback()).ok());
    EXPECT_EQ(c.frames.size(), 1u);
  }
  {
    FrameDecoder decoder(64);
    Collector c;
    Status st = decoder.Feed(Frame("", std::string(57, 'b')), c.callback());
    ASSERT_TRUE(st.IsCorruption());
    EXPECT_NE(st.message().find("frame length 61 exceeds the limit of 60 bytes"), std::string::npos)
        << st.ToString();
    EXPECT_TRUE(c.frames.empty());
  }
}

TEST(FrameDecoderTest, OverLimitRejectedBeforeBuffering) {
  FrameDecoder decoder;  // 16 MiB
  Collector c;
  // Only the prefix of a 2 GiB frame arrives: rejected at once, nothing buffered.
  Status st = decoder.Feed(Prefix(0x7FFFFFFF, 10), c.callback());
  ASSERT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("2147483647"), std::string::npos);
  EXPECT_EQ(decoder.buffered(), 0u);
  EXPECT_TRUE(decoder.failed());
  // Stays failed.
  EXPECT_FALSE(decoder.Feed(Frame("{}", ""), c.callback()).ok());
  EXPECT_TRUE(c.frames.empty());
}

TEST(FrameDecoderTest, UnsignedLengthOverLimit) {
  FrameDecoder decoder;
  Collector c;
  // 0xFFFFFFFF would be -1 as an int32; Netty reads it unsigned and rejects it as too long.
  std::string prefix = Prefix(0xFFFFFFFF, 0);
  // Byte-at-a-time path.
  Status st;
  for (char ch : prefix) {
    st = decoder.Feed(std::string_view(&ch, 1), c.callback());
    if (!st.ok()) break;
  }
  ASSERT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("exceeds the limit"), std::string::npos);
}

TEST(FrameDecoderTest, HeaderLengthPastFrameEnd) {
  FrameDecoder decoder;
  Collector c;
  // L = 10 leaves 6 bytes for header and body; header length 7 cannot fit.
  Status st = decoder.Feed(Prefix(10, 7) + "abcdef", c.callback());
  ASSERT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("bad header length 7"), std::string::npos) << st.ToString();
  // Serialize type byte is not part of the length: type 1, header length 6 is fine.
  FrameDecoder ok_decoder;
  ASSERT_TRUE(ok_decoder.Feed(Prefix(10, (1u << 24) | 6) + "abcdef", c.callback()).ok());
  EXPECT_EQ(c.frames.size(), 1u);
}

TEST(FrameDecoderTest, FrameShorterThanHeaderWord) {
  FrameDecoder decoder;
  Collector c;
  Status st = decoder.Feed(Prefix(3, 0), c.callback());
  ASSERT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("shorter than the 4-byte header length word"), std::string::npos);
}

TEST(FrameDecoderTest, GarbageIsRejected) {
  FrameDecoder decoder;
  Collector c;
  // An HTTP request read as a frame: "GET " is a length of ~1.2 GB.
  Status st = decoder.Feed("GET / HTTP/1.1\r\nHost: x\r\n\r\n", c.callback());
  ASSERT_TRUE(st.IsCorruption());
  EXPECT_TRUE(c.frames.empty());
}

TEST(FrameDecoderTest, BuffersAtMostOneFrame) {
  FrameDecoder decoder(1024);
  Collector c;
  std::string frame = Frame("{}", std::string(1000, 'b'));
  ASSERT_TRUE(decoder.Feed(std::string_view(frame).substr(0, 500), c.callback()).ok());
  EXPECT_EQ(decoder.buffered(), 500u);
  ASSERT_TRUE(decoder.Feed(std::string_view(frame).substr(500), c.callback()).ok());
  EXPECT_EQ(decoder.buffered(), 0u);
  EXPECT_EQ(c.frames.size(), 1u);
}

TEST(FrameDecoderTest, AnnouncedLengthDoesNotBuyMemory) {
  FrameDecoder decoder;  // 16 MiB
  Collector c;
  // A legal 16 MiB frame announced, 100 bytes sent: memory follows the bytes.
  std::string start = Prefix(16 * 1024 * 1024 - 4, 2) + std::string(92, 'h');
  ASSERT_TRUE(decoder.Feed(start, c.callback()).ok());
  EXPECT_EQ(decoder.buffered(), 100u);
  EXPECT_LT(decoder.buffer_capacity(), 4096u);
  // Growth is capped at the frame size.
  FrameDecoder small(1024);
  std::string frame = Frame("{}", std::string(990, 'b'));
  for (size_t pos = 0; pos + 1 < frame.size(); pos += 100) {
    ASSERT_TRUE(small.Feed(std::string_view(frame).substr(pos, std::min<size_t>(100, frame.size() - 1 - pos)),
                           c.callback()).ok());
    EXPECT_LE(small.buffer_capacity(), std::max<size_t>(frame.size(), 256));
  }
}

TEST(FrameDecoderTest, CallbackErrorStopsDecoding) {
  FrameDecoder decoder;
  int calls = 0;
  Status st = decoder.Feed(Frame("a", "") + Frame("b", ""), [&](std::string_view) {
    ++calls;
    return Status::Corruption("unparsable header");
  });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_EQ(st.message(), "unparsable header");
  EXPECT_TRUE(decoder.failed());
}

TEST(FrameDecoderTest, PauseKeepsTheRestForTheNextFeed) {
  FrameDecoder decoder;
  std::vector<std::string> frames;
  bool pause = true;
  auto callback = [&](std::string_view f) {
    frames.emplace_back(f);
    if (pause) decoder.RequestPause();
    return Status::OK();
  };
  std::string a = Frame("{}", "a"), b = Frame("{}", "bb"), c = Frame("{}", "ccc");
  std::string stream = a + b + c.substr(0, 5);
  ASSERT_TRUE(decoder.Feed(stream, callback).ok());
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_TRUE(decoder.has_held_input());
  EXPECT_FALSE(decoder.in_frame());
  ASSERT_TRUE(decoder.Feed({}, callback).ok());  // held input only: b, then pause again
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1], b.substr(4));
  pause = false;
  ASSERT_TRUE(decoder.Feed(c.substr(5), callback).ok());  // held c head + its tail
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[2], c.substr(4));
  EXPECT_FALSE(decoder.has_held_input());
  EXPECT_EQ(decoder.frames_decoded(), 3u);
}

TEST(FrameDecoderTest, HeaderLimitRejectsFromThePrefix) {
  FrameDecoder decoder(kDefaultMaxFrameLength, /*max_header_length=*/16);
  Collector c;
  ASSERT_TRUE(decoder.Feed(Frame(std::string(16, 'h'), "b"), c.callback()).ok());
  Status st = decoder.Feed(Prefix(4 + 17 + 100, 17), c.callback());  // only the prefix sent
  EXPECT_TRUE(st.Is(StatusCode::kCorruption));
  EXPECT_NE(st.message().find("limit of 16 bytes"), std::string::npos) << st.message();
}

TEST(FrameDecoderTest, BudgetBoundsPartialFramesAcrossDecoders) {
  ByteBudget budget(512 * 1024);
  Collector c;
  std::string head = Prefix(4 + 2 + (4 << 20), 2) + "{}";
  {
    FrameDecoder first(kDefaultMaxFrameLength, 0, &budget);
    ASSERT_TRUE(first.Feed(head + std::string(300 * 1024, 'x'), c.callback()).ok());
    EXPECT_GE(budget.used(), 300u * 1024);
    FrameDecoder second(kDefaultMaxFrameLength, 0, &budget);
    // Up to 64 KiB always fits; past it the shared budget decides.
    ASSERT_TRUE(second.Feed(head + std::string(1000, 'x'), c.callback()).ok());
    Status st = second.Feed(std::string(300 * 1024, 'x'), c.callback());
    EXPECT_TRUE(st.Is(StatusCode::kBusy)) << st.ToString();
    EXPECT_TRUE(second.failed());
    EXPECT_LE(budget.used(), 512u * 1024);
  }
  EXPECT_EQ(budget.used(), 0u);  // destruction gives everything back
}

}  // namespace
}  // namespace apogee::remoting
