// A typed config table that reads Java-style properties files (broker.conf,
// namesrv.conf) with RocketMQ's key names.
//
// Each setting is declared once: key, a pointer to the typed field it fills, its
// description and whether it may change at run time. Keys and descriptions are string
// literals (the `const char*` parameters refuse a temporary std::string): the tables are
// rebuilt per config request, so an entry holds views and building one allocates nothing. Unknown keys are reported by name
// (the caller warns); a value that does not parse stops loading with an error that names
// the key and the value. Java's loader silently ignores both; we do not.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee {

// key=value lines; '#' or '!' start a comment line; blanks around keys and values are
// trimmed; a later duplicate wins. Line continuations and escapes are not supported
// (RocketMQ's sample configs use none).
Result<std::map<std::string, std::string>> ParsePropertiesText(std::string_view text);
Result<std::map<std::string, std::string>> ParsePropertiesFile(const std::string& path);

class ConfigTable {
 public:
  enum class Type { kString, kInt32, kInt64, kBool, kDouble, kEnum };

  struct Entry {
    std::string_view key;  // a string literal
    Type type;
    void* field;
    std::string_view description;  // a string literal
    bool reloadable = false;
    std::vector<std::string_view> enum_values;  // kEnum: accepted values (literals, case-sensitive)
    int64_t min = INT64_MIN;
    int64_t max = INT64_MAX;
  };

  ConfigTable& Add(const char* key, std::string* field, const char* description,
                   bool reloadable = false);
  ConfigTable& Add(const char* key, int32_t* field, const char* description,
                   bool reloadable = false, int64_t min = INT32_MIN, int64_t max = INT32_MAX);
  ConfigTable& Add(const char* key, int64_t* field, const char* description,
                   bool reloadable = false, int64_t min = INT64_MIN, int64_t max = INT64_MAX);
  ConfigTable& Add(const char* key, bool* field, const char* description, bool reloadable = false);
  ConfigTable& Add(const char* key, double* field, const char* description,
                   bool reloadable = false);
  ConfigTable& AddEnum(const char* key, std::string* field, std::vector<std::string_view> values,
                       const char* description, bool reloadable = false);
  // Adds an entry of another table (its key, description and values are literals too).
  ConfigTable& AddEntry(Entry entry);

  // Sets one key. NotFound for an unknown key; InvalidArgument naming key and value
  // for a value that does not parse or is out of range.
  Status Set(std::string_view key, std::string_view value);
  // Applies every pair; unknown keys are appended to `unknown` (when given) and skipped.
  // Stops at the first bad value.
  Status Apply(const std::map<std::string, std::string>& props,
               std::vector<std::string>* unknown = nullptr);

  bool Has(std::string_view key) const;
  const Entry* Find(std::string_view key) const;
  // The current value of a key in properties form.
  std::string Get(std::string_view key) const;
  // Every key and its current value, sorted by key.
  std::map<std::string, std::string> Snapshot() const;
  // "key=value\n" for every key, sorted: what -p prints.
  std::string ToPropertiesText() const;
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

}  // namespace apogee
