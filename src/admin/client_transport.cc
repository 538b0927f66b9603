#include "admin/client_transport.h"

#include "client/mq_client_api.h"

namespace apogee::admin {

Result<TlsConfig> ClientTransport::ResolveToolTls(std::string config_file) {
  TlsConfig tls;
  tls.enable = true;
  tls.config_file = std::move(config_file);
  return ResolveTlsConfig(tls, /*as_server=*/false, "admin");
}

Result<std::unique_ptr<ClientTransport>> ClientTransport::Create(
    std::string_view namesrv_addr, const acl::Credentials& credentials, const TlsConfig* tls) {
  client::MQClientAPIOptions options;
  options.credentials = credentials;
  options.callback_threads = 1;  // mqadmin makes one call at a time
  if (tls != nullptr) {
    options.use_tls = true;
    options.tls = *tls;
  }
  auto api = std::make_unique<client::MQClientAPI>(options);
  if (!namesrv_addr.empty()) APOGEE_RETURN_IF_ERROR(api->UpdateNameServerAddressList(namesrv_addr));
  api->Start();
  return std::unique_ptr<ClientTransport>(new ClientTransport(std::move(api)));
}

ClientTransport::ClientTransport(std::unique_ptr<client::MQClientAPI> api) : api_(std::move(api)) {}

ClientTransport::~ClientTransport() { api_->Shutdown(); }

Result<protocol::RemotingCommand> ClientTransport::InvokeNamesrv(protocol::RemotingCommand request,
                                                                 Millis timeout) {
  return api_->InvokeNamesrvSync(std::move(request), timeout);
}

Result<protocol::RemotingCommand> ClientTransport::Invoke(std::string_view addr,
                                                          protocol::RemotingCommand request,
                                                          Millis timeout) {
  return api_->InvokeSync(addr, std::move(request), timeout);
}

std::vector<std::string> ClientTransport::NameServers() const {
  return api_->NameServerAddressList();
}

}  // namespace apogee::admin
