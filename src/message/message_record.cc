#include "message/message_record.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "base/coding.h"
#include "base/crc32.h"
#include "message/compression.h"
#include "message/message_format.h"
#include "message/message_id.h"

namespace apogee::message {
namespace {

int32_t HostFlags(const RecordFields& f) {
  int32_t flags = f.sys_flag & ~(kBornHostV6Flag | kStoreHostV6Flag);
  if (f.born_host.ipv6) flags |= kBornHostV6Flag;
  if (f.store_host.ipv6) flags |= kStoreHostV6Flag;
  return flags;
}

size_t BornHostLength(int32_t sys_flag) {
  return (sys_flag & kBornHostV6Flag) ? kIPv6HostLength : kIPv4HostLength;
}
size_t StoreHostLength(int32_t sys_flag) {
  return (sys_flag & kStoreHostV6Flag) ? kIPv6HostLength : kIPv4HostLength;
}

// Fixed part of a record (everything but body, topic and properties bytes).
size_t FixedSize(size_t born_host_len, size_t store_host_len, RecordVersion version) {
  return kRecordFixedSizeV1IPv4 + (born_host_len - kIPv4HostLength) +
         (store_host_len - kIPv4HostLength) +
         (version == RecordVersion::kV2 ? kTopicLengthSizeV2 - kTopicLengthSizeV1 : 0);
}

// A cursor writing big-endian fields into a region already known to be large enough.
class Cursor {
 public:
  explicit Cursor(uint8_t* p) : p_(p) {}
  void I8(int8_t v) { *p_++ = static_cast<uint8_t>(v); }
  void I16(int16_t v) {
    EncodeFixed16(p_, static_cast<uint16_t>(v));
    p_ += 2;
  }
  void I32(int32_t v) {
    EncodeFixed32(p_, static_cast<uint32_t>(v));
    p_ += 4;
  }
  void I64(int64_t v) {
    EncodeFixed64(p_, static_cast<uint64_t>(v));
    p_ += 8;
  }
  void Host(const HostAddress& h) {
    h.EncodeTo(p_);
    p_ += h.encoded_length();
  }
  void Bytes(std::string_view s) {
    if (!s.empty()) std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  uint8_t* position() const { return p_; }

 private:
  uint8_t* p_;
};

RecordDecodeResult Fail(RecordStatus status, std::string reason) {
  RecordDecodeResult r;
  r.status = status;
  r.reason = std::move(reason);
  return r;
}

bool AllZero(const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

std::string Hex32(uint32_t v) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string s = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) s.push_back(kDigits[(v >> shift) & 0xF]);
  return s;
}

}  // namespace

Result<size_t> RecordSize(const RecordFields& f, RecordVersion version) {
  const size_t max_topic = version == RecordVersion::kV1 ? kMaxTopicLengthV1 : kMaxTopicLengthV2;
  if (f.topic.size() > max_topic) {
    return Status::InvalidArgument("topic of " + std::to_string(f.topic.size()) +
                                   " bytes exceeds the " + std::to_string(max_topic) +
                                   "-byte limit of a " +
                                   (version == RecordVersion::kV1 ? "V1" : "V2") + " record");
  }
  const size_t properties_size = PropertiesSize(f);
  if (properties_size > kMaxPropertiesLength) {
    return Status::InvalidArgument("properties of " + std::to_string(properties_size) +
                                   " bytes exceed the " + std::to_string(kMaxPropertiesLength) +
                                   "-byte limit");
  }
  const size_t size =
      FixedSize(f.born_host.encoded_length(), f.store_host.encoded_length(), version) +
      f.body.size() + f.topic.size() + properties_size;
  if (f.body.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()) ||
      size > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::InvalidArgument("record of " + std::to_string(size) +
                                   " bytes does not fit TOTALSIZE (int32)");
  }
  return size;
}

Result<size_t> EncodeRecord(const RecordFields& f, uint8_t* dst, size_t capacity,
                            RecordVersion version) {
  APOGEE_ASSIGN_OR_RETURN(size_t size, RecordSize(f, version));
  if (capacity < size) {
    return Status::InvalidArgument("record of " + std::to_string(size) + " bytes does not fit " +
                                   std::to_string(capacity) + " bytes");
  }
  const uint32_t crc = f.body_crc.has_value() ? *f.body_crc : Crc32Masked(f.body);
  Cursor c(dst);
  c.I32(static_cast<int32_t>(size));
  c.I32(static_cast<int32_t>(version == RecordVersion::kV1 ? kMagicCodeV1 : kMagicCodeV2));
  c.I32(static_cast<int32_t>(crc));
  c.I32(f.queue_id);
  c.I32(f.flag);
  c.I64(f.queue_offset);
  c.I64(f.physical_offset);
  c.I32(HostFlags(f));
  c.I64(f.born_timestamp);
  c.Host(f.born_host);
  c.I64(f.store_timestamp);
  c.Host(f.store_host);
  c.I32(f.reconsume_times);
  c.I64(f.prepared_transaction_offset);
  c.I32(static_cast<int32_t>(f.body.size()));
  c.Bytes(f.body);
  if (version == RecordVersion::kV1) {
    c.I8(static_cast<int8_t>(f.topic.size()));
  } else {
    c.I16(static_cast<int16_t>(f.topic.size()));
  }
  c.Bytes(f.topic);
  c.I16(static_cast<int16_t>(PropertiesSize(f)));
  c.Bytes(f.properties);
  c.Bytes(f.properties_tail);
  return size;
}

