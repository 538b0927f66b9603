#include "ha/ha_service.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "ha/blocking_socket.h"
#include "ha/ha_format.h"
#include "ha_test_util.h"
#include "testutil/test_util.h"

namespace apogee::ha {
namespace {

using namespace std::chrono_literals;
using testing::FastOptions;
using testing::kFileSize;
using testing::MemLog;
using testing::WriteRecords;

// A hand-driven slave: sends reports, reads frames.
class FakeSlave {
 public:
  explicit FakeSlave(uint16_t port) {
    auto s = BlockingSocket::Connect("127.0.0.1:" + std::to_string(port), 3s);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    if (s.ok()) socket_ = std::move(s).value();
  }
  void Report(int64_t offset) {
    uint8_t buf[kReportSize];
    EncodeReport(offset, buf);
    ASSERT_TRUE(socket_.WriteAll(buf, sizeof(buf), 3s).ok());
  }
  // Reads exactly n bytes; false on timeout or close.
  bool ReadExactly(void* out, size_t n) {
    auto* p = static_cast<uint8_t*>(out);
    while (n > 0) {
      auto r = socket_.ReadSome(p, n, 5s);
      if (!r.ok()) return false;
      p += *r;
      n -= *r;
    }
    return true;
  }
  bool ReadFrame(TransferHeader* h, std::string* body) {
    uint8_t hb[kTransferHeaderSize];
    if (!ReadExactly(hb, sizeof(hb))) return false;
    *h = DecodeTransferHeader(hb);
    body->resize(static_cast<size_t>(h->body_size));
    return ReadExactly(body->data(), body->size());
  }
  BlockingSocket& socket() { return socket_; }

 private:
  BlockingSocket socket_;
};

class HaServiceTest : public ::testing::Test {
 protected:
  void StartMaster(HaOptions options = FastOptions()) {
    service_ = std::make_unique<HaService>(&master_, options);
    ASSERT_TRUE(service_->Start().ok());
  }
  // What a SYNC_MASTER put of the whole log would get.
  store::PutStatus WaitForAll() {
    std::promise<store::PutStatus> p;
    auto f = p.get_future();
    service_->WaitForReplica(master_.MaxPhyOffset(),
                             [&p](store::PutStatus s) { p.set_value(s); });
    return f.get();
  }
  void TearDown() override {
    if (service_) service_->Shutdown();
  }

  MemLog master_;
  std::unique_ptr<HaService> service_;
};

TEST_F(HaServiceTest, FramesCoverTheLogInBatchesThatNeverCrossAFileEnd) {
  HaOptions options = FastOptions();
  options.new_slave_full_copy = true;
  StartMaster(options);
  WriteRecords(&master_, 200);  // ~200 KiB: four 64 KiB files
  const int64_t end = master_.MaxPhyOffset();
  ASSERT_GT(end, 3 * kFileSize);

  FakeSlave slave(service_->port());
  slave.Report(0);
  int64_t next = 0;
  while (next < end) {
    TransferHeader h;
    std::string body;
    ASSERT_TRUE(slave.ReadFrame(&h, &body)) << "stopped at " << next;
    if (h.body_size == 0) continue;
    EXPECT_EQ(h.offset, next);
    EXPECT_LE(h.body_size, options.transfer_batch_size);
    EXPECT_EQ(h.offset / kFileSize, (h.offset + h.body_size - 1) / kFileSize)
        << "frame [" << h.offset << ", " << h.offset + h.body_size << ") crosses a file end";
    auto mine = master_.ReadRaw(h.offset, body.size());
    ASSERT_TRUE(mine.ok());
    EXPECT_EQ(mine->data, body);
    next = h.offset + h.body_size;
  }
  EXPECT_EQ(next, end);
}

TEST_F(HaServiceTest, FreshSlaveStartsAtTheMastersLastFile) {
  StartMaster();
  WriteRecords(&master_, 150);
  const int64_t end = master_.MaxPhyOffset();
  FakeSlave slave(service_->port());
  slave.Report(0);
  TransferHeader h;
  std::string body;
  do {
    ASSERT_TRUE(slave.ReadFrame(&h, &body));
  } while (h.body_size == 0);
  EXPECT_EQ(h.offset, end - end % kFileSize);
}

TEST_F(HaServiceTest, IdleConnectionGetsHeartbeatsAtTheNextOffset) {
  StartMaster();
  WriteRecords(&master_, 3);
  const int64_t end = master_.MaxPhyOffset();
  FakeSlave slave(service_->port());
  slave.Report(end);
  TransferHeader h;
  std::string body;
  ASSERT_TRUE(slave.ReadFrame(&h, &body));
  EXPECT_EQ(h.body_size, 0);
  EXPECT_EQ(h.offset, end);
}

TEST_F(HaServiceTest, SlaveAheadOfTheMasterIsReportedAndCutOff) {
  StartMaster();
  WriteRecords(&master_, 3);
  const int64_t end = master_.MaxPhyOffset();
  FakeSlave slave(service_->port());
  slave.Report(end + 5000);
  TransferHeader h;
  std::string body;
  // The master says where it ends (a heartbeat behind the slave), then hangs up.
  ASSERT_TRUE(slave.ReadFrame(&h, &body));
  EXPECT_EQ(h.body_size, 0);
  EXPECT_EQ(h.offset, end);
  EXPECT_FALSE(slave.ReadFrame(&h, &body));
  ASSERT_EQ(service_->Problems().size(), 1u);
  EXPECT_NE(service_->Problems()[0].find("not merging"), std::string::npos)
      << service_->Problems()[0];
  EXPECT_TRUE(apogee::testing::WaitUntil([&] { return service_->connection_count() == 0; }, 5s));
}

TEST_F(HaServiceTest, SyncMasterWithoutSlaveAnswersSlaveNotAvailable) {
  StartMaster();
  WriteRecords(&master_, 2);
  EXPECT_EQ(WaitForAll(), store::PutStatus::kSlaveNotAvailable);
}

TEST_F(HaServiceTest, SyncMasterWaitsForTheAck) {
  StartMaster();
  FakeSlave slave(service_->port());
  slave.Report(0);
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return service_->connection_count() == 1; }, 5s));
  WriteRecords(&master_, 2);
  std::promise<store::PutStatus> p;
  auto future = p.get_future();
  service_->WaitForReplica(master_.MaxPhyOffset(), [&p](store::PutStatus s) { p.set_value(s); });
  EXPECT_EQ(future.wait_for(300ms), std::future_status::timeout) << "answered before any ack";
  slave.Report(master_.MaxPhyOffset() - 1);
  EXPECT_EQ(future.wait_for(300ms), std::future_status::timeout) << "an ack short of the end";
  slave.Report(master_.MaxPhyOffset());
  ASSERT_EQ(future.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(future.get(), store::PutStatus::kPutOk);
  EXPECT_EQ(service_->push_to_slave_max_offset(), master_.MaxPhyOffset());
  ASSERT_EQ(service_->Slaves().size(), 1u);
  EXPECT_EQ(service_->Slaves()[0].ack_offset, master_.MaxPhyOffset());
}

