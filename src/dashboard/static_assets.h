// The console's files (HTML, JS, CSS, the chart library) as the binary carries them: the
// build generates a table of StaticAsset from src/dashboard/web/ and the pinned npm
// package (cmake/EmbedFiles.cmake), so the server never looks at the file system.
#pragma once

#include <span>
#include <string_view>

namespace apogee::dashboard {

struct StaticAsset {
  std::string_view path;  // "/index.html", "/vendor/uPlot.iife.min.js"
  std::string_view data;
};

// The MIME type for a path's extension (text types with charset=utf-8);
// application/octet-stream for an unknown one.
std::string_view ContentTypeOf(std::string_view path);

// The asset at `path` ("/" means "/index.html"); nullptr when there is none.
const StaticAsset* FindAsset(std::span<const StaticAsset> assets, std::string_view path);

}  // namespace apogee::dashboard
