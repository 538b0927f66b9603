#include "store/get_status.h"
#include "store/put_status.h"

namespace apogee::store {

std::string_view PutStatusName(PutStatus status) {
  switch (status) {
    case PutStatus::kPutOk: return "PUT_OK";
    case PutStatus::kFlushDiskTimeout: return "FLUSH_DISK_TIMEOUT";
    case PutStatus::kFlushSlaveTimeout: return "FLUSH_SLAVE_TIMEOUT";
    case PutStatus::kSlaveNotAvailable: return "SLAVE_NOT_AVAILABLE";
    case PutStatus::kServiceNotAvailable: return "SERVICE_NOT_AVAILABLE";
    case PutStatus::kCreateMappedFileFailed: return "CREATE_MAPEDFILE_FAILED";
    case PutStatus::kMessageIllegal: return "MESSAGE_ILLEGAL";
    case PutStatus::kPropertiesSizeExceeded: return "PROPERTIES_SIZE_EXCEEDED";
    case PutStatus::kOsPageCacheBusy: return "OS_PAGECACHE_BUSY";
    case PutStatus::kUnknownError: return "UNKNOWN_ERROR";
  }
  return "UNKNOWN_ERROR";
}

bool PutStatusStored(PutStatus status) {
  return status == PutStatus::kPutOk || status == PutStatus::kFlushDiskTimeout ||
         status == PutStatus::kFlushSlaveTimeout || status == PutStatus::kSlaveNotAvailable;
}

std::string_view GetStatusName(GetStatus status) {
  switch (status) {
    case GetStatus::kFound: return "FOUND";
    case GetStatus::kNoMatchedMessage: return "NO_MATCHED_MESSAGE";
    case GetStatus::kMessageWasRemoving: return "MESSAGE_WAS_REMOVING";
    case GetStatus::kOffsetFoundNull: return "OFFSET_FOUND_NULL";
    case GetStatus::kOffsetOverflowBadly: return "OFFSET_OVERFLOW_BADLY";
    case GetStatus::kOffsetOverflowOne: return "OFFSET_OVERFLOW_ONE";
    case GetStatus::kOffsetTooSmall: return "OFFSET_TOO_SMALL";
    case GetStatus::kNoMatchedLogicQueue: return "NO_MATCHED_LOGIC_QUEUE";
    case GetStatus::kNoMessageInQueue: return "NO_MESSAGE_IN_QUEUE";
  }
  return "UNKNOWN";
}

}  // namespace apogee::store
