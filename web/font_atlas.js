// The font atlas the browser draws: each code point measured in the page's sans-serif, the ink boxes packed
// in rows and drawn white, their coverage kept as one byte per pixel. Runs as a worker (web/shell.js starts
// it, so the page's main thread stays free while it draws) and as a page script (the fallback where no
// worker can draw text). src/platform/font_web.cpp asks through web/bridge.js and makes Dear ImGui's glyphs
// of the answer.
(function (scope) {
  "use strict";

  // A 2D context with fast read-back: on an OffscreenCanvas where there is one, else a detached <canvas>.
  function context(w, h) {
    var c;
    if (typeof OffscreenCanvas !== "undefined") c = new OffscreenCanvas(w, h);
    else if (typeof document !== "undefined") {
      c = document.createElement("canvas");
      c.width = w;
      c.height = h;
    }
    var x = c && c.getContext("2d", { willReadFrequently: true });
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

  // q: { family, linePx, codes: Int32Array, rects: Int32Array (w, h of each of ImGui's own rectangles) }.
  // The CSS size is the one at which the family's ascent + descent make linePx pixels (stb_truetype's
  // ScaleForPixelHeight: the desktop build's DejaVu Sans looks the same). Returns null without a 2D context,
  // else { ascent, descent, cssPx, advance (per code point), box (per code point: x0, y0, x1, y1 of its ink
  // around the origin on the baseline with 1 pixel of margin; all 0 when it has none or reaches further than
  // 4 lines), at (x, y per rectangle: ImGui's, then each inked code point's in order), width, height, alpha }.
  function drawAtlas(q) {
    var x = context(1, 1);
    if (!x) return null;
    x.font = "1000px " + q.family;  // large: the browser rounds these metrics to whole pixels
    var r = x.measureText("Hg");
    var a = r.fontBoundingBoxAscent, d = r.fontBoundingBoxDescent;
    if (!(a > 0) || !(d >= 0)) {  // no font metrics (older browsers): from the ink of "Hg"
      a = r.actualBoundingBoxAscent * 1.25;
      d = r.actualBoundingBoxDescent * 1.2;
    }
    if (!(a + d > 0)) return null;
    var size = q.linePx * 1000 / (a + d), font = size.toFixed(3) + "px " + q.family;
    x.font = font;
    var n = q.codes.length, advance = new Float32Array(n), box = new Int32Array(4 * n), inked = [];
    var w = [], h = [], area = 0, widest = 0;
    for (var k = 0; k < q.rects.length; k += 2) {
      w.push(q.rects[k]);
      h.push(q.rects[k + 1]);
    }
    for (var i = 0; i < n; i++) {
      var m = x.measureText(String.fromCharCode(q.codes[i]));
      var left = m.actualBoundingBoxLeft || 0, right = m.actualBoundingBoxRight || 0;
      var up = m.actualBoundingBoxAscent || 0, down = m.actualBoundingBoxDescent || 0;
      advance[i] = m.width;
      if (!(left + right > 0 && up + down > 0) || !(Math.max(left, right, up, down) < 4 * q.linePx)) continue;
      var b = box.subarray(4 * i, 4 * i + 4);
      b.set([Math.floor(-left) - 1, Math.floor(-up) - 1, Math.ceil(right) + 1, Math.ceil(down) + 1]);
      inked.push(i);
      w.push(b[2] - b[0]);
      h.push(b[3] - b[1]);
    }
    w.forEach(function (wi, j) {
      area += (wi + 1) * (h[j] + 1);
      widest = Math.max(widest, wi);
    });
    // ImGui's widths: 512 to 4096 by area
    var side = Math.floor(Math.sqrt(area)) + 1;
    var width = side >= 2867 ? 4096 : side >= 1434 ? 2048 : side >= 717 ? 1024 : 512;
    while (width < widest + 2) width *= 2;
    var at = new Int32Array(2 * w.length), height = packRows(w, h, width, at);
    var c = context(width, height);
    if (!c) return null;
    c.font = font;
    c.fillStyle = "#fff";
    c.textBaseline = "alphabetic";
    c.textAlign = "left";
    var first = q.rects.length / 2;
    inked.forEach(function (i, j) {
      var p = 2 * (first + j);
      c.fillText(String.fromCharCode(q.codes[i]), at[p] - box[4 * i], at[p + 1] - box[4 * i + 1]);
    });
    var rgba = c.getImageData(0, 0, width, height).data, alpha = new Uint8Array(width * height);
    for (var j = 0; j < alpha.length; j++) alpha[j] = rgba[4 * j + 3];
    return { ascent: a * size / 1000, descent: d * size / 1000, cssPx: size, advance: advance, box: box, at: at,
             width: width, height: height, alpha: alpha };
  }

  scope.attnDrawFontAtlas = drawAtlas;
  // As a worker: one answer per request, { serial, atlas } (atlas null when this worker cannot draw text).
  if (typeof WorkerGlobalScope !== "undefined" && scope instanceof WorkerGlobalScope) {
    scope.onmessage = function (e) {
      var atlas = null;
      try {
        atlas = drawAtlas(e.data);
      } catch (err) {
        atlas = null;
      }
      scope.postMessage({ serial: e.data.serial, atlas: atlas }, atlas ? [atlas.alpha.buffer] : []);
    };
  }
})(self);
