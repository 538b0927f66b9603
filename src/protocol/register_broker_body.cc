#include "protocol/register_broker_body.h"

#include <zlib.h>

#include <string>
#include <utility>

#include "base/coding.h"
#include "protocol/json_util.h"
#include "protocol/namesrv_headers.h"
#include "protocol/topic_config_json.h"

namespace apogee::protocol {
namespace {

constexpr std::string_view kBodyName = "RegisterBrokerBody";

void WriteStringList(json::Writer& w, const std::vector<std::string>& list) {
  w.StartArray();
  for (const std::string& s : list) json::String(w, s);
  w.EndArray();
}

Status ReadStringList(const json::Value& array, std::string_view path,
                      std::vector<std::string>* out) {
  for (rapidjson::SizeType i = 0; i < array.Size(); ++i) {
    APOGEE_ASSIGN_OR_RETURN(
        std::string s, json::AsString(array[i], std::string(path) + "[" + std::to_string(i) + "]"));
    out->push_back(std::move(s));
  }
  return Status::OK();
}

Result<std::string> Inflate(std::string_view input, size_t max_output) {
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) return Status::Internal("zlib inflateInit failed");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  stream.avail_in = static_cast<uInt>(input.size());
  std::string out;
  char buffer[64 * 1024];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof(buffer);
    rc = inflate(&stream, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&stream);
      if (rc == Z_BUF_ERROR)
        return Status::Corruption("compressed RegisterBrokerBody is truncated");
      return Status::Corruption(
          std::string("compressed RegisterBrokerBody is not a zlib stream: ") +
          (stream.msg != nullptr ? stream.msg : "inflate error"));
    }
    out.append(buffer, sizeof(buffer) - stream.avail_out);
    if (out.size() > max_output) {
      inflateEnd(&stream);
      return Status::Corruption("compressed RegisterBrokerBody inflates past " +
                                std::to_string(max_output) + " bytes");
    }
  }
  inflateEnd(&stream);
  return out;
}

// Reads an int32 length and that many bytes of the decompressed body.
Status ReadPiece(ByteReader* reader, std::string_view what, std::string_view* out) {
  int32_t length = 0;
  if (!reader->ReadI32(&length)) {
    return Status::Corruption("compressed RegisterBrokerBody ends before the length of " +
                              std::string(what));
  }
  if (length < 0 || !reader->ReadBytes(static_cast<size_t>(length), out)) {
    return Status::Corruption("compressed RegisterBrokerBody: " + std::string(what) + " length " +
                              std::to_string(length) + " exceeds the " +
                              std::to_string(reader->remaining()) + " bytes left");
  }
  return Status::OK();
}

Status ReadCount(ByteReader* reader, std::string_view what, int32_t* count) {
  if (!reader->ReadI32(count)) {
    return Status::Corruption("compressed RegisterBrokerBody ends before the " + std::string(what));
  }
  // Each entry needs at least its 4-byte length, which bounds a forged count.
  if (*count < 0 || static_cast<size_t>(*count) > reader->remaining() / 4) {
    return Status::Corruption("compressed RegisterBrokerBody: bad " + std::string(what) + " " +
                              std::to_string(*count));
  }
  return Status::OK();
}

void PutPiece(ByteWriter* writer, std::string_view bytes) {
  writer->PutU32(static_cast<uint32_t>(bytes.size()));
  writer->PutBytes(bytes);
}

}  // namespace

std::string EncodeRegisterBrokerBody(const RegisterBrokerBody& body) {
  std::string out;
  json::StringAppendStream stream(&out);
  json::Writer w(stream);
  w.StartObject();
  json::Key(w, "filterServerList");
  WriteStringList(w, body.filter_server_list);
  json::Key(w, "topicConfigSerializeWrapper");
  WriteTopicConfigSerializeWrapper(w, body.topic_config_serialize_wrapper);
  w.EndObject();
  return out;
}

Result<RegisterBrokerBody> DecodeRegisterBrokerBody(std::string_view text) {
  json::Document doc;
  APOGEE_RETURN_IF_ERROR(json::ParseObject(text, kBodyName, &doc));
  RegisterBrokerBody body;
  if (const json::Value* wrapper = json::Find(doc, "topicConfigSerializeWrapper")) {
    APOGEE_RETURN_IF_ERROR(
        ReadTopicConfigSerializeWrapper(*wrapper, "RegisterBrokerBody.topicConfigSerializeWrapper",
                                        &body.topic_config_serialize_wrapper));
  }
  APOGEE_ASSIGN_OR_RETURN(const json::Value* filters,
                          json::FindArray(doc, "filterServerList", kBodyName));
  if (filters != nullptr) {
    APOGEE_RETURN_IF_ERROR(
        ReadStringList(*filters, "RegisterBrokerBody.filterServerList", &body.filter_server_list));
  }
  return body;
}

