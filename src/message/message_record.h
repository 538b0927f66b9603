// The stored message record: one CommitLog entry, and the unit of PULL_MESSAGE,
// QUERY_MESSAGE and VIEW_MESSAGE_BY_ID bodies. Layout and constants: message_format.h and
// docs/format/message_record.md.
//
// Writing: always the V1 layout (every client can read it; 4.x clients cannot read V2).
// RecordSize() validates the fields and reports the exact size first, so the CommitLog can
// decide whether the record fits the current mapped file (or needs a BLANK and a roll), then
// EncodeRecord() writes straight into the mapped memory. The body CRC is computed here
// (masked zlib CRC-32 of the body as stored), and sysFlag's IPv6 bits are derived from the
// hosts, so a record can never disagree with itself.
//
// Reading: DecodeRecord() accepts V1 and V2 magic codes and IPv4/IPv6 hosts (sysFlag bits
// 4 and 5) and returns a typed outcome instead of Java's 0/-1 sizes: a message, a BLANK
// end-of-file filler, the end of written data (zeros), a truncated record, or corruption with
// a reason naming the field. The decoded view points into the caller's buffer (no copies).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "message/host_address.h"
#include "message/message.h"

namespace apogee::message {

enum class RecordVersion { kV1, kV2 };

// The inputs of one record. Views must stay valid during the encode call.
struct RecordFields {
  int32_t queue_id = 0;
  int32_t flag = 0;
  int64_t queue_offset = 0;
  int64_t physical_offset = 0;
  // Bits kBornHostV6Flag / kStoreHostV6Flag are overwritten from the hosts' families.
  int32_t sys_flag = 0;
  int64_t born_timestamp = 0;
  HostAddress born_host;
  int64_t store_timestamp = 0;
  HostAddress store_host;
  int32_t reconsume_times = 0;
  int64_t prepared_transaction_offset = 0;
  std::string_view body;        // as stored: already compressed when sys_flag has bit 0
  std::string_view topic;       // UTF-8
  std::string_view properties;  // an encoded property string (MessageProperties::Encode)
  // Stored right after `properties`, as one property string with it: the broker's own pieces
  // added to a client's text without joining them into a new string first.
  std::string_view properties_tail;
  // The masked body CRC when the caller already has it (e.g. computed outside a lock);
  // computed from `body` when absent.
  std::optional<uint32_t> body_crc;
};

// The stored property string's length: properties plus properties_tail.
inline size_t PropertiesSize(const RecordFields& fields) {
  return fields.properties.size() + fields.properties_tail.size();
}

// The exact size EncodeRecord will write, after checking every length against the format:
// topic at most 127 bytes (V1) or 32767 (V2), properties at most 32767 bytes, the whole
// record within int32. InvalidArgument names the field and both numbers.
Result<size_t> RecordSize(const RecordFields& fields, RecordVersion version = RecordVersion::kV1);

// Encodes into `dst`, which has `capacity` bytes; writes exactly RecordSize() bytes and
// returns that size. Fails (writing nothing) when the fields are invalid or capacity is short.
Result<size_t> EncodeRecord(const RecordFields& fields, uint8_t* dst, size_t capacity,
                            RecordVersion version = RecordVersion::kV1);
// Convenience: the record as a new string.
Result<std::string> EncodeRecordToString(const RecordFields& fields,
                                         RecordVersion version = RecordVersion::kV1);
// The fields of a MessageExt (properties encoded into `*properties_storage`, which must
// outlive the returned views). Java's MessageDecoder.encode: used for CHECK_TRANSACTION_STATE
// and for re-storing a message (retry, DLQ, schedule).
RecordFields RecordFieldsFromMessageExt(const MessageExt& msg, std::string* properties_storage);

// In-place updates of an encoded record, for a CommitLog that encodes before it knows the
// final position (Java patches the same three fields under its put lock).
void PatchQueueOffset(uint8_t* record, int64_t queue_offset);
void PatchPhysicalOffset(uint8_t* record, int64_t physical_offset);
// Locates STORETIMESTAMP through the record's sysFlag (born host width).
void PatchStoreTimestamp(uint8_t* record, int64_t store_timestamp);

// Writes the 8-byte BLANK filler: int32 `blank_length` (bytes from here to the file end),
// then the BLANK magic code. `dst` must have kBlankRecordSize bytes.
void EncodeBlank(uint8_t* dst, int32_t blank_length);

// ---- Decoding ----

enum class RecordStatus {
  kMessage,    // a message record; `size` bytes to the next record
  kBlank,      // end-of-file filler; `size` = bytes from here to the end of the file
  kEndOfData,  // nothing written here: no bytes left, or a header of zeros
  kTruncated,  // the bytes end inside a record (torn tail or short buffer)
  kCorrupt,    // the bytes are not a valid record; `reason` says why
};

std::string_view RecordStatusName(RecordStatus status);

struct DecodeOptions {
  // Expose the body (the record is still fully validated when false).
  bool read_body = true;
  // Verify BODYCRC against the body (recovery with checkCRCOnRecover).
  bool check_crc = false;
  // true (store): TOTALSIZE must equal the sum of the field lengths and lie within the
  // available bytes, as Java's recovery requires. false (client): read the fields in order
  // as Java's MessageDecoder.decode does and ignore TOTALSIZE; `size` is then the bytes the
  // fields took.
  bool strict_size = true;
  // A TOTALSIZE above this is corruption (guards against a garbage length).
  size_t max_record_size = 0x7FFFFFFF;
};

// A decoded record; the string views point into the decoded buffer.
struct RecordView {
  int32_t total_size = 0;  // TOTALSIZE as stored
  uint32_t magic_code = 0;
  RecordVersion version = RecordVersion::kV1;
  int32_t body_crc = 0;
  int32_t queue_id = 0;
  int32_t flag = 0;
  int64_t queue_offset = 0;
  int64_t physical_offset = 0;
  int32_t sys_flag = 0;
  int64_t born_timestamp = 0;
  HostAddress born_host;
  int64_t store_timestamp = 0;
  HostAddress store_host;
  int32_t reconsume_times = 0;
  int64_t prepared_transaction_offset = 0;
  int32_t body_length = 0;
  std::string_view body;  // empty unless DecodeOptions::read_body
  std::string_view topic;
  std::string_view properties;
};

struct RecordDecodeResult {
  RecordStatus status = RecordStatus::kEndOfData;
  size_t size = 0;     // see RecordStatus
  RecordView record;   // valid when status == kMessage
  std::string reason;  // for kTruncated and kCorrupt: what is wrong, with numbers
};

// Decodes the record starting at `data`, with `available` bytes readable from there (to the
// end of the mapped file or of the response body).
RecordDecodeResult DecodeRecord(const uint8_t* data, size_t available,
                                const DecodeOptions& options = {});

// A MessageExt with owned copies of a decoded record's data, properties parsed and the offset
// msgId set. With `decompress`, a compressed body (sysFlag bit 0) is inflated and the
// flag bit cleared, as Java's client decoder does; LZ4/ZSTD bodies are NotSupported.
Result<MessageExt> ToMessageExt(const RecordView& record, bool decompress = true);

// Decodes a whole PULL/QUERY response body: records back to back, nothing after the last.
// Client semantics (strict_size = false, as MessageDecoder.decodes). Any byte that does not
// decode is a Corruption naming the record index and byte offset.
Result<std::vector<MessageExt>> DecodeMessages(std::string_view body, bool decompress = true);

}  // namespace apogee::message
