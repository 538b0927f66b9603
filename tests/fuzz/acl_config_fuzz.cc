// libFuzzer target: the plain_acl.yml parser (yaml-cpp underneath) and the address
// patterns on arbitrary bytes. Nothing may crash or throw, and a file that parses must let
// each of its accounts through with a correctly signed request for a topic it may read.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "acl/access_validator.h"
#include "acl/address_pattern.h"
#include "acl/plain_acl_config.h"
#include "acl/signature.h"
#include "protocol/request_code.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto pattern = apogee::acl::AddressPattern::Parse(input);
  if (pattern.ok()) (void)pattern->Matches("127.0.0.1");
  auto config = apogee::acl::ParsePlainAclConfig(input);
  if (!config.ok()) return 0;
  for (const auto& [key, account] : config->accounts) {
    auto request = apogee::protocol::RemotingCommand::MakeRequest(
        apogee::protocol::request_code::kQueryMessage);
    request.ext_fields.Set("topic", "fuzz-topic");
    apogee::acl::Credentials c{key, account.secret_key, std::nullopt, std::nullopt};
    apogee::acl::SignRequest(c, &request);
    // 192.0.2.1 (TEST-NET-1) as peer: the file's white addresses may still match it.
    auto verdict = apogee::acl::ValidateRequest(*config, apogee::acl::AclScope::kBroker,
                                                "192.0.2.1:1", request);
    bool may = account.admin && account.resource_perms.empty();
    auto it = account.resource_perms.find("fuzz-topic");
    apogee::acl::Perm owned = it != account.resource_perms.end() ? it->second
                                                                 : account.default_topic_perm;
    may = may || apogee::acl::CheckPermission(apogee::acl::kSub, owned);
    if (may && !verdict.ok()) abort();
  }
  return 0;
}
