// Whole-file persistence the way RocketMQ's config files need it (MixAll.string2File,
// made crash-safe): write <path>.tmp, fsync it, move the current file to <path>.bak,
// rename the temp file into place and fsync the directory. A reader that finds the main
// file missing or unusable falls back to <path>.bak.
//
// Kept in namesrv for now; the broker's topics.json / consumerOffset.json need the same.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"

namespace apogee::namesrv {

// Creates missing parent directories. IOError naming the path and errno on failure.
Status WriteFileAtomically(const std::string& path, std::string_view content);

// The file's content; NotFound when it does not exist, IOError when it cannot be read.
Result<std::string> ReadWholeFile(const std::string& path);

}  // namespace apogee::namesrv
