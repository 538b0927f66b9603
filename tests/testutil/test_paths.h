// Where the tests find the source tree, the fixtures and the built apps.
//
// These come from one generated file (test_paths.cc, configured by tests/CMakeLists.txt)
// rather than from -D definitions on every test: an absolute path on the compile line of
// every test file made each one a ccache miss in a fresh clone at another path, and CI
// builds in a fresh clone.
#pragma once

#include <string>

namespace apogee::testing {

// The repository's root (the CMake source directory).
const std::string& SourceDir();
// tests/fixtures/ in the repository (Java-written records, real clients' requests).
const std::string& FixturesDir();
// The directory holding the built mqbroker, mqnamesrv, mqadmin, ... binaries.
const std::string& BinDir();

}  // namespace apogee::testing
