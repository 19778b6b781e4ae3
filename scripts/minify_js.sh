#!/usr/bin/env bash
# Minifies the page's scripts in a dist/ folder in place with Debian's terser (build_wasm.sh step 3).
# Usage: scripts/minify_js.sh DIST
#   attention_demo.js  Emscripten's glue: every name mangled, top level included, except `Module`, the one
#                      global web/shell.js and the glue share (exports are read as Module properties, which
#                      terser never renames), and `abort`, the runtime's stop (tests/browser/hardening)
#   shell.js, stream_wasm.js  each one function expression: locals mangled, globals kept
# embed.js stays as written: course authors read its comments. Each output must parse (terser fails
# otherwise) and must not be larger than its input.
set -euo pipefail
DIST="${1:?usage: scripts/minify_js.sh DIST}"
# Debian's terser runs under whatever `node` is first on PATH; its modules live in /usr/share/nodejs.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

minify() {
  local file="$1"
  shift
  local before after
  before=$(stat -c %s "$file")
  {
    printf '// %s: minified by scripts/minify_js.sh from the project'"'"'s web/ folder or Emscripten'"'"'s glue\n' \
      "$(basename "$file")"
    terser "$file" --compress passes=2 "$@"
  } >"$file.min"
  after=$(stat -c %s "$file.min")
  if [ "$after" -gt "$before" ]; then
    echo "error: terser made $file larger ($before -> $after bytes)" >&2
    rm -f "$file.min"
    exit 1
  fi
  mv "$file.min" "$file"
}

minify "$DIST/attention_demo.js" --toplevel --mangle reserved=[Module,abort]
minify "$DIST/shell.js" --mangle
minify "$DIST/stream_wasm.js" --mangle
