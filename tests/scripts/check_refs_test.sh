#!/usr/bin/env bash
# Tests scripts/check-refs.sh on small trees: it passes a self-contained tree and fails, naming
# the file, on each kind of reference to something outside the repository.
set -uo pipefail
check="$(cd "$(dirname "$0")/../.." && pwd)/scripts/check-refs.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# A minimal tree: one format doc, one protocol doc, a module README and a header.
make_tree() {
  rm -rf "$work/t" && mkdir -p "$work/t/docs/format" "$work/t/docs/protocol" "$work/t/src/m"
  echo "# x" >"$work/t/docs/format/x.md"
  printf '# y\nSee [x](../format/x.md) and `docs/format/x.md`.\n' >"$work/t/docs/protocol/y.md"
  printf '# m\nFacts: `docs/protocol/y.md` §1, https://example.com/docs/nothere.md\n' >"$work/t/src/m/README.md"
  printf '// Layout: docs/format/x.md; docs/format/{x}.md; x.md.\n' >"$work/t/src/m/f.h"
}

expect() {  # expect <exit code> <text the output must contain> <description>
  local want=$1 needle=$2 what=$3 out rc
  out=$(bash "$check" "$work/t" 2>&1); rc=$?
  if [ "$rc" -ne "$want" ] || [[ $out != *"$needle"* ]]; then
    echo "FAIL: $what: exit $rc (want $want); output:"; echo "$out"; failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}

make_tree
expect 0 "check-refs: ok" "a self-contained tree passes"

make_tree
echo "// from ../""shared/docs/x.md" >>"$work/t/src/m/f.h"
expect 1 "src/m/f.h:2" "a path into the sibling shared folder fails"

make_tree
echo 'add_definitions(-DAPOGEE_''SHARED_DIR="x")' >"$work/t/CMakeLists.txt"
expect 1 "CMakeLists.txt:1" "the old fixture define fails"

make_tree
echo "// see docs/protocol/missing.md §2" >>"$work/t/src/m/f.h"
expect 1 "docs/protocol/missing.md does not exist" "a missing docs/ file fails"

make_tree
echo "// see protocol-remoting.md §2" >>"$work/t/src/m/f.h"
expect 1 "protocol-remoting.md does not exist" "a bare name of a document not in the tree fails"

make_tree
echo "Specs live in docs/specs/." >>"$work/t/src/m/README.md"
expect 1 "docs/specs/ does not exist" "a missing docs/ folder fails"

make_tree
echo "// docs/format/{x,z}.md" >>"$work/t/src/m/f.h"
expect 1 "docs/format/z.md does not exist" "a brace group with a missing member fails"

make_tree
printf '// docs/format/{x,\n// z}.md\n' >>"$work/t/src/m/f.h"
expect 1 "brace group split over lines" "a brace group split over lines fails"

make_tree
echo "[up](../missing.md)" >>"$work/t/docs/protocol/y.md"
expect 1 "../missing.md does not exist" "a broken relative link fails"

[ $failures -eq 0 ] && echo "check_refs_test: all passed"
exit $failures
