// MessageArrivalObservers: who is told that a queue got new messages, in one list.
//
// The store reports every dispatched batch on its reput thread (store::MessageStore::
// SetMessageArrivingListener); the controller forwards it here, and this list calls each
// observer in the order it was added. The controller adds them all in one place
// (BrokerServices::AddArrivalObservers, called from BrokerController): the long-polling
// hold service first (it answers parked pulls), then the delay (SCHEDULE_TOPIC_XXXX) and
// timer (rmq_sys_wheel_timer) services.
//
// Thread-safety: Add only during set-up, before the store reports anything; Notify may
// then run on any thread (it only reads the list). An observer must not block: it runs on
// the reput thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace apogee::broker {

// Called after new messages of (topic, queue_id) were dispatched; the queue's next offset.
using MessageArrivalObserver =
    std::function<void(std::string_view topic, int32_t queue_id, int64_t next_queue_offset)>;

class MessageArrivalObservers {
 public:
  // `name` says who listens (logs, tests).
  void Add(std::string name, MessageArrivalObserver observer) {
    observers_.push_back({std::move(name), std::move(observer)});
  }

  void Notify(std::string_view topic, int32_t queue_id, int64_t next_queue_offset) const {
    for (const Entry& e : observers_) e.observer(topic, queue_id, next_queue_offset);
  }

  // The observers' names, in notification order.
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    names.reserve(observers_.size());
    for (const Entry& e : observers_) names.push_back(e.name);
    return names;
  }
  size_t size() const { return observers_.size(); }

 private:
  struct Entry {
    std::string name;
    MessageArrivalObserver observer;
  };
  std::vector<Entry> observers_;
};

}  // namespace apogee::broker
