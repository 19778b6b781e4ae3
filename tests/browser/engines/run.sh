#!/usr/bin/env bash
# The cross-engine browser tests (engine.test.mjs) on Debian's Chromium (headless, SwiftShader), Firefox ESR
# (puppeteer-core over WebDriver BiDi) and WebKitGTK (WebKitWebDriver + MiniBrowser, selenium-webdriver),
# one engine after the other, Firefox and WebKit headful on a virtual display (with_display.sh).
#   tests/browser/engines/run.sh [chromium|firefox|webkit|all] [node --test options...]   (default: all)
# Needs dist/ built first (./build_wasm.sh); installs the browsers from Debian when missing, runs npm ci when
# node_modules is stale, serves dist/ on a free loopback port for the run. Fails when any engine fails.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
DIST="${ATTENTION_DEMO_DIST:-$ROOT/dist}"

which="${1:-all}"
if [ $# -gt 0 ]; then shift; fi
case "$which" in
  all) engines=(chromium firefox webkit) ;;
  chromium | firefox | webkit) engines=("$which") ;;
  *)
    echo "error: unknown engine '$which' (chromium, firefox, webkit or all)" >&2
    exit 2
    ;;
esac

"$HERE/../prepare.sh" "$DIST"  # the built app, node and npm, the npm packages (npm ci when stale)
# fonts-dejavu-core: the page's text font; xvfb, xauth, libgl1-mesa-dri: the virtual display, software GL
"$ROOT/scripts/ensure_packages.sh" chromium firefox-esr webkit2gtk-driver xvfb xauth libgl1-mesa-dri \
  python3 fonts-dejavu-core

failed=()
cd "$HERE"
for engine in "${engines[@]}"; do
  echo "== cross-engine tests on $engine" >&2
  display=()
  [ "$engine" = chromium ] || display=("$HERE/with_display.sh")
  if ! ATTN_ENGINE="$engine" ${display[@]+"${display[@]}"} "$ROOT/scripts/with_dist_server.sh" --dir "$DIST" \
    node --test --test-concurrency=1 --test-timeout=300000 "$@" ./engine.test.mjs; then
    failed+=("$engine")
  fi
done
if [ "${#failed[@]}" != 0 ]; then
  echo "tests/browser/engines/run.sh: failed on ${failed[*]}" >&2
  exit 1
fi
