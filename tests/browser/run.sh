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

"$ROOT/scripts/ensure_packages.sh" chromium python3

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

# A static server for dist/ on a port the system picks (port 0), stopped whatever happens.
log="$(mktemp)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -f "$log"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$DIST" >"$log" 2>/dev/null &
server_pid=$!
port=""
for _ in $(seq 100); do
  port="$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$log" | head -n1)"
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "tests/browser/run.sh: the static server for $DIST did not start" >&2
  exit 1
fi
echo "serving $DIST at http://127.0.0.1:$port/" >&2

export ATTENTION_DEMO_URL="http://127.0.0.1:$port/"
status=0
node --test --test-concurrency=1 --test-timeout=180000 "$@" ./*.test.mjs || status=$?
exit "$status"
