// MessageProperties: a message's properties, and their string codec
// (MessageDecoder.messageProperties2String / string2messageProperties).
//
// Encoding is exact: "key\x01value\x02" for every pair, the last included, in the order the
// pairs are held. Decoding is loose, as Java's: split on \x02, skip pieces shorter than 3
// bytes, split each at its first \x01, keep only non-empty key and value, and let a later
// duplicate replace an earlier one (keeping the earlier position). Order is kept so that a
// decoded record re-encodes to the same bytes; readers must not depend on it otherwise.
// Decoding is linear in the text (a KeyIndex serves lookups in maps past a dozen keys);
// callers that take the text from a peer check its length (kMaxPropertiesLength) first.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/key_index.h"
#include "base/status.h"

namespace apogee::message {

class MessageProperties {
 public:
  using Entry = std::pair<std::string, std::string>;

  MessageProperties() = default;
  MessageProperties(std::initializer_list<Entry> entries);

  // Decodes a property string (see above). Never fails: malformed pieces are dropped.
  static MessageProperties Decode(std::string_view text);
  // The exact encoding of the held pairs.
  std::string Encode() const;
  // Appends the encoding to `out`.
  void EncodeTo(std::string* out) const;
  // Byte length of Encode().
  size_t EncodedSize() const;

  // The value, or nullopt when absent.
  std::optional<std::string_view> Get(std::string_view key) const;
  bool Has(std::string_view key) const { return Get(key).has_value(); }
  // Sets `key` (replacing in place when present). Empty keys/values and keys or values
  // containing \x01 or \x02 cannot round-trip and are rejected.
  Status Set(std::string_view key, std::string_view value);
  // Removes `key`; true when it was present.
  bool Erase(std::string_view key);
  void Clear() {
    entries_.clear();
    index_.Clear();
  }

  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  const std::vector<Entry>& entries() const { return entries_; }
  // The pairs, moved out (a received message handed on to the public API without copying
  // its strings); leaves this empty.
  std::vector<Entry> TakeEntries() {
    index_.Clear();
    return std::exchange(entries_, {});
  }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }

  friend bool operator==(const MessageProperties& a, const MessageProperties& b) {
    return a.entries_ == b.entries_;
  }

 private:
  // Set without validation (decoder: the pieces are already separator-free).
  void SetUnchecked(std::string_view key, std::string_view value);

  std::vector<Entry> entries_;
  KeyIndex index_;
};

// A property string from a peer, checked before it is decoded: InvalidArgument naming the
// limit when it is longer than kMaxPropertiesLength (the CommitLog's int16 field), so an
// oversized one costs no parsing.
Status CheckPropertiesLength(std::string_view text);

// Java's lookup on the raw string without decoding everything: the value of `key` in the
// property string `text` (last occurrence wins, as when decoding), or nullopt.
std::optional<std::string_view> FindProperty(std::string_view text, std::string_view key);

}  // namespace apogee::message
