#include "protocol/json_header_scan.h"

#include <cstddef>
#include <cstring>
#include <optional>
#include <string>

#include "base/string_util.h"
#include "protocol/remoting_format.h"

namespace apogee::protocol {
namespace {

// The scalar kinds the scan reads. Each value's text is what the full parser hands its handler
// (numbers as their source text, booleans as "true" / "false"), so both store the same strings.
enum class Kind { kNull, kBool, kNumber, kString };

class FlatScanner {
 public:
  explicit FlatScanner(std::string_view in) : p_(in.data()), end_(in.data() + in.size()) {}

  bool AtEnd() const { return p_ == end_; }
  bool Peek(char c) const { return p_ != end_ && *p_ == c; }
  bool Consume(char c) {
    if (!Peek(c)) return false;
    ++p_;
    return true;
  }

  // A string without escapes and control bytes (JSON forbids raw ones; an escape is left to the
  // full parser). Other bytes, UTF-8 or not, are taken as they are, as the full parser does.
  bool String(std::string_view* out) {
    if (!Consume('"')) return false;
    const char* start = p_;
    // Whole words without a special byte are skipped; the word with one is read byte by byte.
    uint64_t word;
    while (end_ - p_ >= static_cast<std::ptrdiff_t>(sizeof(word))) {
      std::memcpy(&word, p_, sizeof(word));
      if (AnyJsonSpecialByte(word)) break;
      p_ += sizeof(word);
    }
    for (; p_ != end_; ++p_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        *out = std::string_view(start, static_cast<size_t>(p_ - start));
        ++p_;
        return true;
      }
      if (c < 0x20 || c == '\\') return false;
    }
    return false;
  }

  // A string, an integer, true, false or null; false for an object, an array, a number with a
  // fraction or exponent, or anything malformed.
  bool Scalar(Kind* kind, std::string_view* text) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '"':
        *kind = Kind::kString;
        return String(text);
      case 't':
        *kind = Kind::kBool;
        return Literal("true", text);
      case 'f':
        *kind = Kind::kBool;
        return Literal("false", text);
      case 'n':
        *kind = Kind::kNull;
        return Literal("null", text);
      default:
        *kind = Kind::kNumber;
        return Integer(text);
    }
  }

 private:
  bool Literal(std::string_view word, std::string_view* text) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) {
      return false;
    }
    *text = std::string_view(p_, word.size());
    p_ += word.size();
    return true;
  }

  // JSON's -?(0|[1-9][0-9]*). What follows must be ',' or '}', which the caller checks, so
  // "01" or "1.5" end the scan there.
  bool Integer(std::string_view* text) {
    const char* start = p_;
    Consume('-');
    if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
    if (*p_++ != '0') {
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    *text = std::string_view(start, static_cast<size_t>(p_ - start));
    return true;
  }

  const char* p_;
  const char* end_;
};

// What the full parser does with the int fields: null keeps the default, a number or a quoted
// number is parsed; anything else (a boolean, an out-of-range number) is its error to report.
bool Int32Field(Kind kind, std::string_view text, int32_t* out) {
  if (kind == Kind::kNull) return true;
  if (kind == Kind::kBool) return false;
  std::optional<int32_t> value = ParseInt32(text);
  if (!value) return false;
  *out = *value;
  return true;
}

// One top-level member with a scalar value. Rare forms (a language ordinal, a remark that is
// not a string, a scalar extFields) are left to the full parser.
bool TopLevel(std::string_view key, Kind kind, std::string_view text, RemotingCommand* command) {
  if (key == kJsonKeyCode) return Int32Field(kind, text, &command->code);
  if (key == kJsonKeyOpaque) return Int32Field(kind, text, &command->opaque);
  if (key == kJsonKeyFlag) return Int32Field(kind, text, &command->flag);
  if (key == kJsonKeyVersion) return Int32Field(kind, text, &command->version);
  if (key == kJsonKeyLanguage) {
    if (kind == Kind::kString) command->language = LanguageFromName(text);
    return kind == Kind::kString || kind == Kind::kNull;
  }
  if (key == kJsonKeyRemark) {
    if (kind == Kind::kNull) {
      command->remark.reset();
    } else if (kind == Kind::kString) {
      command->remark = std::string(text);
    }
    return kind == Kind::kString || kind == Kind::kNull;
  }
  if (key == kJsonKeyExtFields) {
    if (kind != Kind::kNull) return false;
    command->has_ext_fields = false;
    command->ext_fields.clear();
    return true;
  }
  return true;  // serializeTypeCurrentRPC and unknown keys: ignored
}

// The extFields object, at its '{'. `members` counts every member of every extFields object
// of the header, as the full parser's limit does.
bool ExtFieldsObject(FlatScanner* in, uint32_t max_ext_fields, size_t* members,
                     RemotingCommand* command) {
  in->Consume('{');
  command->has_ext_fields = true;
  if (in->Consume('}')) return true;
  do {
    std::string_view key;
    std::string_view text;
    Kind kind;
    if (!in->String(&key) || !in->Consume(':') || !in->Scalar(&kind, &text)) return false;
    if (max_ext_fields != 0 && ++*members > max_ext_fields) return false;
    // null means absent (Java's HashMap.get returns null); last duplicate wins.
    if (kind == Kind::kNull) {
      command->ext_fields.Erase(key);
    } else {
      command->ext_fields.Set(key, std::string(text));
    }
  } while (in->Consume(','));
  return in->Consume('}');
}

}  // namespace

bool TryDecodeFlatJsonHeader(std::string_view header, uint32_t max_ext_fields,
                             RemotingCommand* command) {
  FlatScanner in(header);
  if (!in.Consume('{')) return false;
  if (in.Consume('}')) return in.AtEnd();
  size_t members = 0;
  do {
    std::string_view key;
    if (!in.String(&key) || !in.Consume(':')) return false;
    if (key == kJsonKeyExtFields && in.Peek('{')) {
      if (!ExtFieldsObject(&in, max_ext_fields, &members, command)) return false;
      continue;
    }
    Kind kind;
    std::string_view text;
    if (!in.Scalar(&kind, &text) || !TopLevel(key, kind, text, command)) return false;
  } while (in.Consume(','));
  return in.Consume('}') && in.AtEnd();
}

}  // namespace apogee::protocol
