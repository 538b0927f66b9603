#!/usr/bin/env bash
# Fails when the repository refers to something outside itself or to a document it does not
# have: any mention of the sibling "shared" folder or its CMake define, and any docs/... path
# or *.md file name that does not resolve inside the checkout. A clone must build, test and
# document itself with nothing beside it (docs/architecture.md, "Source layout").
#
# Usage: scripts/check-refs.sh [root]   (root defaults to the checkout holding this script)
# Resolution of a reference found in file F: relative to the root, then to F's directory;
# a bare name (no '/') also resolves when any Markdown file in the tree has that name.
# Placeholders (<module>, *, $VAR) and URLs are skipped; one {a,b} group is expanded.
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
cd "$root"

# The forbidden strings are assembled so that this script does not match itself.
shared_dir="../"'shared'
shared_define='APOGEE_'"SHARED_DIR"

scan=()
for p in src include apps tests bench scripts docs conf examples cmake .ci README.md CMakeLists.txt Makefile; do
  [ -e "$p" ] && scan+=("$p")
done
[ ${#scan[@]} -gt 0 ] || { echo "check-refs: nothing to scan under $root"; exit 1; }
# Skipped: build trees, npm packages, captured client traces (data), and the checker's own test,
# whose sample trees are made of exactly the references this script must refuse.
grep_opts=(-rnIH --exclude-dir=build --exclude-dir=node_modules --exclude-dir=.git --exclude='*.jsonl'
           --exclude=check_refs_test.sh)

bad=0
report() { echo "check-refs: $1"; bad=1; }

while IFS= read -r hit; do
  report "$hit: refers outside the repository"
done < <(grep "${grep_opts[@]}" -F -e "$shared_dir" -e "$shared_define" "${scan[@]}" || true)

declare -A md_names=()
while IFS= read -r f; do md_names[$(basename "$f")]=1; done \
  < <(find "${scan[@]}" -name '*.md' -not -path '*/node_modules/*' -not -path '*/build/*' 2>/dev/null)

resolves() {  # resolves <file> <path>
  local file=$1 ref=$2
  [ -e "$ref" ] && return 0
  [ -e "$(dirname "$file")/$ref" ] && return 0
  [[ $ref != */* && $ref == *.md && -n ${md_names[$ref]:-} ]] && return 0
  return 1
}

while IFS= read -r hit; do
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  ref=${rest#*:}
  ref=${ref%%[.,;:)]}
  ref=${ref%%[.,;:)]}
  case $ref in
    //* | *'<'* | *'*'* | *'$'*) continue ;;
  esac
  if [[ $ref == *'{'* || $ref == *'}'* ]]; then
    if [[ $ref != *'{'*'}'* ]]; then
      report "$file:$line: $ref: brace group split over lines; write the paths out"
      continue
    fi
    prefix=${ref%%\{*}
    tail=${ref#*\{}
    inner=${tail%%\}*}
    suffix=${tail#*\}}
    IFS=, read -ra parts <<<"$inner"
    for part in "${parts[@]}"; do
      resolves "$file" "$prefix$part$suffix" || report "$file:$line: $prefix$part$suffix does not exist"
    done
    continue
  fi
  resolves "$file" "$ref" || report "$file:$line: $ref does not exist"
done < <(grep "${grep_opts[@]}" -oE '(//)?[A-Za-z0-9_./{},<>*$-]*[A-Za-z0-9_}]\.md\b|(^|[^A-Za-z0-9_./-])docs/[A-Za-z0-9_./{},<>*$-]*' "${scan[@]}" \
           | sed -E 's/^([^:]*:[0-9]+:)[^A-Za-z0-9_./{<*$]?/\1/' || true)

[ $bad -eq 0 ] && echo "check-refs: ok"
exit $bad
