// Fetches the demo's .wasm and compiles it while it streams in, reporting the bytes received; used by
// shell.js (loaded before it). Compiling needs no imports, so it overlaps the download of the JS glue.
(function () {
  "use strict";

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

  // url -> Promise of a WebAssembly.Module; fills timing.wasm_downloaded_ms and timing.wasm_compiled_ms
  // (performance.now()) and calls onProgress(received, total) as bytes arrive.
  window.attentionCompileWasm = function (url, timing, onProgress) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(url + ": HTTP " + response.status);
      // In an iframe (a course page with several figures) the browser's own response goes to the compiler,
      // so the compiled code can come from the browser's code cache for the second figure on; the bar then
      // shows activity instead of bytes.
      var counted = window.parent !== window ? response : countedResponse(response, timing, onProgress);
      if (typeof WebAssembly.compileStreaming === "function") return WebAssembly.compileStreaming(counted);
      return counted.arrayBuffer().then(function (bytes) { return WebAssembly.compile(bytes); });
    }).then(function (module) {
      timing.wasm_compiled_ms = performance.now();
      if (timing.wasm_downloaded_ms === null) timing.wasm_downloaded_ms = timing.wasm_compiled_ms;
      return module;
    });
  };
})();
