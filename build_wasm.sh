#!/usr/bin/env bash
# Builds the browser app with Emscripten into dist/ (a self-contained static site) and optionally serves it.
#
# Usage: ./build_wasm.sh [--single-file] [--serve [PORT]]
#   Installs missing Debian packages, fetches the Dear ImGui sources once into a cache
#   (scripts/wasm_deps.sh; ATTN_DEPS_CACHE, default ~/.cache/attention-demo), configures the `wasm`
#   preset (build/wasm), builds attention_demo, fills dist/, writes a gzip and a brotli copy beside each
#   file (name.gz by zopfli, name.br: a static host can send them as they are), minifies the scripts
#   (scripts/minify_web.sh) and prints every file's sizes
#   (fails above 400 KB of .gz copies of the page's files: not course-example.*, a sample course page that
#   only course authors open) and which part of the wasm costs what (scripts/wasm_size.py).
#   --single-file also writes dist/attention-demo-single.html, the whole demo in one HTML file that opens
#   from file:// and inside a sandboxed iframe (scripts/single_file.py; not part of the size budget).
#   --serve then serves dist/ on http://127.0.0.1:PORT/
#   (default 8080). Safe to run again: every step reuses what is already there.
#   ATTN_WASM_BUILD_DIR (default build/wasm) and ATTN_DIST_DIR (default dist) put the build elsewhere.
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$PWD"

SERVE=0
SINGLE=0
PORT=8080
while [ $# -gt 0 ]; do
  case "$1" in
    --serve)
      SERVE=1
      if [ $# -gt 1 ] && [[ "$2" =~ ^[0-9]+$ ]]; then PORT="$2"; shift; fi
      ;;
    --single-file)
      SINGLE=1
      ;;
    -h|--help)
      sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "build_wasm.sh: unknown argument '$1' (use --single-file, --serve [PORT])" >&2
      exit 2
      ;;
  esac
  shift
done

JOBS="${ATTN_JOBS:-$(nproc 2>/dev/null || echo 2)}"
# 400 KB of .gz copies of the files the page may load (all but the sample course page, course-example.*).
BUDGET_KB=400

log() { printf '[build_wasm] %s\n' "$*" >&2; }

# 1. tools and sources
# (no font tools: the page draws its text with the browser's fonts, src/platform/font_web.cpp)
scripts/ensure_packages.sh emscripten binaryen cmake make python3 gzip zopfli brotli terser node-clean-css libeigen3-dev \
  nlohmann-json3-dev
deps="$(scripts/wasm_deps.sh)" || { echo "error: scripts/wasm_deps.sh failed (exit $?); its log is above" >&2; exit 1; }
eval "$deps"   # IMGUI_SRC_DIR

# 2. configure and build (the preset sets NODE_PATH for Emscripten's optimiser; the flags are
#    cmake/emscripten.cmake's)
OUT="${ATTN_WASM_BUILD_DIR:-build/wasm}"
DIST="${ATTN_DIST_DIR:-dist}"
log "configuring $OUT"
cmake --preset wasm -B "$OUT" -DATTN_IMGUI_DIR="$IMGUI_SRC_DIR" >/dev/null
log "building attention_demo (wasm)"
NODE_PATH=/usr/share/nodejs cmake --build "$OUT" --target attention_demo -j"$JOBS"

for f in attention_demo.js attention_demo.wasm; do
  [ -f "$OUT/$f" ] || { log "error: $OUT/$f was not produced"; exit 1; }
done

