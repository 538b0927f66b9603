// libFuzzer target for DecodeTransOpBody (the body of a transaction op record, 4.9.x "17"
// or 5.x "17,18,"). Decoded offsets are non-negative and come back unchanged from both
// forms this broker or a Java 5.x broker writes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "broker/transaction/transaction_op.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  apogee::Result<std::vector<int64_t>> offsets = apogee::broker::DecodeTransOpBody(body);
  if (!offsets.ok()) return 0;
  Check(!offsets->empty());
  std::string java5;
  for (int64_t offset : *offsets) {
    Check(offset >= 0);
    apogee::Result<std::vector<int64_t>> one =
        apogee::broker::DecodeTransOpBody(apogee::broker::EncodeTransOpBody(offset));
    Check(one.ok() && one->size() == 1 && one->front() == offset);
    java5 += apogee::broker::EncodeTransOpBody(offset) + ",";
  }
  apogee::Result<std::vector<int64_t>> again = apogee::broker::DecodeTransOpBody(java5);
  Check(again.ok() && *again == *offsets);
  return 0;
}
