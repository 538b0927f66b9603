#include "protocol/json_header_scan.h"

#include <cstddef>
#include <cstring>
#include <optional>
#include <string>

#include "base/string_util.h"
#include "protocol/json_util.h"
#include "protocol/kept_buffers.h"
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

  // A string without control bytes (JSON forbids raw ones). Other bytes, UTF-8 or not, are
  // taken as they are, as the full parser does. Without an escape `out` views the input; with
  // one (a send request's properties are full of \u0001 and \u0002) the string is decoded into
  // `scratch` and `out` views that.
  bool String(std::string_view* out, std::string* scratch) {
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
      if (c == '\\') return EscapedString(start, out, scratch);
      if (c < 0x20) return false;
    }
    return false;
  }

  // A string, an integer, true, false or null; false for an object, an array, a number with a
  // fraction or exponent, or anything malformed.
  // A member name: views the input or the key scratch.
  bool Key(std::string_view* out) { return String(out, &key_scratch_); }

  // The text of the last scalar as a string of its own: the decoded scratch is moved out
  // rather than copied (a send request's properties, a hundred bytes and more).
  std::string TakeValue(std::string_view text) {
    if (!value_scratch_.empty() && text.data() == value_scratch_.data()) {
      std::string taken = std::move(value_scratch_);
      value_scratch_.clear();
      return taken;
    }
    // Longer than a string holds inline: into kept room when this thread has some (the
    // request's processor gives its header's strings back, protocol/kept_buffers.h).
    std::string value;
    if (text.size() > value.capacity()) (void)TakeKeptText(&value, text.size());
    value.assign(text);
    return value;
  }

  bool Scalar(Kind* kind, std::string_view* text) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '"':
        *kind = Kind::kString;
        return String(text, &value_scratch_);
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

  // The rest of a string whose first escape is at p_, decoded into `scratch`. JSON's two-letter
  // escapes and \u escapes of a code point (a surrogate pair for one above U+FFFF) are decoded
  // as the full parser decodes them (UTF-8); a lone or unpaired surrogate, an unknown escape or
  // a short \u is left to the full parser.
  bool EscapedString(const char* start, std::string_view* out, std::string* scratch) {
    // One allocation instead of the two or three of growing (a send's properties, heaptrack).
    // Sized to the string's own text, not to the rest of the header: the value keeps this
    // capacity in the ext fields, and 1024 short escaped members of a 512 KiB header held
    // about 256 MiB that way.
    // Kept room first: the value ends up in the request's header, and a processor that is
    // done with it gives it back (protocol/kept_buffers.h).
    const size_t bound = EscapedTextBound(start);
    scratch->clear();
    if (scratch->capacity() < bound && !TakeKeptText(scratch, bound)) scratch->reserve(bound);
    scratch->assign(start, static_cast<size_t>(p_ - start));
    while (p_ != end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        *out = *scratch;
        return true;
      }
      if (c < 0x20) return false;
      if (c != '\\') {
        const char* run = p_;
        while (p_ != end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) {
          ++p_;
        }
        scratch->append(run, static_cast<size_t>(p_ - run));
        continue;
      }
      if (++p_ == end_) return false;
      switch (*p_++) {
        case '"': scratch->push_back('"'); break;
        case '\\': scratch->push_back('\\'); break;
        case '/': scratch->push_back('/'); break;
        case 'b': scratch->push_back('\b'); break;
        case 'f': scratch->push_back('\f'); break;
        case 'n': scratch->push_back('\n'); break;
        case 'r': scratch->push_back('\r'); break;
        case 't': scratch->push_back('\t'); break;
        case 'u': {
          uint32_t code_point;
          if (!Hex4(&code_point)) return false;
          if (code_point >= 0xDC00 && code_point <= 0xDFFF) return false;
          if (code_point >= 0xD800 && code_point <= 0xDBFF) {
            uint32_t low;
            if (!Consume('\\') || !Consume('u') || !Hex4(&low) || low < 0xDC00 || low > 0xDFFF) {
              return false;
            }
            code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(code_point, scratch);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  // Bytes from `from` (inside a string) to the string's closing quote, the first '"' after
  // an even run of backslashes; the rest of the input when there is none. Decoding never
  // lengthens the text, so the decoded string fits in that many bytes.
  size_t EscapedTextBound(const char* from) const {
    const char* quote = from;
    while ((quote = static_cast<const char*>(
                std::memchr(quote, '"', static_cast<size_t>(end_ - quote)))) != nullptr) {
      size_t backslashes = 0;
      for (const char* b = quote; b > from && b[-1] == '\\'; --b) ++backslashes;
      if (backslashes % 2 == 0) return static_cast<size_t>(quote - from);
      ++quote;
    }
    return static_cast<size_t>(end_ - from);
  }

  // Four hex digits (either case) as a UTF-16 code unit. Not base's HexDecode: it builds a
  // string per escape, about +500 broker instructions per send request (callgrind).
  bool Hex4(uint32_t* value) {
    if (end_ - p_ < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *p_++;
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
    }
    *value = v;
    return true;
  }

  // RapidJSON's own encoder, so a decoded string is byte for byte what the full parser makes.
  static void AppendUtf8(uint32_t code_point, std::string* out) {
    struct Out {
      std::string* s;
      void Put(char c) { s->push_back(c); }
    } os{out};
    rapidjson::UTF8<char>::Encode(os, code_point);
  }

  const char* p_;
  const char* end_;
  std::string key_scratch_;    // the last escaped member name
  std::string value_scratch_;  // the last escaped string value
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
    if (!in->Key(&key) || !in->Consume(':') || !in->Scalar(&kind, &text)) return false;
    if (max_ext_fields != 0 && ++*members > max_ext_fields) return false;
    // null means absent (Java's HashMap.get returns null); last duplicate wins.
    if (kind == Kind::kNull) {
      command->ext_fields.Erase(key);
    } else {
      command->ext_fields.Set(key, in->TakeValue(text));
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
    if (!in.Key(&key) || !in.Consume(':')) return false;
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
