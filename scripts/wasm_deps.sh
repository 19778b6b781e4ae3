#!/usr/bin/env bash
# Fetches Debian's SDL2 + Dear ImGui sources and builds SDL2 for WebAssembly (Emscripten) into a cache outside the checkout.
#
# Usage:   eval "$(scripts/wasm_deps.sh)"
# Prints on stdout only KEY=VALUE lines (SDL2_WASM_PREFIX, SDL2_SRC_DIR, IMGUI_SRC_DIR); logs go to stderr.
# Idempotent: every step leaves a stamp in the cache, so a second run only checks and prints.
#
# Environment:
#   ATTN_DEPS_CACHE       cache folder (default: $HOME/.cache/attention-demo; the user's home from
#                         the password database when HOME is unset)
#   ATTN_DEBIAN_MIRROR    Debian mirror URI to fetch sources from (default: the one apt already uses)
#   ATTN_DEPS_JOBS        parallel build jobs (default: 2)
#
# Why not `-sUSE_SDL=2`: Debian's Emscripten 3.1.6 has a frozen cache and its ports need the
# internet, so SDL2 is built here from Debian's own source package.
set -euo pipefail

# Everything goes to stderr; fd 3 keeps the real stdout for the final KEY=VALUE lines.
exec 3>&1 1>&2

SDL2_VERSION=2.26.5
SDL2_DEB_VERSION="${SDL2_VERSION}+dfsg-1"
SDL2_SUITE=bookworm
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
JOBS="${ATTN_DEPS_JOBS:-2}"
SDL2_SRC_DIR="$CACHE/sdl2-$SDL2_VERSION"
IMGUI_SRC_DIR="$CACHE/imgui-$IMGUI_VERSION"
SDL2_PREFIX="$CACHE/sdl2-$SDL2_VERSION-wasm"
SDL2_BUILD_DIR="$CACHE/build/sdl2-$SDL2_VERSION-wasm"
APT_DIR="$CACHE/apt"              # private apt source list + state, never the system's
DL_DIR="$CACHE/downloads"         # .dsc + tarballs as fetched by apt-get source

# acorn for Emscripten's optimiser lives where Debian puts Node modules.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

# ---------------------------------------------------------------------------
# 1. Debian packages (installed, and apt's locks waited for, by ensure_packages.sh)
# ---------------------------------------------------------------------------
"$(dirname "$0")/ensure_packages.sh" emscripten cmake make dpkg-dev xz-utils gpgv debian-archive-keyring
for tool in emcc emcmake cmake make dpkg-source apt-get; do
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
        printf 'deb-src [signed-by=%s] %s %s main\n' "$keyring" "$mirror" "$SDL2_SUITE"
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

if [ ! -f "$SDL2_SRC_DIR/.unpacked" ]; then
    fetch_source libsdl2 "$SDL2_DEB_VERSION"
    unpack_source "$DL_DIR/libsdl2_${SDL2_DEB_VERSION}.dsc" "$SDL2_SRC_DIR"
fi
if [ ! -f "$IMGUI_SRC_DIR/.unpacked" ]; then
    fetch_source imgui "$IMGUI_DEB_VERSION"
    unpack_source "$DL_DIR/imgui_${IMGUI_DEB_VERSION}.dsc" "$IMGUI_SRC_DIR"
fi

for f in "$SDL2_SRC_DIR/CMakeLists.txt" "$IMGUI_SRC_DIR/imgui.cpp" \
         "$IMGUI_SRC_DIR/backends/imgui_impl_sdl2.cpp" "$IMGUI_SRC_DIR/backends/imgui_impl_opengl3.cpp"; do
    [ -f "$f" ] || die "expected file missing: $f"
done

