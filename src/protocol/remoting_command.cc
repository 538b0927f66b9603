#include "protocol/remoting_command.h"

#include <array>
#include <cassert>
#include <cstring>
#include <string>
#include <vector>

#include "base/coding.h"
#include "protocol/json_header_codec.h"
#include "protocol/kept_buffers.h"
#include "protocol/remoting_format.h"
#include "protocol/rocketmq_header_codec.h"

namespace apogee::protocol {
namespace {

// Indexed by LanguageCode (RQ:rp/LanguageCode.java enum names).
constexpr std::array<std::string_view, 14> kLanguageNames = {
    "JAVA",  "CPP",  "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY",
    "OTHER", "HTTP", "GO",     "PHP",    "OMS",    "RUST",   "NODE_JS",
};

void EncodeHeaderInto(const RemotingCommand& command, SerializeType type, std::string* out) {
  if (type == SerializeType::kRocketMQ) {
    EncodeRocketMQHeader(command, out);
  } else {
    EncodeJsonHeader(command, out);
  }
}

// Bytes of a JSON header beyond its ext field keys and values (the fixed members, their
// names and punctuation; about 110 today), and per ext field (quotes, colon, comma).
constexpr size_t kEncodedHeaderOverhead = 160;
constexpr size_t kEncodedFieldOverhead = 6;
// Ext fields reserved on the first Set: a send request has 13 (V2, Java 4.9), its answer 6.
// With 8, every send request's decode grew the vector once more (an allocation, a free and
// the move of 8 pairs: ~500 instructions, callgrind).
constexpr size_t kTypicalFieldCount = 16;

// Entry vectors a thread keeps for its next decodes (ExtFields::Recycle): one per command
// in flight on the thread between its decode and its processor's end, which inline is one.
constexpr size_t kMaxKeptEntryVectors = 4;
constexpr size_t kMaxKeptEntryRoom = 64;

std::vector<std::vector<ExtFields::Entry>>& KeptEntryVectors() {
  thread_local std::vector<std::vector<ExtFields::Entry>> kept;
  return kept;
}

bool TakeKeptEntries(std::vector<ExtFields::Entry>* out) {
  auto& kept = KeptEntryVectors();
  if (kept.empty()) return false;
  out->swap(kept.back());
  kept.pop_back();
  return true;
}

// `entries` must be empty.
void KeepEntries(std::vector<ExtFields::Entry>* entries) {
  const size_t room = entries->capacity();
  if (room < kTypicalFieldCount || room > kMaxKeptEntryRoom) return;
  auto& kept = KeptEntryVectors();
  if (kept.size() >= kMaxKeptEntryVectors) return;
  if (kept.capacity() == 0) kept.reserve(kMaxKeptEntryVectors);
  kept.push_back(std::move(*entries));
  entries->clear();
}

}  // namespace

std::string_view LanguageName(LanguageCode code) {
  const auto index = static_cast<size_t>(code);
  return index < kLanguageNames.size() ? kLanguageNames[index] : "OTHER";
}

LanguageCode LanguageFromName(std::string_view name) {
  for (size_t i = 0; i < kLanguageNames.size(); ++i) {
    if (kLanguageNames[i] == name) return static_cast<LanguageCode>(i);
  }
  return LanguageCode::kOther;
}

LanguageCode LanguageFromCode(uint8_t code) {
  return code < kLanguageNames.size() ? static_cast<LanguageCode>(code) : LanguageCode::kOther;
}

namespace {
// KeyIndex::Find for a map too small to be indexed (fewer than KeyIndex::kIndexFrom entries,
// which is when KeyIndex searches linearly anyway). Most keys are one or two letters (V2 send
// headers: "a" to "n"), so equal lengths are the rule and the first byte settles nearly every
// comparison without a memcmp call: a send's header decode compared 80 keys this way.
bool KeyEquals(const std::string& held, std::string_view key) {
  if (held.size() != key.size()) return false;
  if (key.empty()) return true;
  return held[0] == key[0] &&
         (key.size() == 1 || std::memcmp(held.data() + 1, key.data() + 1, key.size() - 1) == 0);
}

size_t FindUnindexed(const std::vector<ExtFields::Entry>& entries, std::string_view key) {
  for (size_t i = 0; i < entries.size(); ++i) {
    if (KeyEquals(entries[i].first, key)) return i;
  }
  return KeyIndex::npos;
}

size_t FindIn(const std::vector<ExtFields::Entry>& entries, const KeyIndex& index,
              std::string_view key) {
  return entries.size() < KeyIndex::kIndexFrom ? FindUnindexed(entries, key)
                                               : index.Find(entries, key);
}
}  // namespace

uint64_t ExtFields::KeyBit(std::string_view key) {
  if (key.empty()) return 1;
  // One-letter keys (a V2 send header's "a" to "n") land on 14 different bits.
  const size_t mix = key.size() * 7 + static_cast<unsigned char>(key.front()) * 4 +
                     static_cast<unsigned char>(key.back()) * 13;
  return uint64_t{1} << (mix & 63);
}

void ExtFields::Set(std::string_view key, std::string value) {
  const size_t at = MayHold(key) ? FindIn(entries_, index_, key) : KeyIndex::npos;
  if (at != KeyIndex::npos) {
    entries_[at].second = std::move(value);
    return;
  }
  // Room for a typical header at once: growing one by one reallocated four or five times per
  // command.
  if (entries_.empty() && entries_.capacity() < kTypicalFieldCount) {
    if (!TakeKeptEntries(&entries_)) entries_.reserve(kTypicalFieldCount);
  }
  entries_.emplace_back(std::string(key), std::move(value));
  index_.Added(entries_);
  key_filter_ |= KeyBit(key);
}

void ExtFields::Recycle() {
  for (Entry& entry : entries_) KeepText(&entry.second);
  clear();
  KeepEntries(&entries_);
}

void RecycleCommand(RemotingCommand* command) {
  KeepBody(&command->body);
  KeepText(&command->json_ext_fields);
  command->ext_fields.Recycle();
}

std::optional<std::string_view> ExtFields::Get(std::string_view key) const {
  if (!MayHold(key)) return std::nullopt;
  const size_t at = FindIn(entries_, index_, key);
  if (at == KeyIndex::npos) return std::nullopt;
  return std::string_view(entries_[at].second);
}

size_t ExtFields::FindNear(std::string_view key, size_t* hint) const {
  if (!MayHold(key)) return npos;
  const size_t n = entries_.size();
  if (n >= KeyIndex::kIndexFrom) return index_.Find(entries_, key);
  const size_t start = *hint < n ? *hint : 0;
  for (size_t step = 0; step < n; ++step) {
    const size_t at = start + step < n ? start + step : start + step - n;
    if (KeyEquals(entries_[at].first, key)) {
      *hint = at + 1;
      return at;
    }
  }
  return npos;
}

bool ExtFields::Erase(std::string_view key) {
  if (!MayHold(key)) return false;
  const size_t at = FindIn(entries_, index_, key);
  if (at == KeyIndex::npos) return false;
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(at));
  index_.Rebuild(entries_);
  return true;
}

