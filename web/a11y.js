// The canvas app for assistive technology: a live region that says what the app announces, and the numbers
// behind every heatmap as HTML tables (a CSV link for big ones) in a region that shows when it has the focus.
(function () {
  "use strict";
  var doc = document;
  var live = doc.getElementById("announce");
  var region = doc.getElementById("figure-data");
  var list = doc.getElementById("figure-data-list");
  var demo = window.attentionDemo;
  if (!live || !region || !list) return;

  // [1] announcements (window event attention:announce, detail = the text): the first at once, then at
  // most one every 150 ms, always ending on the latest text.
  var pending = null, quiet = 0;
  function speak() {
    quiet = 0;
    if (pending === null) return;
    if (live.textContent !== pending) live.textContent = pending;
    pending = null;
    quiet = setTimeout(speak, 150);
  }
  window.addEventListener("attention:announce", function (e) {
    try {
      pending = String(e.detail == null ? "" : e.detail).slice(0, 2000);
    } catch (notText) {
      return;
    }
    if (!quiet) speak();
  });

  // [2] the numbers behind the figures, rebuilt after the first frame and after each settings change
  // (window event attention:change, detail = the URL query): at most every 300 ms, two animation frames
  // after the event (the browser gives a hidden page none, so nothing is built until it shows again), and
  // only when the heatmaps, their sizes, labels or ranges, or the query changed.
  if (!demo || !demo.ready) return;
  // Values are fetched only for a table (at most 400 cells); a bigger heatmap gets a CSV link, whose CSV is
  // made when it is clicked.
  var MAX_TABLE = 400;
  var query = location.search, built = "", timer = 0, last = 0, urls = [];

  function later() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      requestAnimationFrame(function () { requestAnimationFrame(build); });
    }, Math.max(100, last + 300 - Date.now()));
  }

  function el(tag, text, parent) {
    var e = doc.createElement(tag);
    if (text != null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function num(v) { return typeof v === "number" ? v.toFixed(3).replace(/^-(0\.0+)$/, "$1") : String(v); }
  function label(labels, i) { return labels && labels[i] != null ? String(labels[i]) : String(i); }

  function figure(h) {
    var cells = h.rows * h.cols;
    var name = String(h.id).replace(/[\/_]+/g, " ").replace(/([a-z])(\d)/gi, "$1 $2");
    var about = name + ": " + h.rows + " × " + h.cols + ", range " + num(h.range[0]) + " to " + num(h.range[1]);
    var values = cells <= MAX_TABLE && [].concat(demo.heatmaps({ id: h.id }))[0];
    if (!values || !values.values) {
      var p = el("p", about + ". ");
      var a = el("a", "Download the " + h.rows + " × " + h.cols + " values as CSV", p);
      a.href = "#";
      a.download = String(h.id).replace(/[\/\\:*?"<>|]/g, "_") + ".csv";
      a.setAttribute("data-heatmap", h.id);
      a.addEventListener("click", function (e) {
        try {
          var url = URL.createObjectURL(new Blob([demo.exportCsv(h.id)], { type: "text/csv" }));
          urls.push(url);
          a.href = url;
        } catch (failed) {
          e.preventDefault();
        }
      });
      return p;
    }
    var t = el("table");
    t.setAttribute("data-heatmap", h.id);
    el("caption", about, t);
    var tr = el("tr", null, el("thead", null, t)), body = el("tbody", null, t), r, c;
    el("td", null, tr);
    for (c = 0; c < h.cols; c++) el("th", label(h.col_labels, c), tr).scope = "col";
    for (r = 0; r < h.rows; r++) {
      tr = el("tr", null, body);
      el("th", label(h.row_labels, r), tr).scope = "row";
      for (c = 0; c < h.cols; c++) el("td", num((values.values[r] || [])[c]), tr);
    }
    return t;
  }

  function build() {
    var maps, key;
    try {
      if (demo.frameStats().computing) return later();  // a long text is still being computed
      maps = demo.heatmaps({ values: false });
      key = query + JSON.stringify(maps.map(function (h) {
        return [h.id, h.rows, h.cols, h.range, h.row_labels, h.col_labels];
      }));
      last = Date.now();
      if (key === built) return;
      built = "";
      urls.forEach(function (u) { URL.revokeObjectURL(u); });
      urls = [];
      var inside = region.contains(doc.activeElement);  // the keyboard stays in the region
      list.replaceChildren.apply(list, maps.map(figure));
      region.hidden = !maps.length;
      if (inside && maps.length) region.focus({ preventScroll: true });
      built = key;
    } catch (stopped) {
      // the app stopped (web/shell.js shows why); the region keeps what it had
    }
  }

  demo.ready.then(later, function () {});
  window.addEventListener("attention:change", function (e) {
    try {
      query = String(e.detail);
    } catch (notText) { /* the query stays */ }
    later();
  });
})();
