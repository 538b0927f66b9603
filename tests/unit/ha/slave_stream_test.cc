#include "ha/slave_stream.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "ha/ha_format.h"
#include "ha_test_util.h"

namespace apogee::ha {
namespace {

using testing::kFileSize;
using testing::MemLog;

std::string Frame(int64_t offset, std::string_view body) {
  uint8_t header[kTransferHeaderSize];
  EncodeTransferHeader(TransferHeader{offset, static_cast<int32_t>(body.size())}, header);
  return std::string(reinterpret_cast<const char*>(header), kTransferHeaderSize) +
         std::string(body);
}

Result<size_t> Feed(SlaveStream* stream, std::string_view bytes) {
  return stream->Consume(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

TEST(SlaveStreamTest, AppliesCompleteFramesAndLeavesAPartialOne) {
  MemLog log;
  SlaveStream stream(&log, "m:1", 0, 0, kFileSize);
  const std::string bytes = Frame(0, "hello") + Frame(5, "") + Frame(5, "world");
  // Everything but the last byte: two frames applied, the third waits.
  Result<size_t> used = Feed(&stream, std::string_view(bytes).substr(0, bytes.size() - 1));
  ASSERT_TRUE(used.ok()) << used.status().ToString();
  EXPECT_EQ(*used, Frame(0, "hello").size() + kTransferHeaderSize);
  EXPECT_EQ(stream.needed(), kTransferHeaderSize + 5);
  EXPECT_EQ(stream.expected(), 5);
  used = Feed(&stream, std::string_view(bytes).substr(*used));
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(stream.expected(), 10);
  EXPECT_EQ(log.Bytes(0), "helloworld");
}

TEST(SlaveStreamTest, RefusesMisplacedOversizedAndOverflowingFrames) {
  MemLog log;
  log.Write(100, 'a');
  SlaveStream misplaced(&log, "m:1", 100, 0, kFileSize);
  Result<size_t> used = Feed(&misplaced, Frame(200, "x"));
  EXPECT_TRUE(used.status().IsCorruption()) << used.status().ToString();

  // A header announcing more than a CommitLog file is refused before its body is awaited,
  // so a hostile master cannot make the slave buffer 2 GiB.
  SlaveStream oversized(&log, "m:1", 100, 0, kFileSize);
  uint8_t header[kTransferHeaderSize];
  EncodeTransferHeader(TransferHeader{100, std::numeric_limits<int32_t>::max()}, header);
  used = oversized.Consume(header, sizeof(header));
  EXPECT_TRUE(used.status().IsCorruption());
  EXPECT_NE(used.status().message().find("outside [0, 65536]"), std::string::npos);

  MemLog fresh;
  SlaveStream overflow(&fresh, "m:1", 0, 0, kFileSize);
  used = Feed(&overflow, Frame(std::numeric_limits<int64_t>::max() - 1, "ab"));
  EXPECT_TRUE(used.status().IsCorruption());
  EXPECT_EQ(fresh.MaxPhyOffset(), 0);
}

TEST(SlaveStreamTest, ResumeCheckComparesHeldBytesAndReportsDivergence) {
  MemLog master;
  master.Write(300, 'a');
  MemLog slave;
  ASSERT_TRUE(slave.AppendRaw(0, master.Bytes(0).substr(0, 200)).ok());
  // The slave holds 200 bytes and asks from 0; the first 200 are compared, the rest appended.
  SlaveStream same(&slave, "m:1", 0, 200, kFileSize);
  Result<size_t> used = Feed(&same, Frame(0, master.Bytes(0)));
  ASSERT_TRUE(used.ok()) << used.status().ToString();
  EXPECT_EQ(slave.Bytes(0), master.Bytes(0));
  EXPECT_EQ(same.expected(), 300);
  EXPECT_TRUE(same.problem().empty());

  // Different bytes inside the held range: diverged, nothing appended, problem says why.
  MemLog other;
  ASSERT_TRUE(other.AppendRaw(0, master.Bytes(0).substr(0, 200)).ok());
  other.Corrupt(150);
  SlaveStream diverged(&other, "m:1", 0, 200, kFileSize);
  used = Feed(&diverged, Frame(0, master.Bytes(0)));
  EXPECT_EQ(used.status().code(), StatusCode::kAborted);
  EXPECT_NE(diverged.problem().find("diverged"), std::string::npos);
  EXPECT_EQ(other.MaxPhyOffset(), 200);

  // A master heartbeat that ends before what the slave holds: the slave has data it lacks.
  MemLog ahead;
  ASSERT_TRUE(ahead.AppendRaw(0, std::string(500, 'x')).ok());
  SlaveStream behind(&ahead, "m:1", 500, 0, kFileSize);
  used = Feed(&behind, Frame(300, ""));
  EXPECT_EQ(used.status().code(), StatusCode::kAborted);
  EXPECT_NE(behind.problem().find("says its CommitLog ends at 300"), std::string::npos);
}

}  // namespace
}  // namespace apogee::ha