size_t BodySegments::TotalSize() const {
  size_t total = 0;
  for (std::string_view segment : segments) total += segment.size();
  return total;
}

RemotingCommand RemotingCommand::MakeRequest(int32_t code) {
  RemotingCommand command;
  command.code = code;
  command.language = LanguageCode::kJava;
  command.version = kApogeeVersion;
  command.serialize_type = SerializeType::kJson;
  return command;
}

RemotingCommand RemotingCommand::MakeResponse(const RemotingCommand& request, int32_t code,
                                              std::optional<std::string> remark) {
  RemotingCommand command;
  command.code = code;
  command.language = LanguageCode::kJava;
  command.version = kApogeeVersion;
  command.opaque = request.opaque;
  command.flag = kFlagResponse;
  command.remark = std::move(remark);
  command.serialize_type = request.serialize_type;
  return command;
}

Result<RemotingCommand> DecodeCommand(std::string_view frame, const DecodeLimits& limits) {
  RemotingCommand command;
  APOGEE_RETURN_IF_ERROR(DecodeCommandInto(frame, limits, &command));
  return command;
}

Status DecodeCommandInto(std::string_view frame, const DecodeLimits& limits,
                         RemotingCommand* out) {
  RemotingCommand& command = *out;
  ByteReader reader(frame);
  uint32_t header_word = 0;
  if (!reader.ReadU32(&header_word)) {
    return Status::Corruption("frame of " + std::to_string(frame.size()) +
                              " bytes has no header length word");
  }
  const uint32_t type = header_word >> kSerializeTypeShift;
  const size_t header_length = header_word & kHeaderLengthMask;
  if (header_length > reader.remaining()) {
    return Status::Corruption("header length " + std::to_string(header_length) +
                              " is past the frame end (" + std::to_string(reader.remaining()) +
                              " bytes after the header word)");
  }
  if (limits.max_header_length != 0 && header_length > limits.max_header_length) {
    return Status::Corruption("header of " + std::to_string(header_length) +
                              " bytes exceeds the limit of " +
                              std::to_string(limits.max_header_length) + " bytes");
  }
  std::string_view header;
  reader.ReadBytes(header_length, &header);

  if (type == static_cast<uint32_t>(SerializeType::kJson)) {
    command.serialize_type = SerializeType::kJson;
    APOGEE_RETURN_IF_ERROR(DecodeJsonHeader(header, limits.max_ext_fields, &command));
  } else if (type == static_cast<uint32_t>(SerializeType::kRocketMQ)) {
    command.serialize_type = SerializeType::kRocketMQ;
    APOGEE_RETURN_IF_ERROR(DecodeRocketMQHeader(header, limits.max_ext_fields, &command));
  } else {
    return Status::Corruption("unknown header serialize type " + std::to_string(type) +
                              " (0 = JSON, 1 = ROCKETMQ)");
  }
  std::string_view body;
  reader.ReadBytes(reader.remaining(), &body);
  if (command.body.capacity() < body.size()) (void)TakeKeptBody(&command.body, body.size());
  command.body.assign(body);
  return Status::OK();
}

