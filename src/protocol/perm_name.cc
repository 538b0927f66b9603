#include "protocol/perm_name.h"

namespace apogee::protocol {

std::string PermToString(int32_t perm) {
  std::string out = "---";
  if (IsReadable(perm)) out[0] = 'R';
  if (IsWriteable(perm)) out[1] = 'W';
  if (IsInherited(perm)) out[2] = 'X';
  return out;
}

}  // namespace apogee::protocol
