// The REGISTER_BROKER body and result (docs/protocol/remoting.md §5.1.1, §7.5).
//
// RegisterBrokerBody travels as JSON, or, when the request header says compressed=true,
// as a zlib stream (java.util.zip.Deflater) of big-endian int32-length-prefixed pieces:
//   len + DataVersion JSON | topicCount | topicCount x (len + TopicConfig text form)
//   | len + filterServerList JSON | mappingCount | mappingCount x (len + mapping JSON)
// (RQ:rp/body/RegisterBrokerBody.java). 4.9.7 brokers stop after the filter server list;
// 5.x NameServers read the mapping count only from brokers >= 413. The text form carries
// neither topicSysFlag nor order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "protocol/kv_table.h"
#include "protocol/remoting_command.h"
#include "protocol/topic_config.h"

namespace apogee::protocol {

struct RegisterBrokerBody {
  TopicConfigSerializeWrapper topic_config_serialize_wrapper;
  std::vector<std::string> filter_server_list;

  bool operator==(const RegisterBrokerBody&) const = default;
};

// The broker version (V3_0_11) from which the body is a RegisterBrokerBody rather than a
// bare TopicConfigSerializeWrapper.
inline constexpr int32_t kRegisterBrokerBodyMinVersion = 37;
// Decompressed bodies larger than this are refused (a zlib bomb costs no more than this).
inline constexpr size_t kMaxDecompressedRegisterBody = 64 * 1024 * 1024;

// JSON: {"filterServerList":[],"topicConfigSerializeWrapper":{...}}.
std::string EncodeRegisterBrokerBody(const RegisterBrokerBody& body);
Result<RegisterBrokerBody> DecodeRegisterBrokerBody(std::string_view json);

// The compressed form. The encoder writes a mapping count of 0, which 4.9.7 NameServers
// ignore as trailing data and 5.x ones read as "no static topics".
std::string EncodeCompressedRegisterBrokerBody(const RegisterBrokerBody& body);
Result<RegisterBrokerBody> DecodeCompressedRegisterBrokerBody(
    std::string_view compressed, size_t max_decompressed = kMaxDecompressedRegisterBody);

// What a NameServer does with a REGISTER_BROKER body: empty -> empty topic table with
// DataVersion {0,0}; broker version < 37 -> a bare TopicConfigSerializeWrapper; else a
// RegisterBrokerBody, compressed or JSON as the header says.
Result<RegisterBrokerBody> DecodeRegisterBrokerRequestBody(std::string_view body, bool compressed,
                                                           int32_t broker_version);

// The registration answer: RegisterBrokerResponseHeader (filled for a slave whose master
// is registered) plus, as body, the ORDER_TOPIC_CONFIG KVTable. Not a wire object itself.
struct RegisterBrokerResult {
  std::optional<std::string> ha_server_addr;
  std::optional<std::string> master_addr;
  KVTable kv_table;

  bool operator==(const RegisterBrokerResult&) const = default;
};

// Fills the response's extFields and body.
void EncodeRegisterBrokerResult(const RegisterBrokerResult& result, RemotingCommand* response);
// Reads a SUCCESS response (no body = empty KV table).
Result<RegisterBrokerResult> DecodeRegisterBrokerResult(const RemotingCommand& response);

}  // namespace apogee::protocol
