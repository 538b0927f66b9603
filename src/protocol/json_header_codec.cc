#include "protocol/json_header_codec.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "base/string_util.h"
#include "protocol/json_util.h"
#include "protocol/remoting_format.h"

namespace apogee::protocol {
namespace {

// Appends straight into the caller's buffer (a rapidjson output stream).
class StringAppendStream {
 public:
  using Ch = char;
  explicit StringAppendStream(std::string* out) : out_(out) {}
  void Retarget(std::string* out) { out_ = out; }
  void Put(char c) { out_->push_back(c); }
  void Flush() {}

 private:
  std::string* out_;
};

// What kind of JSON scalar a value was; numbers arrive as their source text because the
// parser runs with kParseNumbersAsStringsFlag (so "12" stays "12", as Java's toString
// of the parsed Integer/Long would print it).
enum class ScalarKind { kNull, kBool, kNumber, kString };

// SAX handler: reads the top-level members it knows, the extFields object, and skips
// everything else. A SAX pass allocates nothing but the strings it keeps.
class HeaderHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, HeaderHandler> {
 public:
  HeaderHandler(RemotingCommand* command, uint32_t max_ext_fields)
      : command_(command), max_ext_fields_(max_ext_fields) {}

  const std::string& error() const { return error_; }
  // extFields members seen, and whether there were more than the limit.
  size_t ext_members() const { return ext_members_; }
  bool ext_overflow() const { return max_ext_fields_ != 0 && ext_members_ > max_ext_fields_; }

  bool Null() { return Scalar(ScalarKind::kNull, {}); }
  bool Bool(bool b) { return Scalar(ScalarKind::kBool, b ? "true" : "false"); }
  bool RawNumber(const char* str, rapidjson::SizeType length, bool /*copy*/) {
    return Scalar(ScalarKind::kNumber, std::string_view(str, length));
  }
  bool String(const char* str, rapidjson::SizeType length, bool /*copy*/) {
    return Scalar(ScalarKind::kString, std::string_view(str, length));
  }
  bool Key(const char* str, rapidjson::SizeType length, bool /*copy*/) {
    if (depth_ == 1) {
      top_key_.assign(str, length);
    } else if (depth_ == 2 && in_ext_) {
      ext_key_.assign(str, length);
    }
    return true;
  }
  bool StartObject() {
    if (depth_ == 1) {
      if (top_key_ == kJsonKeyExtFields) {
        in_ext_ = true;
        command_->has_ext_fields = true;
      } else if (IsKnownScalarKey(top_key_)) {
        return Fail("header field " + top_key_ + " is an object, expected a scalar");
      }
    } else if (depth_ == 2 && in_ext_) {
      return Fail("extFields value of " + ext_key_ + " is an object, expected a scalar");
    }
    ++depth_;
    return true;
  }
  bool EndObject(rapidjson::SizeType /*members*/) {
    --depth_;
    if (depth_ == 1) in_ext_ = false;
    return true;
  }
  bool StartArray() {
    if (depth_ == 0) return Fail("header is a JSON array, expected an object");
    if (depth_ == 1 && (top_key_ == kJsonKeyExtFields || IsKnownScalarKey(top_key_))) {
      return Fail("header field " + top_key_ + " is an array");
    }
    if (depth_ == 2 && in_ext_) {
      return Fail("extFields value of " + ext_key_ + " is an array, expected a scalar");
    }
    ++depth_;
    return true;
  }
  bool EndArray(rapidjson::SizeType /*elements*/) {
    --depth_;
    return true;
  }

 private:
  static bool IsKnownScalarKey(std::string_view key) {
    return key == kJsonKeyCode || key == kJsonKeyFlag || key == kJsonKeyLanguage ||
           key == kJsonKeyOpaque || key == kJsonKeyRemark || key == kJsonKeyVersion;
  }

  bool Fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  bool Scalar(ScalarKind kind, std::string_view text) {
    if (depth_ == 0) return Fail("header is a JSON scalar, expected an object");
    if (depth_ == 2 && in_ext_) {
      // Past the limit, keep parsing (linear, nothing kept) so code and opaque are known
      // and the request can be answered.
      ++ext_members_;
      if (ext_overflow()) return true;
      // null means absent (Java's HashMap.get returns null); last duplicate wins.
      if (kind == ScalarKind::kNull) {
        command_->ext_fields.Erase(ext_key_);
      } else {
        command_->ext_fields.Set(ext_key_, std::string(text));
      }
      return true;
    }
    if (depth_ != 1) return true;  // inside a member we do not read
    return TopLevel(kind, text);
  }

  bool TopLevel(ScalarKind kind, std::string_view text) {
    if (top_key_ == kJsonKeyCode) return Int32Field(kind, text, &command_->code);
    if (top_key_ == kJsonKeyOpaque) return Int32Field(kind, text, &command_->opaque);
    if (top_key_ == kJsonKeyFlag) return Int32Field(kind, text, &command_->flag);
    if (top_key_ == kJsonKeyVersion) return Int32Field(kind, text, &command_->version);
    if (top_key_ == kJsonKeyLanguage) return LanguageField(kind, text);
    if (top_key_ == kJsonKeyRemark) {
      if (kind == ScalarKind::kNull) {
        command_->remark.reset();
      } else {
        command_->remark = std::string(text);
      }
      return true;
    }
    if (top_key_ == kJsonKeyExtFields) {
      if (kind == ScalarKind::kNull) {
        command_->has_ext_fields = false;
        command_->ext_fields.clear();
        return true;
      }
      return Fail("header field extFields is a scalar, expected an object");
    }
    return true;  // serializeTypeCurrentRPC and unknown keys: ignored
  }

