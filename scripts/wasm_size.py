#!/usr/bin/env python3
"""Prints which library costs what in the browser app's wasm (raw bytes and an estimate of gzipped bytes).

Usage: scripts/wasm_size.py BUILD_DIR [--imgui-lib libattn_imgui.a] [--font font.ttf] [--top N]
  BUILD_DIR holds attention_demo.wasm, attention_demo.js and attention_demo.js.symbols (the function
  names the page link writes with --emit-symbol-map, cmake/emscripten.cmake). Code is grouped by the
  demangled name of each function (its namespace, or for C functions the library that defines it:
  llvm-nm on the ImGui archive); data by segment, with an embedded --font found by its bytes (the
  browser build embeds none: it draws its glyphs with the browser, src/platform/font_web.cpp). The gzipped
  estimate compresses each group's bytes on their own and scales the sum to the real gzip -9 size of
  the whole .wasm, so the groups add up to what a server sends. --top N also lists the N largest
  functions. Standard library only (plus llvm-nm for the archives).
"""
import argparse
import gzip
import os
import re
import subprocess
import sys
import zlib


def leb(b, i):
    result = shift = 0
    while True:
        x = b[i]
        i += 1
        result |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            return result, i


def sections(b):
    if b[:4] != b"\0asm":
        raise SystemExit("wasm_size: not a wasm file")
    i = 8
    while i < len(b):
        sid = b[i]
        n, j = leb(b, i + 1)
        yield sid, j, n
        i = j + n


def count_imported_functions(b, off):
    cnt, i = leb(b, off)
    funcs = 0
    for _ in range(cnt):
        for _ in range(2):  # module, field
            n, i = leb(b, i)
            i += n
        kind = b[i]
        i += 1
        if kind == 0:  # function: type index
            _, i = leb(b, i)
            funcs += 1
        elif kind == 1:  # table: reftype + limits
            i += 1
            flags, i = leb(b, i)
            _, i = leb(b, i)
            if flags & 1:
                _, i = leb(b, i)
        elif kind == 2:  # memory: limits
            flags, i = leb(b, i)
            _, i = leb(b, i)
            if flags & 1:
                _, i = leb(b, i)
        elif kind == 3:  # global: valtype + mutability
            i += 2
        elif kind == 4:  # tag: attribute + type index
            i += 1
            _, i = leb(b, i)
    return funcs


def code_bodies(b, off):
    cnt, i = leb(b, off)
    for _ in range(cnt):
        n, j = leb(b, i)
        yield b[j:j + n], j - i + n  # body, bytes including its size field
        i = j + n


def data_segments(b, off):
    """(memory offset or None, bytes) of every data segment."""
    cnt, i = leb(b, off)
    for _ in range(cnt):
        flags, i = leb(b, i)
        if flags == 2:
            _, i = leb(b, i)
        at = None
        if flags in (0, 2):  # active: an offset expression (i32.const N or global.get G) + `end`
            op = b[i]
            at, i = leb(b, i + 1)
            if op != 0x41:
                at = None
            i += 1
        n, i = leb(b, i)
        yield at, b[i:i + n]
        i += n


