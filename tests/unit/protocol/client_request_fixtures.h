// Test helper: the requests real clients sent (fixtures/client-requests/*.jsonl), rebuilt
// as JSON frames with each extFields value in the JSON type the client used, and decoded
// with DecodeCommand.
#pragma once

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/coding.h"
#include "protocol/remoting_command.h"
#include "testutil/test_paths.h"

namespace apogee::protocol::testing {

struct FixtureRequest {
  std::string source;  // file:line
  RemotingCommand command;
};

inline std::vector<FixtureRequest> LoadClientRequests() {
  std::vector<FixtureRequest> requests;
  for (const char* file : {"ali-ons-3.12.0.jsonl", "rocketmq-client-cpp-1.2.jsonl"}) {
    const std::string path = ::apogee::testing::FixturesDir() + "/client-requests/" + file;
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::string line;
    for (int line_number = 1; std::getline(in, line); ++line_number) {
      rapidjson::Document record;
      record.Parse(line.data(), line.size());
      if (record.HasParseError() || !record.IsObject()) continue;
      rapidjson::StringBuffer header;
      rapidjson::Writer<rapidjson::StringBuffer> writer(header);
      writer.StartObject();
      for (const char* key : {"code", "flag", "opaque", "version"}) {
        writer.Key(key);
        writer.Int(record[key].GetInt());
      }
      writer.Key("language");
      writer.String(record["language"].GetString());
      writer.Key("extFields");
      record["extFields"].Accept(writer);
      writer.EndObject();

      std::string frame;
      ByteWriter(&frame).PutU32(static_cast<uint32_t>(header.GetSize()));
      frame.append(header.GetString(), header.GetSize());
      Result<RemotingCommand> command = DecodeCommand(frame);
      EXPECT_TRUE(command.ok()) << command.status().ToString();
      if (command.ok()) {
        requests.push_back({std::string(file) + ":" + std::to_string(line_number), *command});
      }
    }
  }
  return requests;
}

}  // namespace apogee::protocol::testing
