// Typed "custom headers" (RQ:rp/CommandCustomHeader.java and its subclasses), each declared
// ONCE as a struct plus one field list; these templates derive both directions from it.
//
// A header struct lists its fields in a static Fields() function:
//
//   struct GetKVConfigRequestHeader {
//     std::string namespace_name;
//     std::string key;
//     static constexpr auto Fields() {
//       return std::make_tuple(Required("namespace", &GetKVConfigRequestHeader::namespace_name),
//                              Required("key", &GetKVConfigRequestHeader::key));
//     }
//   };
//
// The wire key is Java's field name exactly. Member types: std::string, int32_t, int64_t,
// bool, or std::optional of those; std::string_view too in a header that is only encoded (an
// answer written from values that live elsewhere, no decode). The rules mirror Java's reflection
// codec (RemotingCommand.makeCustomHeaderToNet / decodeCommandCustomHeader, §3.6):
//  * Encoding writes every value in Java toString() form: plain members always (Java
//    primitives are never null), std::optional members only when set (null is skipped).
//  * Decoding: a value that does not parse as the member's type (Integer.parseInt,
//    Long.parseLong) is treated as absent; then an absent Required field fails with Java's
//    message "the custom field <key> is null". booleans follow Boolean.parseBoolean: "true"
//    in any case is true, anything else false. Unknown keys are ignored.
//  * A request with no extFields member at all skips every check (Java returns an empty
//    header object then), see DecodeCustomHeader.
// The extFields map feeds both header serializations (JSON and ROCKETMQ binary), so one
// declaration gives both codecs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "base/status.h"
#include "protocol/kept_buffers.h"
#include "protocol/remoting_command.h"

namespace apogee::protocol {

enum class Presence { kOptional, kRequired };

template <typename H, typename T>
struct HeaderField {
  std::string_view key;
  T H::*member;
  Presence presence;
};

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

// A field Java marks @CFNotNull. Never a std::optional member: required means present.
template <typename H, typename T>
constexpr HeaderField<H, T> Required(std::string_view key, T H::*member) {
  static_assert(!IsOptional<T>::value, "a required header field is never optional");
  return {key, member, Presence::kRequired};
}

// A field that may be missing: std::optional for Java's boxed types (absent = null), a
// plain member with its default for Java's primitives (always sent by Java).
template <typename H, typename T>
constexpr HeaderField<H, T> Optional(std::string_view key, T H::*member) {
  return {key, member, Presence::kOptional};
}

// Java's parse of one extFields value into a field type; nullopt when it does not parse.
// Integer.parseInt / Long.parseLong: optional sign, decimal digits, no blanks, no overflow.
std::optional<int32_t> ParseJavaInt(std::string_view text);
std::optional<int64_t> ParseJavaLong(std::string_view text);

namespace custom_header_internal {

inline bool ParseValue(std::string_view text, std::string* out) {
  out->assign(text);
  return true;
}
inline bool ParseValue(std::string_view text, int32_t* out) {
  std::optional<int32_t> v = ParseJavaInt(text);
  if (v) *out = *v;
  return v.has_value();
}
inline bool ParseValue(std::string_view text, int64_t* out) {
  std::optional<int64_t> v = ParseJavaLong(text);
  if (v) *out = *v;
  return v.has_value();
}
bool ParseValue(std::string_view text, bool* out);

inline std::string FormatValue(const std::string& v) { return v; }
inline std::string FormatValue(std::string_view v) { return std::string(v); }
inline std::string FormatValue(int32_t v) { return std::to_string(v); }
inline std::string FormatValue(int64_t v) { return std::to_string(v); }
inline std::string FormatValue(bool v) { return v ? "true" : "false"; }

Status MissingField(std::string_view key);

// Header may derive from H: a header family can share one struct under two field lists
// (SendMessageRequestHeaderV2 reuses SendMessageRequestHeader's members).
template <typename Header, typename H, typename T>
bool ReadField(const ExtFields& fields, const HeaderField<H, T>& field, Header* header,
               Status* status, size_t* hint) {
  const size_t at = fields.FindNear(field.key, hint);
  std::optional<std::string_view> text;
  if (at != ExtFields::npos) text = fields.value_at(at);
  bool parsed = false;
  if (text) {
    if constexpr (IsOptional<T>::value) {
      typename T::value_type value{};
      parsed = ParseValue(*text, &value);
      if (parsed) header->*field.member = std::move(value);
    } else {
      T value{};
      parsed = ParseValue(*text, &value);
      if (parsed) header->*field.member = std::move(value);
    }
  }
  if (!parsed && field.presence == Presence::kRequired) {
    *status = MissingField(field.key);
    return false;
  }
  return true;
}

// ReadField that moves a string value out of `fields` instead of copying it (the entry is
// left holding an empty string); other types are parsed as ReadField parses them.
template <typename Header, typename H, typename T>
bool TakeField(ExtFields* fields, const HeaderField<H, T>& field, Header* header, Status* status,
               size_t* hint) {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::optional<std::string>>) {
    if (const size_t at = fields->FindNear(field.key, hint); at != ExtFields::npos) {
      header->*field.member = std::move(*fields->mutable_value_at(at));
      return true;
    }
    if (field.presence == Presence::kRequired) {
      *status = MissingField(field.key);
      return false;
    }
    return true;
  } else {
    return ReadField(*fields, field, header, status, hint);
  }
}

template <typename Header, typename H, typename T>
void WriteField(const Header& header, const HeaderField<H, T>& field, ExtFields* fields) {
  const T& value = header.*field.member;
  if constexpr (IsOptional<T>::value) {
    if (value) fields->Set(field.key, FormatValue(*value));
  } else {
    fields->Set(field.key, FormatValue(value));
  }
}

// One extFields member in JSON, `"key":"value"`, appended to `out` after a comma unless
// `out` is empty; the value in the Java toString() form FormatValue gives, escaped as the
// JSON header encoder escapes (the same bytes as the member set into ExtFields and encoded).
void AppendJsonField(std::string_view key, std::string_view value, std::string* out);
void AppendJsonField(std::string_view key, int32_t value, std::string* out);
void AppendJsonField(std::string_view key, int64_t value, std::string* out);
void AppendJsonField(std::string_view key, bool value, std::string* out);

template <typename Header, typename H, typename T>
void WriteJsonField(const Header& header, const HeaderField<H, T>& field, std::string* out) {
  const T& value = header.*field.member;
  if constexpr (IsOptional<T>::value) {
    if (value) AppendJsonField(field.key, *value, out);
  } else {
    AppendJsonField(field.key, value, out);
  }
}

// Header H read field by field with `read_one(field, &header, &status)`, stopping at the
// first field it fails.
template <typename H, typename ReadOne>
Result<H> ReadHeader(ReadOne read_one) {
  H header{};
  Status status;
  std::apply([&](const auto&... field) { (read_one(field, &header, &status) && ...); },
             H::Fields());
  if (!status.ok()) return status;
  return header;
}

}  // namespace custom_header_internal

