#!/usr/bin/env bash
# Fetches Debian's Dear ImGui sources into a cache outside the checkout (the page builds them with its own
# flags; its input back end is the app's, src/platform/input_web.cpp, so no SDL2 is built for the browser).
#
# Usage:   eval "$(scripts/wasm_deps.sh)"
# Prints on stdout only KEY=VALUE lines (IMGUI_SRC_DIR); logs go to stderr.
# Idempotent: every step leaves a stamp in the cache, so a second run only checks and prints.
#
# Environment:
#   ATTN_DEPS_CACHE       cache folder (default: $HOME/.cache/attention-demo; the user's home from
#                         the password database when HOME is unset)
#   ATTN_DEBIAN_MIRROR    Debian mirror URI to fetch sources from (default: the one apt already uses)
set -euo pipefail

# Everything goes to stderr; fd 3 keeps the real stdout for the final KEY=VALUE lines.
exec 3>&1 1>&2

IMGUI_VERSION=1.90.1
IMGUI_DEB_VERSION="${IMGUI_VERSION}+ds-1"
IMGUI_SUITE=trixie

log() { printf '[wasm_deps] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
# Any failing command names itself, so a caller that only sees "no output" can tell why.
trap 'log "error: line $LINENO: \"$BASH_COMMAND\" failed"' ERR

HOME_DIR="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
[ -n "$HOME_DIR" ] || HOME_DIR=/tmp
CACHE="${ATTN_DEPS_CACHE:-$HOME_DIR/.cache/attention-demo}"
# A home that cannot be written (some CI sandboxes): the cache goes beside the checkout instead.
if ! mkdir -p "$CACHE" 2>/dev/null || [ ! -w "$CACHE" ]; then
    [ -n "${ATTN_DEPS_CACHE:-}" ] && die "cannot write the cache folder ATTN_DEPS_CACHE=$CACHE"
    CACHE="$(cd "$(dirname "$0")/.." && pwd)/.deps-cache"
    log "cannot write $HOME_DIR/.cache; using $CACHE"
fi
IMGUI_SRC_DIR="$CACHE/imgui-$IMGUI_VERSION"
APT_DIR="$CACHE/apt"              # private apt source list + state, never the system's
DL_DIR="$CACHE/downloads"         # .dsc + tarballs as fetched by apt-get source

# ---------------------------------------------------------------------------
# 1. Debian packages (installed, and apt's locks waited for, by ensure_packages.sh)
# ---------------------------------------------------------------------------
"$(dirname "$0")/ensure_packages.sh" dpkg-dev xz-utils gpgv debian-archive-keyring
for tool in dpkg-source apt-get; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found on PATH"
done

mkdir -p "$CACHE"

# ---------------------------------------------------------------------------
# 2./3. Sources from Debian, through a private apt source list
# ---------------------------------------------------------------------------
# The mirror the system already uses (first non-security Debian URI); never hard-coded here.
system_mirror() {
    local uri=""
    if [ -n "${ATTN_DEBIAN_MIRROR:-}" ]; then
        printf '%s\n' "$ATTN_DEBIAN_MIRROR"; return 0
    fi
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        uri="$(awk 'tolower($1)=="uris:" { for (i=2;i<=NF;i++) if ($i !~ /security/ && $i !~ /^#/) { print $i; exit } }' "$f")"
        [ -n "$uri" ] && { printf '%s\n' "$uri"; return 0; }
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        # deb [options] URI suite components...
        uri="$(awk '$1=="deb" || $1=="deb-src" {
                   i=2; if ($i ~ /^\[/) { while (i<=NF && $i !~ /\]$/) i++; i++ }
                   if ($i !~ /security/) { print $i; exit } }' "$f")"
        [ -n "$uri" ] && { printf '%s\n' "$uri"; return 0; }
    done
    return 1
}

archive_keyring() {
    local k
    for k in /usr/share/keyrings/debian-archive-keyring.gpg /etc/apt/trusted.gpg.d/debian-archive-keyring.gpg; do
        [ -r "$k" ] && { printf '%s\n' "$k"; return 0; }
    done
    return 1
}

APT_UPDATED=0
private_apt() {
    apt-get -o Dir::Etc::SourceList="$APT_DIR/sources.list" \
            -o Dir::Etc::SourceParts=/nonexistent \
            -o Dir::State::Lists="$APT_DIR/lists" \
            -o Dir::Cache="$APT_DIR/cache" \
            -o APT::Sandbox::User="$(id -un)" \
            "$@"
}

private_apt_update() {
    [ "$APT_UPDATED" = 1 ] && return 0
    local mirror keyring
    mirror="$(system_mirror)" || die "cannot find the Debian mirror apt uses; set ATTN_DEBIAN_MIRROR"
    keyring="$(archive_keyring)" || die "no Debian archive keyring found (install debian-archive-keyring)"
    mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
    {
        printf 'deb-src [signed-by=%s] %s %s main\n' "$keyring" "$mirror" "$IMGUI_SUITE"
    } > "$APT_DIR/sources.list"
    log "private apt source list ($APT_DIR/sources.list):"
    sed 's/^/[wasm_deps]   /' "$APT_DIR/sources.list" >&2
    private_apt update >&2
    APT_UPDATED=1
}

# fetch_source PKG DEBVERSION: downloads PKG_DEBVERSION.dsc and its tarballs into $DL_DIR
fetch_source() {
    local pkg="$1" ver="$2"
    local dsc="$DL_DIR/${pkg}_${ver}.dsc"
    [ -f "$dsc" ] && [ -f "$DL_DIR/.${pkg}_${ver}.fetched" ] && return 0
    private_apt_update
    mkdir -p "$DL_DIR"
    log "fetching source package $pkg=$ver"
    # apt-get checks the signed Release -> Sources -> .dsc/tarball hashes.
    (cd "$DL_DIR" && private_apt source --download-only "$pkg=$ver") >&2
    [ -f "$dsc" ] || die "apt-get source did not produce $dsc"
    touch "$DL_DIR/.${pkg}_${ver}.fetched"
}

# unpack_source DSC DEST
unpack_source() {
    local dsc="$1" dest="$2"
    [ -f "$dest/.unpacked" ] && return 0
    log "unpacking $(basename "$dsc") into $dest"
    local tmp="$dest.tmp.$$"
    rm -rf "$tmp" "$dest"
    # Hashes were checked by apt; the .dsc signature check needs a user keyring, so it only warns.
    dpkg-source --no-check -x "$dsc" "$tmp" >&2
    mv "$tmp" "$dest"
    touch "$dest/.unpacked"
}

if [ ! -f "$IMGUI_SRC_DIR/.unpacked" ]; then
    fetch_source imgui "$IMGUI_DEB_VERSION"
    unpack_source "$DL_DIR/imgui_${IMGUI_DEB_VERSION}.dsc" "$IMGUI_SRC_DIR"
fi

for f in "$IMGUI_SRC_DIR/imgui.cpp" "$IMGUI_SRC_DIR/backends/imgui_impl_sdl2.cpp"; do
    [ -f "$f" ] || die "expected file missing: $f"
done

# ---------------------------------------------------------------------------
# 4. Result, for `eval`
# ---------------------------------------------------------------------------
printf 'IMGUI_SRC_DIR=%q\n' "$IMGUI_SRC_DIR" >&3
