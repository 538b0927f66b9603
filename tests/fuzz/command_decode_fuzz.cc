// libFuzzer target: DecodeCommand on arbitrary bytes (everything after the 4-byte frame
// length). It must never crash, and a decoded command must survive re-encoding: encoding
// it in its own serialization and decoding again gives the same command, and so does a
// trip through the JSON header (every command can be answered in JSON).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/remoting_command.h"

namespace {

using apogee::protocol::RemotingCommand;
using apogee::protocol::SerializeType;

bool SameCommand(const RemotingCommand& a, const RemotingCommand& b) {
  return a.code == b.code && a.language == b.language && a.version == b.version &&
         a.opaque == b.opaque && a.flag == b.flag && a.remark == b.remark &&
         a.has_ext_fields == b.has_ext_fields && a.ext_fields == b.ext_fields && a.body == b.body;
}

RemotingCommand Reparse(const RemotingCommand& command) {
  std::string frame;
  apogee::protocol::EncodeCommand(command, &frame);
  auto again = apogee::protocol::DecodeCommand(std::string_view(frame).substr(4));
  if (!again.ok()) abort();  // our own encoding must always decode
  return std::move(again).value();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto decoded =
      apogee::protocol::DecodeCommand(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!decoded.ok()) return 0;
  const RemotingCommand& command = *decoded;

  RemotingCommand same_type = Reparse(command);
  if (!SameCommand(command, same_type) || same_type.serialize_type != command.serialize_type) {
    abort();
  }

  RemotingCommand as_json = command;
  as_json.serialize_type = SerializeType::kJson;
  if (!SameCommand(command, Reparse(as_json))) abort();
  return 0;
}
