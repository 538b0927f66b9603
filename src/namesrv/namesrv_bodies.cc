#include "namesrv/namesrv_bodies.h"

#include <utility>

namespace apogee::namesrv {
namespace {

protocol::BrokerData ToProtocol(const BrokerDataInfo& bd) {
  protocol::BrokerData out;
  out.cluster = bd.cluster;
  out.broker_name = bd.broker_name;
  out.broker_addrs = bd.broker_addrs;
  return out;
}

}  // namespace

Result<RegisterBrokerBodyData> DecodeRegisterBrokerBodyData(std::string_view body,
                                                            bool compressed,
                                                            int32_t broker_version) {
  APOGEE_ASSIGN_OR_RETURN(
      protocol::RegisterBrokerBody decoded,
      protocol::DecodeRegisterBrokerRequestBody(body, compressed, broker_version));
  RegisterBrokerBodyData out;
  const protocol::TopicConfigSerializeWrapper& wrapper = decoded.topic_config_serialize_wrapper;
  out.data_version = FromProtocol(wrapper.data_version);
  out.topic_configs.reserve(wrapper.topic_config_table.size());
  for (const auto& [name, tc] : wrapper.topic_config_table) {
    out.topic_configs.push_back(TopicConfigInfo{tc.topic_name.empty() ? name : tc.topic_name,
                                                tc.read_queue_nums, tc.write_queue_nums, tc.perm,
                                                tc.topic_sys_flag});
  }
  out.filter_server_list = std::move(decoded.filter_server_list);
  return out;
}

DataVersionInfo FromProtocol(const protocol::DataVersion& v) {
  return DataVersionInfo{v.state_version, v.timestamp, v.counter};
}

protocol::DataVersion ToProtocol(const DataVersionInfo& v) {
  return protocol::DataVersion{v.state_version, v.timestamp, v.counter};
}

std::vector<QueueDataInfo> FromProtocol(const std::vector<protocol::QueueData>& queue_datas) {
  std::vector<QueueDataInfo> out;
  out.reserve(queue_datas.size());
  for (const protocol::QueueData& qd : queue_datas) {
    out.push_back(QueueDataInfo{qd.broker_name, qd.read_queue_nums, qd.write_queue_nums, qd.perm,
                                qd.topic_sys_flag});
  }
  return out;
}

protocol::TopicRouteData ToProtocol(const TopicRoute& route,
                                    std::optional<std::string> order_topic_conf) {
  protocol::TopicRouteData out;
  out.order_topic_conf = std::move(order_topic_conf);
  out.queue_datas.reserve(route.queue_datas.size());
  for (const QueueDataInfo& qd : route.queue_datas) {
    out.queue_datas.push_back(protocol::QueueData{qd.broker_name, qd.read_queue_nums,
                                                  qd.write_queue_nums, qd.perm,
                                                  qd.topic_sys_flag});
  }
  out.broker_datas.reserve(route.broker_datas.size());
  for (const BrokerDataInfo& bd : route.broker_datas) out.broker_datas.push_back(ToProtocol(bd));
  out.filter_server_table = route.filter_server_table;
  return out;
}

protocol::ClusterInfo ToProtocol(const ClusterInfoData& info) {
  protocol::ClusterInfo out;
  for (const auto& [name, bd] : info.broker_addr_table) {
    out.broker_addr_table.emplace(name, ToProtocol(bd));
  }
  out.cluster_addr_table = info.cluster_addr_table;
  return out;
}

protocol::TopicList ToProtocol(const TopicListData& list) {
  protocol::TopicList out;
  out.topic_list.insert(list.topics.begin(), list.topics.end());
  out.broker_addr = list.broker_addr;
  return out;
}

}  // namespace apogee::namesrv
