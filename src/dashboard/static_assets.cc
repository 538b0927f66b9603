#include "dashboard/static_assets.h"

#include "base/string_util.h"

namespace apogee::dashboard {

std::string_view ContentTypeOf(std::string_view path) {
  struct Type {
    std::string_view ext;
    std::string_view mime;
  };
  static constexpr Type kTypes[] = {
      {".html", "text/html; charset=utf-8"},       {".js", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},         {".json", "application/json"},
      {".svg", "image/svg+xml"},                   {".png", "image/png"},
      {".ico", "image/x-icon"},                    {".txt", "text/plain; charset=utf-8"},
  };
  for (const Type& t : kTypes) {
    if (EndsWith(path, t.ext)) return t.mime;
  }
  return "application/octet-stream";
}

const StaticAsset* FindAsset(std::span<const StaticAsset> assets, std::string_view path) {
  if (path == "/") path = "/index.html";
  for (const StaticAsset& a : assets) {
    if (a.path == path) return &a;
  }
  return nullptr;
}

}  // namespace apogee::dashboard