# 3. dist/: the web/ files + the module, swapped in whole so a half-copied dist/ never exists. Three web/
#    files are not served as they are: bridge.js, bridge_fields.js and bridge_input.js are linked into attention_demo.js,
#    embed_protocol.js is written into embed.js and embedded.js.
rm -rf "$DIST.tmp"
mkdir -p "$DIST.tmp"
cp -R web/. "$DIST.tmp/"
rm "$DIST.tmp/bridge.js" "$DIST.tmp/bridge_fields.js" "$DIST.tmp/bridge_input.js" "$DIST.tmp/embed_protocol.js"
python3 scripts/include_embed_protocol.py "$DIST.tmp" web/embed_protocol.js
cp "$OUT/attention_demo.js" "$DIST.tmp/"
# The language models' code (checkpoint readers, tokenizers, the model holder) split out of the module
# into attention_demo.deferred.wasm, which the compute worker loads when a model's files arrive
# (scripts/split_wasm.py, web/bridge.js). Then binaryen's -Oz again on both, repeated until they stop
# shrinking (emcc's link runs it a fixed number of times): 1.2 KB of .gz less. The features are exactly
# the ones the objects are compiled with (cmake/emscripten.cmake), so it cannot use an instruction a
# browser would reject; no implicit traps as in the link. Imports and exports keep their names, so the glue
# is unchanged. ($OUT keeps the linked module, whose function indices match the symbol map
# scripts/wasm_size.py reads.)
python3 scripts/split_wasm.py "$OUT" "$OUT/attention_demo.primary.wasm" "$OUT/attention_demo.deferred.wasm" >&2
for part in primary:attention_demo deferred:attention_demo.deferred; do
  wasm-opt --mvp-features --enable-mutable-globals --enable-sign-ext --enable-nontrapping-float-to-int \
    --enable-simd --enable-exception-handling -Oz --ignore-implicit-traps --converge \
    "$OUT/attention_demo.${part%%:*}.wasm" -o "$DIST.tmp/${part#*:}.wasm"
done
scripts/minify_web.sh "$DIST.tmp"
python3 scripts/bundle_page.py "$DIST.tmp"  # index.html's scripts joined into page.js, in their order
rm -rf "$DIST"
mv "$DIST.tmp" "$DIST"

# 4. sizes and the pre-compressed copies beside each file (name.gz, name.br), so a static host can send
#    them as they are: .gz by zopfli (gzip format, 4-5% smaller than gzip -9), .br by brotli -q 11; each
#    copy is checked to decompress to its file's exact bytes. The budget is on the .gz copies (what a
#    server sends a browser without brotli); gzip -9 is printed beside them for comparison.
total_raw=0
total_gz9=0
total_gz=0
total_br=0
page_gz=0  # the budget's files
printf '%-24s %10s %10s %10s %10s\n' "$DIST/" "bytes" "gzip -9" ".gz" ".br" >&2
while IFS= read -r -d '' f; do
  zopfli --gzip -c "$f" >"$f.gz"
  brotli -q 11 -c "$f" >"$f.br"
  if ! gzip -dc "$f.gz" | cmp -s - "$f" || ! brotli -dc "$f.br" | cmp -s - "$f"; then
    log "error: a compressed copy of $f does not decompress to the file"
    exit 1
  fi
  raw=$(stat -c %s "$f")
  gz9=$(gzip -9 -n -c "$f" | wc -c)
  gz=$(stat -c %s "$f.gz")
  br=$(stat -c %s "$f.br")
  total_raw=$((total_raw + raw))
  total_gz9=$((total_gz9 + gz9))
  total_gz=$((total_gz + gz))
  total_br=$((total_br + br))
  case "${f##*/}" in course-example.* | attention_demo.deferred.wasm) ;; *) page_gz=$((page_gz + gz)) ;; esac
  printf '%-24s %10d %10d %10d %10d\n' "${f#"$DIST"/}" "$raw" "$gz9" "$gz" "$br" >&2
done < <(find "$DIST" -type f ! -name '*.gz' ! -name '*.br' -print0 | sort -z)
printf '%-24s %10d %10d %10d %10d\n' "total" "$total_raw" "$total_gz9" "$total_gz" "$total_br" >&2
printf '%-24s %32d  (%d KB; budget %d KB; not counted: course-example.*, and the deferred module, fetched only when a language model is opened)\n' "the page's files, .gz" "$page_gz" \
  $(((page_gz + 1023) / 1024)) "$BUDGET_KB" >&2
# which library costs what inside the wasm (names from the link's attention_demo.js.symbols)
echo >&2
python3 scripts/wasm_size.py "$OUT" --imgui-lib "$OUT/libattn_imgui.a" \
  >&2 || log "warning: scripts/wasm_size.py failed (the build is fine)"
if [ "$page_gz" -gt $((BUDGET_KB * 1024)) ]; then
  log "error: the page's files in dist/ are over the ${BUDGET_KB} KB gzipped budget"
  exit 1
fi
log "$DIST/ is ready"

# 4b. the single-file build, after the sizes: it is not one of the site's files, and has no compressed copies
if [ "$SINGLE" = 1 ]; then
  python3 scripts/single_file.py "$DIST"
fi

# 5. serve
if [ "$SERVE" = 1 ]; then
  log "serving dist/ on http://127.0.0.1:$PORT/  (Ctrl+C stops)"
  echo "http://127.0.0.1:$PORT/"
  exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$DIST"
fi
