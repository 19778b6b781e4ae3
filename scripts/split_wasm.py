#!/usr/bin/env python3
"""Splits the page's linked module in two: the page's module and the language models' code, which the page
loads only when a pretrained model is opened (attention_demo.deferred.wasm).

Usage: scripts/split_wasm.py BUILD_DIR PRIMARY.wasm DEFERRED.wasm
  BUILD_DIR holds the linked attention_demo.wasm, its symbol map attention_demo.js.symbols (the function
  names, by index) and the objects it was linked from (LLVM bitcode, read with llvm-nm). A function goes to
  the deferred module when every object that defines it was compiled from one of DEFERRED_SOURCES (the
  checkpoint readers and tokenizers, the language model's forward and the worker's model holder, which
  only the compute worker runs, and only after a model's files arrive) and the page's thread cannot call
  it: no chain of direct calls leads to it from an export other than the worker's (attn_worker_*) or from
  a function the table holds (wasm-opt --print-call-graph). The second rule matters because binaryen
  merges functions with the same code under one name: a merged copy named after a reader's template may
  be what the interface calls. A function that any other object also defines (a shared template, an
  inline helper) stays in the page's module, as does all of libc and libc++. binaryen's wasm-split does
  the rest: each deferred function's table slot holds a placeholder import ("placeholder", named by the
  slot) until the deferred module is instantiated with the page's module's exports ("primary") and fills
  the slots (web/bridge.js, attnDeferredImports).
Prints how many functions and bytes moved. Standard library only (plus llvm-nm and wasm-split).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wasm_size import code_bodies, count_imported_functions, read_symbols, sections  # noqa: E402

# Sources (relative to the repository) whose functions only the language model's path calls.
DEFERRED_SOURCES = re.compile(
    r"src/core/lm/[^/]+\.cpp|src/model_io/(hf_[^/]+|safetensors|checkpoint)\.cpp|src/app/logic/lm_host\.cpp")

SMALL = 64  # bytes of code

FEATURES = ["--mvp-features", "--enable-mutable-globals", "--enable-sign-ext",
            "--enable-nontrapping-float-to-int", "--enable-simd", "--enable-exception-handling"]


def nm_defined(obj):
    """The demangled names of the functions an object defines."""
    out = subprocess.run(["llvm-nm", "-C", "--defined-only", obj], capture_output=True, text=True,
                         check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            names.add(parts[2])
    return names


def call_graph(wasm):
    """(direct calls {caller: callees}, exported functions, functions in the table), by binaryen's names."""
    out = subprocess.run(["wasm-opt", *FEATURES, wasm, "--print-call-graph"], capture_output=True, text=True,
                         check=True).stdout
    calls, exported, table = {}, set(), set()
    for line in out.splitlines():
        m = re.match(r'\s*"([^"]+)" -> "([^"]+)"; // call', line)
        if m:
            calls.setdefault(m.group(1), set()).add(m.group(2))
        m = re.match(r'\s*"(\d+)" \[style="filled(, rounded)?"(, fillcolor="gray")?\];', line)
        if m and m.group(3):
            exported.add(m.group(1))
        elif m and m.group(2):
            table.add(m.group(1))
    return calls, exported, table


def reachable(roots, calls):
    seen, stack = set(), list(roots)
    while stack:
        f = stack.pop()
        if f not in seen:
            seen.add(f)
            stack.extend(calls.get(f, ()))
    return seen


def objects(build_dir):
    for root, _, files in os.walk(os.path.join(build_dir, "CMakeFiles")):
        for f in files:
            if f.endswith(".o"):
                yield os.path.join(root, f)


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    build_dir, primary, deferred = sys.argv[1:]
    wasm = os.path.join(build_dir, "attention_demo.wasm")
    with open(wasm, "rb") as f:
        b = f.read()
    imported = next((count_imported_functions(b, off) for sid, off, _ in sections(b) if sid == 2), 0)
    names = read_symbols(os.path.join(build_dir, "attention_demo.js.symbols"))
    if not names:
        raise SystemExit("split_wasm: no symbol map beside " + wasm)

    in_deferred, elsewhere = set(), set()
    for obj in objects(build_dir):
        (in_deferred if DEFERRED_SOURCES.search(obj.replace(os.sep, "/")) else elsewhere).update(nm_defined(obj))
    if not in_deferred:
        raise SystemExit("split_wasm: no object of the language model's sources under " + build_dir)
    only_deferred = in_deferred - elsewhere

    # binaryen names the functions a module without a name section defines by their index among them
    # (imports not counted); the symbol map counts the imports first
    candidates = {str(i - imported) for i, n in names.items()
                  if i >= imported and re.sub(r"\.\d+$", "", n) in only_deferred}
    calls, exported, table = call_graph(wasm)
    code = next(off for sid, off, _ in sections(b) if sid == 10)
    size = {str(i): n for i, (_, n) in enumerate(code_bodies(b, code))}
    # the table's small functions stay too: a destructor's or a control block's code is the kind binaryen
    # merges with another class's, whose virtual call the page's thread may make
    page = [f for f in exported if not names.get(int(f) + imported, "").startswith("attn_worker_")]
    page += [f for f in table if f not in candidates or size[f] <= SMALL]
    on_page = reachable(page, calls)
    kept = candidates & on_page
    for f in sorted(kept, key=int):
        print("split_wasm: kept (the page's thread may call it): " + names[int(f) + imported][:100])
    chosen = sorted(int(f) for f in candidates - on_page)
    if not chosen:
        raise SystemExit("split_wasm: none of the module's functions is the language model's")
    listing = primary + ".split"
    with open(listing, "w") as f:
        f.write("\n".join(str(i) for i in chosen) + "\n")
    subprocess.run(["wasm-split", *FEATURES, wasm, "--split-funcs=@" + listing, "-o1", primary, "-o2", deferred],
                   check=True)
    os.remove(listing)
    print(f"split_wasm: {len(chosen)} of {len(names) - imported} functions deferred; "
          f"{os.path.getsize(primary)} + {os.path.getsize(deferred)} bytes (linked: {len(b)})")


if __name__ == "__main__":
    main()
