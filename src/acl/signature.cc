#include "acl/signature.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <vector>

namespace apogee::acl {

std::string CalSignature(std::string_view data, std::string_view secret_key) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_len = 0;
  HMAC(EVP_sha1(), secret_key.data(), static_cast<int>(secret_key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &mac_len);
  std::string out(4 * ((mac_len + 2) / 3), '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), mac,
                          static_cast<int>(mac_len));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::string SignedContent(const protocol::RemotingCommand& request) {
  std::vector<const protocol::ExtFields::Entry*> entries;
  entries.reserve(request.ext_fields.size());
  for (const auto& entry : request.ext_fields) {
    if (entry.first == kSignatureField || entry.first == kUniqueMsgQueryFlag) continue;
    entries.push_back(&entry);
  }
  // Java's TreeMap<String, String> orders by UTF-16 code units; for the ASCII keys of
  // every RocketMQ header that is byte order.
  std::sort(entries.begin(), entries.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  size_t size = request.body.size() + request.borrowed_body.size();
  for (const auto* e : entries) size += e->second.size();
  std::string content;
  content.reserve(size);
  for (const auto* e : entries) content += e->second;
  content += request.body;
  content += request.borrowed_body;  // the wire's body is both
  return content;
}

void SignRequest(const Credentials& credentials, protocol::RemotingCommand* request) {
  if (credentials.empty()) return;
  request->has_ext_fields = true;
  request->ext_fields.Erase(kSignatureField);
  request->ext_fields.Set(kAccessKeyField, credentials.access_key);
  if (credentials.security_token) {
    request->ext_fields.Set(kSecurityTokenField, *credentials.security_token);
  }
  if (credentials.ons_channel) request->ext_fields.Set(kOnsChannelField, *credentials.ons_channel);
  request->ext_fields.Set(kSignatureField,
                          CalSignature(SignedContent(*request), credentials.secret_key));
}

std::function<void(protocol::RemotingCommand*)> SigningHook(const Credentials& credentials) {
  if (credentials.empty()) return nullptr;
  return [credentials](protocol::RemotingCommand* request) { SignRequest(credentials, request); };
}

}  // namespace apogee::acl
