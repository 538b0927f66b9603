#include "broker/transaction/transaction_op.h"

#include <fmt/format.h>

#include "base/string_util.h"

namespace apogee::broker {

std::string EncodeTransOpBody(int64_t half_queue_offset) {
  return std::to_string(half_queue_offset);
}

Result<std::vector<int64_t>> DecodeTransOpBody(std::string_view body) {
  std::vector<int64_t> offsets;
  size_t start = 0;
  while (start <= body.size()) {
    size_t end = body.find(',', start);
    if (end == std::string_view::npos) end = body.size();
    std::string_view piece = body.substr(start, end - start);
    // 5.x ends every offset with a comma, so the last piece is empty.
    if (!piece.empty()) {
      std::optional<int64_t> offset = ParseInt64(piece);
      if (!offset || *offset < 0) {
        return Status::InvalidArgument(
            fmt::format("transaction op body '{}': '{}' is not a queue offset", body, piece));
      }
      offsets.push_back(*offset);
    }
    start = end + 1;
  }
  if (offsets.empty()) {
    return Status::InvalidArgument(
        fmt::format("transaction op body '{}' names no half queue offset", body));
  }
  return offsets;
}

}  // namespace apogee::broker
