#!/usr/bin/env bash
# Structure limits (issue 14): in app/, render/ and compute/ (tests, fuzzers and shaders
# excepted) no function or lambda of 80 lines or more and no source file of more than 600 lines;
# and (issue 39) no part of the viewer's state (app/viewer/src: App and its parts, state_*.h)
# with more than 30 data members.
# Prints the longest functions and files, then each one past a limit; exit status 1 if any.
#   scripts/check_structure.sh [--top N]
# Function extents come from Universal Ctags (package universal-ctags): its C++ parser gives
# each definition's first and last line, which a regex over braces would get wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
top=10
[ "${1:-}" = --top ] && top=$2

max_function=79 max_file=600 max_members=30
command -v ctags >/dev/null && ctags --version 2>/dev/null | grep -q "Universal Ctags" || {
  echo "check_structure.sh: needs Universal Ctags (apt-get install -y --no-install-recommends universal-ctags)" >&2
  exit 2
}
mapfile -t files < <(git ls-files -- 'app/*.cpp' 'app/*.h' 'render/*.cpp' 'render/*.h' 'compute/*.cpp' 'compute/*.h')

# "LINES NAME FILE:LINE" for every function definition and lambda.
functions=$(ctags --language-force=C++ --kinds-C++=f --fields=+ne -x --_xformat="%{end} %n %N %F" "${files[@]}" |
  awk '$1 != "" { print $1 - $2 + 1, $3, $4 ":" $2 }' | sort -k1,1nr)
file_lines=$(wc -l "${files[@]}" | grep -v ' total$' | sort -k1,1nr)

# "MEMBERS STRUCT FILE" for every struct and class of the viewer's state.
members=$(ctags --language-force=C++ --kinds-C++=m --fields=+s -x --_xformat="%{scope}|%F|%N" \
    $(git ls-files -- 'app/viewer/src/*.h') | cut -d'|' -f1,2 | sort | uniq -c | tr '|' ' ' | sort -k1,1nr)

echo "longest functions (lines, name, where):"
head -n "$top" <<< "$functions" | sed 's/^/  /'
echo "longest files (lines):"
head -n "$top" <<< "$file_lines" | sed 's/^/  /'

status=0
while read -r n name where; do
  [ "$n" -gt "$max_function" ] || continue
  echo "check_structure.sh: $where: $name is $n lines (limit: under 80); split it into named steps" >&2
  status=1
done <<< "$functions"
while read -r n file; do
  [ "$n" -gt "$max_file" ] || continue
  echo "check_structure.sh: $file is $n lines (limit: 600); split it by job" >&2
  status=1
done <<< "$file_lines"
while read -r n name file; do
  [ "$n" -gt "$max_members" ] || continue
  echo "check_structure.sh: $file: $name has $n data members (limit: 30); split it into parts that each own one concern" >&2
  status=1
done <<< "$members"
echo "largest parts of the viewer's state (data members):"
head -n "$top" <<< "$members" | sed 's/^/  /'
[ $status = 0 ] && echo "check_structure.sh: every function under 80 lines, every file at most 600 lines (${#files[@]} files), no part of the viewer's state over 30 members"
exit $status
