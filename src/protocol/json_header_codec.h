// The JSON header serialization (type 0) of RemotingCommand: what every client sends.
// Internal to the protocol module; users call DecodeCommand / EncodeCommand.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "protocol/remoting_command.h"

namespace apogee::protocol {

// Fills the header fields of `command` (not the body) from a JSON header.
// Liberal as fastjson is in what real peers send: any JSON scalar as an extFields value
// (kept in Java toString form), null = absent, missing remark/extFields/flag/version,
// unknown keys and unknown language names. Corruption with a reason otherwise.
// `max_ext_fields` (0 = unlimited) bounds the extFields members; past it the rest of the
// header is still parsed (so code and opaque are known) but no member is kept, and the
// result is InvalidArgument naming the limit.
// Headers of the plain shape real peers write are scanned without RapidJSON
// (json_header_scan.h); anything else goes to DecodeJsonHeaderFully.
Status DecodeJsonHeader(std::string_view header, uint32_t max_ext_fields, RemotingCommand* command);

// DecodeJsonHeader with RapidJSON only, the scan skipped (tests compare the two).
Status DecodeJsonHeaderFully(std::string_view header, uint32_t max_ext_fields,
                             RemotingCommand* command);

// Appends the compact JSON header. Keys sorted as fastjson writes them; extFields values
// always JSON strings (C++ and Go clients read nothing else); remark omitted when null;
// extFields omitted when the command has none.
void EncodeJsonHeader(const RemotingCommand& command, std::string* out);

// Appends `s` as a JSON string (quotes and escapes) exactly as EncodeJsonHeader writes
// every string: what HeaderToJsonExtFields uses so that its members are the same bytes.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace apogee::protocol