Result<std::string> EncodeRecordToString(const RecordFields& fields, RecordVersion version) {
  APOGEE_ASSIGN_OR_RETURN(size_t size, RecordSize(fields, version));
  std::string out(size, '\0');
  APOGEE_RETURN_IF_ERROR(
      EncodeRecord(fields, reinterpret_cast<uint8_t*>(out.data()), out.size(), version).status());
  return out;
}

RecordFields RecordFieldsFromMessageExt(const MessageExt& msg, std::string* properties_storage) {
  *properties_storage = msg.properties.Encode();
  RecordFields f;
  f.queue_id = msg.queue_id;
  f.flag = msg.flag;
  f.queue_offset = msg.queue_offset;
  f.physical_offset = msg.commit_log_offset;
  f.sys_flag = msg.sys_flag;
  f.born_timestamp = msg.born_timestamp;
  f.born_host = msg.born_host;
  f.store_timestamp = msg.store_timestamp;
  f.store_host = msg.store_host;
  f.reconsume_times = msg.reconsume_times;
  f.prepared_transaction_offset = msg.prepared_transaction_offset;
  f.body = msg.body;
  f.topic = msg.topic;
  f.properties = *properties_storage;
  return f;
}

void PatchQueueOffset(uint8_t* record, int64_t queue_offset) {
  EncodeFixed64(record + kQueueOffsetOffset, static_cast<uint64_t>(queue_offset));
}

void PatchPhysicalOffset(uint8_t* record, int64_t physical_offset) {
  EncodeFixed64(record + kPhysicalOffsetOffset, static_cast<uint64_t>(physical_offset));
}

void PatchStoreTimestamp(uint8_t* record, int64_t store_timestamp) {
  const auto sys_flag = static_cast<int32_t>(DecodeFixed32(record + kSysFlagOffset));
  EncodeFixed64(record + kBornHostOffset + BornHostLength(sys_flag),
                static_cast<uint64_t>(store_timestamp));
}

void EncodeBlank(uint8_t* dst, int32_t blank_length) {
  EncodeFixed32(dst + kTotalSizeOffset, static_cast<uint32_t>(blank_length));
  EncodeFixed32(dst + kMagicCodeOffset, kBlankMagicCode);
}

std::string_view RecordStatusName(RecordStatus status) {
  switch (status) {
    case RecordStatus::kMessage:
      return "message";
    case RecordStatus::kBlank:
      return "blank";
    case RecordStatus::kEndOfData:
      return "end-of-data";
    case RecordStatus::kTruncated:
      return "truncated";
    case RecordStatus::kCorrupt:
      return "corrupt";
  }
  return "unknown";
}

