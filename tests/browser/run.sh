#!/usr/bin/env bash
# Browser end-to-end tests of the built app in dist/: Debian's Chromium (headless, SwiftShader WebGL2)
# driven by playwright-core, with node's built-in test runner.
#   tests/browser/run.sh [node --test options...]     e.g. --test-name-pattern=pixels
# Needs dist/ built first (./build_wasm.sh); the CLI test also needs build/native/attention_cli
# (./run_tests.sh or cmake --build --preset native). Installs Chromium from Debian when missing, runs
# npm ci when node_modules is missing or stale, serves dist/ on a free loopback port for the run.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
DIST="${ATTENTION_DEMO_DIST:-$ROOT/dist}"

"$HERE/prepare.sh" "$DIST"  # the built app, node and npm, the npm packages (npm ci when stale)

# fonts-dejavu-core: the sans-serif the page draws its text with (src/platform/font_web.cpp)
"$ROOT/scripts/ensure_packages.sh" chromium python3 fonts-dejavu-core

# dist/ served on a free loopback port for the run (ATTENTION_DEMO_URL), stopped whatever happens; the
# folder itself for the test that serves its pre-compressed copies (ATTENTION_DEMO_DIST).
export ATTENTION_DEMO_DIST="$DIST"
cd "$HERE"
exec "$ROOT/scripts/with_dist_server.sh" --dir "$DIST" \
  node --test --test-concurrency=1 --test-timeout=180000 "$@" ./*.test.mjs
