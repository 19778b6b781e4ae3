// The page's side of the browser app's C++ (src/platform/*_web.cpp): the JavaScript functions the C++ calls
// (those of the text fields and touch are in bridge_fields.js), linked into attention_demo.js with
// --js-library (cmake/emscripten.cmake, attn_wasm_page; build_wasm.sh leaves this file out of dist/). Declared for the C++ in
// src/platform/bridge_web.hpp. Strings arrive as pointers to UTF-8 (UTF8ToString); a string handed back is
// malloc'ed UTF-8 that the caller frees. State the page keeps between calls lives on Module (attn*).
mergeInto(LibraryManager.library, {
  // [SECTION] helpers

  // `s` as malloc'ed UTF-8 (0 when malloc fails); the receiver frees it. Also Module.attnNewString, for the
  // page's scripts and the compute worker's (web/shell.js, checkpoint.js, compute_worker.js).
  $attnNewString__postset: 'Module["attnNewString"] = attnNewString;',
  $attnNewString: function (s) {
    var n = lengthBytesUTF8(s) + 1;
    var p = _malloc(n);
    if (p) stringToUTF8(s, p, n);
    return p;
  },

  // The language models' code, which scripts/split_wasm.py moved out of the page's module into
  // attention_demo.deferred.wasm: the module imports a "placeholder" function for each table slot the
  // deferred code fills. The first call of one (in the compute worker, when a model's files arrive) fetches
  // and instantiates the deferred module synchronously with this module's exports, which fills the slots,
  // then calls the real function. Module.attnDeferredImports(url) is what web/shell.js and
  // web/compute_worker.js add to the imports as "placeholder"; Module.onDeferredLoaded(ms) is told once.
  $attnDeferredImports__postset: 'Module["attnDeferredImports"] = attnDeferredImports;',
  $attnDeferredImports: function (url) {
    var loaded = false;
    function load() {
      var xhr = new XMLHttpRequest(), t0 = performance.now();
      xhr.open('GET', url, false);
      xhr.overrideMimeType('text/plain; charset=x-user-defined');  // bytes (a synchronous request has no arraybuffer on a page)
      xhr.send(null);
      if (xhr.status !== 200 && xhr.status !== 0) throw new Error('attention_demo.deferred.wasm: HTTP ' + xhr.status);
      var text = xhr.responseText, bytes = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 255;
      new WebAssembly.Instance(new WebAssembly.Module(bytes), { primary: Module['asm'] });
      loaded = true;
      if (Module.onDeferredLoaded) Module.onDeferredLoaded(performance.now() - t0);
    }
    return new Proxy({}, {
      get: function (_, slot) {
        return function () {
          if (!loaded) load();
          return wasmTable.get(+slot).apply(null, arguments);
        };
      }
    });
  },

  // Calls f with `strings` as malloc'ed UTF-8 (nothing when one allocation fails), then frees them.
  $attnWithStrings__deps: ['$attnNewString'],
  $attnWithStrings: function (strings, f) {
    var ps = strings.map(attnNewString);
    if (ps.every(function (p) { return p; })) f.apply(null, ps);
    ps.forEach(function (p) { _free(p); });
  },

  // Saves `blob` as a download named `name`.
  $attnSaveBlob: function (blob, name) {
    var a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  },

  // [SECTION] the page around the canvas (main_web.cpp)

  // window.location.search ("?scene=clock&pos=44" or "").
  attn_js_location_search__deps: ['$attnNewString'],
  attn_js_location_search: function () {
    return attnNewString(window.location.search || '');
  },

  // The size of the window (or iframe) in CSS pixels: the canvas fills it.
  attn_js_inner_width: function () { return Math.max(1, window.innerWidth | 0); },
  attn_js_inner_height: function () { return Math.max(1, window.innerHeight | 0); },

  // Resolves window.attentionDemo.ready (web/shell.js sets Module.attentionReady).
  attn_js_ready: function () {
    if (typeof Module.attentionReady === 'function') Module.attentionReady();
  },

  // Hides the "graphics interrupted" message once the GL objects exist again (web/shell.js).
  attn_js_graphics_restored: function () {
    if (typeof Module.attentionGraphicsRestored === 'function') Module.attentionGraphicsRestored();
  },

  // Shows a message in place of the canvas (web/shell.js sets Module.attentionFail).
  attn_js_fail: function (message) {
    var text = UTF8ToString(message);
    if (typeof Module.attentionFail === 'function') Module.attentionFail(text);
    else console.error(text);
  },

  // Whether web/shell.js has stopped the module (an uncaught error): no frame may run on its memory.
  attn_js_stopped: function () { return Module.attentionStopped ? 1 : 0; },

  // [SECTION] the app's news after each frame (page_events_web.cpp)

  // Puts "?query" into the address bar without reloading, as a new history entry when `push` is not 0 (a new
  // scene: the browser's Back returns to the last one, through attn_open_query); keeps the path and #hash.
  attn_js_set_query__deps: ['$attnWithStrings'],
  attn_js_set_query: function (query, push) {
    var q = UTF8ToString(query);
    if (q.charAt(0) === '?') q = q.substring(1);
    var url = window.location.pathname + (q.length ? '?' + q : '') + window.location.hash;
    try {
      if (push) history.pushState(null, '', url);
      else history.replaceState(history.state, '', url);
    } catch (e) {
      console.warn('attention demo: cannot update the URL: ' + e);
    }
    if (!Module.attnPopstate) {
      Module.attnPopstate = true;
      window.addEventListener('popstate', function () {
        attnWithStrings([window.location.search || ''], _attn_open_query);
      });
    }
  },

  // window.dispatchEvent(new CustomEvent("attention:" + type, {detail})); `json` 1: detail is a JSON array
  // whose items go out one event each, as JSON text; 2: detail is a number.
  attn_js_dispatch: function (type, detail, json) {
    var name = 'attention:' + UTF8ToString(type), text = UTF8ToString(detail);
    var items = json === 1 ? JSON.parse(text).map(function (a) { return JSON.stringify(a); })
                           : [json === 2 ? Number(text) : text];
    items.forEach(function (d) { window.dispatchEvent(new CustomEvent(name, {detail: d})); });
  },

  // The look the app draws in, for the page's own elements (web/style.css: [data-theme=light]).
  attn_js_set_theme: function (dark) {
    document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
  },

  // [SECTION] clipboard, downloads, model files, lessons (io_web.cpp, model_load_web.cpp)

  attn_js_copy_text: function (text) {
    var s = UTF8ToString(text);
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(s).catch(function (e) { console.warn('clipboard: ' + e); });
    }
    window.attentionDemoLastCopy = s;
  },

  attn_js_download__deps: ['$attnSaveBlob'],
  attn_js_download: function (name, text, mime) {
    attnSaveBlob(new Blob([UTF8ToString(text)], {type: UTF8ToString(mime)}), UTF8ToString(name));
  },

  // An RGBA image (width x height, row 0 on top) encoded as PNG by a canvas, as a download.
  attn_js_download_png__deps: ['$attnSaveBlob'],
  attn_js_download_png: function (name, width, height, rgba) {
    var canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    var ctx = canvas.getContext('2d');
    var image = ctx.createImageData(width, height);
    image.data.set(HEAPU8.subarray(rgba, rgba + width * height * 4));
    ctx.putImageData(image, 0, 0);
    var file = UTF8ToString(name);
    canvas.toBlob(function (blob) { attnSaveBlob(blob, file); }, 'image/png');
  },

  // Module.attentionOpenModelFile (web/shell.js) clicks the page's hidden file input; its change handler
  // hands the chosen file's bytes to attn_load_model_bytes.
  attn_js_open_model_file: function () {
    if (typeof Module.attentionOpenModelFile === 'function') Module.attentionOpenModelFile();
    else console.warn('attention demo: this page has no model file picker');
  },

  // Fetches a file from the page's own site (another site's is refused without a request): a model file is
  // downloaded by web/shell.js (Module.attentionFetchModel: its bytes streamed to the app with progress,
  // refused past the reader's limit), a lesson's steps file's text goes to _attn_load_steps. A failure
  // arrives as an empty file with the reason in the name (model) or as the error (steps).
  attn_js_fetch_same_origin__deps: ['$attnWithStrings'],
  attn_js_fetch_same_origin: function (path_utf8, steps) {
    var path = UTF8ToString(path_utf8);
    var load = function (text, why) {
      if (!steps) Module.attentionLoadModelBytes(null, 0, why ? path + ' (' + why + ')' : path);
      else attnWithStrings([path, text, why], _attn_load_steps);
    };
    var url = null;
    try { url = new URL(path, location.href); } catch (e) {}
    if (!url || url.origin !== location.origin) {
      load('', 'not fetched: a linked ' + (steps ? 'lesson' : 'model') + " must come from this page's own site");
      return;
    }
    if (!steps) {
      Module.attentionFetchModel(url.href, path);
      return;
    }
    fetch(url.href, {credentials: 'same-origin'}).then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.text();
    }).then(function (text) { load(text, ''); }, function (e) {
      load('', 'could not be fetched: ' + e.message);
    });
  },

  // A pretrained model's files (web/checkpoint.js): the picker, and paths on this site fetched and opened.
  attn_js_pick_checkpoint: function () {
    if (typeof Module.attentionPickCheckpoint === 'function') Module.attentionPickCheckpoint();
  },
  attn_js_fetch_checkpoint: function (paths) {
    if (typeof Module.attentionFetchCheckpoint === 'function') Module.attentionFetchCheckpoint(UTF8ToString(paths));
  },

  // The tab's trained model (sessionStorage), kept for a reload of its "Look inside" link.
  attn_js_remember_model: function (text) {
    try { sessionStorage.setItem('attention-demo:trained-model', UTF8ToString(text)); } catch (e) {}
  },

  // The remembered model's text, or 0.
  attn_js_recall_model__deps: ['$attnNewString'],
  attn_js_recall_model: function () {
    var s = null;
    try { s = sessionStorage.getItem('attention-demo:trained-model'); } catch (e) {}
    return s ? attnNewString(s) : 0;
  },

  // Copies the next bytes of Module.attentionModelBytes (from Module.attentionModelOffset) to dst; 0 at the end.
  attn_js_model_chunk: function (dst, cap) {
    var bytes = Module.attentionModelBytes;
    if (!bytes) return 0;
    var at = Module.attentionModelOffset || 0;
    var n = Math.min(cap, bytes.length - at);
    HEAPU8.set(bytes.subarray(at, at + n), dst);
    Module.attentionModelOffset = at + n;
    return n;
  },

  // [SECTION] the compute worker's messages (compute_web.cpp, web/compute_worker.js)

  // Starts the compute worker (web/shell.js: not in the single-file build).
  attn_js_start_worker: function () { Module.attentionStartWorker(); },
  // Posts a copy of n bytes at `bytes` to the other side: from the page to its worker
  // (Module.attentionWorker, once it runs), from the worker to the page. The copy is transferred.
  attn_js_post: function (bytes, n) {
    var copy = HEAPU8.slice(bytes, bytes + n).buffer;
    var to = typeof WorkerGlobalScope === "function" ? self : Module.attentionWorker;
    if (to) to.postMessage(copy, [copy]);
  },
  // Starts the helper workers that share the multi-head scene's recomputes (web/shell.js); the app hears
  // how many run through attn_helpers_up.
  attn_js_start_helpers: function () { Module.attentionStartHelpers(); },
  // Page: posts a copy of n bytes at `bytes` to worker k (0: the compute worker, then the helpers).
  attn_js_post_to: function (k, bytes, n) {
    var to = k === 0 ? Module.attentionWorker : (Module.attentionHelpers || [])[k - 1];
    var copy = HEAPU8.slice(bytes, bytes + n).buffer;
    if (to) to.postMessage(copy, [copy]);
  },
  // Worker: `read` of `total` bytes of model file number `load` are read (the page shows the fraction).
  attn_js_model_read: function (load, read, total) {
    self.postMessage({modelRead: [load, read, total]});
  },
  // Posts one message made of `count` heap ranges (at_size: address, byte count for each), copied once
  // into the buffer that is transferred.
  attn_js_post_parts: function (at_size, count) {
    var p = at_size >> 2, total = 0, at = 0, i;
    for (i = 0; i < count; i++) total += HEAPU32[p + 2 * i + 1];
    var out = new Uint8Array(total);
    for (i = 0; i < count; i++) {
      var from = HEAPU32[p + 2 * i], n = HEAPU32[p + 2 * i + 1];
      out.set(HEAPU8.subarray(from, from + n), at);
      at += n;
    }
    var to = typeof WorkerGlobalScope === "function" ? self : Module.attentionWorker;
    if (to) to.postMessage(out.buffer, [out.buffer]);
  },
  // Copies n bytes from `at` of file `index` of the checkpoint being opened (Module.attnCheckpointParts, set
  // by web/compute_worker.js: an ArrayBuffer, or a picked file read here a slice at a time) to dst.
  // (It brings in attnDeferredImports: the page's module always imports the placeholders.)
  attn_js_checkpoint_copy__deps: ['$attnDeferredImports'],
  attn_js_checkpoint_copy: function (index, dst, at, n) {
    var part = Module.attnCheckpointParts[index];
    if (typeof Blob === 'function' && part instanceof Blob) {
      part = new FileReaderSync().readAsArrayBuffer(part.slice(at, at + n));
      at = 0;
    }
    HEAPU8.set(new Uint8Array(part, at, n), dst);
  },
  // Copies n bytes from `at` of the message that arrived (Module.attentionInbox, an ArrayBuffer) to dst.
  attn_js_inbox_copy: function (dst, at, n) {
    var inbox = Module.attentionInbox;
    if (typeof Blob === 'function' && inbox instanceof Blob) {  // a picked file, in the worker: one slice
      inbox = new FileReaderSync().readAsArrayBuffer(inbox.slice(at, at + n));
      at = 0;
    }
    HEAPU8.set(new Uint8Array(inbox, at, n), dst);
  },

  // [SECTION] the font atlas, drawn by web/font_atlas.js (font_web.cpp)

  // Asks for an atlas (codes: count ints; rects: nrects pairs of ints), drawn by web/font_atlas.js in slices
  // (a request still drawing is dropped); the answer waits in Module.attnFontAnswer and the app gets a frame.
  attn_js_font_request: function (serial, family, linePx, codes, count, rects, nrects) {
    var q = { serial: serial, family: UTF8ToString(family), linePx: linePx,
              codes: HEAP32.slice(codes >> 2, (codes >> 2) + count),
              rects: HEAP32.slice(rects >> 2, (rects >> 2) + 2 * nrects) };
    if (Module.attnFontAsked) Module.attnFontAsked.cancelled = true;
    Module.attnFontAsked = q;
    function arrived(atlas) {
      Module.attnFontAnswer = { serial: serial, atlas: atlas };
      Module['_attn_request_frames'](1);
    }
    if (self.attnDrawFontAtlas) self.attnDrawFontAtlas(q, arrived);
    else setTimeout(function () { arrived(null); }, 0);
  },

  // 1 when the answer to `serial` has come: sizes = {drawn (0 or 1), ints of places, width, height,
  // slices, longest slice in ms}.
  attn_js_font_answer: function (serial, sizes) {
    var a = Module.attnFontAnswer, s = sizes >> 2;
    if (!a || a.serial !== serial) return 0;
    var atlas = a.atlas || { at: [], width: 0, height: 0 };
    HEAP32.set([a.atlas ? 1 : 0, atlas.at.length, atlas.width, atlas.height, atlas.slices | 0,
                Math.ceil(atlas.longestSliceMs || 0)], s);
    return 1;
  },

  // Copies the answer into the app's arrays (web/font_atlas.js: metrics [ascent, descent, cssPx, advance of
  // each code point], box, at, alpha) and lets it go.
  attn_js_font_take: function (metrics, boxes, at, alpha) {
    var a = Module.attnFontAnswer.atlas;
    Module.attnFontAnswer = null;
    HEAPF32.set([a.ascent, a.descent, a.cssPx], metrics >> 2);
    HEAPF32.set(a.advance, (metrics >> 2) + 3);
    HEAP32.set(a.box, boxes >> 2);
    HEAP32.set(a.at, at >> 2);
    HEAPU8.set(a.alpha, alpha);
  },

  // The page's query string, percent-decoded (the texts a link may carry).
  attn_js_location_text__deps: ['$attnNewString'],
  attn_js_location_text: function () {
    var s = window.location.search || '';
    try { s = decodeURIComponent(s.split('+').join(' ')); } catch (e) {}
    return attnNewString(s);
  }
});