std::string EncodeCompressedRegisterBrokerBody(const RegisterBrokerBody& body) {
  std::string plain;
  ByteWriter writer(&plain);
  const TopicConfigSerializeWrapper& wrapper = body.topic_config_serialize_wrapper;
  PutPiece(&writer, EncodeDataVersion(wrapper.data_version));
  writer.PutU32(static_cast<uint32_t>(wrapper.topic_config_table.size()));
  for (const auto& [name, config] : wrapper.topic_config_table) {
    PutPiece(&writer, EncodeTopicConfigText(config));
  }
  std::string filters;
  {
    json::StringAppendStream stream(&filters);
    json::Writer w(stream);
    WriteStringList(w, body.filter_server_list);
  }
  PutPiece(&writer, filters);
  writer.PutU32(0);  // no static-topic mappings

  uLongf bound = compressBound(static_cast<uLong>(plain.size()));
  std::string out(bound, '\0');
  // Deflater(BEST_COMPRESSION) in a DeflaterOutputStream: a zlib-wrapped deflate stream.
  compress2(reinterpret_cast<Bytef*>(out.data()), &bound,
            reinterpret_cast<const Bytef*>(plain.data()), static_cast<uLong>(plain.size()),
            Z_BEST_COMPRESSION);
  out.resize(bound);
  return out;
}

Result<RegisterBrokerBody> DecodeCompressedRegisterBrokerBody(std::string_view compressed,
                                                              size_t max_decompressed) {
  APOGEE_ASSIGN_OR_RETURN(std::string plain, Inflate(compressed, max_decompressed));
  ByteReader reader(plain);
  RegisterBrokerBody body;
  TopicConfigSerializeWrapper& wrapper = body.topic_config_serialize_wrapper;

  std::string_view piece;
  APOGEE_RETURN_IF_ERROR(ReadPiece(&reader, "DataVersion", &piece));
  APOGEE_ASSIGN_OR_RETURN(wrapper.data_version, DecodeDataVersion(piece));

  int32_t topic_count = 0;
  APOGEE_RETURN_IF_ERROR(ReadCount(&reader, "topic count", &topic_count));
  for (int32_t i = 0; i < topic_count; ++i) {
    APOGEE_RETURN_IF_ERROR(ReadPiece(&reader, "topic config", &piece));
    APOGEE_ASSIGN_OR_RETURN(TopicConfig config, DecodeTopicConfigText(piece));
    std::string name = config.topic_name;
    wrapper.topic_config_table[std::move(name)] = std::move(config);
  }

  APOGEE_RETURN_IF_ERROR(ReadPiece(&reader, "filter server list", &piece));
  {
    // The list is a bare JSON array: wrap it so the object parser takes it.
    json::Document doc;
    APOGEE_RETURN_IF_ERROR(json::ParseObject("{\"l\":" + std::string(piece) + "}",
                                             "RegisterBrokerBody filter server list", &doc));
    APOGEE_ASSIGN_OR_RETURN(const json::Value* list, json::FindArray(doc, "l", "filterServerList"));
    if (list != nullptr) {
      APOGEE_RETURN_IF_ERROR(ReadStringList(*list, "filterServerList", &body.filter_server_list));
    }
  }

  // 4.9.7 brokers end here. Static-topic mappings are not modelled; their pieces are
  // checked and skipped.
  if (reader.remaining() > 0) {
    int32_t mapping_count = 0;
    APOGEE_RETURN_IF_ERROR(ReadCount(&reader, "mapping count", &mapping_count));
    for (int32_t i = 0; i < mapping_count; ++i) {
      APOGEE_RETURN_IF_ERROR(ReadPiece(&reader, "topic queue mapping", &piece));
    }
  }
  return body;
}

Result<RegisterBrokerBody> DecodeRegisterBrokerRequestBody(std::string_view body, bool compressed,
                                                           int32_t broker_version) {
  if (body.empty()) return RegisterBrokerBody{};
  if (broker_version < kRegisterBrokerBodyMinVersion) {
    RegisterBrokerBody result;
    APOGEE_ASSIGN_OR_RETURN(result.topic_config_serialize_wrapper,
                            DecodeTopicConfigSerializeWrapper(body));
    return result;
  }
  return compressed ? DecodeCompressedRegisterBrokerBody(body) : DecodeRegisterBrokerBody(body);
}

void EncodeRegisterBrokerResult(const RegisterBrokerResult& result, RemotingCommand* response) {
  RegisterBrokerResponseHeader header{result.ha_server_addr, result.master_addr};
  EncodeCustomHeader(header, response);
  response->body = EncodeKVTable(result.kv_table);
}

Result<RegisterBrokerResult> DecodeRegisterBrokerResult(const RemotingCommand& response) {
  APOGEE_ASSIGN_OR_RETURN(RegisterBrokerResponseHeader header,
                          DecodeCustomHeader<RegisterBrokerResponseHeader>(response));
  RegisterBrokerResult result;
  result.ha_server_addr = std::move(header.ha_server_addr);
  result.master_addr = std::move(header.master_addr);
  if (!response.body.empty()) {
    APOGEE_ASSIGN_OR_RETURN(result.kv_table, DecodeKVTable(response.body));
  }
  return result;
}

}  // namespace apogee::protocol
