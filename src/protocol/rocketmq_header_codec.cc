#include "protocol/rocketmq_header_codec.h"

#include <cstdint>
#include <string>

#include "base/coding.h"
#include "protocol/remoting_format.h"

namespace apogee::protocol {
namespace {

Status Truncated(std::string_view what, size_t position) {
  return Status::Corruption("ROCKETMQ header truncated in " + std::string(what) + " at byte " +
                            std::to_string(position));
}

// Reads an int32 length and that many bytes; a negative or overlong length is corrupt.
Status ReadLongString(ByteReader* reader, std::string_view what, std::string_view* out) {
  int32_t length = 0;
  if (!reader->ReadI32(&length))
    return Truncated(std::string(what) + " length", reader->position());
  if (length < 0 || static_cast<size_t>(length) > reader->remaining()) {
    return Status::Corruption("ROCKETMQ header " + std::string(what) + " length " +
                              std::to_string(length) + " exceeds the " +
                              std::to_string(reader->remaining()) + " bytes left");
  }
  reader->ReadBytes(static_cast<size_t>(length), out);
  return Status::OK();
}

Status DecodeMap(std::string_view block, uint32_t max_ext_fields, ExtFields* ext_fields) {
  ByteReader reader(block);
  size_t members = 0;
  while (reader.remaining() > 0) {
    if (max_ext_fields != 0 && ++members > max_ext_fields) {
      return Status::InvalidArgument("header has more than the limit of " +
                                     std::to_string(max_ext_fields) + " extFields members");
    }
    int16_t key_length = 0;
    if (!reader.ReadI16(&key_length)) return Truncated("extFields key length", reader.position());
    std::string_view key;
    if (key_length < 0 || !reader.ReadBytes(static_cast<size_t>(key_length), &key)) {
      return Status::Corruption("ROCKETMQ header extFields key length " +
                                std::to_string(key_length) + " exceeds the map block");
    }
    std::string_view value;
    APOGEE_RETURN_IF_ERROR(ReadLongString(&reader, "extFields value", &value));
    ext_fields->Set(key, std::string(value));
  }
  return Status::OK();
}

}  // namespace

Status DecodeRocketMQHeader(std::string_view header, uint32_t max_ext_fields,
                            RemotingCommand* command) {
  ByteReader reader(header);
  int16_t code = 0;
  uint8_t language = 0;
  int16_t version = 0;
  if (!reader.ReadI16(&code) || !reader.ReadU8(&language) || !reader.ReadI16(&version) ||
      !reader.ReadI32(&command->opaque) || !reader.ReadI32(&command->flag)) {
    return Status::Corruption("ROCKETMQ header of " + std::to_string(header.size()) +
                              " bytes is shorter than its fixed part (" +
                              std::to_string(kBinaryHeaderFixedSize) + " bytes)");
  }
  command->code = code;
  command->language = LanguageFromCode(language);
  command->version = version;

  std::string_view remark;
  APOGEE_RETURN_IF_ERROR(ReadLongString(&reader, "remark", &remark));
  // Java decodes a zero length as null, so an empty remark cannot be told from none.
  if (!remark.empty()) command->remark = std::string(remark);

  std::string_view map_block;
  APOGEE_RETURN_IF_ERROR(ReadLongString(&reader, "extFields", &map_block));
  if (!map_block.empty()) {
    command->has_ext_fields = true;
    APOGEE_RETURN_IF_ERROR(DecodeMap(map_block, max_ext_fields, &command->ext_fields));
  }
  return Status::OK();
}

void EncodeRocketMQHeader(const RemotingCommand& command, std::string* out) {
  ByteWriter writer(out);
  writer.PutI16(static_cast<int16_t>(command.code));
  writer.PutU8(static_cast<uint8_t>(command.language));
  writer.PutI16(static_cast<int16_t>(command.version));
  writer.PutI32(command.opaque);
  writer.PutI32(command.flag);
  const std::string_view remark = command.remark ? std::string_view(*command.remark) : "";
  writer.PutU32(static_cast<uint32_t>(remark.size()));
  writer.PutBytes(remark);

  size_t map_length = 0;
  for (const auto& [key, value] : command.ext_fields) {
    map_length += kBinaryMapKeyLengthSize + key.size() + kBinaryMapValueLengthSize + value.size();
  }
  writer.PutU32(static_cast<uint32_t>(map_length));
  for (const auto& [key, value] : command.ext_fields) {
    writer.PutU16(static_cast<uint16_t>(key.size()));
    writer.PutBytes(key);
    writer.PutU32(static_cast<uint32_t>(value.size()));
    writer.PutBytes(value);
  }
}

}  // namespace apogee::protocol
