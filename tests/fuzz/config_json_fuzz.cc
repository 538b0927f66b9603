// libFuzzer target for the JSON files the broker and the NameServer read back at start (and
// a slave copies from its master): consumerOffset.json, subscriptionGroup.json,
// delayOffset.json, timerOffset.json, topics.json (through TopicConfigManager::Load on an
// in-memory Env) and kvConfig.json. Byte 0 picks the reader, the rest is the file. What a
// reader accepts must encode into a text the same reader accepts and encodes identically.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "broker/broker_config.h"
#include "broker/client/consumer_offset_manager.h"
#include "broker/schedule/delay_offset_table.h"
#include "broker/subscription_group_manager.h"
#include "broker/schedule/timer_message_service.h"
#include "broker/topic_config_manager.h"
#include "env/env.h"
#include "env/mem_env.h"
#include "namesrv/kv_config_manager.h"
#include "quiet_logs.h"

namespace {

using namespace apogee::broker;  // NOLINT: a fuzz driver

void Check(bool ok) {
  if (!ok) std::abort();
}

apogee::env::Env* Env() {
  static std::unique_ptr<apogee::env::Env> env = [] {
    std::unique_ptr<apogee::env::Env> e = apogee::env::NewMemEnv();
    Check(e->CreateDirs("/config").ok());
    return e;
  }();
  return env.get();
}

const BrokerConfig* Config() {
  static BrokerConfig config{BrokerSettings{}};
  return &config;
}

// decode(text) then encode; the encoding must decode and encode to itself.
template <typename T>
void RoundTrip(std::string_view text, T* first, T* second) {
  if (!first->Decode(text).ok()) return;
  const std::string once = first->Encode();
  Check(second->Decode(once).ok());
  Check(second->Encode() == once);
}

void TopicsJson(std::string_view text) {
  apogee::env::Env* env = Env();
  const std::string path = "/config/topics.json";
  Check(apogee::env::WriteFileAtomically(env, path, text).ok());
  TopicConfigManager first(Config(), env, path, apogee::Clock::Real());
  if (first.Load().ok()) {
    const std::string once = first.Encode();
    Check(apogee::env::WriteFileAtomically(env, path, once).ok());
    TopicConfigManager second(Config(), env, path, apogee::Clock::Real());
    Check(second.Load().ok());
    Check(second.Encode() == once);
  }
  (void)apogee::env::DeleteRecursively(env, "/config");
  Check(env->CreateDirs("/config").ok());
}

void KvConfigJson(std::string_view text) {
  using apogee::namesrv::KvConfigManager;
  apogee::Result<KvConfigManager::Table> table = KvConfigManager::ParseJson(text);
  if (!table.ok()) return;
  const std::string once = KvConfigManager::ToJson(*table);
  apogee::Result<KvConfigManager::Table> again = KvConfigManager::ParseJson(once);
  Check(again.ok() && *again == *table);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 6) {
    case 0: {
      ConsumerOffsetManager a(Env(), "/config/consumerOffset.json");
      ConsumerOffsetManager b(Env(), "/config/consumerOffset.json");
      RoundTrip(text, &a, &b);
      break;
    }
    case 1: {
      SubscriptionGroupManager a(Config(), Env(), "/config/subscriptionGroup.json");
      SubscriptionGroupManager b(Config(), Env(), "/config/subscriptionGroup.json");
      RoundTrip(text, &a, &b);
      break;
    }
    case 2: {
      DelayOffsetTable a(Env(), "/config/delayOffset.json");
      DelayOffsetTable b(Env(), "/config/delayOffset.json");
      RoundTrip(text, &a, &b);
      break;
    }
    case 3: {
      TimerProgress a;
      TimerProgress b;
      RoundTrip(text, &a, &b);
      break;
    }
    case 4:
      TopicsJson(text);
      break;
    default:
      KvConfigJson(text);
      break;
  }
  return 0;
}