void EncodeCommand(const RemotingCommand& command, std::string* out) {
  const size_t start = out->size();
  // One allocation for the whole frame: the header encoders append piece by piece, and
  // without room the buffer grew (and copied) several times per frame before the body was
  // appended. The estimate covers the JSON form of every field unless values need escapes.
  assert(command.serialize_type == SerializeType::kJson || command.json_ext_fields.empty());
  size_t header_estimate = kEncodedHeaderOverhead + (command.remark ? command.remark->size() : 0) +
                           command.json_ext_fields.size();
  for (const auto& [key, value] : command.ext_fields) {
    header_estimate += key.size() + value.size() + kEncodedFieldOverhead;
  }
  out->reserve(start + kFrameLengthFieldSize + kHeaderWordSize + header_estimate +
               command.body.size() + command.borrowed_body.size());
  out->append(kFrameLengthFieldSize + kHeaderWordSize, '\0');
  EncodeHeaderInto(command, command.serialize_type, out);
  const size_t header_length = out->size() - start - kFrameLengthFieldSize - kHeaderWordSize;
  // A header cannot exceed 16 MiB: values come from our own code, never a peer's bulk data.
  assert(header_length <= kMaxHeaderLength);
  const size_t frame_length = kHeaderWordSize + header_length + command.BodySize();
  ByteWriter writer(out);
  writer.PatchU32(start, static_cast<uint32_t>(frame_length));
  writer.PatchU32(start + kFrameLengthFieldSize,
                  (static_cast<uint32_t>(command.serialize_type) << kSerializeTypeShift) |
                      static_cast<uint32_t>(header_length & kHeaderLengthMask));
  out->append(command.body);
  out->append(command.borrowed_body);
}

std::string EncodeHeader(const RemotingCommand& command, SerializeType type) {
  std::string header;
  EncodeHeaderInto(command, type, &header);
  return header;
}

}  // namespace apogee::protocol
