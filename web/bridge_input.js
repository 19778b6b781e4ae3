// The canvas's mouse, wheel and keys and the window's focus, handed to the app (src/platform/input_web.cpp),
// the canvas's backing size and the mouse cursor the app asks for. A library object linked with
// --js-library (cmake/emscripten.cmake); touch is bridge_fields.js's.
mergeInto(LibraryManager.library, {
  // Listeners: mouse presses on the canvas, moves and releases anywhere while a button pressed there is
  // held (a slider keeps following outside), the wheel (after web/shell.js's capture listener, which keeps
  // what the app does not scroll for the page), keys while the canvas has the focus (a text field's <input>
  // keeps its own), and the window's focus.
  attn_js_install_input: function () {
    var canvas = document.getElementById('canvas');
    var held = 0;     // mouse buttons pressed on the canvas and not yet released
    var keys = {};    // keys down on the canvas: keyCode -> location, released when the canvas loses the focus
    var mods = function (e) {
      return (e.ctrlKey ? 1 : 0) | (e.shiftKey ? 2 : 0) | (e.altKey ? 4 : 0) | (e.metaKey ? 8 : 0);
    };
    var mouse = function (kind, e, button) {
      var r = canvas.getBoundingClientRect();
      _attn_mouse(kind, e.clientX - r.left, e.clientY - r.top, button === undefined ? e.button : button, mods(e));
    };
    canvas.addEventListener('mousedown', function (e) {
      held |= 1 << e.button;
      mouse(1, e);
      e.preventDefault();  // no text selection on the page; web/shell.js gives the canvas the focus
    });
    window.addEventListener('mousemove', function (e) {
      // a button released outside the page (around an iframe) sent no mouseup here: release it now
      for (var b = 0; held && !e.buttons && b < 3; ++b) {
        if (held & (1 << b)) mouse(2, e, b);
        held &= ~(1 << b);
      }
      if (e.target === canvas || held) mouse(0, e);
    });
    window.addEventListener('mouseup', function (e) {
      if (!(held & (1 << e.button)) && e.target !== canvas) return;
      held &= ~(1 << e.button);
      mouse(2, e);
    });
    canvas.addEventListener('mouseleave', function (e) { if (!held) mouse(3, e); });
    // steps as ImGui counts them: 100 CSS pixels, 3 lines or 1/80 of a page per step
    canvas.addEventListener('wheel', function (e) {
      var per = e.deltaMode === 1 ? 3 : e.deltaMode === 2 ? 1 / 80 : 100;
      mouse(0, e);
      _attn_wheel(e.deltaX / per, e.deltaY / per, mods(e));
      e.preventDefault();
    }, { passive: false });
    var key = function (down, e) {
      var chars = Array.from(e.key || '');
      var typing = chars.length === 1 && !((e.ctrlKey || e.metaKey) && !e.altKey);
      var text = down && typing ? chars[0].codePointAt(0) : 0;
      if (down) keys[e.keyCode] = e.location; else delete keys[e.keyCode];
      if (_attn_key(e.keyCode, e.location, down ? 1 : 0, mods(e), text)) e.preventDefault();
    };
    canvas.addEventListener('keydown', function (e) { key(true, e); });
    canvas.addEventListener('keyup', function (e) { key(false, e); });
    canvas.addEventListener('blur', function () {
      for (var code in keys) _attn_key(+code, keys[code], 0, 0, 0);
      keys = {};
    });
    window.addEventListener('focus', function () { _attn_page_focus(1); });
    window.addEventListener('blur', function () { _attn_page_focus(0); });
  },

  // The canvas drawn at w x h CSS pixels with `ratio` framebuffer pixels per CSS pixel.
  attn_js_size_canvas: function (w, h, ratio) {
    var canvas = document.getElementById('canvas');
    canvas.width = Math.floor(w * ratio);
    canvas.height = Math.floor(h * ratio);
    canvas.style.width = w + 'px';
    canvas.style.height = h + 'px';
  },

  // The cursor over the canvas: ImGui's ImGuiMouseCursor (-1 none, 0 arrow, 1 text, 2 move, 3-6 resize,
  // 7 hand, 8 not allowed).
  attn_js_set_cursor: function (cursor) {
    var names = ['default', 'text', 'move', 'ns-resize', 'ew-resize', 'nesw-resize', 'nwse-resize', 'pointer',
                 'not-allowed'];
    document.getElementById('canvas').style.cursor = cursor < 0 ? 'none' : names[cursor] || 'default';
  },
});
