#!/usr/bin/env bash
# Installs the named Debian packages that are missing (apt-get update once, only when something is missing).
# Usage: scripts/ensure_packages.sh pkg1 pkg2 ...   Safe to run again: does nothing when all are present.
set -euo pipefail

missing=()
for pkg in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing Debian packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Another apt run may hold the lock: wait for it up to 10 minutes instead of failing.
wait_lock=(-o DPkg::Lock::Timeout=600)
$SUDO apt-get "${wait_lock[@]}" update -qq >&2
$SUDO apt-get "${wait_lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >&2
