#include "broker/client/client_housekeeping.h"

#include "base/logging.h"
#include "broker/client/consumer_manager.h"
#include "broker/client/producer_manager.h"

namespace apogee::broker {

ClientHousekeeping::ClientHousekeeping(ConsumerManager* consumer_manager,
                                       ProducerManager* producer_manager,
                                       int64_t scan_interval_millis)
    : consumer_manager_(consumer_manager),
      producer_manager_(producer_manager),
      scan_interval_millis_(scan_interval_millis) {}

ClientHousekeeping::~ClientHousekeeping() { Shutdown(); }

void ClientHousekeeping::Start(Scheduler* scheduler) {
  if (scan_) return;
  scan_ = scheduler->Every("ClientHousekeeping", Scheduler::LaneKind::kQuick,
                           scan_interval_millis_, [this] {
                             ScanOnce();
                             return Status::OK();
                           });
}

void ClientHousekeeping::Shutdown() { scan_.Cancel(); }

size_t ClientHousekeeping::ScanOnce() {
  return producer_manager_->ScanNotActiveChannel() + consumer_manager_->ScanNotActiveChannel();
}

void ClientHousekeeping::OnChannelClosed(const remoting::ChannelPtr& channel) {
  producer_manager_->DoChannelCloseEvent(channel->id());
  consumer_manager_->DoChannelCloseEvent(channel->id());
}

void ClientHousekeeping::OnChannelIdle(const remoting::ChannelPtr& channel) {
  // The server closes an idle channel right after this; removing now saves nothing but
  // keeps the tables honest if a listener runs late.
  OnChannelClosed(channel);
}

}  // namespace apogee::broker