TEST_F(HaServiceTest, SyncMasterTimesOutWithFlushSlaveTimeout) {
  HaOptions options = FastOptions();
  options.slave_timeout_ms = 300;
  StartMaster(options);
  FakeSlave slave(service_->port());
  slave.Report(0);
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return service_->connection_count() == 1; }, 5s));
  WriteRecords(&master_, 1);
  EXPECT_EQ(WaitForAll(), store::PutStatus::kFlushSlaveTimeout);
}

TEST_F(HaServiceTest, SlaveTooFarBehindIsNotAvailable) {
  HaOptions options = FastOptions();
  options.slave_fallbehind_max = 4096;
  StartMaster(options);
  FakeSlave slave(service_->port());
  slave.Report(0);
  ASSERT_TRUE(apogee::testing::WaitUntil([&] { return service_->connection_count() == 1; }, 5s));
  WriteRecords(&master_, 5);  // ~5 KiB past the slave's ack of 0
  EXPECT_FALSE(service_->IsSlaveOk(master_.MaxPhyOffset()));
  EXPECT_EQ(WaitForAll(), store::PutStatus::kSlaveNotAvailable);
}

// A client that opens connections in a loop must not cost the broker two threads each: past
// haMaxConnections the master closes the new connection at once and serves the others.
TEST_F(HaServiceTest, ConnectionsPastTheCapAreClosedAndTheOthersServed) {
  HaOptions options = FastOptions();
  options.max_connections = 2;
  StartMaster(options);
  WriteRecords(&master_, 3);
  auto wait_for_count = [this](size_t n) {
    for (int i = 0; i < 100 && service_->connection_count() != n; ++i) {
      std::this_thread::sleep_for(50ms);
    }
    return service_->connection_count();
  };
  auto first = std::make_unique<FakeSlave>(service_->port());
  FakeSlave second(service_->port());
  first->Report(0);
  second.Report(0);
  ASSERT_EQ(wait_for_count(2), 2u);

  FakeSlave third(service_->port());
  char byte;
  Result<size_t> r = third.socket().ReadSome(&byte, 1, 5s);
  ASSERT_FALSE(r.ok()) << "the third connection got bytes";
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable) << r.status().ToString();
  EXPECT_EQ(service_->refused_connections(), 1u);
  EXPECT_EQ(service_->connection_count(), 2u);

  // The two within the cap are still served.
  TransferHeader h;
  std::string body;
  ASSERT_TRUE(second.ReadFrame(&h, &body));

  // Once one leaves, a new one is served again.
  first.reset();
  ASSERT_EQ(wait_for_count(1), 1u);
  FakeSlave fourth(service_->port());
  fourth.Report(0);
  ASSERT_TRUE(fourth.ReadFrame(&h, &body));
  EXPECT_EQ(service_->refused_connections(), 1u);
}

TEST_F(HaServiceTest, ListenFailureNamesTheAddress) {
  StartMaster();
  HaOptions options = FastOptions();
  options.listen_port = service_->port();
  HaService second(&master_, options);
  Status s = second.Start();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("haListenPort"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace apogee::ha
