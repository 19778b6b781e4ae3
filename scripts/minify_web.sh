#!/usr/bin/env bash
# Minifies the page's scripts and style sheet in a dist/ folder in place, with Debian's terser and clean-css
# (build_wasm.sh step 3). Usage: scripts/minify_web.sh DIST
#   attention_demo.js  Emscripten's glue: every name mangled, top level included, except `Module`, the one
#                      global web/shell.js and the glue share (exports are read as Module properties, which
#                      terser never renames), and `abort`, the runtime's stop (tests/browser/hardening)
#   shell.js, stream_wasm.js, a11y.js, embedded.js, keyboard.js, checkpoint.js, compute_worker.js,
#                      font_atlas.js, embed.js
#                      each one function expression:
#                      locals mangled, globals kept
#   style.css  clean-css level 2 (comments, whitespace, merged rules)
#   index.html its comments (the page has no inline script or style, so none is inside one)
# build_wasm.sh then joins index.html's scripts into one page.js (scripts/bundle_page.py).
# embed.js's commented source, with its usage, is web/embed.js (and README.md). Each output must parse
# (terser and clean-css fail otherwise) and must not be larger than its input.
set -euo pipefail
DIST="${1:?usage: scripts/minify_web.sh DIST}"
# Debian's terser and clean-css run under whatever `node` is first on PATH; its modules live in /usr/share/nodejs.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

# replace FILE: FILE.min (written by the caller) takes FILE's place, unless it is larger.
replace() {
  local file="$1" before after
  before=$(stat -c %s "$file")
  after=$(stat -c %s "$file.min")
  if [ "$after" -gt "$before" ]; then
    echo "error: minifying made $file larger ($before -> $after bytes)" >&2
    rm -f "$file.min"
    exit 1
  fi
  mv "$file.min" "$file"
}

minify() {
  local file="$1"
  shift
  {
    printf '// %s, minified (scripts/minify_web.sh)\n' "$(basename "$file")"
    terser "$file" --compress passes=2 "$@"
  } >"$file.min"
  replace "$file"
}

minify_css() {
  local file="$1"
  node -e '
    const CleanCSS = require("clean-css");
    const fs = require("fs");
    const out = new CleanCSS({ level: 2 }).minify(fs.readFileSync(process.argv[1], "utf8"));
    if (out.errors.length || out.warnings.length) {
      console.error([...out.errors, ...out.warnings].join("\n"));
      process.exit(1);
    }
    fs.writeFileSync(process.argv[1] + ".min", "/* " + require("path").basename(process.argv[1]) +
      ", minified (scripts/minify_web.sh) */\n" + out.styles + "\n");
  ' "$file"
  replace "$file"
}

minify "$DIST/attention_demo.js" --toplevel --mangle reserved=[Module,abort]
minify "$DIST/shell.js" --mangle
minify "$DIST/stream_wasm.js" --mangle
minify "$DIST/a11y.js" --mangle
minify "$DIST/embedded.js" --mangle
minify "$DIST/keyboard.js" --mangle
minify "$DIST/checkpoint.js" --mangle
minify "$DIST/compute_worker.js" --mangle
minify "$DIST/font_atlas.js" --mangle
minify "$DIST/embed.js" --mangle
minify_css "$DIST/style.css"
node -e '
  const fs = require("fs");
  const f = process.argv[1];
  fs.writeFileSync(f + ".min", fs.readFileSync(f, "utf8").replace(/<!--[\s\S]*?-->\n?/g, ""));
' "$DIST/index.html"
replace "$DIST/index.html"