# ---------------------------------------------------------------------------
# 4. SDL2 for the browser
# ---------------------------------------------------------------------------
# The demo needs video (Emscripten driver, WebGL), events, timers. Everything else is off.
SDL2_CMAKE_FLAGS=(
    # MinSizeRel (-Os): SDL only moves events and the window; nothing in it is hot.
    -DCMAKE_BUILD_TYPE=MinSizeRel
    -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF
    -DSDL_VIDEO=ON -DSDL_EVENTS=ON -DSDL_TIMERS=ON -DSDL_RENDER=OFF
    -DSDL_AUDIO=OFF -DSDL_JOYSTICK=OFF -DSDL_HAPTIC=OFF -DSDL_HIDAPI=OFF
    -DSDL_SENSOR=OFF -DSDL_POWER=OFF -DSDL_FILESYSTEM=OFF -DSDL_LOCALE=OFF
    -DSDL_MISC=OFF -DSDL_THREADS=OFF -DSDL_PTHREADS=OFF
    # Only the Emscripten video driver: the offscreen and dummy drivers (always linked, SDL lists every
    # driver it was built with) bring their own EGL set-up and the software framebuffer, surface and
    # blit code. No desktop OpenGL (WebGL2 is GLES 3), no file RWops, no shared-object loading, no
    # internal assertion messages.
    -DSDL_OFFSCREEN=OFF -DSDL_DUMMYVIDEO=OFF -DSDL_OPENGL=OFF -DSDL_FILE=OFF -DSDL_LOADSO=OFF
    -DSDL_ASSERTIONS=disabled
    # SDL's own switch that leaves out the software blitters, RLE and YUV conversion: the app draws with
    # WebGL only, and they were about 120 KB of the wasm. Float-to-int conversions saturate, as in every
    # object of the app (cmake/emscripten.cmake): none can trap.
    "-DCMAKE_C_FLAGS=-DSDL_LEAN_AND_MEAN=1 -mnontrapping-fptoint"
)
# Rebuild when the flags, the SDL version or the compiler change.
# (sed reads all of emcc's output: with `head -n1` emcc could die of a closed pipe, which pipefail and
# set -e turn into a silent failure of this script)
EMCC_VERSION="$(emcc --version 2>/dev/null | sed -n 1p)"
SDL2_STAMP_TEXT="sdl2=$SDL2_DEB_VERSION emcc=$EMCC_VERSION flags=${SDL2_CMAKE_FLAGS[*]}"
SDL2_STAMP="$SDL2_PREFIX/.built"

if [ -f "$SDL2_STAMP" ] && [ "$(cat "$SDL2_STAMP")" = "$SDL2_STAMP_TEXT" ] \
   && [ -f "$SDL2_PREFIX/lib/libSDL2.a" ] && [ -f "$SDL2_PREFIX/include/SDL2/SDL.h" ]; then
    log "SDL2 $SDL2_VERSION for wasm is up to date in $SDL2_PREFIX"
else
    log "building SDL2 $SDL2_VERSION for wasm (a few minutes)"
    rm -rf "$SDL2_BUILD_DIR" "$SDL2_PREFIX"
    mkdir -p "$SDL2_BUILD_DIR"
    emcmake cmake -S "$SDL2_SRC_DIR" -B "$SDL2_BUILD_DIR" \
        "${SDL2_CMAKE_FLAGS[@]}" -DCMAKE_INSTALL_PREFIX="$SDL2_PREFIX" >&2
    make -C "$SDL2_BUILD_DIR" -j"$JOBS" install >&2
    [ -f "$SDL2_PREFIX/lib/libSDL2.a" ] || die "libSDL2.a was not installed"
    [ -f "$SDL2_PREFIX/include/SDL2/SDL.h" ] || die "SDL.h was not installed"
    printf '%s\n' "$SDL2_STAMP_TEXT" > "$SDL2_STAMP"
    rm -rf "$SDL2_BUILD_DIR"
    log "SDL2 installed into $SDL2_PREFIX"
fi

# ---------------------------------------------------------------------------
# 5. Result, for `eval`
# ---------------------------------------------------------------------------
printf 'SDL2_WASM_PREFIX=%q\nSDL2_SRC_DIR=%q\nIMGUI_SRC_DIR=%q\n' \
    "$SDL2_PREFIX" "$SDL2_SRC_DIR" "$IMGUI_SRC_DIR" >&3
