#include "broker/client_housekeeping.h"

#include "base/logging.h"
#include "broker/consumer_manager.h"
#include "broker/producer_manager.h"

namespace apogee::broker {

class ClientHousekeeping::ScanThread : public ServiceThread {
 public:
  ScanThread(ClientHousekeeping* owner, int64_t interval_millis)
      : ServiceThread("ClientHousekeeping"), owner_(owner), interval_millis_(interval_millis) {}
  ~ScanThread() override { Shutdown(); }

 protected:
  void Run() override {
    while (!stopped()) {
      WaitForRunning(interval_millis_);
      if (stopped()) break;
      owner_->ScanOnce();
    }
  }

 private:
  ClientHousekeeping* owner_;
  const int64_t interval_millis_;
};

ClientHousekeeping::ClientHousekeeping(ConsumerManager* consumer_manager,
                                       ProducerManager* producer_manager,
                                       int64_t scan_interval_millis)
    : consumer_manager_(consumer_manager),
      producer_manager_(producer_manager),
      thread_(std::make_unique<ScanThread>(this, scan_interval_millis)) {}

ClientHousekeeping::~ClientHousekeeping() { Shutdown(); }

void ClientHousekeeping::Start() { thread_->Start(); }

void ClientHousekeeping::Shutdown() { thread_->Shutdown(); }

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
