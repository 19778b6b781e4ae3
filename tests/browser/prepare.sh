#!/usr/bin/env bash
# What the browser tests and benchmarks need before they start, checked in one place (tests/browser/run.sh,
# tests/browser/engines/run.sh and bench/run.sh call it): the built app in DIST when one is given, Node.js 20
# or later with npm, and tests/browser/node_modules installed from the current package-lock.json (npm ci
# when it is missing or was installed from another lock file). Usage: tests/browser/prepare.sh [DIST]
# Exits 2 with one line on stderr when something is missing.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"

if [ $# -gt 0 ]; then
  for f in index.html attention_demo.js attention_demo.wasm; do
    if [ ! -f "$1/$f" ]; then
      echo "tests/browser: $1/$f is missing: build the app first with ./build_wasm.sh" >&2
      exit 2
    fi
  done
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "tests/browser: node and npm are needed (Node.js 20 or later)" >&2
  exit 2
fi
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  echo "tests/browser: Node.js 20 or later is needed, found $(node --version)" >&2
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
