#include "base/runtime_config_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace apogee {

std::string ForbiddenRuntimeConfigKeyReason(std::string_view key) {
  auto ends_with = [&](std::string_view suffix) {
    return key.size() >= suffix.size() && key.substr(key.size() - suffix.size()) == suffix;
  };
  std::string lower(key);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (key == "brokerConfigPath") return "Can not update config path";
  if (key == "rocketmqHome" || key.rfind("storePath", 0) == 0 || ends_with("Path") ||
      ends_with("Dir") || ends_with("File") || lower.find("path") != std::string::npos) {
    return fmt::format("Can not update {}: it names a file or directory", key);
  }
  if (lower.find("class") != std::string::npos || lower.find("command") != std::string::npos ||
      lower.find("script") != std::string::npos || lower.find("plugin") != std::string::npos) {
    return fmt::format("Can not update {}: it names code to load or run", key);
  }
  static constexpr std::array<std::string_view, 14> kRestartOnly = {
      "aclEnable",     "brokerRole",        "brokerId",   "brokerName", "brokerClusterName",
      "listenPort",    "bindAddress",       "haListenPort", "namesrvListenPort",
      "brokerIP1",     "brokerIP2",         "namesrvAddr",  "haMasterAddress",
      "configBlackList"};
  if (std::find(kRestartOnly.begin(), kRestartOnly.end(), key) != kRestartOnly.end() ||
      lower.rfind("acl", 0) == 0 || lower.rfind("tls", 0) == 0) {
    return fmt::format("Can not update {} at run time: it changes security, role or listeners",
                       key);
  }
  return "";
}

}  // namespace apogee
