// The fast path of DecodeJsonHeader: a scan of the plain JSON header every known peer writes
// (Java's fastjson, the C++ and Go clients, Apogee itself). RapidJSON's tokenizer spent about
// 11k instructions on a 290-byte SEND_MESSAGE answer, most of the client's cost of reading it
// (docs/benchmarks.md, "Per-message cost of the remoting layer"). Internal to the protocol module.
#pragma once

#include <cstdint>
#include <string_view>

#include "protocol/remoting_command.h"

namespace apogee::protocol {

// Whether any of the 8 bytes of `word` is below 0x20, '"' or '\\' (the bytes a JSON string
// escapes or ends at), so that runs without one are skipped a word at a time by the writer and
// the scan (docs/benchmarks.md, "Header decode and encode").
inline bool AnyJsonSpecialByte(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHighs = 0x8080808080808080ULL;
  // For n <= 0x80: some byte of x is below n iff (x - n*kOnes) & ~x & kHighs is non-zero.
  const auto has_below = [](uint64_t x, uint64_t n) { return (x - n * kOnes) & ~x & kHighs; };
  return (has_below(word, 0x20) | has_below(word ^ ('"' * kOnes), 1) |
          has_below(word ^ ('\\' * kOnes), 1)) != 0;
}

// Decodes `header` into `command` (which holds no ext fields and no remark) and returns true
// when the header has the plain shape: no whitespace, strings without control bytes whose
// escapes are JSON's two-letter ones or \u escapes of code points (paired surrogates), integers without fraction or exponent, an extFields object of scalars, no other
// nesting, nothing after the closing brace, and at most `max_ext_fields` extFields members
// (0 = unlimited). Then the command is exactly what the full parser would make of it.
// Returns false for anything else, valid JSON or not: `command` may then be partly written,
// and the caller restores it and runs the full parser, which decides and words any error.
bool TryDecodeFlatJsonHeader(std::string_view header, uint32_t max_ext_fields,
                             RemotingCommand* command);

}  // namespace apogee::protocol
