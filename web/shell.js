// The shell page's script: loads attention_demo.js/.wasm with a progress bar, shows every failure in place
// (start-up, a crash of the module, a lost graphics context), defines window.attentionDemo and, inside a
// course page's iframe made by embed.js, answers that page over postMessage (section [5b]).
(function () {
  "use strict";
  // Every path is relative to this page, so dist/ works from any folder of any static server.
  var JS_FILE = "attention_demo.js";
  var WASM_FILE = "attention_demo.wasm";
  var DEFERRED_FILE = "attention_demo.deferred.wasm";  // the language models' code (web/bridge.js)
  var WORKER_FILE = "compute_worker.js";

  var body = document.body;
  var canvas = document.getElementById("canvas");
  var statusEl = document.getElementById("status");
  var bar = document.getElementById("bar");
  var barFill = document.getElementById("bar-fill");
  var messageEl = document.getElementById("message");
  var detailEl = document.getElementById("detail");
  var noticeEl = document.getElementById("notice");
  var noticeText = document.getElementById("notice-text");

  // [1] state of the page
  var resolveReady, rejectReady;
  var ready = new Promise(function (resolve, reject) { resolveReady = resolve; rejectReady = reject; });
  ready.catch(function () {});  // a failed start is shown on the page; no unhandled-rejection noise
  var started = false;   // the module's exports exist
  var failed = false;    // a message replaced the canvas for good (start-up error or crash)
  var stopped = "";      // why the module stopped after it had started ("" while it runs)
  var contextLost = false;
  var shown = false;     // the first frame was drawn (attentionReady)
  // the single-file build (scripts/single_file.py): the .wasm inside the page as base64, the glue inline
  var singleFile = typeof window.attentionWasmBase64 === "string";
  // Start-up milestones in ms since navigation (performance.now()): filled in as they happen; wasm_shared
  // is true when another figure on the course page compiled the module this one runs; helpers: how many
  // helper workers share large recomputes once a recompute asked for them; deferred_ms: how long the
  // compute worker took to fetch and start the language models' code, once a model's files arrived
  // (deferred_page_ms: the same on the page's thread, which never needs it).
  var timing = { wasm_downloaded_ms: null, wasm_compiled_ms: null, wasm_shared: false, runtime_ready_ms: null,
                 first_frame_ms: null, worker_ready_ms: null, helpers: null, deferred_ms: null,
                 deferred_page_ms: null };

  // [2] calls into the module. Strings are copied into the heap (malloc), never onto the 5 MB stack that
  // ccall would use, so any length is safe; an exception out of the module means it stopped.
  function ensureRunning() {
    if (stopped) throw new Error("attentionDemo: the app stopped (" + stopped + "); reload the page to start it again");
    if (failed) throw new Error("attentionDemo: the demo failed to start");
    if (!started) throw new Error("attentionDemo: not started yet; await attentionDemo.ready first");
  }

  function heapString(text, owned) {
    var p = Module.attnNewString(text);
    if (!p) throw new Error("attentionDemo: not enough memory for a string of " + text.length + " characters");
    owned.push(p);
    return p;
  }

  // Calls the export `name` with numbers and strings; returns what it returns.
  function callRaw(name, args) {
    ensureRunning();
    var owned = [];
    var result;
    try {
      var cArgs = (args || []).map(function (a) { return typeof a === "number" ? a : heapString(String(a), owned); });
      result = Module["_" + name].apply(null, cArgs);
    } catch (e) {
      if (e && /^attentionDemo: not enough memory/.test(e.message)) {
        owned.forEach(function (p) { Module._free(p); });
        throw e;
      }
      moduleStopped(e);  // an exception out of wasm leaves its memory in an unknown state
      throw new Error("attentionDemo: the app stopped (" + stopped + "); reload the page to start it again");
    }
    owned.forEach(function (p) { Module._free(p); });
    return result;
  }

  // The C string the export `name` answers, as a JS string.
  function callText(name, args) { return Module.UTF8ToString(callRaw(name, args)); }

  // A script address the page's Trusted Types policy allows (the name itself where there is no policy).
  var policy = null;
  function trustedUrl(name) {
    if (!window.trustedTypes || typeof window.trustedTypes.createPolicy !== "function") return name;
    policy = policy || window.trustedTypes.createPolicy("attention-demo", {
      createScriptURL: function (url) {
        if (url !== JS_FILE && url !== WORKER_FILE) {
          throw new TypeError("attention-demo: not the demo's script: " + url);
        }
        return url;
      }
    });
    return policy.createScriptURL(name);
  }

  function call(name, args) { return JSON.parse(callText(name, args)); }

  // The longest strings the API hands the module, checked before anything is copied into its heap: set()'s
  // settings in characters of JSON (a text setting keeps 100,000 bytes, so this leaves room for escapes;
  // web/embedded.js's bridge refuses longer settings too) and a heatmap's id (ids are short names such as
  // "mha/head0").
  var MAX_SETTINGS_JSON = 200000;
  var MAX_HEATMAP_ID = 1000;

  // set()'s argument as the JSON text the module reads, or null when it is longer than MAX_SETTINGS_JSON.
  function settingsJson(settings) {
    if (typeof settings === "string") return settings.length > MAX_SETTINGS_JSON ? null : settings;
    var json;
    try {
      json = JSON.stringify(settings || {});
    } catch (e) {
      if (e instanceof RangeError) return null;  // a string too long for the browser to build
      throw e;
    }
    if (json === undefined) json = String(settings);
    return json.length > MAX_SETTINGS_JSON ? null : json;
  }

  // [3] window.attentionDemo: the JavaScript API for course pages and tests.
  window.attentionDemo = {
    ready: ready,                                               // resolves after the first frame
    state: function () { return call("attn_state"); },         // scene, settings, values on screen
    // heatmaps drawn in the last frame; heatmaps({values: false}) leaves the values out (fast for long
    // texts), heatmaps({id: "mha/head0"}) returns that one only
    heatmaps: function (options) {
      var o = options || {};
      var id = o.id ? String(o.id) : "";
      if (id.length > MAX_HEATMAP_ID) {  // no heatmap has such an id
        ensureRunning();
        return [];
      }
      return call("attn_heatmaps", [o.values === false ? 0 : 1, id]);
    },
    frameStats: function () { return call("attn_frame_stats"); },  // frame counter and timings
    // Asks for n more frames (default 1): the app draws only on input, animation or such a request.
    requestFrames: function (n) { callText("attn_request_frames", [Math.max(1, Math.floor(Number(n) || 1))]); },
    timing: timing,                                             // start-up milestones, ms since navigation
    exportCsv: function (id) {                                  // the CSV the heatmap's "Copy as CSV" gives
      var s = String(id);
      ensureRunning();
      var r = s.length > MAX_HEATMAP_ID
        ? { ok: false, error: "no heatmap '" + s.slice(0, 60) + "...' in the last frame (ids have at most " +
                             MAX_HEATMAP_ID + " characters)" }
        : call("attn_export_csv", [s]);
      if (!r.ok) throw new Error(r.error);
      return r.csv;
    },
    // {"pos": 44, ...} as the URL would, or its JSON text: {ok, notes}. Settings over MAX_SETTINGS_JSON
    // characters of JSON are refused whole (nothing changes).
    set: function (settings) {
      ensureRunning();
      var json = settingsJson(settings);
      if (json === null) {
        return { ok: false, notes: ["set() takes at most " + MAX_SETTINGS_JSON + " characters of JSON settings; " +
                                    "these were longer, so nothing was changed"] };
      }
      return call("attn_set", [json]);
    },
    settingsLimit: MAX_SETTINGS_JSON,                           // set()'s limit, characters of JSON
    // The trained refund router (Train scene) as a model file's text, or null before one exists.
    modelJson: function () {
      var text = callText("attn_model_json");
      return text ? text : null;
    },
    // Makes a model file's text the trained model, as "Open a model file" does: a Promise of {ok, error},
    // settled once the model is the app's (or refused). A text longer than the reader's byte limit in UTF-16
    // units is longer in UTF-8 too: refused without encoding it.
    loadModel: function (text, name) {
      var s = String(text);
      name = name || "loadModel()";
      if (s.length > modelByteLimit()) return Promise.resolve(loadModelBytes(null, s.length, name));
      tellApp("attn_model_progress", [s.length, s.length, name]);
      return loadModelAnywhere(s, name);
    },
    // Opens the browser's file picker for a model file (needs a recent click or key press on the page).
    openModelFile: function () { modelInput.value = ""; modelInput.click(); }
  };

  // [3b] model files: their bytes stay a Uint8Array of the page's, which the module reads a chunk at a time
  // (src/platform/model_load_web.cpp), so its heap never holds the text; past the reader's limit a file is
  // refused before it is read; a download or a file read shows its progress in the app, and a large file's
  // load starts after a frame has shown that it is being read.
  function modelByteLimit() { return callRaw("attn_model_byte_limit"); }

  // bytes (a Uint8Array, or null: nothing to read, the reason is in the name) -> {ok, error}
  function loadModelBytes(bytes, total, name) {
    Module.attentionModelBytes = bytes;
    Module.attentionModelOffset = 0;
    try {
      return call("attn_load_model_bytes", [total, String(name).slice(0, 500)]);
    } finally {
      Module.attentionModelBytes = null;
    }
  }

  // The same as a Promise, read in the compute worker when it runs (its message is the bytes, transferred,
  // loadModel()'s text, which the worker encodes, or a picked file, which the worker reads itself; the page's
  // thread only takes the built model from the answer, modelFromWorker), else on this thread. The caller has
  // shown the progress line.
  var MODEL_ANSWER_TAG = 0x41444f4d;  // "MODA", src/app/logic/model_messages.hpp
  var modelLoads = {}, modelLoadCount = 0;  // load number -> {name, resolve, reject}: in the worker now
  function loadModelAnywhere(file, name) {  // file: a Uint8Array, a string or a Blob (a picked file)
    var worker = Module.attentionWorker;
    var blob = typeof Blob === "function" && file instanceof Blob;
    if (blob && !worker) {
      return file.arrayBuffer().then(function (b) { return loadModelAnywhere(new Uint8Array(b), name); });
    }
    if (typeof file === "string" && !worker) file = new TextEncoder().encode(file);
    if (!worker) return Promise.resolve(loadModelBytes(file, file.length, name));
    var load = ++modelLoadCount, message = file, moved = [];
    if (typeof file !== "string" && !blob) {
      message = file.buffer;
      if (file.byteOffset !== 0 || file.byteLength !== message.byteLength) message = file.slice().buffer;
      moved = [message];
    }
    return new Promise(function (resolve, reject) {
      modelLoads[load] = { name: String(name).slice(0, 500), resolve: resolve, reject: reject };
      worker.postMessage({ model: message, load: load }, moved);
    });
  }
  // The worker's answer (an ArrayBuffer: its tag, then the load number): the model becomes the app's.
  function modelFromWorker(answer) {
    var load = new DataView(answer).getUint32(4, true), pending = modelLoads[load];
    if (!pending) return;
    delete modelLoads[load];
    Module.attentionInbox = answer;
    try {
      pending.resolve(call("attn_model_from_worker", [answer.byteLength, pending.name]));
    } catch (e) {
      pending.reject(e);
    } finally {
      Module.attentionInbox = null;
    }
  }
  // The worker stopped: the loads it had end with the reason, as a failed download does.
  function modelLoadsStopped(why) {
    Object.keys(modelLoads).forEach(function (load) {
      var pending = modelLoads[load];
      delete modelLoads[load];
      pending.resolve(loadModelBytes(null, 0, pending.name + " (the compute worker stopped: " + why + ")"));
    });
  }

  function reportModelLoad(r) { if (!r.ok) console.warn("attention demo: " + r.error); }

  // Loads the bytes once the app has drawn the progress (a large file takes a moment to check and build).
  // bytes: a Uint8Array or a Blob.
  function loadModelSoon(bytes, name) {
    var size = typeof bytes.size === "number" ? bytes.size : bytes.length;
    tellApp("attn_model_progress", [size, size, name]);
    setTimeout(function () {
      if (started && !stopped && !failed) loadModelAnywhere(bytes, name).then(reportModelLoad, reportModelLoad);
    }, size > (1 << 20) ? 80 : 0);
  }

  // A response's body, counted as it arrives (progress in the app): {bytes}, or {refused: n} once n bytes
  // pass the limit (the download stops there).
  function readModelResponse(response, name) {
    var encoded = response.headers.get("Content-Encoding");
    var total = encoded && encoded !== "identity" ? -1 : Number(response.headers.get("Content-Length")) || -1;
    var limit = modelByteLimit(), reader = response.body.getReader(), parts = [], received = 0;
    function pump() {
      return reader.read().then(function (step) {
        if (step.done) return new Blob(parts).arrayBuffer().then(function (b) { return { bytes: new Uint8Array(b) }; });
        received += step.value.length;
        if (Math.max(received, total) > limit) { reader.cancel(); return { refused: Math.max(received, total) }; }
        parts.push(step.value);
        tellApp("attn_model_progress", [received, total, name]);
        return pump();
      });
    }
    return pump();
  }

  // A model file named by a link (src/platform/io_web.cpp checked that it is on this page's site).
  function fetchModel(href, name) {
    fetch(href, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return readModelResponse(r, name);
    }).then(function (got) {
      if (got.refused) reportModelLoad(loadModelBytes(null, got.refused, name));
      else loadModelSoon(got.bytes, name);
    }, function (e) {
      reportModelLoad(loadModelBytes(null, 0, name + " (could not be fetched: " + describe(e) + ")"));
    });
  }

  // the page's file picker
  var modelInput = document.getElementById("model-file");
  modelInput.addEventListener("change", function () {
    var file = modelInput.files && modelInput.files[0];
    if (!file) return;
    if (file.size > modelByteLimit()) { reportModelLoad(loadModelBytes(null, file.size, file.name)); return; }
    tellApp("attn_model_progress", [0, file.size, file.name]);
    // the compute worker reads the file itself: its bytes never pass through this thread
    if (Module.attentionWorker) return loadModelSoon(file, file.name);
    file.arrayBuffer().then(function (b) { loadModelSoon(new Uint8Array(b), file.name); }, function (e) {
      reportModelLoad(loadModelBytes(null, 0, file.name + " (could not be read: " + describe(e) + ")"));
    });
  });

  // [4] messages in place of the canvas (textContent only: nothing from outside ever becomes HTML)
  function describe(e, fallback) {
    if (e && typeof e.message === "string" && e.message) return (e.name ? e.name + ": " : "") + e.message;
    if (typeof e === "string" && e) return e;
    return fallback || String(e);
  }

  function setStatus(text, detail) {
    if (failed) return;  // an error message stays put
    statusEl.textContent = text;
    detailEl.textContent = detail || "";
  }

  function setProgress(fraction) {  // null: unknown
    if (failed) return;
    if (fraction === null) {
      bar.classList.add("busy");
    } else {
      bar.classList.remove("busy");
      barFill.style.width = Math.round(Math.min(1, Math.max(0, fraction)) * 100) + "%";
    }
  }

  function showMessage(paragraphs, reloadButton) {
    messageEl.textContent = "";
    paragraphs.forEach(function (text) {
      var p = document.createElement("p");
      p.textContent = text;
      messageEl.appendChild(p);
    });
    if (!reloadButton) return;
    var again = document.createElement("button");
    again.type = "button";
    again.textContent = "Reload";
    again.addEventListener("click", function () { location.reload(); });
    messageEl.appendChild(again);
  }

  function fail(kind, title, paragraphs, technical) {
    if (failed) return;
    setStatus(title, technical ? "Details: " + technical : "");
    failed = true;
    body.className = "failed";
    body.setAttribute("data-state", kind);
    showMessage(paragraphs, true);
    rejectReady(new Error(title + (technical ? " (" + technical + ")" : "")));
  }

  // A download of the demo's own files that a host blocks, not the network: a page opened from a file, or
  // one without an origin of its own ("null": sandboxed, as in an LMS's iframe with sandbox="allow-scripts"
  // but not allow-same-origin), whose requests the server must allow with a CORS header.
  function failBlocked(technical) {
    var single = "the single-file build, attention-demo-single.html, which has everything inside";
    if (location.protocol === "file:") {
      fail("blocked-file", "Browsers do not let a page opened from a file load the demo.", [
        "This page was opened from disk (file://), and the browser refused to load its WebAssembly file from there.",
        "Open " + single + ", or serve this folder with a local web server (for example: python3 -m http.server) " +
        "and open its http:// address."
      ], technical);
    } else if (self.origin === "null") {
      fail("blocked-sandbox", "The demo's host blocks its download (a sandbox without allow-same-origin).", [
        "This page runs " + (window.parent !== window ? "in an iframe with a sandbox attribute" : "in a sandbox") +
        " that lacks allow-same-origin, so it has no origin of its own, and the server did not allow its " +
        "download of attention_demo.wasm with an Access-Control-Allow-Origin header.",
        "The site can fix it by sending Access-Control-Allow-Origin: * with the demo's files, or by adding " +
        "allow-same-origin to the iframe's sandbox; or upload " + single + "."
      ], technical);
    } else {
      failLoad(technical);
    }
  }

  function failLoad(technical) {
    fail("load-error", "The demo could not be loaded.", [
      "Part of the demo did not download or could not start. Check the connection and reload the page.",
      "If you opened the file straight from disk, serve the folder with a web server instead " +
      "(for example: python3 -m http.server), because browsers do not load WebAssembly from file:// pages."
    ], technical);
  }

  // The module stopped (a trap such as "memory access out of bounds", abort(), an exception out of
  // wasm): its memory can no longer be trusted, so the loop stops and every API call says so.
  function moduleStopped(e) {
    if (stopped) return;
    stopped = describe(e, "unknown error");
    if (!started) { failLoad(stopped); return; }
    Module.attentionStopped = true;  // the app's frame callback checks it and draws no more
    fail("crashed", "The demo stopped unexpectedly.", [
      "Something inside the demo went wrong and it had to stop; what you see no longer updates. " +
      "Reloading the page starts it again.",
      "If it keeps happening, please report it with the details below."
    ], stopped);
  }

  // A script error that did not come from the module: a note above the canvas, the demo carries on.
  function notice(text) {
    noticeText.textContent = "A script on this page failed: " + text +
      ". The demo may not work correctly; reload the page if it misbehaves.";
    noticeEl.hidden = false;
  }
  document.getElementById("notice-close").addEventListener("click", function () { noticeEl.hidden = true; });

  // [5] uncaught errors and rejections are shown, never silent
  function fromModule(e, filename) {
    if (typeof WebAssembly === "object") {
      if (e instanceof WebAssembly.RuntimeError) return true;  // traps and abort()
      if (typeof WebAssembly.Exception === "function" && e instanceof WebAssembly.Exception) return true;
    }
    var where = String(filename || "") + "\n" + String(e && e.stack || "");
    return /attention_demo\.(js|wasm)|wasm-function\[/.test(where);
  }

  function uncaught(e, message, filename) {
    if (failed) return;
    if (!started) failLoad(describe(e, message));
    else if (fromModule(e, filename)) moduleStopped(e || message);
    else notice(describe(e, message));
  }
  window.addEventListener("error", function (event) { uncaught(event.error, event.message, event.filename); });
  window.addEventListener("unhandledrejection", function (event) { uncaught(event.reason, "a promise failed", ""); });

  // [6] what the browser must offer: WebGL 2 and WebAssembly with SIMD and exceptions (web/stream_wasm.js
  // probes them). A browser that has WebGL 2 may still refuse the app its context (turned off, a blocked
  // driver): the app says so when it asks for it (Module.attentionFail), so no context is made here just
  // to test, which would hold up the page's first paint while the graphics start.
  function failNoWebGL2(technical) {
    fail("no-webgl2", "This demo needs WebGL 2, and this browser did not provide it.", [
      "The demo draws its clocks and heatmaps with WebGL 2. Your browser either does not support it, " +
      "has it turned off, or blocked it for this graphics driver.",
      "Try a current Firefox, Chrome, Edge or Safari (version 15 or later); check that hardware " +
      "acceleration is on in the browser settings; or update the graphics driver."
    ], technical);
  }
  if (!window.attentionMayHaveWebGL2()) {
    failNoWebGL2();
    return;
  }
  var missing = window.attentionWasmLacks();
  if (missing) {
    fail("no-wasm", "This browser is too old for the demo.", [
      "The demo needs " + missing + ", which this browser does not support.",
      "Any current Firefox, Chrome, Edge or Safari (16.4 or later) works."
    ]);
    return;
  }

  // [7] download and compile the .wasm as it streams in, with progress, while the .js loads alongside
  // (web/stream_wasm.js): compiling needs no imports, so the code is usually ready when the .js asks.
  function kb(n) { return Math.round(n / 1024) + " KB"; }

  setStatus("Downloading the demo…");
  var wasmModule = window.attentionCompileWasm(WASM_FILE, timing, function (received, total) {
    if (total > 0 && received <= total) {
      setProgress(received / total);
      setStatus("Downloading the demo…", kb(received) + " of " + kb(total));
    } else {
      setProgress(null);
      setStatus("Downloading the demo…", kb(received));
    }
  });
  wasmModule.catch(function (e) { failBlocked("WebAssembly: " + describe(e)); });

  // [7b] the compute worker (web/compute_worker.js), started on the module compiled above when the app
  // first wants it (Module.attentionStartWorker); the app computes on this thread until it runs, or if it
  // cannot start (then it says why in the console).
  // A worker on `module`: its messages go to the app (a model answer to modelFromWorker, progress of a
  // model read to the Train scene), ready() once its runtime runs, down(why) when it fails or cannot start.
  function spawnWorker(module, ready, down) {
    var worker;
    try {
      worker = new Worker(trustedUrl(WORKER_FILE));
    } catch (e) {
      down(describe(e));
      return null;
    }
    worker.onmessage = function (e) {
      var d = e.data;
      if (d instanceof ArrayBuffer && d.byteLength >= 8 && new DataView(d).getUint32(0, true) === MODEL_ANSWER_TAG) {
        modelFromWorker(d);
      } else if (d instanceof ArrayBuffer) {
        Module.attentionInbox = d;
        tellApp("attn_from_worker", [d.byteLength]);
        Module.attentionInbox = null;
      } else if (d && d.modelRead) {
        var reading = modelLoads[d.modelRead[0]];
        if (reading) tellApp("attn_model_build_progress", [d.modelRead[1], d.modelRead[2], reading.name]);
      } else if (d && d.ready) {
        ready();
      } else if (d && typeof d.deferredLoaded === "number") {
        timing.deferred_ms = d.deferredLoaded;
      } else if (d && d.failed) {
        down(d.failed);
      }
    };
    worker.onerror = function (e) {
      e.preventDefault();
      down(e.message || "an error in the worker");
    };
    worker.postMessage({ module: module, glue: JS_FILE, deferred: new URL(DEFERRED_FILE, location.href).href });
    return worker;
  }

  function startWorker(module) {
    var worker = spawnWorker(module, function () {
      timing.worker_ready_ms = performance.now();
      Module.attentionWorker = worker;
      tellApp("attn_worker_up", [1]);
    }, function (why) {
      if (worker) worker.terminate();
      Module.attentionWorker = null;
      console.warn("The compute worker stopped; the demo computes on the page's own thread: " + why);
      tellApp("attn_worker_up", [0]);
      modelLoadsStopped(why);
    });
  }

  // The helper workers that share the multi-head scene's large recomputes with the compute worker: one per
  // core beyond the first, at most three (the module compiled above again). The app hears how many run once
  // all of them do; if one fails, all stop and the compute worker computes alone.
  function startHelpers(module) {
    var cores = Math.min(navigator.hardwareConcurrency || 1, 4), helpers = [], up = 0, stopped = false;
    function down(why) {
      if (stopped) return;
      stopped = true;
      helpers.forEach(function (w) { if (w) w.terminate(); });
      Module.attentionHelpers = [];
      timing.helpers = 0;
      if (why) console.warn("A helper worker stopped; the compute worker computes alone: " + why);
      tellApp("attn_helpers_up", [0]);
    }
    if (cores < 2) return down("");
    for (var i = 1; i < cores && !stopped; i++) {
      helpers.push(spawnWorker(module, function () {
        if (++up === cores - 1 && !stopped) {
          Module.attentionHelpers = helpers;
          timing.helpers = helpers.length;
          tellApp("attn_helpers_up", [helpers.length]);
        }
      }, down));
    }
  }

  // Resolves once the page has had a chance to paint what it shows now (the loading screen), so the app's
  // start-up runs in a task after it: the next animation frame, then a task; or at most 100 ms on (a hidden
  // page gets no animation frames).
  function afterPaint() {
    return new Promise(function (resolve) {
      var done = false;
      function go() {
        if (!done) {
          done = true;
          resolve();
        }
      }
      requestAnimationFrame(function () { setTimeout(go, 0); });
      setTimeout(go, 100);
    });
  }

  // [8] the Emscripten module (one global Module, -sMODULARIZE=0)
  window.Module = {
    canvas: canvas,
    print: function (text) { console.log(text); },
    printErr: function (text) { console.warn(text); },
    locateFile: function (path) { return path; },
    onDeferredLoaded: function (ms) { timing.deferred_page_ms = ms; },
    // The module compiled while it downloaded (section [7]); only the instance is made here.
    instantiateWasm: function (imports, receiveInstance) {
      imports.placeholder = Module.attnDeferredImports(DEFERRED_FILE);
      wasmModule.then(function (module) {
        setProgress(null);
        setStatus("Starting…", "");
        return afterPaint().then(function () {
          return WebAssembly.instantiate(module, imports);
        }).then(function (instance) {
          receiveInstance(instance, module);
        });
      }).catch(function (e) {
        failLoad("WebAssembly: " + describe(e));
      });
      return {};
    },
    onAbort: function (what) { moduleStopped(new Error("Aborted(" + String(what) + ")")); },
    // Called by the app (src/platform/main_web.cpp) after its first frame, and on a fatal start-up error.
    attentionReady: function () {
      if (failed) return;
      timing.first_frame_ms = performance.now();
      started = true;
      shown = true;
      if (!contextLost) {  // else the message stays until the context is back
        body.className = "ready";
        body.setAttribute("data-state", "ready");
      }
      resolveReady(window.attentionDemo);
    },
    // The app wants its compute worker (the Train scene, once); it starts on the module compiled above.
    // The single-file build has none: the app is told so (after this call) and computes on this thread.
    attentionStartWorker: function () {
      if (singleFile) setTimeout(function () { tellApp("attn_worker_up", [0]); }, 0);
      else wasmModule.then(startWorker);
    },
    // A large recompute wants the helper workers (once); none in the single-file build.
    attentionStartHelpers: function () {
      if (singleFile) setTimeout(function () { tellApp("attn_helpers_up", [0]); }, 0);
      else wasmModule.then(startHelpers);
    },
    // The app recreated its GL objects after the browser gave a lost WebGL context back.
    attentionGraphicsRestored: function () {
      if (failed || !contextLost) return;
      contextLost = false;
      messageEl.textContent = "";
      if (!shown) {  // lost and restored while loading: back to the loading screen
        body.className = "loading";
        body.setAttribute("data-state", "loading");
        setStatus("Starting…", "");
        return;
      }
      body.className = "ready";
      body.setAttribute("data-state", "ready");
      setStatus("", "");
    },
    // The app's "Open a model file" button and linked model files (src/platform/io_web.cpp).
    attentionOpenModelFile: function () { window.attentionDemo.openModelFile(); },
    attentionFetchModel: fetchModel,
    attentionLoadModelBytes: loadModelBytes,
    attentionFail: function (text) {
      // src/platform/main_web.cpp's words when the browser gives it no WebGL 2 context
      if (/^Could not create a WebGL2 context/.test(text)) return failNoWebGL2(text);
      fail("start-error", "The demo could not start.", [
        "The page loaded, but the demo could not set up its graphics. Reloading may help; a current " +
        "browser with hardware acceleration on is the most likely fix."
      ], text);
    }
  };
  // From here on the exports exist (they answer null until main() has created the app).
  window.Module.onRuntimeInitialized = function () {
    started = true;
    timing.runtime_ready_ms = performance.now();
    tellPrefers();
  };

  // [8b] frames on demand: the app draws on input and animation only, so it is told what it cannot see
  // itself: a resize, and whether the canvas is on screen (off screen it draws nothing; hidden tabs get no
  // animation frames from the browser anyway).
  // Tells the app what the page saw (numbers); its answer, or null while it is not running or lacks the
  // export (an exception stops the module and shows why, in callRaw).
  function tellApp(name, args) {
    if (!started || stopped || failed || typeof Module["_" + name] !== "function") return null;
    try { return callRaw(name, args); } catch (shownInPlace) { return null; }
  }
  window.addEventListener("resize", function () { tellApp("attn_request_frames", [2]); });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) tellApp("attn_request_frames", [1]);
  });
  if (typeof IntersectionObserver === "function") {
    new IntersectionObserver(function (entries) {
      var entry = entries[entries.length - 1];
      tellApp("attn_set_visible", [entry.isIntersecting ? 1 : 0]);
    }).observe(canvas);
  }

  // [8c] the wheel: the app says where it scrolls or zooms itself (Module._attn_wheel_wanted). Elsewhere
  // this capture listener on the window keeps the event from the canvas's listener (web/bridge_input.js),
  // so nothing prevents the browser's default and it scrolls the course page around an iframe (scroll
  // chaining). Until the module has that export, the canvas gets every wheel event.
  function wheelPixels(event, delta) {
    if (event.deltaMode === 1) return delta * 16;                   // lines
    if (event.deltaMode === 2) return delta * window.innerHeight;   // pages
    return delta;
  }
  window.addEventListener("wheel", function (event) {
    var r = canvas.getBoundingClientRect();
    var x = event.clientX - r.left, y = event.clientY - r.top;
    var dx = wheelPixels(event, event.deltaX), dy = wheelPixels(event, event.deltaY);
    if (tellApp("attn_wheel_wanted", [x, y, dx, dy]) === 0) event.stopImmediatePropagation();
  }, { capture: true, passive: true });

  // [8d] the reader's preferences (dark colours, less motion), told to the app at start and at each change
  // (Module._attn_set_prefers, when the module has it).
  var darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var motionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  function tellPrefers() {
    tellApp("attn_set_prefers", [darkQuery && darkQuery.matches ? 1 : 0, motionQuery && motionQuery.matches ? 1 : 0]);
  }
  [darkQuery, motionQuery].forEach(function (query) {
    if (query && query.addEventListener) query.addEventListener("change", tellPrefers);
  });
  ready.then(tellPrefers, function () {});

  // [9] a lost WebGL context: the app stops drawing (main_web.cpp) and the learner is told; when the
  // browser restores the context the app rebuilds its GL objects and attentionGraphicsRestored hides this.
  canvas.addEventListener("webglcontextlost", function (event) {
    event.preventDefault();  // asks the browser to restore the context
    if (failed) return;
    contextLost = true;
    body.className = "paused";
    body.setAttribute("data-state", "context-lost");
    statusEl.textContent = "The graphics were interrupted.";
    detailEl.textContent = "";
    showMessage([
      "The browser took the demo's WebGL context away (the graphics driver restarted, or too many tabs " +
      "use WebGL). The demo continues by itself as soon as the browser gives it back; your settings are kept.",
      "If nothing happens within a few seconds, reload the page."
    ], true);
  });
  canvas.addEventListener("contextmenu", function (event) { event.preventDefault(); });
  // Keys go to the app while the canvas has the focus (a text field's <input> takes it when clicked).
  canvas.addEventListener("pointerdown", function () { canvas.focus({ preventScroll: true }); });

  // The glue starts the app once the page's other scripts (embedded.js, a11y.js) have set up their listeners:
  // it is added when the document is parsed (the preload in index.html has already fetched it).
  // Under a Content-Security-Policy with require-trusted-types-for 'script', a script's address must come from
  // a Trusted Types policy: "attention-demo" allows the glue's and the compute worker's file names and
  // nothing else (a CSP with a trusted-types list must name it).
  body.setAttribute("data-state", "loading");
  if (singleFile) return;  // its glue is the page's last inline script
  var script = document.createElement("script");
  var scriptUrl;
  try {
    scriptUrl = trustedUrl(JS_FILE);
  } catch (e) {
    failLoad("this page's Content-Security-Policy does not allow the Trusted Types policy 'attention-demo' (" +
             describe(e) + ")");
    return;
  }
  script.src = scriptUrl;
  script.async = true;
  script.onerror = function () { failLoad(JS_FILE + " did not load"); };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { document.body.appendChild(script); });
  } else {
    document.body.appendChild(script);
  }
})();
