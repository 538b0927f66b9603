#include "base/status.h"

#include <cerrno>
#include <cstring>

namespace apogee {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kNotFound: return "NotFound";
    case StatusCode::kCorruption: return "Corruption";
    case StatusCode::kInvalidArgument: return "InvalidArgument";
    case StatusCode::kIOError: return "IOError";
    case StatusCode::kNotSupported: return "NotSupported";
    case StatusCode::kTimeout: return "Timeout";
    case StatusCode::kBusy: return "Busy";
    case StatusCode::kAborted: return "Aborted";
    case StatusCode::kUnavailable: return "Unavailable";
    case StatusCode::kNoSpace: return "NoSpace";
    case StatusCode::kAlreadyExists: return "AlreadyExists";
    case StatusCode::kPermissionDenied: return "PermissionDenied";
    case StatusCode::kInternal: return "Internal";
  }
  return "Unknown";
}

Status::Status(StatusCode code, std::string message) {
  if (code != StatusCode::kOk) rep_ = std::make_unique<Rep>(Rep{code, std::move(message)});
}

Status Status::FromErrno(int err, std::string_view context) {
  std::string msg(context);
  msg += ": ";
  msg += std::strerror(err);
  if (err == ENOSPC || err == EDQUOT) return NoSpace(std::move(msg));
  if (err == ENOENT) return NotFound(std::move(msg));
  if (err == EACCES || err == EPERM) return PermissionDenied(std::move(msg));
  return IOError(std::move(msg));
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return rep_ ? rep_->message : kEmpty;
}

Status Status::Prefixed(std::string_view context) const {
  if (ok()) return Status();
  std::string msg(context);
  msg += ": ";
  msg += rep_->message;
  return Status(rep_->code, std::move(msg));
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(rep_->code));
  out += ": ";
  out += rep_->message;
  return out;
}

}  // namespace apogee
