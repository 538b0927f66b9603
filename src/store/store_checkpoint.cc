#include "store/store_checkpoint.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/coding.h"
#include "store/store_format.h"

namespace apogee::store {

Result<std::unique_ptr<StoreCheckpoint>> StoreCheckpoint::Open(env::Env* env,
                                                               const std::string& path) {
  APOGEE_RETURN_IF_ERROR(env->CreateDirs(env::DirName(path)));
  APOGEE_ASSIGN_OR_RETURN(auto file, env->OpenFile(path, env::OpenMode::kCreateIfMissing));
  APOGEE_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  uint8_t buf[kCheckpointFileSize] = {};
  if (size < static_cast<uint64_t>(kCheckpointFileSize)) {
    // New (or cut short by a crash during creation): start from zeros, which make recovery
    // conservative (every file is older than "0" only when nothing was flushed).
    APOGEE_RETURN_IF_ERROR(file->Write(0, std::string_view(reinterpret_cast<char*>(buf),
                                                           kCheckpointFileSize)));
    APOGEE_RETURN_IF_ERROR(file->Sync());
  } else {
    APOGEE_ASSIGN_OR_RETURN(size_t n, file->Read(0, kCheckpointFileSize, buf));
    if (n != static_cast<size_t>(kCheckpointFileSize)) {
      return Status::Corruption(fmt::format("checkpoint {}: short read of {} bytes", path, n));
    }
  }
  std::unique_ptr<StoreCheckpoint> cp(new StoreCheckpoint(std::move(file)));
  cp->physic_ = static_cast<int64_t>(DecodeFixed64(buf + kCheckpointPhysicMsgTimestampPos));
  cp->logics_ = static_cast<int64_t>(DecodeFixed64(buf + kCheckpointLogicsMsgTimestampPos));
  cp->index_ = static_cast<int64_t>(DecodeFixed64(buf + kCheckpointIndexMsgTimestampPos));
  cp->master_flushed_ =
      static_cast<int64_t>(DecodeFixed64(buf + kCheckpointMasterFlushedOffsetPos));
  cp->confirm_ = static_cast<int64_t>(DecodeFixed64(buf + kCheckpointConfirmPhyOffsetPos));
  return cp;
}

int64_t StoreCheckpoint::MinTimestamp() const {
  // Compared before subtracting: a checkpoint file holding INT64_MIN must not overflow
  // (store_file_fuzz).
  const int64_t min = std::min(physic_.load(), logics_.load());
  return min <= kCheckpointSafetyMarginMs ? 0 : min - kCheckpointSafetyMarginMs;
}

int64_t StoreCheckpoint::MinTimestampIndex() const {
  return std::min(MinTimestamp(), index_.load());
}

Status StoreCheckpoint::Flush() {
  std::lock_guard<std::mutex> lock(flush_mu_);
  uint8_t buf[40];
  EncodeFixed64(buf + kCheckpointPhysicMsgTimestampPos, static_cast<uint64_t>(physic_.load()));
  EncodeFixed64(buf + kCheckpointLogicsMsgTimestampPos, static_cast<uint64_t>(logics_.load()));
  EncodeFixed64(buf + kCheckpointIndexMsgTimestampPos, static_cast<uint64_t>(index_.load()));
  EncodeFixed64(buf + kCheckpointMasterFlushedOffsetPos,
                static_cast<uint64_t>(master_flushed_.load()));
  EncodeFixed64(buf + kCheckpointConfirmPhyOffsetPos, static_cast<uint64_t>(confirm_.load()));
  // One 40-byte write inside the first sector: it cannot tear across sectors.
  APOGEE_RETURN_IF_ERROR(file_->Write(0, std::string_view(reinterpret_cast<char*>(buf), 40)));
  return file_->Sync().Prefixed("syncing checkpoint");
}

}  // namespace apogee::store
