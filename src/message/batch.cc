#include "message/batch.h"

#include "base/coding.h"
#include "message/message_format.h"

namespace apogee::message {

Result<std::vector<BatchEntry>> DecodeBatchBody(std::string_view body) {
  std::vector<BatchEntry> entries;
  ByteReader in(body);
  while (in.remaining() > 0) {
    const size_t start = in.position();
    auto bad = [&](const std::string& why) {
      return Status::InvalidArgument("batch message " + std::to_string(entries.size()) +
                                     " at byte " + std::to_string(start) + ": " + why);
    };
    int32_t total_size, magic, crc, body_length;
    BatchEntry entry;
    if (!in.ReadI32(&total_size) || !in.ReadI32(&magic) || !in.ReadI32(&crc) ||
        !in.ReadI32(&entry.flag) || !in.ReadI32(&body_length)) {
      return bad("header needs 20 bytes, " + std::to_string(body.size() - start) + " left");
    }
    if (body_length < 0) return bad("negative body length " + std::to_string(body_length));
    if (!in.ReadBytes(static_cast<size_t>(body_length), &entry.body)) {
      return bad("body of " + std::to_string(body_length) + " bytes runs past the end");
    }
    int16_t props_length;
    if (!in.ReadI16(&props_length)) return bad("properties length runs past the end");
    if (props_length < 0) return bad("negative properties length " + std::to_string(props_length));
    if (!in.ReadBytes(static_cast<size_t>(props_length), &entry.properties)) {
      return bad("properties of " + std::to_string(props_length) + " bytes run past the end");
    }
    const size_t expected =
        kBatchEntryFixedSize + static_cast<size_t>(body_length) + static_cast<size_t>(props_length);
    if (total_size < 0 || static_cast<size_t>(total_size) != expected) {
      return bad("TOTALSIZE " + std::to_string(total_size) + " but the fields take " +
                 std::to_string(expected) + " bytes");
    }
    entries.push_back(entry);
  }
  if (entries.empty()) return Status::InvalidArgument("batch body holds no message");
  return entries;
}

Result<std::string> EncodeBatchBody(const std::vector<Message>& messages) {
  std::string out;
  ByteWriter w(&out);
  for (size_t i = 0; i < messages.size(); ++i) {
    const Message& m = messages[i];
    const std::string props = m.properties.Encode();
    if (props.size() > kMaxPropertiesLength) {
      return Status::InvalidArgument("batch message " + std::to_string(i) + ": properties of " +
                                     std::to_string(props.size()) + " bytes exceed " +
                                     std::to_string(kMaxPropertiesLength));
    }
    const size_t total = kBatchEntryFixedSize + m.body.size() + props.size();
    if (total > 0x7FFFFFFF) {
      return Status::InvalidArgument("batch message " + std::to_string(i) + " is too large");
    }
    w.PutI32(static_cast<int32_t>(total));
    w.PutI32(0);  // MAGICCODE: unused in a batch body
    w.PutI32(0);  // BODYCRC: the broker computes it
    w.PutI32(m.flag);
    w.PutI32(static_cast<int32_t>(m.body.size()));
    w.PutBytes(m.body);
    w.PutI16(static_cast<int16_t>(props.size()));
    w.PutBytes(props);
  }
  return out;
}

std::string MergeBatchProperties(std::string_view own, const MessageProperties& batch) {
  std::string out(own);
  bool appended = false;
  for (const auto& [key, value] : batch) {
    if (key == kPropertyUniqClientMessageIdKeyIdx) continue;
    if (!appended && !out.empty() && out.back() != kPropertySeparator) {
      out.push_back(kPropertySeparator);
    }
    appended = true;
    out += key;
    out.push_back(kNameValueSeparator);
    out += value;
    out.push_back(kPropertySeparator);
  }
  return out;
}

}  // namespace apogee::message
