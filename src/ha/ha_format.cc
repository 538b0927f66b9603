#include "ha/ha_format.h"

#include <algorithm>

#include "base/coding.h"

namespace apogee::ha {

void EncodeTransferHeader(const TransferHeader& header, uint8_t out[kTransferHeaderSize]) {
  EncodeFixed64(out, static_cast<uint64_t>(header.offset));
  EncodeFixed32(out + 8, static_cast<uint32_t>(header.body_size));
}

TransferHeader DecodeTransferHeader(const uint8_t in[kTransferHeaderSize]) {
  TransferHeader h;
  h.offset = static_cast<int64_t>(DecodeFixed64(in));
  h.body_size = static_cast<int32_t>(DecodeFixed32(in + 8));
  return h;
}

void EncodeReport(int64_t max_offset, uint8_t out[kReportSize]) {
  EncodeFixed64(out, static_cast<uint64_t>(max_offset));
}

int64_t DecodeReport(const uint8_t in[kReportSize]) {
  return static_cast<int64_t>(DecodeFixed64(in));
}

int64_t ResumeCheckStart(int64_t max_offset, int64_t commit_log_file_size) {
  if (max_offset <= 0 || commit_log_file_size <= 0) return max_offset;
  // The file holding byte max_offset - 1 starts here.
  const int64_t file_start = (max_offset - 1) - (max_offset - 1) % commit_log_file_size;
  return std::max(file_start, max_offset - kResumeCheckBytes);
}

int64_t FirstTransferOffset(int64_t first_report, int64_t master_max_offset,
                            int64_t master_min_offset, int64_t commit_log_file_size,
                            bool full_copy) {
  if (first_report != 0) return first_report;
  if (full_copy) return master_min_offset;
  if (commit_log_file_size <= 0) return master_max_offset;
  return master_max_offset - master_max_offset % commit_log_file_size;
}

}  // namespace apogee::ha
