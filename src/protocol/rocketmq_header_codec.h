// The ROCKETMQ binary header serialization (type 1) of RemotingCommand
// (RQ:rp/RocketMQSerializable.java). Only Java with rocketmq.serialize.type=ROCKETMQ sends
// it; C++ and ali-ons cannot read it, so Apogee only uses it to answer such requests.
// Internal to the protocol module; users call DecodeCommand / EncodeCommand.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "protocol/remoting_command.h"

namespace apogee::protocol {

// Fills the header fields of `command` (not the body). Every length is checked against
// the header bytes; Corruption naming the field otherwise. Bytes after the extFields
// block are ignored, as Java does. An empty extFields block means "no extFields".
// `max_ext_fields` as in DecodeJsonHeader (the fixed fields come first, so decoding stops
// at the first member past the limit).
Status DecodeRocketMQHeader(std::string_view header, uint32_t max_ext_fields,
                            RemotingCommand* command);

// Appends the binary header. code and version are cut to int16 as Java's (short) cast
// does; entries are written in insertion order.
void EncodeRocketMQHeader(const RemotingCommand& command, std::string* out);

}  // namespace apogee::protocol
