// Constants of the remoting frame and its two header serializations
// (docs/protocol/remoting.md §2; docs/format/remoting.md). No other protocol file may spell
// these numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace apogee::protocol {

// Frame: int32 L | int32 header word | header | body. L counts everything after itself.
inline constexpr size_t kFrameLengthFieldSize = 4;
inline constexpr size_t kHeaderWordSize = 4;
// The header word is (serializeType << 24) | headerLength.
inline constexpr int kSerializeTypeShift = 24;
inline constexpr uint32_t kHeaderLengthMask = 0xFFFFFF;
inline constexpr uint32_t kMaxHeaderLength = kHeaderLengthMask;

// ROCKETMQ binary header (RQ:rp/RocketMQSerializable.java): code int16, language int8,
// version int16, opaque int32, flag int32, remark length int32 = 17 bytes, then the
// remark, then the int32 length of the extFields block = 21 fixed bytes in all.
inline constexpr size_t kBinaryHeaderFixedSize = 21;
// Map block entry: int16 key length, key, int32 value length, value.
inline constexpr size_t kBinaryMapKeyLengthSize = 2;
inline constexpr size_t kBinaryMapValueLengthSize = 4;

// JSON header keys, exactly as fastjson writes RemotingCommand's getters (sorted).
inline constexpr std::string_view kJsonKeyCode = "code";
inline constexpr std::string_view kJsonKeyExtFields = "extFields";
inline constexpr std::string_view kJsonKeyFlag = "flag";
inline constexpr std::string_view kJsonKeyLanguage = "language";
inline constexpr std::string_view kJsonKeyOpaque = "opaque";
inline constexpr std::string_view kJsonKeyRemark = "remark";
inline constexpr std::string_view kJsonKeySerializeType = "serializeTypeCurrentRPC";
inline constexpr std::string_view kJsonKeyVersion = "version";

// Values of serializeTypeCurrentRPC (the SerializeType enum names).
inline constexpr std::string_view kSerializeTypeNameJson = "JSON";
inline constexpr std::string_view kSerializeTypeNameRocketMQ = "ROCKETMQ";

}  // namespace apogee::protocol
