// libFuzzer target for the message module's decoders on arbitrary bytes: the stored-record
// decoder (store and client modes, as a reput-style scan), the properties codec, the
// SEND_BATCH_MESSAGE body codec and the id parsers. Besides "no crash, no UB", it checks
// round-trip invariants: a record that decodes strictly re-encodes to the same bytes, and
// decoded properties and batches survive encode + decode unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "message/batch.h"
#include "message/host_address.h"
#include "message/message_id.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "message/uniq_key.h"

namespace {

using namespace apogee::message;  // NOLINT: a fuzz driver

void Check(bool ok) {
  if (!ok) std::abort();
}

void FuzzRecords(const uint8_t* data, size_t size) {
  // A reput-style scan of a "mapped file": advance record by record until the first non-record.
  size_t pos = 0;
  for (int i = 0; i < 64 && pos < size; ++i) {
    DecodeOptions strict;
    strict.check_crc = (i % 2) == 0;
    RecordDecodeResult r = DecodeRecord(data + pos, size - pos, strict);
    if (r.status == RecordStatus::kBlank) {
      Check(r.size >= 8);
      break;
    }
    if (r.status != RecordStatus::kMessage) break;
    Check(r.size > 0 && r.size <= size - pos);
    const RecordView& v = r.record;
    // Strictly valid records re-encode byte for byte.
    RecordFields f;
    f.queue_id = v.queue_id;
    f.flag = v.flag;
    f.queue_offset = v.queue_offset;
    f.physical_offset = v.physical_offset;
    f.sys_flag = v.sys_flag;
    f.born_timestamp = v.born_timestamp;
    f.born_host = v.born_host;
    f.store_timestamp = v.store_timestamp;
    f.store_host = v.store_host;
    f.reconsume_times = v.reconsume_times;
    f.prepared_transaction_offset = v.prepared_transaction_offset;
    f.body = v.body;
    f.topic = v.topic;
    f.properties = v.properties;
    f.body_crc = static_cast<uint32_t>(v.body_crc);
    auto encoded = EncodeRecordToString(f, v.version);
    Check(encoded.ok());
    Check(std::string_view(*encoded) ==
          std::string_view(reinterpret_cast<const char*>(data + pos), r.size));
    auto msg = ToMessageExt(v, /*decompress=*/true);
    if (msg.ok()) Check(!msg->offset_msg_id.empty());
    pos += r.size;
  }
  // The client decoder over the whole input.
  auto msgs = DecodeMessages(std::string_view(reinterpret_cast<const char*>(data), size));
  if (msgs.ok()) {
    // Built in place, the messages equal what decoding the records one by one gives.
    DecodeOptions client;
    client.strict_size = false;
    size_t at = 0;
    for (const MessageExt& m : *msgs) {
      RecordDecodeResult one = DecodeRecord(data + at, size - at, client);
      Check(one.status == RecordStatus::kMessage);
      auto expected = ToMessageExt(one.record, /*decompress=*/true);
      Check(expected.ok());
      Check(m.body == expected->body && m.topic == expected->topic &&
            m.properties == expected->properties && m.offset_msg_id == expected->offset_msg_id &&
            m.queue_offset == expected->queue_offset && m.sys_flag == expected->sys_flag &&
            m.store_size == expected->store_size);
      at += one.size;
    }
    Check(at == size);
  }
  DecodeOptions lenient;
  lenient.strict_size = false;
  lenient.read_body = false;
  RecordDecodeResult r = DecodeRecord(data, size, lenient);
  if (r.status == RecordStatus::kMessage) Check(r.size <= size);
}

void FuzzProperties(std::string_view text) {
  MessageProperties props = MessageProperties::Decode(text);
  const std::string encoded = props.Encode();
  Check(encoded.size() == props.EncodedSize());
  Check(MessageProperties::Decode(encoded) == props);
  for (const auto& [key, value] : props) Check(FindProperty(text, key) == std::string_view(value));
  MessageProperties taken = props;
  const std::vector<MessageProperties::Entry> entries = taken.TakeEntries();
  Check(taken.empty() && entries == props.entries());
  Check(!taken.Get(entries.empty() ? std::string_view("k") : std::string_view(entries[0].first)));
}

void FuzzBatch(std::string_view body) {
  auto entries = DecodeBatchBody(body);
  if (!entries.ok()) return;
  std::vector<Message> messages;
  for (const BatchEntry& e : *entries) {
    Message m;
    m.flag = e.flag;
    m.body.assign(e.body);
    m.properties = MessageProperties::Decode(e.properties);
    messages.push_back(std::move(m));
  }
  auto again = EncodeBatchBody(messages);
  Check(again.ok());
  auto back = DecodeBatchBody(*again);
  Check(back.ok() && back->size() == entries->size());
  for (size_t i = 0; i < back->size(); ++i) {
    Check((*back)[i].flag == (*entries)[i].flag && (*back)[i].body == (*entries)[i].body);
  }
}

void FuzzIds(std::string_view text) {
  auto id = ParseOffsetMsgId(text.substr(0, 56));
  if (id.ok()) Check(ParseOffsetMsgId(CreateOffsetMsgId(id->store_host, id->physical_offset)).ok());
  (void)ParseOffsetMsgId(text.substr(0, 32));
  (void)ParseUniqKey(text.substr(0, 32));
  auto host = HostAddress::Parse(text.substr(0, 64));
  if (host.ok()) {
    auto again = HostAddress::Parse(host->ToString());
    Check(again.ok() && *again == *host);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  FuzzRecords(data, size);
  FuzzProperties(text);
  FuzzBatch(text);
  FuzzIds(text);
  return 0;
}
