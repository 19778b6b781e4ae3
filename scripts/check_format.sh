#!/usr/bin/env bash
# Checks that the project's C++ sources (the tracked *.cpp and *.hpp under src/, tests/ and bench/) are
# formatted as .clang-format says, with Debian's clang-format (14; installed when missing).
#
# Usage: scripts/check_format.sh          lists the files that differ; exit status 1 when any does
#        scripts/check_format.sh --fix    reformats those files in place (clang-format -i)
# Generated headers live in the build folders and are never tracked; nothing third-party is tracked.
set -euo pipefail
cd "$(dirname "$0")/.."

FIX=0
case "${1:-}" in
  "") ;;
  --fix) FIX=1 ;;
  -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "check_format.sh: unknown argument '$1' (use --fix)" >&2; exit 2 ;;
esac

scripts/ensure_packages.sh clang-format
CLANG_FORMAT=clang-format

# An unknown key in .clang-format would make every file "differ": check the configuration first.
[ -f .clang-format ] || { echo "check_format.sh: no .clang-format at $PWD" >&2; exit 2; }
if ! "$CLANG_FORMAT" --dump-config >/dev/null; then
  echo "check_format.sh: .clang-format is not valid for $("$CLANG_FORMAT" --version)" >&2
  exit 2
fi

# The files: tracked ones (a file deleted in the working tree but not yet in git is skipped); outside a
# git checkout, the same folders searched on disk.
files=()
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- 'src/*.cpp' 'src/*.hpp' 'tests/*.cpp' 'tests/*.hpp' \
                                       'bench/*.cpp' 'bench/*.hpp')
else
  mapfile -t files < <(find src tests bench -path '*/node_modules' -prune -o \
                            -type f \( -name '*.cpp' -o -name '*.hpp' \) -print | sort)
fi
checked=()
for f in "${files[@]}"; do
  case "$f" in
    */node_modules/*|*/third_party/*|*/generated/*) continue ;;
  esac
  [ -f "$f" ] && checked+=("$f")
done
if [ ${#checked[@]} -eq 0 ]; then
  echo "check_format.sh: no C++ files found" >&2
  exit 2
fi

differ=()
for f in "${checked[@]}"; do
  "$CLANG_FORMAT" --dry-run --Werror "$f" >/dev/null 2>&1 || differ+=("$f")
done

version="$("$CLANG_FORMAT" --version)"
if [ ${#differ[@]} -eq 0 ]; then
  echo "format: all ${#checked[@]} C++ files match .clang-format ($version)"
  exit 0
fi

if [ "$FIX" = 1 ]; then
  "$CLANG_FORMAT" -i "${differ[@]}"
  printf 'format: reformatted %d of %d C++ files in place (%s):\n' "${#differ[@]}" "${#checked[@]}" "$version"
  printf '  %s\n' "${differ[@]}"
  exit 0
fi

printf 'format: %d of %d C++ files differ from .clang-format (%s):\n' "${#differ[@]}" "${#checked[@]}" \
  "$version"
for f in "${differ[@]}"; do
  n="$("$CLANG_FORMAT" --dry-run "$f" 2>&1 | grep -c 'warning: code should be clang-formatted' || true)"
  [ "$n" = 1 ] && places="1 place" || places="$n places"
  printf '  %s  (%s)\n' "$f" "$places"
done
echo "see the changes: clang-format FILE | diff FILE -"
echo "fix one file:    clang-format -i FILE"
echo "fix them all:    scripts/check_format.sh --fix"
exit 1
