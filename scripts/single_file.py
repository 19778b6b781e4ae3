#!/usr/bin/env python3
"""The single-file build: one HTML file with the whole demo inside, made from a built dist/ folder.

Usage: scripts/single_file.py DIST [OUT]   (OUT defaults to DIST/attention-demo-single.html)

index.html's style sheet becomes a <style> element, its icon a data: URL, each of its scripts an inline
<script>, the .wasm a base64 string (window.attentionWasmBase64, which web/stream_wasm.js compiles instead of
fetching) and the Emscripten glue a last inline script (web/shell.js adds no script element when the wasm
is inside the page). The file makes no request, so it opens from file:// and inside a sandboxed iframe
(sandbox="allow-scripts" without allow-same-origin: an opaque origin, which cannot fetch the .wasm). It
cannot run under a Content-Security-Policy that forbids inline script; dist/ itself is unchanged.
Fails (exit 1) when index.html no longer has the tags this expects, so a change there cannot give a file
that quietly loads something from outside.
"""
import base64
import os
import re
import sys
import urllib.parse


def fail(message):
    sys.exit(f"scripts/single_file.py: {message}")


def read(dist, name):
    with open(os.path.join(dist, name), encoding="utf-8") as f:
        return f.read()


def inline_script(text, name):
    # The HTML parser ends a script at "</script" and treats "<!--" inside one specially: both may appear
    # only inside JavaScript strings or regular expressions, where "<\/" means the same.
    if "<!--" in text:
        fail(f"{name} contains '<!--', which cannot go into an inline script as it is")
    text = re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE)
    return f"<script>{text}</script>"


def replace_once(html, pattern, make, what):
    new, n = re.subn(pattern, make, html, count=1)
    if n != 1:
        fail(f"index.html has no {what} (pattern {pattern!r})")
    return new


def build(dist):
    html = read(dist, "index.html")
    style = read(dist, "style.css")
    if "</style" in style.lower():
        fail("style.css contains '</style'")
    icon = "data:image/svg+xml," + urllib.parse.quote(read(dist, "favicon.svg").strip(), safe=" =:/;,'")
    with open(os.path.join(dist, "attention_demo.wasm"), "rb") as f:
        wasm = base64.b64encode(f.read()).decode("ascii")

    html = replace_once(html, r'<link rel="icon" href="favicon\.svg"[^>]*>',
                        lambda m: f'<link rel="icon" href="{icon}" type="image/svg+xml">', "icon link")
    html = replace_once(html, r'<link rel="stylesheet" href="style\.css">',
                        lambda m: f"<style>{style}</style>", "style sheet link")
    html = replace_once(html, r'<link rel="preload" href="attention_demo\.wasm"[^>]*>\n?', "", "preload of the wasm")
    html = replace_once(html, r'<link rel="preload" href="attention_demo\.js"[^>]*>\n?', "", "preload of the glue")
    # page.js: the page's scripts joined (scripts/bundle_page.py), stream_wasm.js first
    html = replace_once(html, r'<script src="page\.js"></script>',
                        lambda m: f'<script>window.attentionWasmBase64="{wasm}";</script>\n'
                                  '<script src="page.js"></script>', "page.js")
    scripts = re.findall(r'<script src="([A-Za-z0-9_.-]+\.js)"></script>', html)
    if scripts != ["page.js"]:
        fail(f"index.html's scripts are {scripts}; expected page.js alone")
    if not read(dist, "page.js").startswith("// page.js: stream_wasm.js, shell.js,"):
        fail("page.js does not begin with stream_wasm.js and shell.js")
    for name in scripts:
        html = html.replace(f'<script src="{name}"></script>', inline_script(read(dist, name), name), 1)
    glue = inline_script(read(dist, "attention_demo.js"), "attention_demo.js")
    html = replace_once(html, r"</body>", lambda m: glue + "\n</body>", "</body>")

    markup = re.sub(r"<(script|style)>.*?</\1>", "", html, flags=re.DOTALL)  # the page's own tags
    # a "#..." link (the skip link) stays in the page
    left = re.findall(r'\b(?:src|href)="(?!data:|#)([^"]*)"', markup)
    if left:
        fail(f"the single file would still load {left}")
    return html


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1])
    dist = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(dist, "attention-demo-single.html")
    try:
        html = build(dist)
        tmp = out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(html)
        os.replace(tmp, out)
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{e} (build the site first: ./build_wasm.sh)")
    print(f"{out}: {os.path.getsize(out)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
