// The page's side of the browser app's C++ (src/platform/*_web.cpp): every JavaScript function the C++ calls,
// in one library object, linked into attention_demo.js with --js-library (cmake/emscripten.cmake,
// attn_wasm_page; build_wasm.sh leaves this file out of dist/). Declared for the C++ in
// src/platform/bridge_web.hpp. Strings arrive as pointers to UTF-8 (UTF8ToString); a string handed back is
// malloc'ed UTF-8 that the caller frees. State the page keeps between calls lives on Module (attn*).
mergeInto(LibraryManager.library, {
  // [SECTION] helpers

  // `s` as malloc'ed UTF-8 (0 when malloc fails); the receiver frees it.
  $attnNewString: function (s) {
    var n = lengthBytesUTF8(s) + 1;
    var p = _malloc(n);
    if (p) stringToUTF8(s, p, n);
    return p;
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
  // Copies n bytes from `at` of the message that arrived (Module.attentionInbox, an ArrayBuffer) to dst.
  attn_js_inbox_copy: function (dst, at, n) {
    HEAPU8.set(new Uint8Array(Module.attentionInbox, at, n), dst);
  },

  // [SECTION] the font atlas, drawn by the browser (font_web.cpp)

  // Picks the CSS size at which the family's ascent + descent make line_px pixels (stb_truetype's
  // ScaleForPixelHeight: the desktop build's DejaVu Sans looks the same), then measures each code point.
  // out: [ascent, descent, css_px] then per code point [advance, left, right, ascent, descent] in pixels
  // (the actualBoundingBox* distances from the origin on the baseline). Returns 0 without a 2D context.
  // Module.attnFontCanvas(w, h): a 2D context on an OffscreenCanvas where there is one, else a detached
  // <canvas>.
  attn_js_font_measure: function (family, line_px, codes, count, out) {
    Module.attnFontCanvas = function (w, h) {
      var c;
      if (typeof OffscreenCanvas !== 'undefined') c = new OffscreenCanvas(w, h);
      else { c = document.createElement('canvas'); c.width = w; c.height = h; }
      return c.getContext('2d', { willReadFrequently: true });
    };
    var x = Module.attnFontCanvas(1, 1);
    if (!x || typeof x.measureText !== 'function') return 0;
    var fam = UTF8ToString(family);
    x.font = '1000px ' + fam;  // large: the browser rounds these metrics to whole pixels
    var r = x.measureText('Hg');
    var a = r.fontBoundingBoxAscent, d = r.fontBoundingBoxDescent;
    if (!(a > 0) || !(d >= 0)) {  // no font metrics (older browsers): from the ink of "Hg"
      a = r.actualBoundingBoxAscent * 1.25;
      d = r.actualBoundingBoxDescent * 1.2;
    }
    if (!(a + d > 0)) return 0;
    var size = line_px * 1000 / (a + d);
    Module.attnFont = size.toFixed(3) + 'px ' + fam;
    x.font = Module.attnFont;
    var o = out >> 2;
    HEAPF32[o] = a * size / 1000;
    HEAPF32[o + 1] = d * size / 1000;
    HEAPF32[o + 2] = size;
    for (var i = 0; i < count; i++) {
      var m = x.measureText(String.fromCharCode(HEAP32[(codes >> 2) + i]));
      var q = o + 3 + 5 * i;
      HEAPF32[q] = m.width;
      HEAPF32[q + 1] = m.actualBoundingBoxLeft || 0;
      HEAPF32[q + 2] = m.actualBoundingBoxRight || 0;
      HEAPF32[q + 3] = m.actualBoundingBoxAscent || 0;
      HEAPF32[q + 4] = m.actualBoundingBoxDescent || 0;
    }
    return 1;
  },

  // Draws each glyph (code point, origin x, origin y: three ints each) white on a w x h canvas in the font
  // attn_js_font_measure chose, and copies the coverage (alpha) into pixels (w x h bytes). 0 on failure.
  attn_js_font_render: function (glyphs, count, w, h, pixels) {
    var x = Module.attnFont ? Module.attnFontCanvas(w, h) : null;
    if (!x) return 0;
    x.font = Module.attnFont;
    x.fillStyle = '#fff';
    x.textBaseline = 'alphabetic';
    x.textAlign = 'left';
    for (var i = 0; i < count; i++) {
      var p = (glyphs >> 2) + 3 * i;
      x.fillText(String.fromCharCode(HEAP32[p]), HEAP32[p + 1], HEAP32[p + 2]);
    }
    var d = x.getImageData(0, 0, w, h).data;
    for (var j = 0, n = w * h; j < n; j++) HEAPU8[pixels + j] = d[4 * j + 3];
    return 1;
  },

  // The page's query string, percent-decoded (the texts a link may carry).
  attn_js_location_text__deps: ['$attnNewString'],
  attn_js_location_text: function () {
    var s = window.location.search || '';
    try { s = decodeURIComponent(s.split('+').join(' ')); } catch (e) {}
    return attnNewString(s);
  },

  // [SECTION] text fields: <input> elements over the canvas (text_field_web.cpp)
  // The page's <input class="field"> elements follow the fields of the last frame: attn_js_fields_begin,
  // attn_js_field for each field (its rectangle in CSS pixels; the canvas is at the page's top left),
  // attn_js_fields_end (which removes the inputs of fields no longer drawn). The learner's edits go to
  // attn_field_input (a long text after a pause in typing); during an IME composition or that pause nothing
  // is sent (the composed text arrives at compositionend) and the app's value does not overwrite the input.

  attn_js_fields_begin: function (px, pad, radius) {
    Module.attnFieldStyle = {px: px, pad: pad, radius: radius};
    Module.attnFieldsSeen = {};
  },

  // shown: 1 visible, 2 read-only
  attn_js_field__deps: ['$attnWithStrings'],
  attn_js_field: function (id, label_utf8, hint_utf8, value_utf8, x, y, w, h, shown) {
    var box = Module.attnFieldBox;
    if (!box) {
      box = Module.attnFieldBox = document.createElement('div');
      box.id = 'fields';
      (document.getElementById('app') || document.body).appendChild(box);  // inside the page's <main>
    }
    var els = Module.attnFields || (Module.attnFields = {});
    var el = els[id];
    if (!el) {
      el = els[id] = document.createElement('input');
      el.type = 'text';
      el.className = 'field';
      el.dir = 'auto';
      el.autocomplete = 'off';
      el.tabIndex = -1;  // Tab reaches the field in the canvas, which hands its keys to this input
      el.setAttribute('enterkeyhint', 'done');
      var send = function (enter) {
        clearTimeout(el.wait);
        el.wait = 0;
        el.classList.remove('pending');
        attnWithStrings([el.value], function (p) { _attn_field_input(id, p, enter ? 1 : 0); });
      };
      // a long text (every keystroke a long recompute) goes to the app after a 300 ms pause in typing; the
      // input shows it is waiting (class "pending")
      el.addEventListener('input', function (e) {
        if (e.isComposing) return;
        if (el.value.length < 2000) return send(false);
        clearTimeout(el.wait);
        el.classList.add('pending');
        el.wait = setTimeout(send, 300, false);
      });
      el.addEventListener('compositionstart', function () { el.composing = true; });
      el.addEventListener('compositionend', function () { el.composing = false; send(false); });
      el.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' && !e.isComposing) send(true);
        if (e.key === 'Escape') document.getElementById('canvas').focus();  // keys go back to the app
        // Tab goes on to the app's next control (Shift+Tab: the one before), as in a form
        if (e.key === 'Tab' && !e.ctrlKey && !e.altKey && !e.isComposing && _attn_focus(e.shiftKey ? 4 : 3, id)) {
          e.preventDefault();
          document.getElementById('canvas').focus({preventScroll: true});
        }
      });
      // the wheel over a field scrolls the app's panel under it
      el.addEventListener('wheel', function (e) {
        e.preventDefault();
        document.getElementById('canvas').dispatchEvent(new WheelEvent('wheel', e));
      }, {passive: false});
      box.appendChild(el);
    }
    Module.attnFieldsSeen[id] = 1;
    var value = UTF8ToString(value_utf8), st = Module.attnFieldStyle, s = el.style;
    if (el.value !== value && !el.composing && !el.wait) el.value = value;
    el.placeholder = UTF8ToString(hint_utf8);
    el.setAttribute('aria-label', UTF8ToString(label_utf8));
    el.maxLength = 100000;
    s.left = x + 'px';
    s.top = y + 'px';
    s.width = w + 'px';
    s.height = h + 'px';
    s.fontSize = st.px + 'px';
    s.padding = '0 ' + st.pad + 'px';
    s.borderRadius = st.radius + 'px';
    el.readOnly = (shown & 2) !== 0;  // a locked setting: shown, not editable
    el.hidden = !(shown & 1) && document.activeElement !== el;  // never taken away while the learner types
  },

  // Enter on a field the keyboard reached in the canvas: typing goes on in its <input> (Escape returns).
  attn_js_focus_field: function (id) {
    var el = Module.attnFields && Module.attnFields[id];
    if (el && !el.hidden) el.focus({preventScroll: true});
  },

  attn_js_fields_end: function () {
    var els = Module.attnFields || {};
    for (var id in els) {
      if (!Module.attnFieldsSeen[id]) {
        els[id].remove();
        delete els[id];
      }
    }
  },

  // [SECTION] touch on the canvas (touch_web.cpp)
  // Capture-phase listeners on the document, so the canvas's own (SDL's) touch listeners never run. One
  // finger at a time; a gesture is undecided until it has moved 10 CSS pixels.
  attn_js_install_touch: function () {
    var canvas = document.getElementById('canvas');
    var g = null;  // the finger's gesture: id, start, last screen y, mode (0 undecided, 1 scroll, 2 drag)
    var at = function (touch) {
      var r = canvas.getBoundingClientRect();
      return [touch.clientX - r.left, touch.clientY - r.top];
    };
    var on = function (e) {
      if (e.target !== canvas) return;
      e.stopPropagation();
      e.preventDefault();  // no emulated mouse events, no browser scroll or zoom of the page
      var touch = null;
      for (var i = 0; i < e.changedTouches.length; ++i) {
        if (!g || e.changedTouches[i].identifier === g.id) touch = e.changedTouches[i];
      }
      if (!touch) return;
      var p = at(touch);
      if (e.type === 'touchstart') {
        if (g) return;
        g = {id: touch.identifier, x0: p[0], y0: p[1], y: touch.screenY, mode: 0};
        _attn_touch(0, p[0], p[1]);  // the pointer is here: hover
        return;
      }
      if (e.type === 'touchmove') {
        var dx = p[0] - g.x0, dy = p[1] - g.y0;
        if (g.mode === 0 && dx * dx + dy * dy > 100) {
          g.mode = Math.abs(dy) > Math.abs(dx) ? 1 : 2;
          if (g.mode === 2) _attn_touch(1, g.x0, g.y0);  // press where the drag started
        }
        // the app's panel scrolls; where it has nothing to scroll, an embed's course page does (steps in
        // screen pixels: the iframe moves with the page under the finger)
        if (g.mode === 1) {
          var step = touch.screenY - g.y;
          if (Module.attentionScrollPage && !_attn_wheel_wanted(p[0], p[1], 0, -step)) Module.attentionScrollPage(-step);
          else _attn_touch(3, 0, step);
        }
        if (g.mode === 2) _attn_touch(0, p[0], p[1]);
        g.y = touch.screenY;
        return;
      }
      if (e.type === 'touchend' && g.mode === 0) _attn_touch(1, p[0], p[1]);  // a tap: press ...
      if (g.mode !== 1) _attn_touch(2, p[0], p[1]);                           // ... and release
      if (g.mode === 1) _attn_touch(4, 0, 0);  // after a swipe the finger is gone: no tooltip stays
      g = null;
    };
    ['touchstart', 'touchmove', 'touchend', 'touchcancel'].forEach(function (type) {
      document.addEventListener(type, on, {capture: true, passive: false});
    });
  },
});
