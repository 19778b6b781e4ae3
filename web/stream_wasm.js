// Checks that the browser can run the demo (WebGL 2, WebAssembly SIMD and exceptions), then fetches the
// demo's .wasm and compiles it while it streams in, reporting the bytes received (or compiles the copy a
// single-file build carries); used by shell.js (loaded before it). Compiling needs no imports, so it
// overlaps the download of the JS glue.
(function () {
  "use strict";

  // Whether the browser has WebGL 2 at all (its context's interface exists). Whether it gives the app a
  // context is known when the app asks for one: making a context here only to test would start the graphics
  // before the page's first paint.
  window.attentionMayHaveWebGL2 = function () {
    return typeof window.WebGL2RenderingContext === "function";
  };

  // "" when WebAssembly with SIMD and exception handling runs here, else the name of what is missing.
  window.attentionWasmLacks = function () {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.validate !== "function") return "WebAssembly";
    try {
      // v128 i8x16.popcnt, and a try / catch_all block (the same probes as wasm-feature-detect)
      var simd = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10,
                                 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
      var eh = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0,
                               6, 64, 25, 11, 11]);
      if (!WebAssembly.validate(simd)) return "WebAssembly SIMD";
      if (!WebAssembly.validate(eh)) return "WebAssembly exception handling";
    } catch (e) {
      return "WebAssembly";
    }
    return "";
  };

  // The response with its body counted as it passes. Content-Length counts the compressed bytes when the
  // server compresses: then the total is unknown (0).
  function countedResponse(response, timing, onProgress) {
    var encoded = response.headers.get("Content-Encoding");
    var total = encoded && encoded !== "identity" ? 0 : Number(response.headers.get("Content-Length")) || 0;
    if (!response.body || !response.body.getReader || typeof ReadableStream !== "function") return response;
    var reader = response.body.getReader();
    var received = 0;
    var stream = new ReadableStream({
      pull: function (controller) {
        return reader.read().then(function (step) {
          if (step.done) {
            timing.wasm_downloaded_ms = performance.now();
            controller.close();
            return;
          }
          received += step.value.length;
          onProgress(received, total);
          controller.enqueue(step.value);
        });
      }
    });
    return new Response(stream, { headers: { "Content-Type": "application/wasm" } });
  }

  // Figures on one course page (embed.js's iframes) share one compile: each publishes its promise of the
  // module here, under the .wasm's absolute address, and a later figure of the same origin takes it from a
  // sibling frame instead of fetching and compiling again. Frames of another origin are passed over (reading
  // them throws); a module this frame's WebAssembly does not take (WebAssembly.Module.exports throws) is
  // compiled here after all.
  function fromSibling(address) {
    var frames;
    try {
      if (window.parent === window) return null;
      frames = window.parent.frames;
    } catch (e) {
      return null;
    }
    for (var i = 0; i < frames.length; i++) {
      try {
        var shared = frames[i] !== window && frames[i].attentionWasmShared;
        if (shared && shared.address === address && shared.module && typeof shared.module.then === "function") {
          return shared.module;
        }
      } catch (otherOrigin) { /* not ours to read */ }
    }
    return null;
  }
  function usable(module) {
    try {
      WebAssembly.Module.exports(module);
      return true;
    } catch (e) {
      return false;
    }
  }

  // url -> Promise of a WebAssembly.Module; fills timing.wasm_downloaded_ms and timing.wasm_compiled_ms
  // (performance.now()), sets timing.wasm_shared when a sibling figure's compile was taken, and calls
  // onProgress(received, total) as bytes arrive.
  // The single-file build (scripts/single_file.py) carries the .wasm as base64 in
  // window.attentionWasmBase64: then nothing is fetched.
  window.attentionCompileWasm = function (url, timing, onProgress) {
    var address = new URL(url, location.href).href;
    var sibling = typeof window.attentionWasmBase64 === "string" ? null : fromSibling(address);
    var module = sibling ? sibling.then(function (m) {
      if (!usable(m)) throw new Error("not a module here");
      timing.wasm_shared = true;
      timing.wasm_downloaded_ms = timing.wasm_compiled_ms = performance.now();
      return m;
    }).catch(function () {
      return compile(url, timing, onProgress);
    }) : compile(url, timing, onProgress);
    window.attentionWasmShared = { address: address, module: module };
    return module;
  };

  function compile(url, timing, onProgress) {
    var inside = window.attentionWasmBase64;
    return (typeof inside === "string" ? Promise.resolve().then(function () {
      var text = atob(inside), bytes = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      window.attentionWasmBase64 = null;
      return WebAssembly.compile(bytes);
    }) : fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(url + ": HTTP " + response.status);
      // In an iframe (a course page with several figures) the browser's own response goes to the compiler,
      // so the compiled code can come from the browser's code cache for the second figure on; the bar then
      // shows activity instead of bytes.
      var counted = window.parent !== window ? response : countedResponse(response, timing, onProgress);
      if (typeof WebAssembly.compileStreaming === "function") return WebAssembly.compileStreaming(counted);
      return counted.arrayBuffer().then(function (bytes) { return WebAssembly.compile(bytes); });
    })).then(function (module) {
      timing.wasm_compiled_ms = performance.now();
      if (timing.wasm_downloaded_ms === null) timing.wasm_downloaded_ms = timing.wasm_compiled_ms;
      return module;
    });
  }
})();