// Reads header H from extFields, with the required-field check.
template <typename H>
Result<H> HeaderFromExtFields(const ExtFields& fields) {
  size_t hint = 0;  // where the next field is looked for first
  return custom_header_internal::ReadHeader<H>([&](const auto& field, H* header, Status* status) {
    return custom_header_internal::ReadField(fields, field, header, status, &hint);
  });
}

// HeaderFromExtFields for a command read once: string values are moved out of `fields`
// (their entries are left empty) instead of copied, the same header otherwise.
template <typename H>
Result<H> HeaderTakenFromExtFields(ExtFields* fields) {
  size_t hint = 0;
  return custom_header_internal::ReadHeader<H>([&](const auto& field, H* header, Status* status) {
    return custom_header_internal::TakeField(fields, field, header, status, &hint);
  });
}

// Writes every field of `header` into `fields` (replacing values already there).
template <typename H>
void HeaderToExtFields(const H& header, ExtFields* fields) {
  std::apply(
      [&](const auto&... field) {
        (custom_header_internal::WriteField(header, field, fields), ...);
      },
      H::Fields());
}

// Room for a typical header's JSON members at once (a send's answer is about 170 bytes, a
// send request about 300 plus its properties): appended member by member, the text was grown
// four or five times per answer (heaptrack).
inline constexpr size_t kJsonExtFieldsReserve = 256;
inline void ReserveJsonExtFields(std::string* out) {
  if (out->capacity() >= kJsonExtFieldsReserve) return;
  if (TakeKeptText(out, kJsonExtFieldsReserve)) return;
  out->reserve(kJsonExtFieldsReserve);
}

// HeaderToJsonExtFields with the field list of `Layout` read from `header`, a base of
// Layout that has all its members: a V2 send header's keys written from the V1 struct it
// extends, with no copy of the header into a V2 one.
template <typename Layout, typename H>
void HeaderToJsonExtFieldsAs(const H& header, std::string* out) {
  static_assert(std::is_base_of_v<H, Layout>);
  ReserveJsonExtFields(out);
  std::apply(
      [&](const auto&... field) {
        (custom_header_internal::WriteJsonField(header, field, out), ...);
      },
      Layout::Fields());
}

// The members HeaderToExtFields puts into an empty ExtFields, in the same order, appended to
// `out` (empty or holding earlier members) as the JSON header encoder would write them: for
// RemotingCommand::json_ext_fields, when nothing reads the request's fields back.
template <typename H>
void HeaderToJsonExtFields(const H& header, std::string* out) {
  HeaderToJsonExtFieldsAs<H>(header, out);
}

// Java's decodeCommandCustomHeader: when the command carried no extFields at all, the
// header is returned with its defaults and no field is checked.
template <typename H>
Result<H> DecodeCustomHeader(const RemotingCommand& command) {
  if (!command.has_ext_fields && command.ext_fields.empty()) return H{};
  return HeaderFromExtFields<H>(command.ext_fields);
}

// Java's makeCustomHeaderToNet.
template <typename H>
void EncodeCustomHeader(const H& header, RemotingCommand* command) {
  command->has_ext_fields = true;
  HeaderToExtFields(header, &command->ext_fields);
}

// One extFields member of a command that is only encoded and sent (nothing reads its fields
// back, e.g. an answer): a JSON command gets it as JSON text in json_ext_fields, a ROCKETMQ
// binary one in the map. Members go out in the order added either way.
void AddExtFieldToSend(std::string_view key, std::string_view value, RemotingCommand* command);

// EncodeCustomHeader for a command that is only encoded and sent, as AddExtFieldToSend: a
// send's answer skips the map's key and value strings and the encoder's walk over them.
template <typename H>
void EncodeCustomHeaderToSend(const H& header, RemotingCommand* command) {
  command->has_ext_fields = true;
  if (command->serialize_type == SerializeType::kJson) {
    HeaderToJsonExtFields(header, &command->json_ext_fields);
  } else {
    HeaderToExtFields(header, &command->ext_fields);
  }
}

}  // namespace apogee::protocol
