#!/usr/bin/env python3
"""Writes web/embed_protocol.js (the embed messages, defined once) into both sides of an embed in a dist/
folder: DIST/embed.js (the course page's) and DIST/embedded.js (the demo's), in place of their line
"// #include embed_protocol.js ...". Fails (exit 1) when a file lacks that line. build_wasm.sh step 3.

Usage: scripts/include_embed_protocol.py DIST PROTOCOL
"""
import os
import sys

MARK = "// #include embed_protocol.js"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    dist, protocol_path = sys.argv[1], sys.argv[2]
    with open(protocol_path, encoding="utf-8") as f:
        protocol = f.read()
    for name in ("embed.js", "embedded.js"):
        path = os.path.join(dist, name)
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
        at = [i for i, line in enumerate(lines) if line.strip().startswith(MARK)]
        if len(at) != 1:
            sys.exit(f"scripts/include_embed_protocol.py: {path} must have one line '{MARK}', has {len(at)}")
        lines[at[0]] = protocol
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(lines))


if __name__ == "__main__":
    main()