RecordDecodeResult DecodeRecord(const uint8_t* data, size_t available,
                                const DecodeOptions& options) {
  if (available == 0) return Fail(RecordStatus::kEndOfData, "");
  if (available < kBlankRecordSize) {
    if (AllZero(data, available)) return Fail(RecordStatus::kEndOfData, "");
    return Fail(RecordStatus::kTruncated, "only " + std::to_string(available) +
                                              " bytes left, a record header needs " +
                                              std::to_string(kBlankRecordSize));
  }
  const auto total_size = static_cast<int32_t>(DecodeFixed32(data + kTotalSizeOffset));
  const uint32_t magic = DecodeFixed32(data + kMagicCodeOffset);
  if (total_size == 0 && magic == 0) return Fail(RecordStatus::kEndOfData, "");

  if (magic == kBlankMagicCode) {
    if (total_size < static_cast<int32_t>(kBlankRecordSize)) {
      return Fail(RecordStatus::kCorrupt, "BLANK filler with length " + std::to_string(total_size) +
                                              ", less than " + std::to_string(kBlankRecordSize));
    }
    RecordDecodeResult r;
    r.status = RecordStatus::kBlank;
    r.size = static_cast<size_t>(total_size);
    return r;
  }
  if (magic != kMagicCodeV1 && magic != kMagicCodeV2) {
    return Fail(RecordStatus::kCorrupt, "unknown magic code " + Hex32(magic) +
                                            " (TOTALSIZE field " + std::to_string(total_size) +
                                            ")");
  }
  const RecordVersion version = magic == kMagicCodeV1 ? RecordVersion::kV1 : RecordVersion::kV2;

  size_t limit = available;  // bytes the field reader may use
  if (options.strict_size) {
    if (total_size < static_cast<int32_t>(kRecordFixedSizeV1IPv4) ||
        static_cast<size_t>(total_size) > options.max_record_size) {
      return Fail(RecordStatus::kCorrupt, "TOTALSIZE " + std::to_string(total_size) + " outside [" +
                                              std::to_string(kRecordFixedSizeV1IPv4) + ", " +
                                              std::to_string(options.max_record_size) + "]");
    }
    if (static_cast<size_t>(total_size) > available) {
      return Fail(RecordStatus::kTruncated, "record of " + std::to_string(total_size) +
                                                " bytes but only " + std::to_string(available) +
                                                " bytes available");
    }
    limit = static_cast<size_t>(total_size);
  }

  // Past the known size, a short read is corruption in strict mode (TOTALSIZE lies) and a
  // truncated buffer in client mode.
  const RecordStatus short_read =
      options.strict_size ? RecordStatus::kCorrupt : RecordStatus::kTruncated;
  auto short_field = [&](std::string_view field, size_t at) {
    return Fail(short_read, std::string(field) + " at byte " + std::to_string(at) +
                                " runs past the " +
                                (options.strict_size ? "record's TOTALSIZE " : "available ") +
                                std::to_string(limit) + " bytes");
  };

  RecordDecodeResult r;
  RecordView& v = r.record;
  v.total_size = total_size;
  v.magic_code = magic;
  v.version = version;
  ByteReader in(data, limit);
  in.Skip(8);
  if (!in.ReadI32(&v.body_crc) || !in.ReadI32(&v.queue_id) || !in.ReadI32(&v.flag) ||
      !in.ReadI64(&v.queue_offset) || !in.ReadI64(&v.physical_offset) || !in.ReadI32(&v.sys_flag) ||
      !in.ReadI64(&v.born_timestamp)) {
    return short_field("fixed header", in.position());
  }
  const size_t born_len = BornHostLength(v.sys_flag);
  if (in.remaining() < born_len) return short_field("BORNHOST", in.position());
  v.born_host = HostAddress::DecodeFrom(in.current(), (v.sys_flag & kBornHostV6Flag) != 0);
  in.Skip(born_len);
  if (!in.ReadI64(&v.store_timestamp)) return short_field("STORETIMESTAMP", in.position());
  const size_t store_len = StoreHostLength(v.sys_flag);
  if (in.remaining() < store_len) return short_field("STOREHOSTADDRESS", in.position());
  v.store_host = HostAddress::DecodeFrom(in.current(), (v.sys_flag & kStoreHostV6Flag) != 0);
  in.Skip(store_len);
  if (!in.ReadI32(&v.reconsume_times) || !in.ReadI64(&v.prepared_transaction_offset) ||
      !in.ReadI32(&v.body_length)) {
    return short_field("RECONSUMETIMES/PREPARED OFFSET/BODY length", in.position());
  }
  if (v.body_length < 0) {
    return Fail(RecordStatus::kCorrupt, "negative BODY length " + std::to_string(v.body_length));
  }
  std::string_view body;
  if (!in.ReadBytes(static_cast<size_t>(v.body_length), &body)) {
    return short_field("BODY of " + std::to_string(v.body_length) + " bytes", in.position());
  }
  int32_t topic_length;
  if (version == RecordVersion::kV1) {
    int8_t len8;
    if (!in.ReadI8(&len8)) return short_field("TOPIC length", in.position());
    topic_length = len8;  // a Java byte: signed
  } else {
    int16_t len16;
    if (!in.ReadI16(&len16)) return short_field("TOPIC length", in.position());
    topic_length = len16;
  }
  if (topic_length < 0) {
    return Fail(RecordStatus::kCorrupt, "negative TOPIC length " + std::to_string(topic_length));
  }
  if (!in.ReadBytes(static_cast<size_t>(topic_length), &v.topic)) {
    return short_field("TOPIC of " + std::to_string(topic_length) + " bytes", in.position());
  }
  int16_t props_length;
  if (!in.ReadI16(&props_length)) return short_field("PROPERTIES length", in.position());
  if (props_length < 0) {
    return Fail(RecordStatus::kCorrupt,
                "negative PROPERTIES length " + std::to_string(props_length));
  }
  if (!in.ReadBytes(static_cast<size_t>(props_length), &v.properties)) {
    return short_field("PROPERTIES of " + std::to_string(props_length) + " bytes", in.position());
  }
  if (options.strict_size && in.position() != static_cast<size_t>(total_size)) {
    return Fail(RecordStatus::kCorrupt, "TOTALSIZE is " + std::to_string(total_size) +
                                            " but the fields take " +
                                            std::to_string(in.position()) + " bytes");
  }
  if (options.check_crc) {
    const uint32_t crc = Crc32Masked(body);
    if (crc != static_cast<uint32_t>(v.body_crc)) {
      return Fail(RecordStatus::kCorrupt, "BODYCRC mismatch: stored " +
                                              std::to_string(static_cast<uint32_t>(v.body_crc)) +
                                              ", computed " + std::to_string(crc));
    }
  }
  if (options.read_body) v.body = body;
  r.status = RecordStatus::kMessage;
  r.size = in.position();
  return r;
}

