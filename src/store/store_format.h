// Every size, offset and default of the store's on-disk formats, in one place
// (docs/protocol/store_ha.md §5, §6; docs/format/commitlog.md, consume_queue.md,
// index_file.md, checkpoint.md).
// The message record itself (magic codes, field offsets, BLANK filler) is the message
// module's format; this header holds only what the store adds around it.
#pragma once

#include <cstdint>

namespace apogee::store {

// ---- File naming (MappedFileQueue, UtilAll.offset2FileName) ----
// CommitLog and ConsumeQueue files are named by their start offset, zero-padded to 20 digits.
inline constexpr int kFileNameWidth = 20;
// IndexFile names are the local creation time as yyyyMMddHHmmssSSS.
inline constexpr int kIndexFileNameWidth = 17;

// ---- Pages and flushing ----
// "least pages" thresholds count pages of this size (MappedFile.OS_PAGE_SIZE).
inline constexpr int64_t kOsPageSize = 4096;

// ---- CommitLog ----
inline constexpr int64_t kDefaultCommitLogFileSize = 1073741824;  // 1 GiB
// A file always keeps room for the 8-byte BLANK filler after its last record.
inline constexpr int32_t kEndFileMinBlankLength = 8;
// The whole record may exceed maxMessageSize (a body limit) by at most this much.
inline constexpr int64_t kMaxRecordOverhead = 64 * 1024;
// Properties length is an int16 on disk.
inline constexpr int32_t kMaxPropertiesLength = 32767;

// ---- ConsumeQueue (ConsumeQueue.CQ_STORE_UNIT_SIZE) ----
inline constexpr int32_t kCqUnitSize = 20;
inline constexpr int32_t kCqPhyOffsetPos = 0;   // int64 CommitLog offset
inline constexpr int32_t kCqSizePos = 8;        // int32 record size
inline constexpr int32_t kCqTagCodePos = 12;    // int64 tag hash (sign-extended int32)
inline constexpr int64_t kDefaultCqEntriesPerFile = 300000;
inline constexpr int64_t kDefaultConsumeQueueFileSize = kDefaultCqEntriesPerFile * kCqUnitSize;
// fillPreBlank writes {0, INT32_MAX, 0} for queue offsets that precede the first real entry.
inline constexpr int32_t kCqBlankEntrySize = 0x7FFFFFFF;

// ---- IndexFile (IndexHeader, IndexFile) ----
inline constexpr int32_t kIndexHeaderSize = 40;
inline constexpr int32_t kIndexBeginTimestampPos = 0;
inline constexpr int32_t kIndexEndTimestampPos = 8;
inline constexpr int32_t kIndexBeginPhyOffsetPos = 16;
inline constexpr int32_t kIndexEndPhyOffsetPos = 24;
inline constexpr int32_t kIndexHashSlotCountPos = 32;
inline constexpr int32_t kIndexIndexCountPos = 36;
inline constexpr int32_t kIndexSlotSize = 4;
inline constexpr int32_t kIndexEntrySize = 20;
inline constexpr int32_t kIndexEntryKeyHashPos = 0;    // int32 abs(hash)
inline constexpr int32_t kIndexEntryPhyOffsetPos = 4;  // int64
inline constexpr int32_t kIndexEntryTimeDiffPos = 12;  // int32 seconds since beginTimestamp
inline constexpr int32_t kIndexEntryPrevIndexPos = 16; // int32 previous entry in the slot chain
inline constexpr int32_t kDefaultMaxHashSlotNum = 5000000;
inline constexpr int32_t kDefaultMaxIndexNum = 20000000;
// Separates topic and key in an index key: "topic#key".
inline constexpr char kIndexKeySeparator = '#';

// ---- Checkpoint (StoreCheckpoint) ----
inline constexpr int32_t kCheckpointFileSize = 4096;
inline constexpr int32_t kCheckpointPhysicMsgTimestampPos = 0;
inline constexpr int32_t kCheckpointLogicsMsgTimestampPos = 8;
inline constexpr int32_t kCheckpointIndexMsgTimestampPos = 16;
inline constexpr int32_t kCheckpointMasterFlushedOffsetPos = 24;
inline constexpr int32_t kCheckpointConfirmPhyOffsetPos = 32;
// minTimestamp = min(physic, logics) - this margin (StoreCheckpoint.getMinTimestamp).
inline constexpr int64_t kCheckpointSafetyMarginMs = 3000;

// ---- Directory layout (StorePathConfigHelper) ----
inline constexpr const char* kCommitLogDirName = "commitlog";
inline constexpr const char* kConsumeQueueDirName = "consumequeue";
inline constexpr const char* kIndexDirName = "index";
inline constexpr const char* kCheckpointFileName = "checkpoint";
inline constexpr const char* kAbortFileName = "abort";
inline constexpr const char* kLockFileName = "lock";
inline constexpr const char* kConfigDirName = "config";
// The lock file's content, as RocketMQ writes it.
inline constexpr const char* kLockFileContent = "lock";

// ---- Recovery ----
// Normal recovery starts this many files before the last one (CommitLog.recoverNormally).
inline constexpr int kRecoverFilesFromEnd = 3;

}  // namespace apogee::store
