#include "admin/option_parser.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <sstream>

#include "base/string_util.h"

namespace apogee::admin {
namespace {

std::vector<OptionSpec> AllOptions(const CommandSpec& spec) {
  std::vector<OptionSpec> all = spec.options;
  for (OptionSpec& common : CommonOptions()) {
    bool taken = std::any_of(all.begin(), all.end(), [&](const OptionSpec& o) {
      return o.long_name == common.long_name ||
             (!o.short_name.empty() && o.short_name == common.short_name);
    });
    if (!taken) all.push_back(std::move(common));
  }
  return all;
}

std::string FlagNames(const OptionSpec& o) {
  std::string names;
  if (!o.short_name.empty()) names = "-" + o.short_name;
  if (!o.long_name.empty()) names += (names.empty() ? "--" : ",--") + o.long_name;
  return names;
}

std::string DisplayName(const OptionSpec& o) {
  return o.short_name.empty() ? "--" + o.long_name : "-" + o.short_name;
}

}  // namespace

std::vector<OptionSpec> CommonOptions() {
  return {
      {"h", "help", false, false, "Print help"},
      {"n", "namesrvAddr", true, false,
       "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
      // Java's tools read only conf/tools.yml; -a and -s are taken by sub-commands.
      {"", "accessKey", true, false, "ACL access key (default: $ROCKETMQ_HOME/conf/tools.yml)"},
      {"", "secretKey", true, false, "ACL secret key (default: $ROCKETMQ_HOME/conf/tools.yml)"},
  };
}

std::string ParsedOptions::Get(const std::string& long_name, std::string fallback) const {
  auto it = values_.find(long_name);
  if (it == values_.end()) return fallback;
  return std::string(TrimWhitespace(it->second));
}

Result<int64_t> ParsedOptions::GetInt64(const std::string& long_name, int64_t fallback) const {
  if (!Has(long_name)) return fallback;
  std::string text = Get(long_name);
  std::optional<int64_t> v = ParseInt64(text);
  if (!v) return Status::InvalidArgument("--" + long_name + " wants an integer, got '" + text + "'");
  return *v;
}

Result<int32_t> ParsedOptions::GetInt32(const std::string& long_name, int32_t fallback) const {
  if (!Has(long_name)) return fallback;
  std::string text = Get(long_name);
  std::optional<int32_t> v = ParseInt32(text);
  if (!v) {
    return Status::InvalidArgument("--" + long_name + " wants a 32-bit integer, got '" + text + "'");
  }
  return *v;
}

Result<bool> ParsedOptions::GetBool(const std::string& long_name, bool fallback) const {
  if (!Has(long_name)) return fallback;
  std::string text = Get(long_name);
  std::optional<bool> v = ParseBoolStrict(text);
  if (!v) return Status::InvalidArgument("--" + long_name + " wants true or false, got '" + text + "'");
  return *v;
}

Result<ParsedOptions> ParseOptions(const CommandSpec& spec, const std::vector<std::string>& args) {
  std::vector<OptionSpec> all = AllOptions(spec);
  CLI::App app(spec.description, spec.name);
  app.set_help_flag();  // -h is an ordinary switch here, as in Java
  app.allow_extras(false);
  std::map<std::string, std::string> values;
  std::map<std::string, bool> switches;
  for (const OptionSpec& o : all) {
    if (o.has_arg) {
      // The value is taken as given: a value that starts with '-' ("-1" for a timestamp)
      // stays a value, as commons-cli reads it.
      app.add_option(FlagNames(o), values[o.long_name])->expected(1)->allow_extra_args(false);
    } else {
      app.add_flag(FlagNames(o), switches[o.long_name]);
    }
  }
  // CLI11 wants argv in reverse order for its vector overload.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ExtrasError& e) {
    std::string what = e.what();
    size_t colon = what.find(':');
    std::string extras(TrimWhitespace(colon == std::string::npos ? what : what.substr(colon + 1)));
    return Status::InvalidArgument(spec.name + ": unknown option or argument: " + extras);
  } catch (const CLI::ParseError& e) {
    return Status::InvalidArgument(spec.name + ": " + e.what());
  }
  ParsedOptions parsed;
  for (const OptionSpec& o : all) {
    CLI::Option* opt = app.get_option(FlagNames(o).substr(0, FlagNames(o).find(',')));
    if (opt->count() == 0) continue;
    parsed.Set(o.long_name, o.has_arg ? values[o.long_name] : "true");
  }
  if (!parsed.Has("help")) {
    for (const OptionSpec& o : all) {
      if (o.required && !parsed.Has(o.long_name)) {
        return Status::InvalidArgument(spec.name + ": missing required option " + DisplayName(o) +
                                       " (--" + o.long_name + ": " + o.description + ")");
      }
    }
  }
  return parsed;
}

std::string FormatUsage(const CommandSpec& spec) {
  std::vector<OptionSpec> all = AllOptions(spec);
  std::ostringstream out;
  out << "usage: mqadmin " << spec.name;
  for (const OptionSpec& o : all) {
    std::string word = DisplayName(o) + (o.has_arg ? " <arg>" : "");
    out << ' ' << (o.required ? word : "[" + word + "]");
  }
  out << "\n" << spec.description << "\n";
  size_t width = 0;
  std::vector<std::string> heads;
  for (const OptionSpec& o : all) {
    std::string head = " " + FlagNames(o) + (o.has_arg ? " <arg>" : "");
    width = std::max(width, head.size());
    heads.push_back(std::move(head));
  }
  for (size_t i = 0; i < all.size(); ++i) {
    out << heads[i] << std::string(width - heads[i].size() + 3, ' ') << all[i].description
        << (all[i].required ? " (required)" : "") << "\n";
  }
  return out.str();
}

}  // namespace apogee::admin
