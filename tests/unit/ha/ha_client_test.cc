#include "ha/ha_client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>
#include <string>

#include "ha/ha_service.h"
#include "ha_test_util.h"
#include "testutil/test_util.h"

namespace apogee::ha {
namespace {

using namespace std::chrono_literals;
using testing::FastOptions;
using testing::kFileSize;
using testing::MemLog;
using testing::WriteRecords;

class HaClientTest : public ::testing::Test {
 protected:
  void StartMaster(HaOptions options = FastOptions()) {
    service_ = std::make_unique<HaService>(&master_, options);
    ASSERT_TRUE(service_->Start().ok());
  }
  std::unique_ptr<HaClient> StartSlave(MemLog* log, HaOptions options = FastOptions()) {
    auto client = std::make_unique<HaClient>(log, options);
    client->UpdateMasterAddress("127.0.0.1:" + std::to_string(service_->port()));
    client->Start();
    return client;
  }
  bool CaughtUp(const MemLog& slave) {
    return apogee::testing::WaitUntil(
        [&] { return slave.MaxPhyOffset() == master_.MaxPhyOffset(); }, 10s);
  }
  void TearDown() override {
    if (service_) service_->Shutdown();
  }

  MemLog master_;
  std::unique_ptr<HaService> service_;
};

TEST_F(HaClientTest, FullCopySlaveHoldsTheSameBytes) {
  HaOptions options = FastOptions();
  options.new_slave_full_copy = true;
  StartMaster(options);
  WriteRecords(&master_, 200);
  MemLog slave;
  auto client = StartSlave(&slave);
  ASSERT_TRUE(CaughtUp(slave));
  EXPECT_EQ(slave.MinPhyOffset(), 0);
  EXPECT_TRUE(slave.Bytes(0) == master_.Bytes(0));
  // Live traffic keeps flowing.
  WriteRecords(&master_, 30, 'k');
  ASSERT_TRUE(CaughtUp(slave));
  EXPECT_TRUE(slave.Bytes(0) == master_.Bytes(0));
  // The master sees the slave's acks.
  EXPECT_TRUE(apogee::testing::WaitUntil(
      [&] { return service_->push_to_slave_max_offset() == master_.MaxPhyOffset(); }, 5s));
  EXPECT_TRUE(client->connected());
  EXPECT_TRUE(client->problem().empty());
}

TEST_F(HaClientTest, FreshSlaveStartsAtTheMastersLastFile) {
  StartMaster();
  WriteRecords(&master_, 150);
  const int64_t last_file = master_.MaxPhyOffset() - master_.MaxPhyOffset() % kFileSize;
  MemLog slave;
  auto client = StartSlave(&slave);
  ASSERT_TRUE(CaughtUp(slave));
  EXPECT_EQ(slave.MinPhyOffset(), last_file);
  EXPECT_TRUE(slave.Bytes(last_file) == master_.Bytes(last_file));
}

TEST_F(HaClientTest, SyncWaitCompletesOnceTheRealSlaveAcks) {
  StartMaster();
  MemLog slave;
  auto client = StartSlave(&slave);
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return service_->connection_count() == 1; }, 5s));
  for (int i = 0; i < 20; ++i) {
    WriteRecords(&master_, 1, static_cast<char>('a' + i));
    std::promise<store::PutStatus> p;
    auto f = p.get_future();
    service_->WaitForReplica(master_.MaxPhyOffset(), [&p](store::PutStatus s) { p.set_value(s); });
    ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
    EXPECT_EQ(f.get(), store::PutStatus::kPutOk);
    EXPECT_GE(slave.MaxPhyOffset(), master_.MaxPhyOffset()) << "acked before the slave had it";
  }
}

TEST_F(HaClientTest, ReconnectResumesFromTheSlavesOwnEnd) {
  HaOptions options = FastOptions();
  options.new_slave_full_copy = true;
  StartMaster(options);
  WriteRecords(&master_, 40);
  MemLog slave;
  {
    auto client = StartSlave(&slave);
    ASSERT_TRUE(CaughtUp(slave));
    client->Stop();
  }
  const int appends_before = slave.appends();
  WriteRecords(&master_, 100, 'q');  // crosses a file end while the slave is away
  auto client = StartSlave(&slave);
  ASSERT_TRUE(CaughtUp(slave));
  EXPECT_TRUE(slave.Bytes(0) == master_.Bytes(0));
  EXPECT_GT(slave.appends(), appends_before);
  EXPECT_TRUE(client->problem().empty());
}

TEST_F(HaClientTest, MasterRestartIsSurvived) {
  StartMaster();
  WriteRecords(&master_, 10);
  MemLog slave;
  auto client = StartSlave(&slave);
  ASSERT_TRUE(CaughtUp(slave));
  const uint16_t port = service_->port();
  service_->Shutdown();
  WriteRecords(&master_, 10, 'z');
  HaOptions options = FastOptions();
  options.listen_port = port;
  service_ = std::make_unique<HaService>(&master_, options);
  ASSERT_TRUE(service_->Start().ok());
  ASSERT_TRUE(CaughtUp(slave));
  EXPECT_TRUE(slave.Bytes(slave.MinPhyOffset()) == master_.Bytes(slave.MinPhyOffset()));
}

TEST_F(HaClientTest, DifferentBytesAtTheResumePointStopReplication) {
  HaOptions options = FastOptions();
  options.new_slave_full_copy = true;
  StartMaster(options);
  WriteRecords(&master_, 20);
  MemLog slave;
  {
    auto client = StartSlave(&slave);
    ASSERT_TRUE(CaughtUp(slave));
    client->Stop();
  }
  // The slave's last record no longer matches the master's.
  slave.Corrupt(slave.MaxPhyOffset() - 10);
  WriteRecords(&master_, 5, 'n');
  const int64_t slave_end = slave.MaxPhyOffset();
  auto client = StartSlave(&slave);
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return !client->problem().empty(); }, 10s));
  EXPECT_NE(client->problem().find("differ"), std::string::npos) << client->problem();
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(slave.MaxPhyOffset(), slave_end) << "merged after divergence";
}

TEST_F(HaClientTest, SlaveAheadOfTheMasterStopsOnBothSides) {
  StartMaster();
  WriteRecords(&master_, 5);
  MemLog slave;
  WriteRecords(&slave, 30, 'y');  // a former master with more data
  auto client = StartSlave(&slave);
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return !client->problem().empty(); }, 10s));
  EXPECT_NE(client->problem().find("not merging"), std::string::npos) << client->problem();
  EXPECT_FALSE(service_->Problems().empty());
}

TEST_F(HaClientTest, UnreachableMasterKeepsRetryingWithoutProblem) {
  MemLog slave;
  HaClient client(&slave, FastOptions());
  client.UpdateMasterAddress("127.0.0.1:" + std::to_string(apogee::testing::PickFreePort()));
  client.Start();
  std::this_thread::sleep_for(400ms);
  EXPECT_FALSE(client.connected());
  EXPECT_TRUE(client.problem().empty());
  client.Stop();
}

}  // namespace
}  // namespace apogee::ha
