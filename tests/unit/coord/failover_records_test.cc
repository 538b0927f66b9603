#include "coord/failover_records.h"

#include <gtest/gtest.h>

namespace apogee::coord {
namespace {

TEST(FailoverRecordsTest, RecordsRoundTrip) {
  MasterRecord m{"127.0.0.1:10911", "127.0.0.1:10912", 3, 2};
  auto m2 = DecodeMasterRecord(EncodeMasterRecord(m));
  ASSERT_TRUE(m2.ok()) << m2.status().ToString();
  EXPECT_EQ(m2->addr, m.addr);
  EXPECT_EQ(m2->ha_addr, m.ha_addr);
  EXPECT_EQ(m2->epoch, 3);
  EXPECT_EQ(m2->freed_broker_id, 2);

  EpochRecord e{3, "SYNC_MASTER", {{1, 0}, {2, 4096}, {3, 9000}}};
  auto e2 = DecodeEpochRecord(EncodeEpochRecord(e));
  ASSERT_TRUE(e2.ok()) << e2.status().ToString();
  EXPECT_EQ(e2->history, e.history);
  EXPECT_EQ(e2->master_role, "SYNC_MASTER");

  SyncStateSet s{3, {"a:1", "b:2"}};
  auto s2 = DecodeSyncStateSet(EncodeSyncStateSet(s));
  ASSERT_TRUE(s2.ok());
  EXPECT_EQ(s2->members, s.members);

  ReplicaRecord r{"b:2", 1, 777, 3, 3};
  auto r2 = DecodeReplicaRecord(EncodeReplicaRecord(r));
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->offset, 777);
  EXPECT_EQ(r2->seen_gone_epoch, 3);

  LocalFailoverState l{{{1, 0}}, 2, 99, 4096, 7, 2};
  auto l2 = DecodeLocalState(EncodeLocalState(l));
  ASSERT_TRUE(l2.ok());
  EXPECT_EQ(l2->history, l.history);
  EXPECT_EQ(l2->lease_id, 99);
  EXPECT_EQ(l2->divergent_bytes_total, 4096);
  EXPECT_EQ(l2->divergent_messages_total, 7);
  EXPECT_EQ(l2->divergence_count, 2);
}

TEST(FailoverRecordsTest, LocalStateWithoutDivergenceCountersReadsAsZero) {
  // failover.json as brokers wrote it before the counters existed.
  auto l = DecodeLocalState(R"({"history":[[1,0]],"brokerId":1,"leaseId":0})");
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  EXPECT_EQ(l->divergent_bytes_total, 0);
  EXPECT_EQ(l->divergent_messages_total, 0);
  EXPECT_EQ(l->divergence_count, 0);
}

TEST(FailoverRecordsTest, DecodesASetFromOnePrefixRead) {
  const std::string p = FailoverKeyPrefix("C", "b");
  std::vector<KeyValue> kvs = {
      {p + "epoch", EncodeEpochRecord({2, "SYNC_MASTER", {{1, 0}, {2, 50}}}), 3, 7, 2, 0},
      {p + "master", EncodeMasterRecord({"m:1", "m:2", 2, 1}), 5, 8, 1, 0x42},
      {p + "syncStateSet", EncodeSyncStateSet({2, {"m:1", "a:1"}}), 3, 9, 3, 0},
      {p + "preferred", "a:1", 10, 10, 1, 0},
      {p + "replicas/a:1", EncodeReplicaRecord({"a:1", 1, 40, 2, -1}), 4, 11, 5, 0x43},
      {p + "replicas/x:1", "not json", 4, 12, 1, 0x44},  // skipped: it expires with its lease
      {FailoverKeyPrefix("C", "bb") + "master", "ignored: another set", 1, 1, 1, 0},
  };
  auto v = DecodeFailoverSet(p, kvs);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  ASSERT_TRUE(v->master && v->epoch && v->sync && v->preferred);
  EXPECT_EQ(v->master->addr, "m:1");
  EXPECT_EQ(v->master_lease, 0x42);
  EXPECT_EQ(v->master_rev, 8);
  EXPECT_EQ(v->epoch_rev, 7);
  EXPECT_EQ(v->sync->members.size(), 2u);
  EXPECT_EQ(*v->preferred, "a:1");
  ASSERT_EQ(v->replicas.size(), 1u);
  EXPECT_EQ(v->replicas.at("a:1").offset, 40);

  kvs[1].value = "{}";
  EXPECT_FALSE(DecodeFailoverSet(p, kvs).ok()) << "a bad master record is an error";
}

TEST(FailoverRecordsTest, BadRecordsAreRefused) {
  EXPECT_FALSE(DecodeMasterRecord("{}").ok());
  EXPECT_FALSE(DecodeMasterRecord("nope").ok());
  EXPECT_FALSE(DecodeEpochRecord(R"({"epoch":2,"history":[[2,0],[1,5]]})").ok())
      << "history must ascend";
  EXPECT_FALSE(DecodeEpochRecord(R"({"epoch":2,"history":[[1]]})").ok());
  EXPECT_FALSE(DecodeReplicaRecord(R"({"addr":"a"})").ok());
}

TEST(DivergencePointTest, OldMasterCutsBackToTheNewEpochsStart) {
  // A mastered epoch 1 up to 5000; B took epoch 2 at 4000.
  EXPECT_EQ(DivergencePoint({{1, 0}}, 5000, {{1, 0}, {2, 4000}}), 4000);
  // A replica that is behind the new epoch's start keeps everything.
  EXPECT_EQ(DivergencePoint({{1, 0}}, 3000, {{1, 0}, {2, 4000}}), 3000);
  // Same history: nothing to cut.
  EXPECT_EQ(DivergencePoint({{1, 0}, {2, 4000}}, 6000, {{1, 0}, {2, 4000}}), 6000);
}

TEST(DivergencePointTest, TwoFailoversInARow) {
  // B mastered epoch 2 from 4000 to 7000 (its tail never replicated); C took epoch 3 at
  // 6500. B comes back: its epoch 2 ends where C's history says.
  EXPECT_EQ(DivergencePoint({{1, 0}, {2, 4000}}, 7000, {{1, 0}, {2, 4000}, {3, 6500}}), 6500);
  // A, still at epoch 1 (down since the first failover), cuts to epoch 2's start.
  EXPECT_EQ(DivergencePoint({{1, 0}}, 5000, {{1, 0}, {2, 4000}, {3, 6500}}), 4000);
}

TEST(DivergencePointTest, NoCommonEpochKeepsOnlyWhatPrecedesBoth) {
  EXPECT_EQ(DivergencePoint({{5, 100}}, 900, {{1, 0}, {2, 50}}), 0);
  // No local history: the HA resume check guards the prefix.
  EXPECT_EQ(DivergencePoint({}, 900, {{1, 0}}), 900);
}

TEST(HistoryUpToTest, KeepsTheEpochsTheLogHolds) {
  std::vector<EpochEntry> h{{1, 0}, {2, 4000}, {3, 6500}};
  EXPECT_EQ(HistoryUpTo(h, 5000), (std::vector<EpochEntry>{{1, 0}, {2, 4000}}));
  EXPECT_EQ(HistoryUpTo(h, 6500), h);
}

}  // namespace
}  // namespace apogee::coord
