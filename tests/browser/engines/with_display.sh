#!/usr/bin/env bash
# Runs a command on a fresh virtual X display (xvfb-run picks a free one) with Mesa's software GL: what
# headful Firefox and WebKitGTK need for WebGL 2. Usage: tests/browser/engines/with_display.sh COMMAND [ARGS...]
set -euo pipefail
export LIBGL_ALWAYS_SOFTWARE=1
exec xvfb-run -a -s "-screen 0 1400x1000x24" "$@"
