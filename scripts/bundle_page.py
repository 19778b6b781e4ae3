#!/usr/bin/env python3
"""Joins the page's scripts into one file in a built, minified dist/ folder (build_wasm.sh step 3).

Usage: scripts/bundle_page.py DIST

index.html loads its scripts (stream_wasm.js, shell.js, font_atlas.js, ...) one after another with
<script src> tags. Here they become one file, page.js, in the same order, and the tags one tag: one request
instead of seven, and one compressed stream that learns the scripts' shared words once (about 2 KB fewer
.gz bytes than seven separate copies). Each script is a function expression of its own (its locals stay
its own), so joining them changes no name; each is closed with ";" so that none runs into the next.
web/ keeps them apart, one job per file. Fails (exit 1) when index.html's scripts are not one run of
<script src> tags of files in DIST, so a change there cannot give a page that misses a script.
"""
import os
import re
import sys

BUNDLE = "page.js"
TAG = re.compile(r'<script src="([A-Za-z0-9_.-]+\.js)"></script>\n?')


def fail(message):
    sys.exit(f"scripts/bundle_page.py: {message}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    dist = sys.argv[1]
    index = os.path.join(dist, "index.html")
    with open(index, encoding="utf-8") as f:
        html = f.read()
    tags = list(TAG.finditer(html))
    if len(tags) < 2:
        fail(f"index.html has {len(tags)} <script src> tags; expected the page's scripts")
    for a, b in zip(tags, tags[1:]):
        if html[a.end():b.start()].strip():
            fail(f"index.html's scripts are not one run of tags (something between {a[1]} and {b[1]})")
    names = [t[1] for t in tags]
    if BUNDLE in names or len(set(names)) != len(names):
        fail(f"index.html's scripts {names} are already joined or name one file twice")
    parts = []
    for name in names:
        with open(os.path.join(dist, name), encoding="utf-8") as f:
            text = f.read()
        # the minifier's first line names the file; the joined file names them all once
        text = re.sub(r"\A// [A-Za-z0-9_.-]+, minified \(scripts/minify_web\.sh\)\n", "", text).strip()
        parts.append(text if text.endswith(";") else text + ";")
    header = f"// {BUNDLE}: {', '.join(names)}, minified (scripts/minify_web.sh) and joined (scripts/bundle_page.py)"
    with open(os.path.join(dist, BUNDLE), "w", encoding="utf-8") as f:
        f.write(header + "\n" + "\n".join(parts) + "\n")
    for name in names:
        os.remove(os.path.join(dist, name))
    html = html[:tags[0].start()] + f'<script src="{BUNDLE}"></script>\n' + html[tags[-1].end():]
    with open(index, "w", encoding="utf-8") as f:
        f.write(html)


if __name__ == "__main__":
    main()
