// libFuzzer target for the HA wire format: the frame and report codecs, the offset helpers
// and, above all, the slave's reading of its master's stream (ha::SlaveStream, what
// HaClient runs on every byte it receives). Input: byte 0 = options (resume check on/off,
// how much the slave already holds), byte 1 = read size, the rest = the master's stream.
// The slave's store is an in-memory log that refuses any append not at its end. Checks,
// besides the sanitizers: every append continues the log, the buffer the slave must hold
// never exceeds one frame of at most one CommitLog file, and after each read the slave's
// expected offset is its log's end once the resume check is behind it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "ha/ha_format.h"
#include "ha/slave_stream.h"
#include "store/replication.h"

namespace {

using namespace apogee::ha;  // NOLINT: a fuzz driver

void Check(bool ok) {
  if (!ok) std::abort();
}

constexpr int64_t kFileSize = 4096;

// A CommitLog in memory: bytes [base, base + log.size()).
class MemLog : public apogee::store::ReplicationStore {
 public:
  int64_t MaxPhyOffset() const override {
    return log_.empty() ? 0 : base_ + static_cast<int64_t>(log_.size());
  }
  int64_t MinPhyOffset() const override { return base_; }
  apogee::Result<apogee::store::RawSegment> ReadRaw(int64_t offset,
                                                    size_t max_bytes) const override {
    if (offset < base_ || offset >= MaxPhyOffset()) return apogee::Status::NotFound("no data");
    const size_t from = static_cast<size_t>(offset - base_);
    // Never across a file end, as the real CommitLog.
    const size_t to_file_end = static_cast<size_t>(kFileSize - offset % kFileSize);
    apogee::store::RawSegment segment;
    segment.offset = offset;
    segment.data = std::string_view(log_).substr(from, std::min(max_bytes, to_file_end));
    return segment;
  }
  apogee::Status AppendRaw(int64_t offset, std::string_view data) override {
    if (log_.empty()) {
      base_ = offset;
    } else {
      Check(offset == MaxPhyOffset());  // SlaveStream only appends where the slave ends
    }
    log_.append(data);
    return apogee::Status::OK();
  }

 private:
  int64_t base_ = 0;
  std::string log_;
};

void Codecs(std::string_view bytes) {
  if (bytes.size() < kTransferHeaderSize) return;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const TransferHeader h = DecodeTransferHeader(p);
  uint8_t out[kTransferHeaderSize];
  EncodeTransferHeader(h, out);
  Check(std::memcmp(out, p, kTransferHeaderSize) == 0);
  const int64_t report = DecodeReport(p);
  uint8_t report_out[kReportSize];
  EncodeReport(report, report_out);
  Check(std::memcmp(report_out, p, kReportSize) == 0);
  // Offsets a slave or master computes from what the other side reported.
  const int64_t start = ResumeCheckStart(report, kFileSize);
  if (report > 0) Check(start >= 0 && start <= report && report - start <= kResumeCheckBytes);
  (void)FirstTransferOffset(report, h.offset, 0, kFileSize, (h.body_size & 1) != 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const bool resume_check = (data[0] & 1) != 0;
  const size_t held = (data[0] >> 1) * 97;  // bytes the slave holds before connecting
  const size_t read_size = data[1] % 64 + 1;
  std::string_view stream(reinterpret_cast<const char*>(data + 2), size - 2);
  Codecs(stream);

  MemLog log;
  if (held > 0) {
    // The slave's own bytes: a pattern the master's frames may or may not repeat.
    std::string own(held, '\0');
    for (size_t i = 0; i < held; ++i) own[i] = static_cast<char>(i * 31 + 7);
    Check(log.AppendRaw(0, own).ok());
  }
  const int64_t local_end = log.MaxPhyOffset();
  const int64_t verify_end = resume_check ? local_end : 0;
  const int64_t expected = resume_check ? ResumeCheckStart(local_end, kFileSize) : local_end;
  SlaveStream slave(&log, "master:10912", expected, verify_end, kFileSize);

  // HaClient's loop: read what arrives, consume the complete frames, keep the rest.
  std::vector<uint8_t> buf;
  while (!stream.empty()) {
    const size_t n = std::min(read_size, stream.size());
    buf.insert(buf.end(), stream.begin(), stream.begin() + n);
    stream.remove_prefix(n);
    apogee::Result<size_t> used = slave.Consume(buf.data(), buf.size());
    if (!used.ok()) {
      Check(used.status().code() != apogee::StatusCode::kAborted || !slave.problem().empty());
      break;
    }
    Check(*used <= buf.size());
    Check(slave.needed() <= kTransferHeaderSize + static_cast<size_t>(kFileSize));
    buf.erase(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(*used));
    if (slave.expected() >= verify_end && log.MaxPhyOffset() > 0) {
      Check(slave.expected() == log.MaxPhyOffset());
    }
  }
  return 0;
}
