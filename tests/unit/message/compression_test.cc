#include "message/compression.h"

#include <gtest/gtest.h>

namespace apogee::message {
namespace {

TEST(CompressionTest, RoundTripsZlib) {
  const std::string body(10000, 'a');
  auto packed = CompressBody(body);
  ASSERT_TRUE(packed.ok());
  EXPECT_LT(packed->size(), body.size());
  EXPECT_EQ(static_cast<uint8_t>((*packed)[0]), 0x78);  // zlib wrapper, as Java's Deflater
  const int32_t flag = MarkZlibCompressed(0);
  EXPECT_EQ(flag, kCompressedFlag | kCompressionZlib);
  auto unpacked = DecompressBody(*packed, flag);
  ASSERT_TRUE(unpacked.ok());
  EXPECT_EQ(*unpacked, body);
  // Pre-4.9.4 clients set only bit 0: still zlib.
  EXPECT_EQ(*DecompressBody(*packed, kCompressedFlag), body);
}

TEST(CompressionTest, TypeBits) {
  EXPECT_EQ(CompressionTypeFromSysFlag(kCompressedFlag), CompressionType::kZlib);
  EXPECT_EQ(CompressionTypeFromSysFlag(kCompressedFlag | kCompressionZlib), CompressionType::kZlib);
  EXPECT_EQ(CompressionTypeFromSysFlag(kCompressedFlag | kCompressionLz4), CompressionType::kLz4);
  EXPECT_EQ(CompressionTypeFromSysFlag(kCompressedFlag | kCompressionZstd), CompressionType::kZstd);
  EXPECT_EQ(MarkZlibCompressed(kCompressionLz4 | kMultiTagsFlag),
            kCompressedFlag | kCompressionZlib | kMultiTagsFlag);
}

TEST(CompressionTest, Errors) {
  auto packed = *CompressBody("hello hello hello");
  EXPECT_TRUE(DecompressBody(packed, 0).status().Is(StatusCode::kInvalidArgument));
  auto lz4 = DecompressBody(packed, kCompressedFlag | kCompressionLz4);
  EXPECT_TRUE(lz4.status().Is(StatusCode::kNotSupported));
  EXPECT_NE(lz4.status().message().find("LZ4"), std::string::npos);
  EXPECT_TRUE(DecompressBody("not zlib at all", kCompressedFlag).status().IsCorruption());
  EXPECT_TRUE(
      DecompressBody(packed.substr(0, packed.size() - 3), kCompressedFlag).status().IsCorruption());
  const std::string big(100000, 'z');
  auto bomb = DecompressBody(*CompressBody(big), kCompressedFlag, 1000);
  EXPECT_TRUE(bomb.status().IsCorruption());
  EXPECT_TRUE(CompressBody("x", 12).status().Is(StatusCode::kInvalidArgument));
  EXPECT_EQ(*DecompressBody(*CompressBody(""), kCompressedFlag), "");
}

}  // namespace
}  // namespace apogee::message
