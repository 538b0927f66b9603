#include "admin/failover_commands.h"

#include <gtest/gtest.h>

namespace apogee::admin {
namespace {

coord::FailoverSetView SetOfThree() {
  coord::FailoverSetView v;
  v.epoch = coord::EpochRecord{2, "SYNC_MASTER", {{1, 0}, {2, 100}}};
  v.master = coord::MasterRecord{"m:1", "m:2", 2, 1};
  v.sync = coord::SyncStateSet{2, {"m:1", "a:1"}};
  v.replicas["a:1"] = coord::ReplicaRecord{"a:1", 1, 500, 2, -1};
  v.replicas["b:1"] = coord::ReplicaRecord{"b:1", 2, 10, 2, -1};
  return v;
}

TEST(FailoverCommandsTest, ControllerAddressBecomesEtcdEndpoints) {
  EXPECT_EQ(EtcdEndpointsFromControllerAddress("127.0.0.1:2379"), "http://127.0.0.1:2379");
  EXPECT_EQ(EtcdEndpointsFromControllerAddress("a:1;b:2"), "http://a:1,http://b:2");
  EXPECT_EQ(EtcdEndpointsFromControllerAddress(" http://a:1 , http://b:2;"), "http://a:1,http://b:2");
}

TEST(FailoverCommandsTest, OnlyALiveInSyncReplicaOfTheCurrentEpochIsElectable) {
  coord::FailoverSetView v = SetOfThree();
  EXPECT_TRUE(CheckElectable(v, "a:1").ok());
  Status not_in_sync = CheckElectable(v, "b:1");
  EXPECT_FALSE(not_in_sync.ok());
  EXPECT_NE(not_in_sync.message().find("not in the syncStateSet of epoch 2"), std::string::npos)
      << not_in_sync.ToString();
  EXPECT_FALSE(CheckElectable(v, "nobody:1").ok());
  EXPECT_FALSE(CheckElectable(v, "m:1").ok()) << "already master";

  coord::FailoverSetView stale = SetOfThree();
  stale.sync->epoch = 1;  // written for an older epoch: nobody is in sync with this master yet
  EXPECT_FALSE(CheckElectable(stale, "a:1").ok());

  coord::FailoverSetView dead = SetOfThree();
  dead.replicas.erase("a:1");  // in the set but its lease expired
  EXPECT_FALSE(CheckElectable(dead, "a:1").ok());

  coord::FailoverSetView lagging = SetOfThree();
  lagging.replicas["a:1"].following_epoch = 1;  // still follows the previous master
  EXPECT_FALSE(CheckElectable(lagging, "a:1").ok());

  coord::FailoverSetView electing = SetOfThree();
  electing.master.reset();  // an automatic election is running
  EXPECT_FALSE(CheckElectable(electing, "a:1").ok());

  EXPECT_FALSE(CheckElectable(coord::FailoverSetView{}, "a:1").ok()) << "no records at all";
}

}  // namespace
}  // namespace apogee::admin
