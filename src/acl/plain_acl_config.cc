#include "acl/plain_acl_config.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "base/string_util.h"
#include "protocol/mix_all.h"

namespace apogee::acl {

namespace {

// Java's AclConstants.ACCESS_KEY_MIN_LENGTH / SECRET_KEY_MIN_LENGTH: length must exceed 6.
constexpr size_t kMinKeyLength = 6;

Result<std::vector<std::string>> StringList(const YAML::Node& node, std::string_view what) {
  std::vector<std::string> out;
  if (!node || node.IsNull()) return out;
  if (node.IsScalar()) {  // a single value instead of a list: accept it
    out.push_back(node.as<std::string>());
    return out;
  }
  if (!node.IsSequence()) return Status::InvalidArgument(fmt::format("{} must be a list", what));
  for (const auto& item : node) {
    if (!item.IsScalar()) {
      return Status::InvalidArgument(fmt::format("{} must be a list of strings", what));
    }
    out.push_back(item.as<std::string>());
  }
  return out;
}

std::string Scalar(const YAML::Node& node) {
  if (!node || node.IsNull() || !node.IsScalar()) return "";
  return node.as<std::string>();
}

Result<Perm> PermField(const YAML::Node& node, std::string_view what) {
  if (!node || node.IsNull()) return kDeny;
  auto perm = ParsePerm(Scalar(node));
  if (!perm) {
    return Status::InvalidArgument(fmt::format(
        "{} '{}' is not DENY, PUB, SUB or PUB|SUB", what, Scalar(node)));
  }
  return *perm;
}

Status ResourcePerms(const YAML::Node& node, bool topics, Account* account) {
  std::string_view what = topics ? "topicPerms" : "groupPerms";
  APOGEE_ASSIGN_OR_RETURN(auto items, StringList(node, what));
  for (const std::string& item : items) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || item.find('=', eq + 1) != std::string::npos) {
      return Status::InvalidArgument(
          fmt::format("{} entry '{}' is not 'name=PERM'", what, item));
    }
    std::string name(TrimWhitespace(std::string_view(item).substr(0, eq)));
    if (name.empty()) return Status::InvalidArgument(fmt::format("{} entry '{}' has no name", what, item));
    auto perm = ParsePerm(std::string_view(item).substr(eq + 1));
    if (!perm) {
      return Status::InvalidArgument(
          fmt::format("{} entry '{}': the permission is not DENY, PUB, SUB or PUB|SUB", what, item));
    }
    account->resource_perms[topics ? name : protocol::RetryTopic(name)] = *perm;
  }
  return Status::OK();
}

Result<Account> ParseAccount(const YAML::Node& node, size_t index) {
  if (!node.IsMap()) return Status::InvalidArgument(fmt::format("accounts[{}] is not a map", index));
  Account a;
  a.access_key = Scalar(node["accessKey"]);
  a.secret_key = Scalar(node["secretKey"]);
  // Never put the secret into a message.
  if (a.access_key.size() <= kMinKeyLength || a.secret_key.size() <= kMinKeyLength) {
    return Status::InvalidArgument(fmt::format(
        "accounts[{}] (accessKey '{}'): accessKey and secretKey must be longer than {} characters",
        index, a.access_key, kMinKeyLength));
  }
  auto with_account = [&](Status s) {
    return Status::InvalidArgument(
        fmt::format("account '{}': {}", a.access_key, s.message()));
  };
  auto white = AddressPattern::Parse(Scalar(node["whiteRemoteAddress"]));
  if (!white.ok()) return with_account(white.status());
  a.white_remote_address = std::move(*white);
  if (const YAML::Node admin = node["admin"]; admin && !admin.IsNull()) {
    std::string v = Scalar(admin);
    if (v == "true") {
      a.admin = true;
    } else if (v != "false") {
      return with_account(Status::InvalidArgument(fmt::format("admin '{}' is not true or false", v)));
    }
  }
  auto topic_perm = PermField(node["defaultTopicPerm"], "defaultTopicPerm");
  if (!topic_perm.ok()) return with_account(topic_perm.status());
  a.default_topic_perm = *topic_perm;
  auto group_perm = PermField(node["defaultGroupPerm"], "defaultGroupPerm");
  if (!group_perm.ok()) return with_account(group_perm.status());
  a.default_group_perm = *group_perm;
  if (Status s = ResourcePerms(node["topicPerms"], true, &a); !s.ok()) return with_account(s);
  if (Status s = ResourcePerms(node["groupPerms"], false, &a); !s.ok()) return with_account(s);
  return a;
}

}  // namespace

Result<PlainAclConfig> ParsePlainAclConfig(std::string_view yaml_text) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(fmt::format("not valid YAML: {}", e.what()));
  }
  PlainAclConfig config;
  if (root.IsNull()) return config;  // an empty file: no accounts, nobody gets in
  if (!root.IsMap()) return Status::InvalidArgument("the top level is not a map");
  try {
    APOGEE_ASSIGN_OR_RETURN(auto white, StringList(root["globalWhiteRemoteAddresses"],
                                                   "globalWhiteRemoteAddresses"));
    for (const std::string& w : white) {
      APOGEE_ASSIGN_OR_RETURN(auto pattern, AddressPattern::Parse(w));
      config.global_white_remote_addresses.push_back(std::move(pattern));
    }
    const YAML::Node accounts = root["accounts"];
    if (accounts && !accounts.IsNull()) {
      if (!accounts.IsSequence()) return Status::InvalidArgument("accounts must be a list");
      size_t index = 0;
      for (const auto& node : accounts) {
        APOGEE_ASSIGN_OR_RETURN(Account account, ParseAccount(node, index++));
        std::string key = account.access_key;
        if (!config.accounts.emplace(key, std::move(account)).second) {
          return Status::InvalidArgument(fmt::format("accessKey '{}' appears twice", key));
        }
      }
    }
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(fmt::format("unexpected YAML structure: {}", e.what()));
  }
  return config;
}

}  // namespace apogee::acl
