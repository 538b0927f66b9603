// Reading a whole small file (a properties file, an ACL or credentials YAML) where no Env is
// at hand: base and acl may not use env. Files a process writes and reads back as state go
// through env::ReadFileToString / env::LoadFileWithBackup instead, so that tests can inject
// faults.
#pragma once

#include <string>

#include "base/status.h"

namespace apogee {

// The content of the file at `path`. NotFound "<path> does not exist" when it is missing;
// otherwise the errno of the failing call, naming the path.
Result<std::string> ReadWholeFile(const std::string& path);

}  // namespace apogee
