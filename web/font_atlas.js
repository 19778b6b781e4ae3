// The font atlas the browser draws: each code point measured in the page's sans-serif, the ink boxes packed
// in rows and drawn white, their coverage kept as one byte per pixel; the work runs in slices of a few
// milliseconds, each a task of its own, so the page stays responsive while it draws. src/platform/font_web.cpp
// asks through web/bridge.js and makes Dear ImGui's glyphs of the answer.
(function () {
  "use strict";
  var SLICE_MS = 10;  // the longest a slice runs before it lets the page's other tasks in
  var BAND_ROWS = 32;  // atlas rows read back per step

  // A 2D context with fast read-back: on an OffscreenCanvas where there is one, else a detached <canvas>.
  function context(w, h) {
    var c;
    if (typeof OffscreenCanvas !== "undefined") c = new OffscreenCanvas(w, h);
    else {
      c = document.createElement("canvas");
      c.width = w;
      c.height = h;
    }
    var x = c.getContext("2d", { willReadFrequently: true });
    return x && typeof x.measureText === "function" ? x : null;
  }

  // Rows of rectangles (w[i] x h[i]) sorted by height, 1 pixel apart, in a `width`-wide atlas: fills
  // at[2i], at[2i+1] with each one's corner and returns the atlas height.
  function packRows(w, h, width, at) {
    var order = w.map(function (_, i) { return i; });
    order.sort(function (a, b) { return h[b] - h[a] || a - b; });
    var x = 1, y = 1, rowH = 0;
    order.forEach(function (i) {
      if (x + w[i] + 1 > width) {
        x = 1;
        y += rowH + 1;
        rowH = 0;
      }
      at[2 * i] = x;
      at[2 * i + 1] = y;
      x += w[i] + 1;
      rowH = Math.max(rowH, h[i]);
    });
    return y + rowH + 1;
  }

  // Runs fn in a task of its own, with no timer clamping.
  var queue = [], channel = new MessageChannel();
  channel.port1.onmessage = function () { queue.shift()(); };
  function later(fn) {
    queue.push(fn);
    channel.port2.postMessage(0);
  }

  // q: { family, linePx, codes: Int32Array, rects: Int32Array (w, h of each of ImGui's own rectangles) }.
  // The CSS size is the one at which the family's ascent + descent make linePx pixels (stb_truetype's
  // ScaleForPixelHeight: the desktop build's DejaVu Sans looks the same). Calls done(atlas) once drawn:
  // null without a 2D context, else { ascent, descent, cssPx, advance (per code point), box (per code point:
  // x0, y0, x1, y1 of its ink around the origin on the baseline with 1 pixel of margin; all 0 when it has
  // none or reaches further than 4 lines), at (x, y per rectangle: ImGui's, then each inked code point's in
  // order), width, height, alpha, slices (how many), longestSliceMs }. Gives up without calling done once
  // q.cancelled is set.
  function drawAtlas(q, done) {
    var x = context(1, 1);
    if (!x) return later(function () { done(null); });
    x.font = "1000px " + q.family;  // large: the browser rounds these metrics to whole pixels
    var r = x.measureText("Hg");
    var a = r.fontBoundingBoxAscent, d = r.fontBoundingBoxDescent;
    if (!(a > 0) || !(d >= 0)) {  // no font metrics (older browsers): from the ink of "Hg"
      a = r.actualBoundingBoxAscent * 1.25;
      d = r.actualBoundingBoxDescent * 1.2;
    }
    if (!(a + d > 0)) return later(function () { done(null); });
    var size = q.linePx * 1000 / (a + d), font = size.toFixed(3) + "px " + q.family;
    x.font = font;
    var n = q.codes.length, advance = new Float32Array(n), box = new Int32Array(4 * n), inked = [];
    var w = [], h = [], first = q.rects.length / 2;
    for (var k = 0; k < q.rects.length; k += 2) {
      w.push(q.rects[k]);
      h.push(q.rects[k + 1]);
    }
    var out = { ascent: a * size / 1000, descent: d * size / 1000, cssPx: size, advance: advance, box: box,
                slices: 0, longestSliceMs: 0 };
    var c = null, i = 0, row = 0;

    // 1. one code point's metrics and ink box
    function measure() {
      var m = x.measureText(String.fromCharCode(q.codes[i]));
      var left = m.actualBoundingBoxLeft || 0, right = m.actualBoundingBoxRight || 0;
      var up = m.actualBoundingBoxAscent || 0, down = m.actualBoundingBoxDescent || 0;
      advance[i] = m.width;
      if (left + right > 0 && up + down > 0 && Math.max(left, right, up, down) < 4 * q.linePx) {
        var b = box.subarray(4 * i, 4 * i + 4);
        b.set([Math.floor(-left) - 1, Math.floor(-up) - 1, Math.ceil(right) + 1, Math.ceil(down) + 1]);
        inked.push(i);
        w.push(b[2] - b[0]);
        h.push(b[3] - b[1]);
      }
      i++;
    }
    // 2. the atlas' size (ImGui's widths: 512 to 4096 by area) and every rectangle's place; the glyphs
    // are drawn from i = 0
    function place() {
      var area = 0, widest = 0;
      w.forEach(function (wi, j) {
        area += (wi + 1) * (h[j] + 1);
        widest = Math.max(widest, wi);
      });
      var side = Math.floor(Math.sqrt(area)) + 1;
      var width = side >= 2867 ? 4096 : side >= 1434 ? 2048 : side >= 717 ? 1024 : 512;
      while (width < widest + 2) width *= 2;
      out.at = new Int32Array(2 * w.length);
      out.height = packRows(w, h, width, out.at);
      out.width = width;
      out.alpha = new Uint8Array(width * out.height);
      c = context(width, out.height);
      if (c) {
        c.font = font;
        c.fillStyle = "#fff";
        c.textBaseline = "alphabetic";
        c.textAlign = "left";
      }
      i = 0;
    }
    // 3. one glyph drawn at its place (its origin: the place minus the box's corner)
    function draw() {
      var g = inked[i], p = 2 * (first + i);
      c.fillText(String.fromCharCode(q.codes[g]), out.at[p] - box[4 * g], out.at[p + 1] - box[4 * g + 1]);
      i++;
    }
    // 4. a band of rows read back: each pixel's coverage
    function readBand() {
      var rows = Math.min(BAND_ROWS, out.height - row);
      var rgba = c.getImageData(0, row, out.width, rows).data, o = row * out.width;
      for (var j = 0; j < rows * out.width; j++) out.alpha[o + j] = rgba[4 * j + 3];
      row += rows;
    }

    // the steps of each phase, in slices of SLICE_MS
    var phases = [
      function () { return i < n ? (measure(), true) : false; },
      function () {
        if (!out.at) return place(), true;
        return c && i < inked.length ? (draw(), true) : false;
      },
      function () { return c && row < out.height ? (readBand(), true) : false; },
    ];
    var phase = 0;
    function slice() {
      if (q.cancelled) return;
      var t0 = performance.now(), failed = false;
      try {
        while (phase < phases.length && performance.now() - t0 < SLICE_MS) {
          if (!phases[phase]()) phase++;
        }
      } catch (e) {
        failed = true;
      }
      out.slices++;
      out.longestSliceMs = Math.max(out.longestSliceMs, performance.now() - t0);
      if (failed || (phase === phases.length && !c)) done(null);
      else if (phase === phases.length) done(out);
      else later(slice);
    }
    later(slice);
  }

  self.attnDrawFontAtlas = drawAtlas;
})();
