#include "base/config_table.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

#include "base/file_util.h"
#include "base/string_util.h"

namespace apogee {

Result<std::map<std::string, std::string>> ParsePropertiesText(std::string_view text) {
  std::map<std::string, std::string> out;
  size_t line_no = 0;
  for (const std::string& raw : SplitString(text, '\n')) {
    ++line_no;
    std::string_view line = TrimWhitespace(raw);
    if (line.empty() || line.front() == '#' || line.front() == '!') continue;
    size_t eq = line.find_first_of("=:");
    if (eq == std::string_view::npos) {
      return Status::InvalidArgument(
          fmt::format("line {}: '{}' is not key=value", line_no, std::string(line)));
    }
    std::string key(TrimWhitespace(line.substr(0, eq)));
    if (key.empty()) {
      return Status::InvalidArgument(fmt::format("line {}: empty key", line_no));
    }
    out[key] = std::string(TrimWhitespace(line.substr(eq + 1)));
  }
  return out;
}

Result<std::map<std::string, std::string>> ParsePropertiesFile(const std::string& path) {
  Result<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status().Prefixed("config file");
  auto parsed = ParsePropertiesText(*text);
  if (!parsed.ok()) return parsed.status().Prefixed(path);
  return parsed;
}

ConfigTable& ConfigTable::Add(const char* key, std::string* field, const char* description,
                              bool reloadable) {
  return AddEntry({key, Type::kString, field, description, reloadable});
}
ConfigTable& ConfigTable::Add(const char* key, int32_t* field, const char* description,
                              bool reloadable, int64_t min, int64_t max) {
  return AddEntry({key, Type::kInt32, field, description, reloadable, {}, min, max});
}
ConfigTable& ConfigTable::Add(const char* key, int64_t* field, const char* description,
                              bool reloadable, int64_t min, int64_t max) {
  return AddEntry({key, Type::kInt64, field, description, reloadable, {}, min, max});
}
ConfigTable& ConfigTable::Add(const char* key, bool* field, const char* description,
                              bool reloadable) {
  return AddEntry({key, Type::kBool, field, description, reloadable});
}
ConfigTable& ConfigTable::Add(const char* key, double* field, const char* description,
                              bool reloadable) {
  return AddEntry({key, Type::kDouble, field, description, reloadable});
}
ConfigTable& ConfigTable::AddEnum(const char* key, std::string* field,
                                  std::vector<std::string_view> values, const char* description,
                                  bool reloadable) {
  return AddEntry({key, Type::kEnum, field, description, reloadable, std::move(values)});
}
ConfigTable& ConfigTable::AddEntry(Entry entry) {
  // The broker's table has about 150 entries; growing from 64 reallocates at most twice.
  if (entries_.capacity() == 0) entries_.reserve(64);
  entries_.push_back(std::move(entry));
  return *this;
}

const ConfigTable::Entry* ConfigTable::Find(std::string_view key) const {
  for (const Entry& e : entries_) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

bool ConfigTable::Has(std::string_view key) const { return Find(key) != nullptr; }

Status ConfigTable::Set(std::string_view key, std::string_view raw_value) {
  const Entry* e = Find(key);
  if (e == nullptr) return Status::NotFound(fmt::format("unknown config key '{}'", key));
  std::string_view value = TrimWhitespace(raw_value);
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument(
        fmt::format("config key '{}' has bad value '{}': {}", key, raw_value, why));
  };
  switch (e->type) {
    case Type::kString:
      *static_cast<std::string*>(e->field) = std::string(value);
      return Status::OK();
    case Type::kEnum: {
      auto it = std::find(e->enum_values.begin(), e->enum_values.end(), value);
      if (it == e->enum_values.end()) {
        return bad(fmt::format("expected one of {}", fmt::join(e->enum_values, ", ")));
      }
      *static_cast<std::string*>(e->field) = std::string(value);
      return Status::OK();
    }
    case Type::kInt32:
    case Type::kInt64: {
      auto v = ParseInt64(value);
      if (!v) return bad("not an integer");
      if (*v < e->min || *v > e->max) {
        return bad(fmt::format("out of range [{}, {}]", e->min, e->max));
      }
      if (e->type == Type::kInt32) {
        *static_cast<int32_t*>(e->field) = static_cast<int32_t>(*v);
      } else {
        *static_cast<int64_t*>(e->field) = *v;
      }
      return Status::OK();
    }
    case Type::kBool: {
      auto v = ParseBoolStrict(value);
      if (!v) return bad("expected true or false");
      *static_cast<bool*>(e->field) = *v;
      return Status::OK();
    }
    case Type::kDouble: {
      std::string s(value);
      char* end = nullptr;
      double d = std::strtod(s.c_str(), &end);
      if (s.empty() || end != s.c_str() + s.size()) return bad("not a number");
      *static_cast<double*>(e->field) = d;
      return Status::OK();
    }
  }
  return Status::Internal("unreachable config type");
}

Status ConfigTable::Apply(const std::map<std::string, std::string>& props,
                          std::vector<std::string>* unknown) {
  for (const auto& [key, value] : props) {
    if (!Has(key)) {
      if (unknown) unknown->push_back(key);
      continue;
    }
    APOGEE_RETURN_IF_ERROR(Set(key, value));
  }
  return Status::OK();
}

namespace {

std::string ValueOf(const ConfigTable::Entry& e) {
  switch (e.type) {
    case ConfigTable::Type::kString:
    case ConfigTable::Type::kEnum: return *static_cast<const std::string*>(e.field);
    case ConfigTable::Type::kInt32: return std::to_string(*static_cast<const int32_t*>(e.field));
    case ConfigTable::Type::kInt64: return std::to_string(*static_cast<const int64_t*>(e.field));
    case ConfigTable::Type::kBool: return *static_cast<const bool*>(e.field) ? "true" : "false";
    case ConfigTable::Type::kDouble:
      return fmt::format("{}", *static_cast<const double*>(e.field));
  }
  return {};
}

}  // namespace

std::string ConfigTable::Get(std::string_view key) const {
  const Entry* e = Find(key);
  return e == nullptr ? std::string() : ValueOf(*e);
}

std::map<std::string, std::string> ConfigTable::Snapshot() const {
  // One pass: looking each key up again (Get) made a snapshot quadratic in the entries.
  std::map<std::string, std::string> out;
  for (const Entry& e : entries_) out[std::string(e.key)] = ValueOf(e);
  return out;
}

std::string ConfigTable::ToPropertiesText() const {
  std::string out;
  for (const auto& [k, v] : Snapshot()) out += k + "=" + v + "\n";
  return out;
}

}  // namespace apogee
