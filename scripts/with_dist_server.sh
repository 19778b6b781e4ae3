#!/usr/bin/env bash
# Serves a built site (default dist/) on a free loopback port, runs a command with ATTENTION_DEMO_URL set
# to it, and always stops the server. Usage: scripts/with_dist_server.sh [--dir DIR] COMMAND [ARGS...]
set -euo pipefail
DIST="$(cd "$(dirname "$0")/.." && pwd)/dist"
if [ "${1:-}" = "--dir" ]; then
  DIST="$2"
  shift 2
fi
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
  port="$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p;T;q' "$log")"
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "with_dist_server.sh: the static server for $DIST did not start" >&2
  exit 1
fi
echo "serving $DIST at http://127.0.0.1:$port/" >&2
export ATTENTION_DEMO_URL="http://127.0.0.1:$port/"
status=0
"$@" || status=$?
exit "$status"
