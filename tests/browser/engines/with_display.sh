#!/usr/bin/env bash
# Runs a command on a fresh virtual X display (xvfb-run picks a free one): headful Firefox and WebKitGTK
# need a display for WebGL 2 (their adapters ask Mesa for software GL). Usage:
#   tests/browser/engines/with_display.sh COMMAND [ARGS...]
set -euo pipefail
exec xvfb-run -a -s "-screen 0 1400x1000x24" "$@"
