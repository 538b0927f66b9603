// getSyncStateSet, getBrokerEpoch, electMaster: RocketMQ 5's controller commands
// (tools/command/ha/GetSyncStateSetSubCommand, broker/GetBrokerEpochSubCommand,
// controller/ReElectMasterSubCommand) for Apogee's failover with etcd (docs/failover.md).
//
// Apogee has no controller process: etcd holds what RocketMQ 5's controller holds. So
// `-a/--controllerAddress` takes the set's etcdEndpoints ("http://host:port[,...]"; a bare
// host:port means http://host:port) and getSyncStateSet / electMaster read and write the
// records in etcd directly (coord). getBrokerEpoch asks each broker of the set, as Java does
// (GET_BROKER_EPOCH_CACHE), because the epochs a broker's CommitLog holds are that broker's.
#pragma once

#include <chrono>
#include <string>

#include "admin/command_registry.h"
#include "base/status.h"
#include "coord/failover_records.h"

namespace apogee::admin {

void RegisterFailoverCommands(CommandRegistry* registry);

// "http://a:1,http://b:2" from -a ("a:1;b:2", "http://a:1", ...): Java separates addresses
// with ';', etcdEndpoints with ','; both are accepted.
std::string EtcdEndpointsFromControllerAddress(std::string_view text);

// Why `addr` may not be made master of the set `v` now (OK when it may): it must be a live
// replica following the current epoch and a member of that epoch's syncStateSet, and the
// set must have a live master (without one an election is already under way).
Status CheckElectable(const coord::FailoverSetView& v, const std::string& addr);

}  // namespace apogee::admin
