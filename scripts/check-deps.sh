#!/usr/bin/env bash
# Fails when a source file includes a module its module may not use (docs/architecture.md).
# CMake's per-module include directories already make such an include fail to compile;
# this check names the offending line directly and also covers headers no target compiles.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A allowed=(
  [base]=""
  [env]="base"
  [message]="base"
  [net]="base"
  [store]="base env message"
  [protocol]="base message"
  [remoting]="base net protocol"
  [ha]="base net store"
  [acl]="base protocol message"
  [metrics]="base net"
  [coord]="base protocol"
  [namesrv]="base env remoting protocol metrics acl"
  [client]="base env remoting protocol message acl"
  [broker]="base store ha remoting protocol message env coord metrics acl"
  # admin also reads message records and msgIds (queryMsgById/ByOffset, consumeMessage),
  # as Java's tools use common's MessageDecoder; protocol and client already expose message types.
  [admin]="base client protocol message coord acl"
  # mqdashboard's JSON API: admin requests (whose headers expose protocol and message
  # types) served by metrics' HTTP server.
  [dashboard]="base admin metrics protocol message acl"
)
modules="${!allowed[*]}"
bad=0
for mod in "${!allowed[@]}"; do
  [ -d "src/$mod" ] || continue
  while IFS= read -r line; do
    file=${line%%:*}
    inc=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"${line#*:}")
    [ "$inc" = "$mod" ] && continue
    case " $modules " in *" $inc "*) ;; *) continue ;; esac
    case " ${allowed[$mod]} " in
      *" $inc "*) ;;
      *) echo "check-deps: $file includes $inc/, but $mod may use only: ${allowed[$mod]:-nothing}"; bad=1 ;;
    esac
  done < <(grep -rHE '^#include "[a-z_]+/' "src/$mod" || true)
done
# The public API includes nothing internal, with one deliberate exception: apogee::Status is
# base's Status (include/apogee/status.h re-exports base/status.h, which needs only the
# standard library), so errors cross the API and the internals as one type.
if grep -rnE '^#include "(base|env|message|store|protocol|net|remoting|ha|coord|namesrv|broker|client|admin)/' include/ 2>/dev/null \
    | grep -vE '^include/apogee/status\.h:[0-9]+:#include "base/status\.h"'; then
  echo "check-deps: include/apogee must not include internal headers"; bad=1
fi
# RapidJSON's own Document/Reader/Writer/StringBuffer do pointer arithmetic on null (UB that
# only clang's UBSan sees); src/ uses the json:: types of protocol/json_util.h instead.
if grep -rnE 'rapidjson::(Document|Reader|Writer|PrettyWriter|StringBuffer)\b' src/ \
    | grep -v '^src/protocol/json_util\.h:'; then
  echo "check-deps: use protocol::json::Document / Reader / WriterTo / StringBuffer (json_util.h)"; bad=1
fi
[ $bad -eq 0 ] && echo "check-deps: ok"
exit $bad
