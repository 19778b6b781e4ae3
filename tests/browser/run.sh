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

for f in index.html attention_demo.js attention_demo.wasm; do
  if [ ! -f "$DIST/$f" ]; then
    echo "tests/browser/run.sh: $DIST/$f is missing: build the app first with ./build_wasm.sh" >&2
    exit 2
  fi
done

# fonts-dejavu-core: the sans-serif the page draws its text with (src/platform/font_web.cpp)
"$ROOT/scripts/ensure_packages.sh" chromium python3 fonts-dejavu-core

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "tests/browser/run.sh: node and npm are needed (Node.js 20 or later)" >&2
  exit 2
fi
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  echo "tests/browser/run.sh: Node.js 20 or later is needed, found $(node --version)" >&2
  exit 2
fi

# npm ci only when node_modules is missing or was installed from another lock file.
cd "$HERE"
stamp="node_modules/.installed-from"
want="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "installing the test dependencies (npm ci)" >&2
  npm ci --no-audit --no-fund >&2
  echo "$want" >"$stamp"
fi

# dist/ served on a free loopback port for the run (ATTENTION_DEMO_URL), stopped whatever happens; the
# folder itself for the test that serves its pre-compressed copies (ATTENTION_DEMO_DIST).
export ATTENTION_DEMO_DIST="$DIST"
exec "$ROOT/scripts/with_dist_server.sh" --dir "$DIST" \
  node --test --test-concurrency=1 --test-timeout=180000 "$@" ./*.test.mjs