namespace {

// Fills `msg` (fresh) from the record; DecodeMessages builds each message in its vector slot so
// that no MessageExt (264 bytes of strings, properties and fields) is moved after it is made.
Status FillMessageExt(const RecordView& record, bool decompress, MessageExt* msg) {
  msg->topic.assign(record.topic);
  msg->flag = record.flag;
  msg->properties = MessageProperties::Decode(record.properties);
  msg->store_size = record.total_size;
  msg->queue_id = record.queue_id;
  msg->queue_offset = record.queue_offset;
  msg->commit_log_offset = record.physical_offset;
  msg->sys_flag = record.sys_flag;
  msg->born_timestamp = record.born_timestamp;
  msg->born_host = record.born_host;
  msg->store_timestamp = record.store_timestamp;
  msg->store_host = record.store_host;
  msg->body_crc = record.body_crc;
  msg->reconsume_times = record.reconsume_times;
  msg->prepared_transaction_offset = record.prepared_transaction_offset;
  msg->offset_msg_id.resize(record.store_host.ipv6 ? kOffsetMsgIdLengthIPv6
                                                   : kOffsetMsgIdLengthIPv4);
  CreateOffsetMsgIdTo(record.store_host, record.physical_offset, msg->offset_msg_id.data());
  if (decompress && (record.sys_flag & kCompressedFlag) != 0) {
    Result<std::string> inflated = DecompressBody(record.body, record.sys_flag);
    if (!inflated.ok()) {
      return inflated.status().Prefixed("message at physical offset " +
                                        std::to_string(record.physical_offset));
    }
    msg->body = std::move(inflated).value();
    msg->sys_flag &= ~kCompressedFlag;
  } else {
    msg->body.assign(record.body);
  }
  return Status::OK();
}

}  // namespace

Result<MessageExt> ToMessageExt(const RecordView& record, bool decompress) {
  MessageExt msg;
  APOGEE_RETURN_IF_ERROR(FillMessageExt(record, decompress, &msg));
  return msg;
}

Result<std::vector<MessageExt>> DecodeMessages(std::string_view body, bool decompress) {
  std::vector<MessageExt> out;
  DecodeOptions options;
  options.strict_size = false;
  const auto* data = reinterpret_cast<const uint8_t*>(body.data());
  size_t pos = 0;
  while (pos < body.size()) {
    RecordDecodeResult r = DecodeRecord(data + pos, body.size() - pos, options);
    if (r.status != RecordStatus::kMessage) {
      return Status::Corruption("record " + std::to_string(out.size()) + " at byte " +
                                std::to_string(pos) + " of " + std::to_string(body.size()) +
                                " is " + std::string(RecordStatusName(r.status)) +
                                (r.reason.empty() ? "" : ": " + r.reason));
    }
    if (out.empty()) {
      // The records of one answer are mostly alike in size: room for as many as the first
      // one's size fits, so 32 messages cost one allocation here instead of six and 31 moves.
      // Capped: a message takes about three times the bytes of a minimal record, so a large
      // answer of small records (or one small record before garbage) would reserve megabytes
      // before anything is decoded; past the cap the vector grows as usual.
      constexpr size_t kMaxReserved = 1024;  // Java's largest pullBatchSize
      out.reserve(std::min(kMaxReserved,
                           body.size() / std::max<size_t>(r.size, kRecordFixedSizeV1IPv4) + 1));
    }
    APOGEE_RETURN_IF_ERROR(FillMessageExt(r.record, decompress, &out.emplace_back()));
    pos += r.size;
  }
  return out;
}

}  // namespace apogee::message
