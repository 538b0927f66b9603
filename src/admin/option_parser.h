// Sub-command flags as Java's mqadmin declares them (commons-cli Option(short, long,
// hasArg, description) plus setRequired), and the parse of one command line against them.
// The parse itself is CLI11's; this header keeps CLI11 out of every other file.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace apogee::admin {

struct OptionSpec {
  std::string short_name;  // "t"; empty when the option has only a long name
  std::string long_name;   // "topic"
  bool has_arg = true;     // false: a switch such as topicList -c
  bool required = false;
  std::string description;
};

struct CommandSpec {
  std::string name;
  std::string description;
  std::vector<OptionSpec> options;
};

// The options every mqadmin sub-command takes (Java's ServerUtil.buildCommandlineOptions):
// -h/--help and -n/--namesrvAddr.
std::vector<OptionSpec> CommonOptions();

// Values by long name. A switch that was given has the value "true".
class ParsedOptions {
 public:
  void Set(const std::string& long_name, std::string value) { values_[long_name] = std::move(value); }
  bool Has(const std::string& long_name) const { return values_.count(long_name) != 0; }
  // The value (trimmed of blanks, as Java's commandLine.getOptionValue(..).trim()), or
  // `fallback` when absent.
  std::string Get(const std::string& long_name, std::string fallback = "") const;
  // Parsed numbers and booleans; InvalidArgument naming the flag when the text is not one.
  Result<int64_t> GetInt64(const std::string& long_name, int64_t fallback) const;
  Result<int32_t> GetInt32(const std::string& long_name, int32_t fallback) const;
  // Java's Boolean.parseBoolean would read anything but "true" as false; a typo then
  // silently flips a setting, so only true/false (any case) are accepted.
  Result<bool> GetBool(const std::string& long_name, bool fallback) const;
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

// Parses `args` (the words after the sub-command name) against spec.options plus
// CommonOptions(). Errors name the command and the offending flag. A missing required
// option is not checked when --help is present.
Result<ParsedOptions> ParseOptions(const CommandSpec& spec, const std::vector<std::string>& args);

// "usage: mqadmin <name> [-b <arg>] -t <arg> ..." followed by one line per option, as
// commons-cli's HelpFormatter prints it.
std::string FormatUsage(const CommandSpec& spec);

}  // namespace apogee::admin
