// libFuzzer target for the properties text every config body and file goes through:
// ParsePropertiesText (broker.conf, namesrv.conf, UPDATE_BROKER_CONFIG /
// UPDATE_NAMESRV_CONFIG bodies) and the typed tables that apply it. Checks: parsed pairs
// written back as "key=value" lines parse to the same pairs; a table that accepts them
// prints (ToPropertiesText, what -p and GET_BROKER_CONFIG send) a text that parses and
// applies to a fresh table with the same result; runtime updates never crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "base/config_table.h"
#include "broker/broker_config.h"
#include "namesrv/namesrv_config.h"
#include "quiet_logs.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

using Props = std::map<std::string, std::string>;

Props Parse(std::string_view text) {
  apogee::Result<Props> props = apogee::ParsePropertiesText(text);
  Check(props.ok());
  return std::move(props).value();
}

void Broker(const Props& props) {
  apogee::broker::BrokerConfig config{apogee::broker::BrokerSettings{}};
  if (config.ApplyProperties(props).ok()) {
    const std::string text = config.ToPropertiesText();
    apogee::broker::BrokerConfig again{apogee::broker::BrokerSettings{}};
    Check(again.ApplyProperties(Parse(text)).ok());
    Check(again.ToPropertiesText() == text);
    (void)apogee::broker::BrokerConfig::Validate(config.Snapshot());
  }
  (void)config.UpdateAtRuntime(props);
}

void Namesrv(const Props& props) {
  apogee::namesrv::NamesrvConfig config;
  if (config.ApplyProperties(props).ok()) {
    const std::string text = config.ToPropertiesText();
    apogee::namesrv::NamesrvConfig again;
    Check(again.ApplyProperties(Parse(text)).ok());
    Check(again.ToPropertiesText() == text);
  }
  (void)config.UpdateAtRuntime(props);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  apogee::Result<Props> props = apogee::ParsePropertiesText(text);
  if (!props.ok()) return 0;
  std::string written;
  for (const auto& [key, value] : *props) written += key + "=" + value + "\n";
  Check(Parse(written) == *props);
  if (data[0] & 1) {
    Broker(*props);
  } else {
    Namesrv(*props);
  }
  return 0;
}
