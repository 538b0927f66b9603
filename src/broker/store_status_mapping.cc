#include "broker/store_status_mapping.h"

#include <fmt/format.h>

#include "protocol/response_code.h"

namespace apogee::broker {

namespace rc = protocol::response_code;

ResponseCodeAndRemark MapPutStatus(store::PutStatus status, std::string_view unwritable_reason,
                                   int32_t max_message_size) {
  using store::PutStatus;
  switch (status) {
    case PutStatus::kPutOk:
      return {rc::kSuccess, ""};
    // The three "stored, but the policy was not met" outcomes: clients still get a
    // SendResult (with this status), so they carry no remark beyond the name.
    case PutStatus::kFlushDiskTimeout:
      return {rc::kFlushDiskTimeout,
              "FLUSH_DISK_TIMEOUT: stored, but the disk flush did not finish within "
              "syncFlushTimeout"};
    case PutStatus::kFlushSlaveTimeout:
      return {rc::kFlushSlaveTimeout,
              "FLUSH_SLAVE_TIMEOUT: stored, but no slave acknowledged within slaveTimeout"};
    case PutStatus::kSlaveNotAvailable:
      return {rc::kSlaveNotAvailable,
              "SLAVE_NOT_AVAILABLE: stored, but no slave is close enough to replicate to"};
    case PutStatus::kCreateMappedFileFailed:
      return {rc::kSystemError,
              "create mapped file failed, server is busy or broken (check disk space and the "
              "store path permissions)"};
    case PutStatus::kMessageIllegal:
    case PutStatus::kPropertiesSizeExceeded:
      return {rc::kMessageIllegal,
              fmt::format("the message is illegal, maybe msg body or properties length not "
                          "matched. msg body length limit {} bytes (maxMessageSize), msg "
                          "properties length limit 32767 bytes",
                          max_message_size)};
    case PutStatus::kServiceNotAvailable:
      return {rc::kServiceNotAvailable,
              fmt::format("service not available now: {}",
                          unwritable_reason.empty()
                              ? std::string_view("the broker's disk may be full, this may be a "
                                                 "slave, or the store is shutting down")
                              : unwritable_reason)};
    case PutStatus::kOsPageCacheBusy:
      return {rc::kSystemBusy, "[PC_SYNCHRONIZED]broker busy, start flow control for a while"};
    case PutStatus::kUnknownError:
      break;
  }
  return {rc::kSystemError, "UNKNOWN_ERROR"};
}

ResponseCodeAndRemark MapPutStatus(store::PutStatus status, std::string_view unwritable_reason,
                                   int32_t max_message_size, bool strict_ack) {
  ResponseCodeAndRemark mapped = MapPutStatus(status, unwritable_reason, max_message_size);
  const bool policy_unmet = status == store::PutStatus::kFlushDiskTimeout ||
                            status == store::PutStatus::kFlushSlaveTimeout ||
                            status == store::PutStatus::kSlaveNotAvailable;
  if (strict_ack && policy_unmet) {
    mapped.code = rc::kSystemError;
    mapped.remark = fmt::format(
        "{} (strictAckEnable: the message may be stored on this broker but its durability "
        "policy was not met; retry)",
        mapped.remark);
  }
  return mapped;
}

ResponseCodeAndRemark MapGetStatus(store::GetStatus status, int64_t requested_offset) {
  using store::GetStatus;
  std::string remark(store::GetStatusName(status));
  switch (status) {
    case GetStatus::kFound:
      return {rc::kSuccess, std::move(remark)};
    case GetStatus::kNoMatchedMessage:
    case GetStatus::kMessageWasRemoving:
      return {rc::kPullRetryImmediately, std::move(remark)};
    case GetStatus::kNoMatchedLogicQueue:
    case GetStatus::kNoMessageInQueue:
      return {requested_offset != 0 ? rc::kPullOffsetMoved : rc::kPullNotFound,
              std::move(remark)};
    case GetStatus::kOffsetFoundNull:
    case GetStatus::kOffsetOverflowOne:
      return {rc::kPullNotFound, std::move(remark)};
    case GetStatus::kOffsetOverflowBadly:
    case GetStatus::kOffsetTooSmall:
      return {rc::kPullOffsetMoved, std::move(remark)};
  }
  return {rc::kSystemError, std::move(remark)};
}

}  // namespace apogee::broker
