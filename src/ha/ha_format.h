// The HA wire format (docs/protocol/store_ha.md §7.2; docs/format/ha_protocol.md): two one-way
// streams over plain TCP. The slave sends 8-byte big-endian reports of its CommitLog end;
// the master sends frames [int64 offset][int32 size][size raw CommitLog bytes], size 0
// being a heartbeat. Nothing else travels: no handshake, no version.
#pragma once

#include <cstddef>
#include <cstdint>

namespace apogee::ha {

inline constexpr size_t kReportSize = 8;           // REPORT_HEADER_SIZE
inline constexpr size_t kTransferHeaderSize = 12;  // TRANSFER_HEADER_SIZE
// Apogee's resume check: a slave that already holds bytes asks the master to start this
// many bytes (at most, never before the start of its last file) before its own end and
// compares what comes back with what it has. A Java master simply streams from there.
inline constexpr int64_t kResumeCheckBytes = 4096;
// The master reads reports into a buffer of this size (Java's ReadSocketService: 1 MiB).
inline constexpr size_t kReportBufferSize = 1 << 20;

struct TransferHeader {
  int64_t offset = 0;     // master physical offset of the first body byte
  int32_t body_size = 0;  // 0: heartbeat
};

void EncodeTransferHeader(const TransferHeader& header, uint8_t out[kTransferHeaderSize]);
TransferHeader DecodeTransferHeader(const uint8_t in[kTransferHeaderSize]);
void EncodeReport(int64_t max_offset, uint8_t out[kReportSize]);
int64_t DecodeReport(const uint8_t in[kReportSize]);

// Where a slave whose CommitLog ends at `max_offset` asks the master to start: `max_offset`
// minus up to kResumeCheckBytes, never before the start of the file holding its last byte
// (so the check range is one file, as master frames never cross a file end). 0 stays 0.
int64_t ResumeCheckStart(int64_t max_offset, int64_t commit_log_file_size);

// Where a master starts streaming to a slave whose first report is `first_report`
// (HAConnection.WriteSocketService): a fresh slave (0) gets the master's last file, or
// everything from `min_offset` when `full_copy`; otherwise the reported offset.
int64_t FirstTransferOffset(int64_t first_report, int64_t master_max_offset,
                            int64_t master_min_offset, int64_t commit_log_file_size,
                            bool full_copy);

}  // namespace apogee::ha
