// RemotingCommand: one request or response of RocketMQ's remoting protocol, as plain
// data, and the codec between it and the bytes of a frame. No IO here: the remoting
// module splits the byte stream into frames and calls DecodeCommand / EncodeCommand.
//
// Frame (docs/protocol/remoting.md §2.1), all big-endian:
//   int32 L (excludes itself) | int32 (serializeType << 24 | headerLength) | header | body
// Header serializations: JSON (0, what every client sends) and ROCKETMQ binary (1).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/key_index.h"
#include "base/status.h"

namespace apogee::protocol {

enum class SerializeType : uint8_t { kJson = 0, kRocketMQ = 1 };

// RQ:rp/LanguageCode.java. In JSON headers the name is sent, in binary the byte.
enum class LanguageCode : uint8_t {
  kJava = 0,
  kCpp = 1,
  kDotnet = 2,
  kPython = 3,
  kDelphi = 4,
  kErlang = 5,
  kRuby = 6,
  kOther = 7,
  kHttp = 8,
  kGo = 9,
  kPhp = 10,
  kOms = 11,
  kRust = 12,
  kNodeJs = 13,
};
std::string_view LanguageName(LanguageCode code);
// Unknown names map to kOther (Java would fail; we are liberal in what we accept).
LanguageCode LanguageFromName(std::string_view name);
// The binary header carries the code byte; unknown bytes map to kOther.
LanguageCode LanguageFromCode(uint8_t code);

// Flag bits (RQ:rp/RemotingCommand.java).
inline constexpr int32_t kFlagResponse = 0x1;
inline constexpr int32_t kFlagOneway = 0x2;

// The version Apogee puts in every command it sends: V4_9_4 (401). It must be >= 401 so
// Java clients keep SQL92 filtering on and expect standard JSON route data (§3.3).
inline constexpr int32_t kApogeeVersion = 401;

// The "custom header": string keys to string values, in insertion order. Values that
// arrived as JSON numbers or booleans are stored in Java toString() form ("12", "true").
// Usually small (a dozen entries), so a flat vector; a KeyIndex keeps lookups O(1) when a
// peer sends many keys.
class ExtFields {
 public:
  using Entry = std::pair<std::string, std::string>;

  static constexpr size_t npos = KeyIndex::npos;

  // Sets or replaces.
  void Set(std::string_view key, std::string value);
  std::optional<std::string_view> Get(std::string_view key) const;
  // The position of `key`, or npos, searching from `*hint` on (and round) and leaving `*hint`
  // just past what it found: a typed header reads its keys in the order senders write them,
  // so each is found at the first place looked.
  size_t FindNear(std::string_view key, size_t* hint) const;
  std::string_view value_at(size_t at) const { return entries_[at].second; }
  // The held value, to move it out (HeaderTakenFromExtFields).
  std::string* mutable_value_at(size_t at) { return &entries_[at].second; }
  bool Has(std::string_view key) const { return Get(key).has_value(); }
  bool Erase(std::string_view key);
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void clear() {
    entries_.clear();
    index_.Clear();
    key_filter_ = 0;
  }
  std::vector<Entry>::const_iterator begin() const { return entries_.begin(); }
  std::vector<Entry>::const_iterator end() const { return entries_.end(); }
  bool operator==(const ExtFields& other) const { return entries_ == other.entries_; }
  // Empties this and gives its storage (the entries' vector, values with room of their own)
  // to the thread's kept buffers, for the next decode (protocol/kept_buffers.h).
  void Recycle();

 private:
  // Whether a held key could equal `key`: every held key sets one bit of key_filter_ (from
  // its length and its first and last byte), so most absent keys, and every new key of a
  // decode, are answered without comparing keys. Erase leaves bits set: a superset.
  static uint64_t KeyBit(std::string_view key);
  bool MayHold(std::string_view key) const { return (key_filter_ & KeyBit(key)) != 0; }

