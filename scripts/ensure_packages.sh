#!/usr/bin/env bash
# Installs the named Debian packages that are missing (apt-get update once, only when something is missing).
# Usage: scripts/ensure_packages.sh pkg1 pkg2 ...   Safe to run again: does nothing when all are present.
# Prints nothing on stdout (logs and apt's output go to stderr), so callers may capture their own stdout.
# When another apt/dpkg run holds a lock, waits for it (up to 10 minutes) and checks again: the run it
# waited for may have installed the packages already.
set -euo pipefail

log() { printf '[ensure_packages] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# missing_pkgs PKG...: prints the ones dpkg does not report as installed, one a line.
missing_pkgs() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf '%s\n' "$p"
  done
}

missing=()
mapfile -t missing < <(missing_pkgs "$@")
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=()
[ "$(id -u)" -ne 0 ] && SUDO=(sudo)

# Is an apt/dpkg lock held? apt-get's DPkg::Lock::Timeout waits for dpkg's lock only, not for the lists
# lock that `apt-get update` takes, so look at every lock first.
apt_locked() {
  local locks=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock
               /var/cache/apt/archives/lock)
  local f
  if command -v fuser >/dev/null 2>&1; then
    for f in "${locks[@]}"; do
      [ -e "$f" ] && "${SUDO[@]}" fuser "$f" >/dev/null 2>&1 && return 0
    done
    return 1
  elif [ -x /usr/bin/python3 ]; then
    # apt uses fcntl() locks: try to take each one without blocking, and let go at once.
    "${SUDO[@]}" /usr/bin/python3 - "${locks[@]}" <<'PY' && return 1 || return 0
import fcntl, os, sys
for f in sys.argv[1:]:
    if not os.path.exists(f):
        continue
    fd = os.open(f, os.O_RDWR)
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.lockf(fd, fcntl.LOCK_UN)
    except OSError:
        sys.exit(1)
    finally:
        os.close(fd)
PY
  fi
  return 1  # cannot tell: rely on apt's own DPkg::Lock::Timeout
}

wait_for_apt() {
  local waited=0 limit=600
  while apt_locked; do
    [ "$waited" -ge "$limit" ] && die "the apt/dpkg lock is still held after ${limit}s"
    [ $((waited % 30)) -eq 0 ] && log "apt/dpkg is busy (another install?); waiting... (${waited}s)"
    sleep 5
    waited=$((waited + 5))
  done
}

apt_get() {
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@" >&2
}

wait_for_apt
mapfile -t missing < <(missing_pkgs "${missing[@]}")
[ ${#missing[@]} -eq 0 ] && exit 0

log "installing Debian packages: ${missing[*]}"
# The lock may be taken again between the check and apt-get: a few tries, waiting in between.
for try in 1 2 3; do
  if apt_get update -qq && apt_get install -y -qq --no-install-recommends "${missing[@]}"; then
    break
  fi
  [ "$try" -eq 3 ] && die "apt-get failed three times"
  log "apt-get failed (try $try of 3); waiting for other apt runs and trying again"
  sleep 5
  wait_for_apt
done

mapfile -t missing < <(missing_pkgs "${missing[@]}")
[ ${#missing[@]} -eq 0 ] || die "packages still missing after the install: ${missing[*]}"
