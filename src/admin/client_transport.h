// ClientTransport: AdminTransport over client::MQClientAPI (the client library's remoting
// client, with its NameServer failover).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "acl/signature.h"
#include "admin/admin_transport.h"
#include "base/status.h"
#include "base/tls_config.h"

namespace apogee::client {
class MQClientAPI;
}

namespace apogee::admin {

class ClientTransport : public AdminTransport {
 public:
  // `namesrv_addr` is "host:port;host:port"; InvalidArgument names a malformed piece.
  // Every request is signed with `credentials` when they are not empty; with `tls`
  // (resolved, see ResolveToolTls) every connection uses TLS.
  static Result<std::unique_ptr<ClientTransport>> Create(std::string_view namesrv_addr,
                                                         const acl::Credentials& credentials = {},
                                                         const TlsConfig* tls = nullptr);
  ~ClientTransport() override;

  Result<protocol::RemotingCommand> InvokeNamesrv(protocol::RemotingCommand request,
                                                  Millis timeout) override;
  Result<protocol::RemotingCommand> Invoke(std::string_view addr, protocol::RemotingCommand request,
                                           Millis timeout) override;
  std::vector<std::string> NameServers() const override;

  client::MQClientAPI* api() { return api_.get(); }

  // The tools' TLS (mqadmin --tls, mqbench --tls; Java's -Dtls.enable=true): Java's
  // client defaults, then `config_file` (Java's tls.properties, default
  // /etc/rocketmq/tls.properties) when it exists.
  static Result<TlsConfig> ResolveToolTls(std::string config_file);

 private:
  explicit ClientTransport(std::unique_ptr<client::MQClientAPI> api);
  std::unique_ptr<client::MQClientAPI> api_;
};

}  // namespace apogee::admin