  std::vector<Entry> entries_;
  KeyIndex index_;
  uint64_t key_filter_ = 0;
};

// A body that lives elsewhere (e.g. CommitLog records in mapped memory, for a pull
// response sent by scatter-gather). `keepalive` holds whatever keeps the bytes valid
// until the frame has been written.
struct BodySegments {
  std::vector<std::string_view> segments;
  std::shared_ptr<const void> keepalive;
  size_t TotalSize() const;
};

struct RemotingCommand {
  int32_t code = 0;
  LanguageCode language = LanguageCode::kJava;
  int32_t version = 0;
  int32_t opaque = 0;
  int32_t flag = 0;
  std::optional<std::string> remark;
  // Whether the sender put an extFields member at all (Java skips required-field checks
  // when it is absent, §3.6).
  bool has_ext_fields = false;
  ExtFields ext_fields;
  // Commands with a JSON header only: extFields members already in their JSON form
  // (`"a":"x","d":"4"`, by HeaderToJsonExtFields from a typed header), written by the JSON
  // encoder before those of `ext_fields`. A command nothing reads back (a send request: 13
  // members; a send's answer: 6, EncodeCustomHeaderToSend) so skips the map's key and value
  // strings. Never filled by a decode. The ACL signer and the ROCKETMQ binary encoder read
  // only `ext_fields`: a request signed or sent in binary keeps its members there
  // (EncodeCommand asserts the latter).
  std::string json_ext_fields;
  // Owned body bytes, sent first.
  std::string body;
  // Requests only: body bytes sent after `body`, which the sender keeps valid until the
  // command is encoded (EncodeCommand copies them into the frame; the ACL signer signs them
  // with `body`). An async send's body, held by its call for every attempt, so that no
  // attempt copies it into the request first. Never decoded into.
  std::string_view borrowed_body;
  // Borrowed body bytes, sent after `body` (responses only; never decoded into).
  BodySegments body_segments;
  // The header serialization this command came in, or will go out, as.
  SerializeType serialize_type = SerializeType::kJson;

  bool IsResponse() const { return (flag & kFlagResponse) != 0; }
  bool IsOneway() const { return (flag & kFlagOneway) != 0; }
  size_t BodySize() const {
    return body.size() + borrowed_body.size() + body_segments.TotalSize();
  }

  // A request Apogee sends: language JAVA (every peer treats it like a Java peer),
  // version kApogeeVersion, JSON header.
  static RemotingCommand MakeRequest(int32_t code);
  // A response to `request`: same opaque, response flag, and the request's
  // serialization (JSON when in doubt, §2.4).
  static RemotingCommand MakeResponse(const RemotingCommand& request, int32_t code,
                                      std::optional<std::string> remark = std::nullopt);
};

// Defaults of the header limits (docs/security.md, "Resource limits"). A legitimate
// header is a few hundred bytes; the largest is a send's, whose properties field
// (at most 32 KiB, more once JSON escapes \x01 and \x02 as \u0001) dominates.
inline constexpr uint32_t kDefaultMaxHeaderLength = 512 * 1024;
inline constexpr uint32_t kDefaultMaxExtFields = 1024;

struct DecodeLimits {
  // Largest header in bytes; 0 = bounded only by the frame.
  uint32_t max_header_length = kDefaultMaxHeaderLength;
  // Most extFields members (every member counts, duplicates and nulls included, so the
  // work per header stays linear); 0 = unlimited.
  uint32_t max_ext_fields = kDefaultMaxExtFields;
};

// Decodes one frame given everything after the 4-byte length L (so frame.size() == L).
// Corruption with a reason for: header length past the frame end or over
// limits.max_header_length (checked before parsing), an unknown serialization type, an
// unparsable header. InvalidArgument naming the limit for more extFields members than
// limits.max_ext_fields.
Result<RemotingCommand> DecodeCommand(std::string_view frame, const DecodeLimits& limits = {});

// As DecodeCommand, into `command`. On InvalidArgument (a limit the frame broke while
// still well-formed) `command` holds the code, opaque, flag and serialization, so the
// receiver can answer the request with the error instead of dropping the connection.
Status DecodeCommandInto(std::string_view frame, const DecodeLimits& limits,
                         RemotingCommand* command);

// Gives the command's buffers (body, ext fields, JSON member text) to this thread's kept
// buffers and leaves it without them: for a request its processor is done with, so the
// next request decoded on this thread reuses them (protocol/kept_buffers.h).
void RecycleCommand(RemotingCommand* command);

// Appends the frame prefix (L and header-length word), the encoded header and the owned
// body to `out`. body_segments are not copied: the caller sends them after `out`.
// The header is encoded in command.serialize_type; extFields values are emitted as
// JSON strings, json_ext_fields first (JSON only).
void EncodeCommand(const RemotingCommand& command, std::string* out);

// Only the header bytes (no frame prefix), in the given serialization.
std::string EncodeHeader(const RemotingCommand& command, SerializeType type);

}  // namespace apogee::protocol
