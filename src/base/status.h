// Status and Result<T>: the error channel at every module boundary.
//
// An OK Status holds no allocation. Errors carry a code from a small set and a message
// that names what failed; callers add context with Prefixed(). No exception crosses a
// module boundary.
#pragma once

#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace apogee {

enum class StatusCode : int {
  kOk = 0,
  kNotFound,
  kCorruption,
  kInvalidArgument,
  kIOError,
  kNotSupported,
  kTimeout,
  kBusy,
  kAborted,
  kUnavailable,
  kNoSpace,
  kAlreadyExists,
  kPermissionDenied,
  kInternal,
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message);

  static Status OK() { return Status(); }
  static Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
  static Status Corruption(std::string msg) { return {StatusCode::kCorruption, std::move(msg)}; }
  static Status InvalidArgument(std::string msg) {
    return {StatusCode::kInvalidArgument, std::move(msg)};
  }
  static Status IOError(std::string msg) { return {StatusCode::kIOError, std::move(msg)}; }
  static Status NotSupported(std::string msg) { return {StatusCode::kNotSupported, std::move(msg)}; }
  static Status Timeout(std::string msg) { return {StatusCode::kTimeout, std::move(msg)}; }
  static Status Busy(std::string msg) { return {StatusCode::kBusy, std::move(msg)}; }
  static Status Aborted(std::string msg) { return {StatusCode::kAborted, std::move(msg)}; }
  static Status Unavailable(std::string msg) { return {StatusCode::kUnavailable, std::move(msg)}; }
  static Status NoSpace(std::string msg) { return {StatusCode::kNoSpace, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) {
    return {StatusCode::kAlreadyExists, std::move(msg)};
  }
  static Status PermissionDenied(std::string msg) {
    return {StatusCode::kPermissionDenied, std::move(msg)};
  }
  static Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }
  // An IOError (or NoSpace for ENOSPC) whose message ends with strerror(err).
  static Status FromErrno(int err, std::string_view context);

  bool ok() const { return rep_ == nullptr; }
  StatusCode code() const { return rep_ ? rep_->code : StatusCode::kOk; }
  const std::string& message() const;
  bool Is(StatusCode c) const { return code() == c; }
  bool IsNotFound() const { return Is(StatusCode::kNotFound); }
  bool IsCorruption() const { return Is(StatusCode::kCorruption); }
  bool IsTimeout() const { return Is(StatusCode::kTimeout); }

  // The same status with "context: " put before the message.
  Status Prefixed(std::string_view context) const;
  // "OK" or "<CodeName>: <message>".
  std::string ToString() const;

  Status(const Status& other) : rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

 private:
  struct Rep {
    StatusCode code;
    std::string message;
  };
  std::unique_ptr<Rep> rep_;
};

// Either a value or an error Status. Access to value() of an error is a bug (asserted).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(data_).ok() && "Result built from an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(data_);
  }
  T& value() & {
    assert(ok());
    return std::get<T>(data_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<T>(data_);
  }
  T&& value() && {
    assert(ok());
    return std::get<T>(std::move(data_));
  }
  T value_or(T fallback) const { return ok() ? std::get<T>(data_) : std::move(fallback); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace apogee

#define APOGEE_CONCAT_INNER(a, b) a##b
#define APOGEE_CONCAT(a, b) APOGEE_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function when `expr` is not OK.
#define APOGEE_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::apogee::Status apogee_status_ = (expr);        \
    if (!apogee_status_.ok()) return apogee_status_; \
  } while (0)

// `lhs = value of expr`, or return its Status from the enclosing function.
#define APOGEE_ASSIGN_OR_RETURN(lhs, expr) \
  APOGEE_ASSIGN_OR_RETURN_IMPL(APOGEE_CONCAT(apogee_result_, __LINE__), lhs, expr)
#define APOGEE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()