def read_symbols(path):
    names = {}
    if not os.path.exists(path):
        return names
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition(":")
            if k.isdigit():  # the map escapes characters outside [A-Za-z0-9_$.]: \\20 is a space
                names[int(k)] = re.sub(r"\\([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), v)
    return names


def nm_functions(lib):
    """Function names an archive defines (llvm-nm, demangled), or an empty set."""
    if not lib or not os.path.exists(lib):
        return set()
    for tool in ("llvm-nm", "llvm-nm-14"):
        try:
            out = subprocess.run([tool, "-C", "--defined-only", lib], capture_output=True, text=True,
                                 check=False).stdout
        except OSError:
            continue
        return {parts[2] for parts in (l.split(" ", 2) for l in out.splitlines())
                if len(parts) == 3 and parts[1] in "tTwW"}
    return set()


def owner(name):
    """The first component of a demangled name's own scope: 'Eigen', 'std', 'app', ... ('' for C)."""
    s = name
    # cut the argument list: the first '(' at template depth 0 (skipping "(anonymous namespace)")
    depth = 0
    cut = len(s)
    i = 0
    while i < len(s):
        c = s[i]
        if s.startswith("(anonymous namespace)", i):
            i += len("(anonymous namespace)")
            continue
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            cut = i
            break
        i += 1
    head = s[:cut]
    # drop template arguments, then take the last space-separated token (skips a return type)
    out = []
    depth = 0
    for c in head:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0:
            out.append(c)
    tokens = "".join(out).replace("(anonymous namespace)", "(anon)").split()
    qual = tokens[-1] if tokens else ""
    return qual.split("::")[0] if "::" in qual else ""


GROUPS = [
    "app (src/app, src/gfx, src/platform)",
    "core (src/core)",
    "model I/O (src/model_io)",
    "Dear ImGui (+ stb)",
    "ImGui back ends",
    "WebGL glue (emscripten_gl*)",
    "nlohmann-json",
    "Eigen",
    "libc++ / libc++abi",
    "libc / malloc / compiler-rt",
]


def classify(name, imgui_funcs):
    if not name:
        return "libc / malloc / compiler-rt"
    own = owner(name)
    if own in ("app", "platform", "gfx"):
        return GROUPS[0]
    if own == "attn":
        return GROUPS[2] if name.startswith("attn::model_io") or "attn::model_io::" in name.split("(")[0] \
            else GROUPS[1]
    if own == "nlohmann" or (own == "std" and "nlohmann::" in name):
        return GROUPS[6]
    if own == "Eigen" or (own == "std" and "Eigen::" in name and "attn::" not in name):
        return GROUPS[7]
    if own == "ImGui" and name.startswith(("ImGui_Impl")) or name.startswith("ImGui_Impl"):
        return GROUPS[4]
    if own in ("ImGui", "ImStb") or re.match(r"(Im[A-Z]|ImGui|stbtt|stbrp|stb_|STB|imstb)", name):
        return GROUPS[3]
    if own == "std" or own in ("__cxxabiv1", "__cxxabi", "abi"):
        return GROUPS[8]
    if own in ("(anon)",):
        # static C++ helpers: by what they mention
        for key, g in (("ImGui", 3), ("Im", 3), ("app::", 0), ("attn::", 1)):
            if key in name:
                return GROUPS[g]
        return GROUPS[0]
    if own:
        return GROUPS[0]
    if name in imgui_funcs:
        return GROUPS[4] if name.startswith("ImGui_Impl") else GROUPS[3]
    if name.startswith("emscripten_gl") or name.startswith("emscripten_webgl"):
        return GROUPS[5]
    if name.startswith(("attn_", "main", "js_", "__original_main")):
        return GROUPS[0]
    if name.startswith(("__cxa", "__cxxabi", "_Unwind", "__gxx", "operator new", "operator delete")):
        return GROUPS[8]
    return GROUPS[9]


def gz_len(data):
    return len(zlib.compress(data, 9)) if data else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build_dir")
    ap.add_argument("--imgui-lib", default="")
    ap.add_argument("--font", default="")
    ap.add_argument("--top", type=int, default=0)
    a = ap.parse_args()

    wasm_path = os.path.join(a.build_dir, "attention_demo.wasm")
    js_path = os.path.join(a.build_dir, "attention_demo.js")
    b = open(wasm_path, "rb").read()
    names = read_symbols(os.path.join(a.build_dir, "attention_demo.js.symbols"))
    imgui_funcs = nm_functions(a.imgui_lib)
    font = open(a.font, "rb").read() if a.font and os.path.exists(a.font) else b""

    raw = {g: 0 for g in GROUPS}
    blobs = {g: bytearray() for g in GROUPS}
    other_raw = 0
    other = bytearray()
    data_blob = bytearray()
    data_raw = 0
    font_raw = 0
    imported = 0
    funcs = []
    for sid, off, n in sections(b):
        if sid == 2:
            imported = count_imported_functions(b, off)
        if sid == 10:
            for k, (body, size) in enumerate(code_bodies(b, off)):
                name = names.get(imported + k, "")
                g = classify(name, imgui_funcs)
                raw[g] += size
                blobs[g] += body
                funcs.append((size, name or "#%d" % (imported + k), g))
            continue
        if sid == 11:
            segs = list(data_segments(b, off))
            # the font's place in memory (wasm-opt splits segments at runs of zeros, so rebuild memory)
            lo = min((at for at, _ in segs if at is not None), default=0)
            hi = max((at + len(seg) for at, seg in segs if at is not None), default=0)
            mem = bytearray(max(0, hi - lo))
            for at, seg in segs:
                if at is not None:
                    mem[at - lo:at - lo + len(seg)] = seg
            f0 = mem.find(font) + lo if font and font in mem else -1
            for at, seg in segs:
                data_raw += len(seg)
                if f0 >= 0 and at is not None and at < f0 + len(font) and at + len(seg) > f0:
                    a0, a1 = max(at, f0) - at, min(at + len(seg), f0 + len(font)) - at
                    font_raw += a1 - a0
                    data_blob += seg[:a0] + seg[a1:]
                else:
                    data_blob += seg
            other_raw += n - data_raw  # segment headers
            continue
        other_raw += n + 1 + len(bytearray(5))  # section id + size field (approximately)
        other += b[off:off + n]

    rows = [(g, raw[g], gz_len(bytes(blobs[g]))) for g in GROUPS]
    if font_raw:  # an embedded font file (--font; the browser build has none: src/platform/font_web.cpp)
        rows.append(("data: font (embedded file)", font_raw, gz_len(font)))
    rows.append(("data: strings, tables, rest", data_raw - font_raw, gz_len(bytes(data_blob))))
    rows.append(("imports, exports, tables, names", other_raw + 8, gz_len(bytes(other))))
    wasm_gz = len(gzip.compress(b, 9, mtime=0))
    est_sum = sum(r[2] for r in rows) or 1
    scale = wasm_gz / est_sum

    print("%-36s %10s %10s" % ("attention_demo.wasm by part", "raw", "~gzipped"))
    for g, r, z in rows:
        print("%-36s %10d %10d" % (g, r, round(z * scale)))
    print("%-36s %10d %10d" % ("wasm total", len(b), wasm_gz))
    if os.path.exists(js_path):
        js = open(js_path, "rb").read()
        print("%-36s %10d %10d" % ("attention_demo.js (JS glue)", len(js), len(gzip.compress(js, 9, mtime=0))))
    if not names:
        print("(no attention_demo.js.symbols: every function counted as unnamed C code)")
    if a.top:
        print("\nlargest functions (raw bytes):")
        for size, name, g in sorted(funcs, reverse=True)[:a.top]:
            print("%8d  %-28.28s %s" % (size, g.split(" (")[0], name[:140]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
