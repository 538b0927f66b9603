// Shared fixture of the admin / query-message processor tests: the BrokerHarness of the
// send / pull tests (MemEnv store, managers, context) with the client, send/pull and admin
// families applied to a real loopback RemotingServer through the table, as BrokerController does, and a
// RemotingClient to call it.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>

#include "broker/processors/admin_processors.h"
#include "broker/processors/client_processors.h"
#include "broker/processors/send_pull_processors.h"
#include "message/host_address.h"
#include "message/message_record.h"
#include "message/properties.h"
#include "protocol/remoting_command.h"
#include "remoting/executor.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "unit/broker/processors/table_test_util.h"
#include "unit/broker/send_pull_test_util.h"
#include "store/message_store.h"
#include "store/put_status.h"

namespace apogee::broker::testing {

class AdminFixture : public ::testing::Test {
 protected:
  explicit AdminFixture(BrokerSettings settings = TestSettings()) : harness_(settings) {
    remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    server_ = std::make_unique<remoting::RemotingServer>(options);
    auto& ex = harness_.context.executors;
    ex.admin = std::make_shared<remoting::ThreadPoolExecutor>("admin", 2, 100);
    ex.query_message = std::make_shared<remoting::ThreadPoolExecutor>("query", 2, 100);
    ex.heartbeat = std::make_shared<remoting::ThreadPoolExecutor>("heartbeat", 1, 100);
    BrokerProcessors processors;
    CreateClientProcessors(harness_.context, harness_.Services(), &processors);
    CreateSendPullProcessors(harness_.context, harness_.Services(), &processors);
    CreateAdminProcessors(harness_.context, &processors, harness_.env.get());
    ApplyTable(harness_.context, processors, *server_);
    EXPECT_TRUE(harness_.RunStartHooks().ok());
    EXPECT_TRUE(server_->Start().ok());
    client_.Start();
  }
  ~AdminFixture() override {
    client_.Shutdown();
    server_->Shutdown();
  }

  std::string Addr() const { return "127.0.0.1:" + std::to_string(server_->port()); }

  protocol::RemotingCommand Invoke(protocol::RemotingCommand request) {
    auto response = client_.InvokeSync(Addr(), std::move(request), std::chrono::seconds(5));
    EXPECT_TRUE(response.ok()) << response.status().ToString();
    return response.ok() ? std::move(*response) : protocol::RemotingCommand{};
  }

  // Stores one message straight into the store (the send path is not under test here).
  store::PutResult Put(const std::string& topic, int32_t queue_id, const std::string& keys = "",
                       const std::string& uniq_key = "", std::string body = "hello") {
    message::MessageProperties props;
    if (!keys.empty()) {
      EXPECT_TRUE(props.Set("KEYS", keys).ok());
    }
    if (!uniq_key.empty()) {
      EXPECT_TRUE(props.Set("UNIQ_KEY", uniq_key).ok());
    }
    const std::string encoded = props.Encode();
    message::RecordFields f;
    f.queue_id = queue_id;
    f.born_timestamp = 1700000000000;
    f.born_host = message::HostAddress::IPv4(127, 0, 0, 1, 40000);
    f.store_host = message::HostAddress::IPv4(127, 0, 0, 1, 10911);
    f.body = body;
    f.topic = topic;
    f.properties = encoded;
    store::PutResult result = harness_.store->PutMessage(f, true).get();
    EXPECT_EQ(result.status, store::PutStatus::kPutOk);
    return result;
  }

  BrokerHarness harness_;
  std::unique_ptr<remoting::RemotingServer> server_;
  remoting::RemotingClient client_;
};

}  // namespace apogee::broker::testing
