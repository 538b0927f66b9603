// ApiRequest: one /api/ call as the handlers see it: method, path and a flat parameter
// map filled from the query string and, for POST, from a flat JSON object body. Typed
// accessors give InvalidArgument naming the parameter, which the router answers with 400.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::dashboard {

struct ApiRequest {
  std::string method;
  std::string path;  // without the query string, percent-decoded
  std::map<std::string, std::string> params;

  bool Has(const std::string& name) const { return params.count(name) > 0 && !params.at(name).empty(); }
  std::string Get(const std::string& name, std::string fallback = "") const;
  // InvalidArgument "missing parameter NAME" when absent or empty.
  Result<std::string> Required(const std::string& name) const;
  // `fallback` when absent; InvalidArgument when present but not a decimal integer.
  Result<int64_t> Int64(const std::string& name, std::optional<int64_t> fallback = std::nullopt) const;
  Result<int32_t> Int32(const std::string& name, std::optional<int32_t> fallback = std::nullopt) const;
  Result<bool> Bool(const std::string& name, bool fallback) const;
};

// "%41+b" -> "A b" (form encoding); nullopt for a malformed escape.
std::optional<std::string> PercentDecode(std::string_view text);

// Splits "/api/x?a=1&b=2" into the request's path and params. InvalidArgument for a
// malformed escape.
Status ParseTarget(std::string_view target, ApiRequest* request);

// Adds the members of a flat JSON object body ({"topic":"T","readQueueNums":8}) to the
// params; strings, numbers and booleans are kept as text. InvalidArgument for anything
// else (not an object, nested values).
Status ParseJsonBody(std::string_view body, ApiRequest* request);

}  // namespace apogee::dashboard
