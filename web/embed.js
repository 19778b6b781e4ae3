// Embed helper for course pages: turns placeholders into iframes of the demo, with embed=1 set.
//
// Put the demo folder (dist/) on your site, then either write placeholders
//   <div data-attention-demo="?scene=clock&d_model=4&pos=44" data-height="520"></div>
//   <script src="path/to/demo/embed.js"></script>
// or call it yourself:
//   AttentionDemo.embed(element, "?scene=positions&count=100", { height: 600, chrome: false });
// The demo is found next to this script (its own URL), so any folder works. data-chrome="1" (or
// { chrome: true }) keeps the menus and scene list; by default embed=1 hides them. data-src (or
// { src }) must be an http(s) or a relative URL: any other scheme (javascript:, data:, ...) is refused
// with a console warning and no iframe is made.
(function () {
  "use strict";

  // The URL itself when it is relative or http(s), else null. The browser's own parser decides (it drops
  // tabs, newlines and leading spaces exactly as it would for the iframe), against a dummy http base: a
  // relative URL comes out as http(s), an absolute one keeps its scheme.
  function safeUrl(url) {
    var parsed;
    try {
      parsed = new URL(String(url), "https://relative.invalid/");
    } catch (e) {
      return null;
    }
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? String(url) : null;
  }

  var here = document.currentScript && document.currentScript.src;
  var base = here && safeUrl(here) !== null ? here.replace(/[?#].*$/, "").replace(/[^\/]*$/, "") : "";

  // "?a=1&b=2" or "a=1&b=2" or {a: 1, b: 2} -> URLSearchParams
  function params(query) {
    if (query && typeof query === "object") {
      var p = new URLSearchParams();
      Object.keys(query).forEach(function (k) { p.set(k, String(query[k])); });
      return p;
    }
    return new URLSearchParams(String(query || "").replace(/^\?/, ""));
  }

  function embed(element, query, options) {
    options = options || {};
    var p = params(query);
    if (!options.chrome && !p.has("embed")) p.set("embed", "1");
    var folder = options.src === undefined || options.src === null || options.src === "" ? base : options.src;
    var src = safeUrl(folder + "index.html?" + p.toString());
    if (src === null || safeUrl(folder) === null) {
      console.warn("AttentionDemo.embed: refused the demo location " + JSON.stringify(String(folder)) +
                   ": only http(s) and relative URLs are allowed");
      element.textContent = "The demo was not embedded: its location must be an http(s) or a relative URL.";
      return null;
    }
    var frame = document.createElement("iframe");
    frame.src = src;
    frame.title = options.title || "Interactive demo: positional encoding and attention";
    frame.loading = "lazy";
    frame.allow = "fullscreen";
    frame.style.width = options.width || "100%";
    frame.style.height = (options.height || 480) + "px";
    frame.style.border = options.border || "1px solid #8884";
    frame.style.borderRadius = "6px";
    frame.style.display = "block";
    element.textContent = "";
    element.appendChild(frame);
    return frame;
  }

  function scan() {
    var nodes = document.querySelectorAll("[data-attention-demo]");
    Array.prototype.forEach.call(nodes, function (node) {
      if (node.getAttribute("data-attention-demo-done")) return;
      node.setAttribute("data-attention-demo-done", "1");
      embed(node, node.getAttribute("data-attention-demo"), {
        height: Number(node.getAttribute("data-height")) || undefined,
        chrome: node.getAttribute("data-chrome") === "1",
        src: node.getAttribute("data-src") || undefined,
        title: node.getAttribute("data-title") || undefined
      });
    });
  }

  window.AttentionDemo = { embed: embed, scan: scan };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