  bool Int32Field(ScalarKind kind, std::string_view text, int32_t* out) {
    if (kind == ScalarKind::kNull) return true;  // fastjson leaves the default
    std::optional<int32_t> value;
    // fastjson also converts a quoted number into an int field.
    if (kind == ScalarKind::kNumber || kind == ScalarKind::kString) value = ParseInt32(text);
    if (!value) {
      return Fail("header field " + top_key_ + " is not an int32: " + std::string(text));
    }
    *out = *value;
    return true;
  }

  bool LanguageField(ScalarKind kind, std::string_view text) {
    if (kind == ScalarKind::kString) {
      command_->language = LanguageFromName(text);
    } else if (kind == ScalarKind::kNumber) {
      // fastjson maps a number onto the enum's ordinal.
      std::optional<int32_t> ordinal = ParseInt32(text);
      command_->language = ordinal && *ordinal >= 0 && *ordinal <= 255
                               ? LanguageFromCode(static_cast<uint8_t>(*ordinal))
                               : LanguageCode::kOther;
    } else if (kind == ScalarKind::kBool) {
      return Fail("header field language is a boolean");
    }
    return true;
  }

  RemotingCommand* command_;
  const uint32_t max_ext_fields_;
  size_t ext_members_ = 0;
  int depth_ = 0;
  bool in_ext_ = false;
  std::string top_key_;
  std::string ext_key_;
  std::string error_;
};

template <typename Writer>
void WriteString(Writer& writer, std::string_view s) {
  writer.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

template <typename Writer>
void WriteKey(Writer& writer, std::string_view s) {
  writer.Key(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

}  // namespace

Status DecodeJsonHeader(std::string_view header, uint32_t max_ext_fields, RemotingCommand* command) {
  HeaderHandler handler(command, max_ext_fields);
  rapidjson::MemoryStream stream(header.data(), header.size());
  // Iterative: a deeply nested header cannot exhaust the stack.
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
  // json_util.h's Reader (RapidJSON 1.1's stack does arithmetic on null). Its stack (string
  // copies, parse states) grows on the first headers and is kept per thread, so a decode
  // allocates nothing but the strings it keeps; a large header gets a reader of its own, so
  // what a thread keeps stays small however big a peer's headers were.
  constexpr size_t kReusedReaderMaxHeader = 16 * 1024;
  thread_local json::Reader reused_reader;
  std::optional<json::Reader> own_reader;
  json::Reader* reader = &reused_reader;
  if (header.size() > kReusedReaderMaxHeader) reader = &own_reader.emplace();
  rapidjson::ParseResult result = reader->Parse<kFlags>(stream, handler);
  if (result.IsError()) {
    if (!handler.error().empty()) return Status::Corruption("bad JSON header: " + handler.error());
    return Status::Corruption(std::string("unparsable JSON header at offset ") +
                              std::to_string(result.Offset()) + ": " +
                              rapidjson::GetParseError_En(result.Code()));
  }
  // The memory stream reports end of input as NUL, so a NUL byte would end the parse early.
  if (stream.Tell() != header.size()) {
    return Status::Corruption("unparsable JSON header: NUL byte at offset " +
                              std::to_string(stream.Tell()));
  }
  if (handler.ext_overflow()) {
    return Status::InvalidArgument("header has " + std::to_string(handler.ext_members()) +
                                   " extFields members, more than the limit of " +
                                   std::to_string(max_ext_fields));
  }
  return Status::OK();
}

void EncodeJsonHeader(const RemotingCommand& command, std::string* out) {
  // One writer per thread: its level stack is allocated once, not on every header.
  thread_local StringAppendStream stream(nullptr);
  thread_local json::WriterTo<StringAppendStream> writer(stream);
  stream.Retarget(out);
  writer.Reset(stream);
  writer.StartObject();
  WriteKey(writer, kJsonKeyCode);
  writer.Int(command.code);
  if (command.has_ext_fields || !command.ext_fields.empty()) {
    WriteKey(writer, kJsonKeyExtFields);
    writer.StartObject();
    for (const auto& [key, value] : command.ext_fields) {
      WriteKey(writer, key);
      WriteString(writer, value);
    }
    writer.EndObject();
  }
  WriteKey(writer, kJsonKeyFlag);
  writer.Int(command.flag);
  WriteKey(writer, kJsonKeyLanguage);
  WriteString(writer, LanguageName(command.language));
  WriteKey(writer, kJsonKeyOpaque);
  writer.Int(command.opaque);
  if (command.remark) {
    WriteKey(writer, kJsonKeyRemark);
    WriteString(writer, *command.remark);
  }
  WriteKey(writer, kJsonKeySerializeType);
  WriteString(writer, kSerializeTypeNameJson);
  WriteKey(writer, kJsonKeyVersion);
  writer.Int(command.version);
  writer.EndObject();
}

}  // namespace apogee::protocol
