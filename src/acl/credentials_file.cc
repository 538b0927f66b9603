#include "acl/credentials_file.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "base/file_util.h"

namespace apogee::acl {

Result<Credentials> ParseCredentials(std::string_view yaml_text) {
  try {
    YAML::Node root = YAML::Load(std::string(yaml_text));
    if (!root.IsMap()) return Status::InvalidArgument("expected a map with accessKey and secretKey");
    auto scalar = [&](const char* key) -> std::string {
      YAML::Node n = root[key];
      return n && n.IsScalar() ? n.as<std::string>() : "";
    };
    Credentials c{scalar("accessKey"), scalar("secretKey"), std::nullopt, std::nullopt};
    if (c.access_key.empty() || c.secret_key.empty()) {
      return Status::InvalidArgument("accessKey or secretKey is missing");
    }
    if (std::string token = scalar("securityToken"); !token.empty()) c.security_token = token;
    return c;
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(fmt::format("not valid YAML: {}", e.what()));
  }
}

Result<Credentials> ReadCredentialsFile(const std::string& path) {
  Result<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status().Prefixed("credentials file");
  auto c = ParseCredentials(*text);
  if (!c.ok()) {
    return Status::InvalidArgument(fmt::format("credentials file {}: {}", path, c.status().message()));
  }
  return c;
}

}  // namespace apogee::acl
