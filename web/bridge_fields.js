// The page's side of the app's text fields and touch (src/platform/text_field_web.cpp, touch_web.cpp): the
// JavaScript functions they call, linked into attention_demo.js with --js-library beside web/bridge.js
// (cmake/emscripten.cmake; build_wasm.sh leaves this file out of dist/). Declared for the C++ in
// src/platform/bridge_web.hpp; bridge.js's helpers ($attnWithStrings) are shared.
mergeInto(LibraryManager.library, {
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
  // Capture-phase listeners on the document, stopped there: no touch reaches the canvas's own listeners. One
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
  }
});
