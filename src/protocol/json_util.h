// JSON helpers for the body codecs, internal to the protocol module (it exposes
// RapidJSON, which only this module links).
//
// Reading is as lenient as fastjson, which every Java peer uses: bare object keys such as
// {0:"10.0.0.5:10911"} are accepted, numbers may stand where strings are expected and
// numeric strings where numbers are expected, booleans may be "true"/"false" strings,
// unknown keys are ignored and null means absent. Numbers are kept as their source text
// (kParseNumbersAsStringsFlag), so a string field receiving 12 reads "12".
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::protocol::json {

// RapidJSON 1.1 (what Debian ships) starts every internal::Stack with null pointers and, before
// the first allocation, compares `stackTop_ + n` with the end: arithmetic on a null pointer,
// undefined behaviour that UBSan reports (stack.h:117) on the first push of every Reader,
// Document, Writer and StringBuffer. Later RapidJSON compares the room left instead. The types
// below are RapidJSON's with this allocator, whose Stack::Reserve (specialised right after)
// does that; use them, not rapidjson::Document / Reader / Writer / StringBuffer.
struct StackAllocator : rapidjson::CrtAllocator {};

}  // namespace apogee::protocol::json

namespace rapidjson::internal {
template <>
template <typename T>
RAPIDJSON_FORCEINLINE void Stack<apogee::protocol::json::StackAllocator>::Reserve(size_t count) {
  // null - null is 0, so a stack that was never allocated has no room and expands.
  if (RAPIDJSON_UNLIKELY(static_cast<size_t>(stackEnd_ - stackTop_) < sizeof(T) * count)) {
    Expand<T>(count);
  }
}
}  // namespace rapidjson::internal

namespace apogee::protocol::json {

using Document = rapidjson::GenericDocument<rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>,
                                            StackAllocator>;
using Reader = rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, StackAllocator>;
using StringBuffer = rapidjson::GenericStringBuffer<rapidjson::UTF8<>, StackAllocator>;
template <typename OutputStream>
using WriterTo =
    rapidjson::Writer<OutputStream, rapidjson::UTF8<>, rapidjson::UTF8<>, StackAllocator>;
template <typename OutputStream>
using PrettyWriterTo =
    rapidjson::PrettyWriter<OutputStream, rapidjson::UTF8<>, rapidjson::UTF8<>, StackAllocator>;

// Quotes bare object keys (fastjson's AllowUnQuotedFieldNames) so that a standard parser
// accepts the text. Strings are copied untouched. Object-valued keys (fastjson's form for
// MessageQueue-keyed maps) are not supported and stay as they are (the parse then fails).
std::string QuoteBareKeys(std::string_view text);

// Parses `text` (after QuoteBareKeys) into `doc`; Corruption naming `what` otherwise.
// The top level must be an object.
Status ParseObject(std::string_view text, std::string_view what, Document* doc);

using Value = rapidjson::Value;

// Member lookup that treats an explicit null like a missing member.
const Value* Find(const Value& object, std::string_view key);

// Coercing readers. `path` names the field in error messages ("queueDatas[0].perm").
// An absent member leaves *out unchanged and returns OK, unless `required`.
Status ReadString(const Value& object, std::string_view key, std::string_view path,
                  std::string* out, bool required = false);
Status ReadInt32(const Value& object, std::string_view key, std::string_view path, int32_t* out,
                 bool required = false);
Status ReadInt64(const Value& object, std::string_view key, std::string_view path, int64_t* out,
                 bool required = false);
Status ReadBool(const Value& object, std::string_view key, std::string_view path, bool* out,
                bool required = false);
Status ReadOptionalString(const Value& object, std::string_view key, std::string_view path,
                          std::optional<std::string>* out);

// The same coercions on a value (array elements, map values).
Result<std::string> AsString(const Value& value, std::string_view path);
Result<int64_t> AsInt64(const Value& value, std::string_view path);
Result<int32_t> AsInt32(const Value& value, std::string_view path);
Result<bool> AsBool(const Value& value, std::string_view path);

// Checks the member is an object / array (when present); nullptr when absent.
Result<const Value*> FindObject(const Value& object, std::string_view key, std::string_view path);
Result<const Value*> FindArray(const Value& object, std::string_view key, std::string_view path);

inline std::string_view KeyOf(const Value& name) {
  return std::string_view(name.GetString(), name.GetStringLength());
}

// Output: a rapidjson writer appending to a std::string, compact as fastjson writes.
class StringAppendStream {
 public:
  using Ch = char;
  explicit StringAppendStream(std::string* out) : out_(out) {}
  void Put(char c) { out_->push_back(c); }
  void Flush() {}

 private:
  std::string* out_;
};
using Writer = WriterTo<StringAppendStream>;

inline void Key(Writer& w, std::string_view key) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
}
inline void String(Writer& w, std::string_view s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
// A numeric map key: bare (fastjson default, {0:"a"}) or quoted (standard, {"0":"a"}).
void NumericKey(Writer& w, int64_t key, bool quoted);

// The compact JSON text `write(writer)` produces: the encode side of every body codec.
template <typename WriteFn>
std::string WriteToString(WriteFn&& write) {
  std::string out;
  StringAppendStream stream(&out);
  Writer w(stream);
  write(w);
  return out;
}

// Parses `text` as one JSON object (`what` names it in errors) and lets `read(object, &t)`
// fill a T: the decode side of every body codec.
template <typename T, typename ReadFn>
Result<T> ReadFromString(std::string_view text, std::string_view what, ReadFn&& read) {
  Document doc;
  APOGEE_RETURN_IF_ERROR(ParseObject(text, what, &doc));
  T out;
  APOGEE_RETURN_IF_ERROR(read(static_cast<const Value&>(doc), &out));
  return out;
}

}  // namespace apogee::protocol::json
