#include "protocol/json_header_codec.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "base/string_util.h"
#include "protocol/json_header_scan.h"
#include "protocol/json_util.h"
#include "protocol/remoting_format.h"

namespace apogee::protocol {
namespace {

// What kind of JSON scalar a value was; numbers arrive as their source text because the
// parser runs with kParseNumbersAsStringsFlag (so "12" stays "12", as Java's toString
// of the parsed Integer/Long would print it).
enum class ScalarKind { kNull, kBool, kNumber, kString };

// SAX handler: reads the top-level members it knows, the extFields object, and skips
// everything else. A SAX pass allocates nothing but the strings it keeps.
class HeaderHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, HeaderHandler> {
 public:
  // `max_depth` > 0 stops the parse (too_deep()) at an object or array nested deeper than
  // that; 0 lets any depth through.
  HeaderHandler(RemotingCommand* command, uint32_t max_ext_fields, int max_depth)
      : command_(command), max_ext_fields_(max_ext_fields), max_depth_(max_depth) {}

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
  bool too_deep() const { return too_deep_; }

  bool StartObject() {
    if (TooDeep()) return false;
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
    if (TooDeep()) return false;
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
  bool TooDeep() {
    too_deep_ = max_depth_ > 0 && depth_ >= max_depth_;
    return too_deep_;
  }

  const uint32_t max_ext_fields_;
  const int max_depth_;
  bool too_deep_ = false;
  size_t ext_members_ = 0;
  int depth_ = 0;
  bool in_ext_ = false;
  std::string top_key_;
  std::string ext_key_;
  std::string error_;
};

// The header's JSON is written by hand: its shape is fixed (one object, one nested object of
// strings, a few ints). RapidJSON's writer, through an output stream of one character per
// call, cost 4 % more instructions per message on both sides of a send (callgrind of the
// broker under the peer harness and of mqbench, docs/benchmarks.md). The output is byte for
// byte what RapidJSON 1.1 writes with default flags (json_header_codec_test compares both over
// every byte value): '"' and '\\' escaped with a backslash, control characters as \b \t \n
// \f \r or \u00XX (upper-case hex), everything else, UTF-8 or not, copied as it is.
void AppendEscape(unsigned char c, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out->push_back('\\');
  switch (c) {
    case '"': out->push_back('"'); return;
    case '\\': out->push_back('\\'); return;
    case '\b': out->push_back('b'); return;
    case '\t': out->push_back('t'); return;
    case '\n': out->push_back('n'); return;
    case '\f': out->push_back('f'); return;
    case '\r': out->push_back('r'); return;
    default: {
      const char u[] = {'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
      out->append(u, sizeof(u));
    }
  }
}

void AppendString(std::string_view s, std::string* out) {
  out->push_back('"');
  size_t run = 0;  // start of the characters not yet copied
  size_t i = 0;
  while (i < s.size()) {
    // Skip whole words that need no escape; the word with one is scanned byte by byte below.
    if (s.size() - i >= sizeof(uint64_t)) {
      uint64_t word;
      std::memcpy(&word, s.data() + i, sizeof(word));
      if (!AnyJsonSpecialByte(word)) {
        i += sizeof(word);
        continue;
      }
    }
    const auto c = static_cast<unsigned char>(s[i++]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + run, i - 1 - run);
    AppendEscape(c, out);
    run = i;
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

// `"key":`; `first` leaves out the comma.
void AppendKey(std::string_view key, bool first, std::string* out) {
  if (!first) out->push_back(',');
  AppendString(key, out);
  out->push_back(':');
}

void AppendInt(int32_t value, std::string* out) {
  char digits[16];
  const auto end = std::to_chars(digits, digits + sizeof(digits), value).ptr;
  out->append(digits, static_cast<size_t>(end - digits));
}

}  // namespace

void AppendJsonString(std::string_view s, std::string* out) { AppendString(s, out); }

// RapidJSON's recursive parser spends about an eighth fewer instructions on a send's header
// than its iterative one (callgrind of bench/header_codec_bench, docs/benchmarks.md "Header
// decode and encode"), but recursion must not follow a peer's nesting down the thread's stack.
// So the recursive parse gives up past this depth and the header is parsed again iteratively:
// deep headers are as legal as before (Java ignores unknown members however deep), only slower.
// Real headers nest two levels (the header object and extFields).
constexpr int kMaxRecursiveDepth = 32;

namespace {

// The scalars a parse writes, to start a second parse from where the first one began.
struct HeaderScalars {
  int32_t code, version, opaque, flag;
  LanguageCode language;
  bool has_ext_fields;

  static HeaderScalars Of(const RemotingCommand& c) {
    return {c.code, c.version, c.opaque, c.flag, c.language, c.has_ext_fields};
  }
  void RestoreInto(RemotingCommand* c) const {
    c->code = code;
    c->version = version;
    c->opaque = opaque;
    c->flag = flag;
    c->language = language;
    c->has_ext_fields = has_ext_fields;
  }
};

}  // namespace

Status DecodeJsonHeader(std::string_view header, uint32_t max_ext_fields, RemotingCommand* command) {
  // A command that already holds ext fields or a remark (not what decoders pass) goes to the
  // full parser rather than copy them for a retry.
  if (!command->ext_fields.empty() || command->remark) {
    return DecodeJsonHeaderFully(header, max_ext_fields, command);
  }
  const HeaderScalars before = HeaderScalars::Of(*command);
  if (TryDecodeFlatJsonHeader(header, max_ext_fields, command)) return Status::OK();
  before.RestoreInto(command);
  command->remark.reset();
  command->ext_fields.clear();
  return DecodeJsonHeaderFully(header, max_ext_fields, command);
}

Status DecodeJsonHeaderFully(std::string_view header, uint32_t max_ext_fields,
                             RemotingCommand* command) {
  // json_util.h's Reader (RapidJSON 1.1's stack does arithmetic on null). Its stack (string
  // copies, parse states) grows on the first headers and is kept per thread, so a decode
  // allocates nothing but the strings it keeps; a large header gets a reader of its own, so
  // what a thread keeps stays small however big a peer's headers were.
  constexpr size_t kReusedReaderMaxHeader = 16 * 1024;
  thread_local json::Reader reused_reader;
  std::optional<json::Reader> own_reader;
  json::Reader* reader = &reused_reader;
  if (header.size() > kReusedReaderMaxHeader) reader = &own_reader.emplace();

  const HeaderScalars before = HeaderScalars::Of(*command);
  // A command that already holds ext fields or a remark (not what decoders pass) skips the
  // recursive attempt rather than copy them for a retry.
  const bool fresh = command->ext_fields.empty() && !command->remark;

  rapidjson::MemoryStream stream(header.data(), header.size());
  HeaderHandler recursive(command, max_ext_fields, kMaxRecursiveDepth);
  std::optional<HeaderHandler> iterative;
  HeaderHandler* handler = &recursive;
  rapidjson::ParseResult result;
  if (fresh) result = reader->Parse<rapidjson::kParseNumbersAsStringsFlag>(stream, recursive);
  if (!fresh || recursive.too_deep()) {
    before.RestoreInto(command);
    if (fresh) {
      command->remark.reset();
      command->ext_fields.clear();
    }
    stream = rapidjson::MemoryStream(header.data(), header.size());
    handler = &iterative.emplace(command, max_ext_fields, /*max_depth=*/0);
    // Iterative: a deeply nested header cannot exhaust the stack.
    result = reader->Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag>(
        stream, *handler);
  }
  if (result.IsError()) {
    if (!handler->error().empty()) return Status::Corruption("bad JSON header: " + handler->error());
    return Status::Corruption(std::string("unparsable JSON header at offset ") +
                              std::to_string(result.Offset()) + ": " +
                              rapidjson::GetParseError_En(result.Code()));
  }
  // The memory stream reports end of input as NUL, so a NUL byte would end the parse early.
  if (stream.Tell() != header.size()) {
    return Status::Corruption("unparsable JSON header: NUL byte at offset " +
                              std::to_string(stream.Tell()));
  }
  if (handler->ext_overflow()) {
    return Status::InvalidArgument("header has " + std::to_string(handler->ext_members()) +
                                   " extFields members, more than the limit of " +
                                   std::to_string(max_ext_fields));
  }
  return Status::OK();
}

// The fixed parts of the header, each written with one append (they need no escaping, and
// scanning them per answer cost about a fifth of the encode: docs/benchmarks.md, "Header decode
// and encode"). The checks tie each piece to the key names the decoder reads.
constexpr std::string_view kOpenCode = R"({"code":)";
constexpr std::string_view kOpenExtFields = R"(,"extFields":{)";
constexpr std::string_view kFlagKey = R"(,"flag":)";
constexpr std::string_view kLanguageKey = R"(,"language":)";
constexpr std::string_view kOpaqueKey = R"(,"opaque":)";
constexpr std::string_view kRemarkKey = R"(,"remark":)";
constexpr std::string_view kSerializeTypeAndVersionKey = R"(,"serializeTypeCurrentRPC":"JSON","version":)";
static_assert(kOpenCode.substr(2, 4) == kJsonKeyCode);
static_assert(kOpenExtFields.substr(2, 9) == kJsonKeyExtFields);
static_assert(kFlagKey.substr(2, 4) == kJsonKeyFlag);
static_assert(kLanguageKey.substr(2, 8) == kJsonKeyLanguage);
static_assert(kOpaqueKey.substr(2, 6) == kJsonKeyOpaque);
static_assert(kRemarkKey.substr(2, 6) == kJsonKeyRemark);
static_assert(kSerializeTypeAndVersionKey.substr(2, 23) == kJsonKeySerializeType);
static_assert(kSerializeTypeAndVersionKey.substr(28, 4) == kSerializeTypeNameJson);
static_assert(kSerializeTypeAndVersionKey.substr(35, 7) == kJsonKeyVersion);

void EncodeJsonHeader(const RemotingCommand& command, std::string* out) {
  out->append(kOpenCode);
  AppendInt(command.code, out);
  if (command.has_ext_fields || !command.ext_fields.empty() || !command.json_ext_fields.empty()) {
    out->append(kOpenExtFields);
    out->append(command.json_ext_fields);
    bool first = command.json_ext_fields.empty();
    for (const auto& [key, value] : command.ext_fields) {
      AppendKey(key, first, out);
      AppendString(value, out);
      first = false;
    }
    out->push_back('}');
  }
  out->append(kFlagKey);
  AppendInt(command.flag, out);
  out->append(kLanguageKey);
  AppendString(LanguageName(command.language), out);
  out->append(kOpaqueKey);
  AppendInt(command.opaque, out);
  if (command.remark) {
    out->append(kRemarkKey);
    AppendString(*command.remark, out);
  }
  out->append(kSerializeTypeAndVersionKey);
  AppendInt(command.version, out);
  out->push_back('}');
}

}  // namespace apogee::protocol
