#include "broker/processors/transaction_processors.h"

#include <gtest/gtest.h>

#include "broker/processors/client_processors.h"
#include "broker/processors/send_pull_processors.h"
#include "unit/broker/processors/table_test_util.h"
#include "protocol/admin_headers.h"
#include "protocol/request_code.h"
#include "protocol/response_code.h"
#include "protocol/send_headers.h"
#include "remoting/executor.h"
#include "remoting/remoting_client.h"
#include "remoting/remoting_server.h"
#include "unit/broker/send_pull_test_util.h"

namespace apogee::broker {
namespace {

namespace rc = protocol::response_code;
namespace req = protocol::request_code;
using protocol::RemotingCommand;

class TransactionProcessorsTest : public ::testing::Test {
 protected:
  TransactionProcessorsTest() {
    remoting::RemotingServerOptions options;
    options.listen_host = "127.0.0.1";
    options.io_threads = 1;
    main_ = std::make_unique<remoting::RemotingServer>(options);
    fast_ = std::make_unique<remoting::RemotingServer>(options);
    harness_.context.executors.send = std::make_shared<remoting::ThreadPoolExecutor>("send", 1, 10);
    harness_.context.executors.admin =
        std::make_shared<remoting::ThreadPoolExecutor>("admin", 1, 10);
    // The controller's order: clients and send / pull create the managers first.
    BrokerProcessors processors;
    CreateClientProcessors(harness_.context, harness_.Services(), &processors);
    CreateSendPullProcessors(harness_.context, harness_.Services(), &processors);
    CreateTransactionProcessors(harness_.context, harness_.Services(), &processors);
    testing::ApplyTable(harness_.context, processors, *main_, fast_.get());
    EXPECT_TRUE(harness_.RunStartHooks().ok());
    EXPECT_TRUE(main_->Start().ok());
    EXPECT_TRUE(fast_->Start().ok());
    client_.Start();
  }
  ~TransactionProcessorsTest() override {
    client_.Shutdown();
    main_->Shutdown();
    fast_->Shutdown();
  }
  RemotingCommand Invoke(const remoting::RemotingServer& s, RemotingCommand request) {
    auto r = client_.InvokeSync("127.0.0.1:" + std::to_string(s.port()), std::move(request),
                                std::chrono::seconds(5));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : RemotingCommand{};
  }

  testing::BrokerHarness harness_;
  std::unique_ptr<remoting::RemotingServer> main_;
  std::unique_ptr<remoting::RemotingServer> fast_;
  remoting::RemotingClient client_;
};

TEST_F(TransactionProcessorsTest, BothServersAnswerTheFamilysCodes) {
  for (const auto* server : {main_.get(), fast_.get()}) {
    protocol::EndTransactionRequestHeader end;
    end.producer_group = "PG";
    end.commit_log_offset = 999999;
    end.commit_or_rollback = 0x8;
    end.msg_id = "X";
    RemotingCommand request = RemotingCommand::MakeRequest(req::kEndTransaction);
    protocol::EncodeCustomHeader(end, &request);
    RemotingCommand response = Invoke(*server, std::move(request));
    EXPECT_EQ(response.code, rc::kSystemError);
    EXPECT_NE(response.remark.value_or("").find("Find prepared transaction message failed"),
              std::string::npos);

    protocol::RedriveDlqMessageRequestHeader redrive;
    redrive.consumer_group = "Nobody";
    RemotingCommand r2 = RemotingCommand::MakeRequest(req::kApogeeRedriveDlqMessage);
    protocol::EncodeCustomHeader(redrive, &r2);
    EXPECT_EQ(Invoke(*server, std::move(r2)).code, rc::kSubscriptionGroupNotExist);
  }
}

TEST(TransactionProcessorsCreateTest, OneCheckServiceServesBothPorts) {
  testing::BrokerHarness h;
  BrokerProcessors processors;
  CreateClientProcessors(h.context, h.Services(), &processors);
  CreateSendPullProcessors(h.context, h.Services(), &processors);
  CreateTransactionProcessors(h.context, h.Services(), &processors);
  ASSERT_NE(h.services.transaction_check, nullptr) << "one check service per broker";
  EXPECT_TRUE(h.context.start_hooks.empty());
  const ProcessorTable table = BuildProcessorTable(processors, h.context.executors);
  for (int32_t code : {req::kEndTransaction, req::kApogeeRedriveDlqMessage}) {
    ASSERT_NE(table.Find(code), nullptr) << code;
    EXPECT_EQ(table.Find(code)->ports, RowPorts::kMainAndFast) << code;
  }
}

}  // namespace
}  // namespace apogee::broker
