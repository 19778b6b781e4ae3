// Embed helper for course pages: turns placeholders and <attention-demo> elements into iframes of the demo
// (embed=1 set), sizes each iframe to the demo's content, and gives the page a handle to talk to it.
//
// Put the demo folder (dist/) on your site (or use it from another site), then write placeholders
//   <div data-attention-demo="?scene=clock&d_model=4&pos=44" data-height="520"></div>
// or elements
//   <attention-demo query="?scene=clock&d_model=4&pos=44" height="520"></attention-demo>
// and load this script once:  <script src="path/to/demo/embed.js"></script>
// or call it yourself:
//   var demo = AttentionDemo.embed(element, "?scene=positions&count=100", { height: 600 });
//
// Options (attribute names in brackets: data-NAME on placeholders, NAME on <attention-demo>):
//   height [height]     the iframe's first height in CSS pixels (480); it then follows the demo's content
//   autosize [autosize] false (or "0") keeps the height fixed
//   theme [theme]       light, dark or auto; by default the course page's own colour scheme
//   view [view]         figure (the default): the scene's figure, its caption and the controls its lesson
//                       leaves unlocked, laid out by the column's width; page: the whole scene
//   chrome [chrome]     true keeps the demo's menus and scene list (embed=1 hides them) and shows the page view
//   src [src]           the demo's folder: an http(s) or relative URL (by default the folder of this script);
//                       any other scheme (javascript:, data:, ...) is refused with a console warning and a
//                       message in place, and no iframe is made
//   title [title]       the iframe's accessible name
//
// The handle (returned by embed() and kept as element.demo; null when refused):
//   demo.ready               Promise: resolves with the handle once the demo has drawn its first frame
//   demo.set({pos: 45})      Promise of the demo's {ok, notes}: settings as in the URL
//   demo.state()             Promise of the demo's state() object (scene, settings, values shown, ...)
//   demo.step(n)             demo.set({step: n})
//   demo.on(name, fn), demo.off(name, fn)   events:
//     "ready"  fn(settings)                  the demo is running
//     "change" fn(settings)                  the learner changed a setting inside the demo (not set())
//     "answer" fn({which, answer, right})    the learner checked an exercise
//     "resize" fn({height})                  the demo's content needs this many CSS pixels
//   demo.frame               the iframe element
// The page and the demo talk over postMessage on a random channel per embed, each side accepting only the
// other's window and origin; the demo takes settings only (README.md, "Embedding in a course page").
(function () {
  "use strict";

  // #include embed_protocol.js (build_wasm.sh writes web/embed_protocol.js here: the messages, defined once)

  var TIMEOUT_MS = 15000;          // a request the demo has not answered by then is rejected
  var MAX_HEIGHT = 100000;         // a larger (or non-numeric) size from the demo is ignored
  var THEMES = { light: 1, dark: 1, auto: 1 };
  var EVENTS = { ready: 1, change: 1, answer: 1, resize: 1 };

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

  // A channel id nobody can guess: 128 random bits in hex.
  function randomId() {
    var bytes = new Uint8Array(16);
    if (window.crypto && window.crypto.getRandomValues) {
      window.crypto.getRandomValues(bytes);
    } else {
      for (var i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
    }
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  // ---------------------------------------------------------------------------------------------------
  // The course page's colour scheme: its root element's color-scheme when that names only light or only
  // dark, else the reader's preference (then fromMedia is true and a change of it is followed).
  var darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function pageTheme() {
    var scheme = "";
    try {
      scheme = getComputedStyle(document.documentElement).colorScheme || "";
    } catch (e) {
      scheme = "";
    }
    var named = scheme.split(/\s+/).filter(function (w) { return w === "light" || w === "dark"; });
    if (named.length === 1) return { theme: named[0], fromMedia: false };
    return { theme: darkQuery && darkQuery.matches ? "dark" : "light", fromMedia: true };
  }

  // ---------------------------------------------------------------------------------------------------
  // Messages from the demos: each embed registers its channel; a message counts only when it comes from
  // that embed's iframe window, from the demo's origin, on that channel.
  var channels = Object.create(null);

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || typeof data !== "object" || typeof data.channel !== "string") return;
    var embedded = channels[data.channel];
    if (!embedded || event.source === null || event.source !== embedded.frame.contentWindow) return;
    if (event.origin !== embedded.origin) return;
    embedded.receive(data);
  });

  // Calls fn(arg) for each listener; a listener that throws is reported without stopping the others.
  function emit(list, arg) {
    list.slice().forEach(function (fn) {
      try {
        fn(arg);
      } catch (e) {
        setTimeout(function () { throw e; });
      }
    });
  }

  // The handle of one embed: requests with replies, events, the size of the iframe.
  function makeHandle(frame, origin, channel, autosize) {
    var listeners = { ready: [], change: [], answer: [], resize: [] };
    var pending = Object.create(null);  // request id -> {resolve, reject, timer}
    var queued = [];                    // requests made before the demo was ready
    var nextId = 1;
    var running = false;
    var failure = null;                 // an Error once the demo said it could not start
    var resolveReady, rejectReady;
    var handle = { frame: frame };

    handle.ready = new Promise(function (resolve, reject) { resolveReady = resolve; rejectReady = reject; });
    handle.ready.catch(function () {});  // the iframe shows its own failure; no unhandled-rejection noise

    function send(message, resolve, reject) {
      var timer = setTimeout(function () {
        delete pending[message.id];
        reject(new Error("AttentionDemo: the demo did not answer " + message.type + "() within " +
                         TIMEOUT_MS / 1000 + " s"));
      }, TIMEOUT_MS);
      pending[message.id] = { resolve: resolve, reject: reject, timer: timer };
      try {
        frame.contentWindow.postMessage(message, origin);
      } catch (e) {  // e.g. a value that cannot be copied (a function) in the settings
        clearTimeout(timer);
        delete pending[message.id];
        reject(e instanceof Error ? e : new Error("AttentionDemo: " + String(e)));
      }
    }

    function request(type, fields) {
      return new Promise(function (resolve, reject) {
        if (!origin) {
          reject(new Error("AttentionDemo: the course page must be served over http(s) to talk to the demo"));
          return;
        }
        if (failure) { reject(failure); return; }
        var message = embedProtocol.request(channel, nextId++, type, fields);
        if (running) {
          send(message, resolve, reject);
          return;
        }
        queued.push([message, resolve, reject]);
        if (frame.loading === "lazy") frame.loading = "eager";  // a lazy iframe off screen would never load
      });
    }

    function flush() {
      var waiting = queued;
      queued = [];
      waiting.forEach(function (q) {
        if (failure) q[2](failure);
        else send(q[0], q[1], q[2]);
      });
    }

    function resized(height) {
      var h = Number(height);
      if (!isFinite(h) || h < 1 || h > MAX_HEIGHT) return;
      h = Math.ceil(h);
      if (autosize) frame.style.height = h + (frame.offsetHeight - frame.clientHeight) + "px";  // + borders
      emit(listeners.resize, { height: h });
    }

    function reply(data) {
      var p = pending[data.id];
      if (!p) return;
      delete pending[data.id];
      clearTimeout(p.timer);
      if (data.ok === true) p.resolve(data.result);
      else p.reject(new Error("AttentionDemo: " + String(data.error || "the demo refused the request")));
    }

    function onEvent(name, data) {
      data = data && typeof data === "object" ? data : {};
      if (name === "ready") {
        running = true;
        if (data.height !== undefined) resized(data.height);
        flush();
        resolveReady(handle);
        emit(listeners.ready, data.settings);
      } else if (name === "error") {
        failure = new Error("AttentionDemo: the demo could not start: " + String(data.message || "unknown error"));
        flush();
        rejectReady(failure);
      } else if (name === "change") {
        emit(listeners.change, data.settings);
      } else if (name === "answer") {
        emit(listeners.answer, { which: String(data.which), answer: String(data.answer), right: data.right === true });
      } else if (name === "resize") {
        resized(data.height);
      } else if (name === "scroll") {  // a swipe over the demo where it has nothing to scroll
        var dy = Number(data.dy);
        if (isFinite(dy) && Math.abs(dy) <= 2000) window.scrollBy(0, dy);
      }
    }

    function checkedEvent(name, fn) {
      if (!EVENTS[name]) throw new TypeError("AttentionDemo: unknown event " + JSON.stringify(String(name)) +
                                             " (ready, change, answer or resize)");
      if (typeof fn !== "function") throw new TypeError("AttentionDemo: on()/off() need a function");
      return listeners[name];
    }

    handle.set = function (settings) { return request("set", { settings: settings }); };
    handle.state = function () { return request("state"); };
    handle.step = function (n) { return handle.set({ step: n }); };
    handle.on = function (name, fn) { checkedEvent(name, fn).push(fn); return handle; };
    handle.off = function (name, fn) {
      var list = checkedEvent(name, fn);
      var i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
      return handle;
    };
    function receive(data) {
      if (embedProtocol.isReply(data)) reply(data);
      else if (embedProtocol.isEvent(data)) onEvent(data.event, data.data);
    }
    if (origin) channels[channel] = { frame: frame, origin: origin, receive: receive };
    return handle;
  }

  // ---------------------------------------------------------------------------------------------------
  // One embed: the iframe in place of the element's content, and its handle (element.demo).
  function refuse(element, folder) {
    console.warn("AttentionDemo.embed: refused the demo location " + JSON.stringify(String(folder)) +
                 ": only http(s) and relative URLs are allowed");
    element.textContent = "The demo was not embedded: its location must be an http(s) or a relative URL.";
    element.demo = null;
    return null;
  }

  function chosenTheme(options, p) {
    if (options.theme !== undefined && options.theme !== null && options.theme !== "") {
      if (THEMES[options.theme] === 1) return { theme: String(options.theme), fromMedia: false };
      console.warn("AttentionDemo.embed: theme " + JSON.stringify(String(options.theme)) +
                   " is not light, dark or auto; the page's own colour scheme is used");
    } else if (p.has("theme")) {
      return { theme: p.get("theme"), fromMedia: false };
    }
    return pageTheme();
  }

  // A theme taken from the reader's preference follows it: set({theme}) once the demo runs.
  function followTheme(handle, sent) {
    if (!darkQuery || !darkQuery.addEventListener) return;
    darkQuery.addEventListener("change", function () {
      var now = pageTheme();
      if (!now.fromMedia || now.theme === sent) return;
      sent = now.theme;
      handle.ready.then(function () { return handle.set({ theme: now.theme }); }).catch(function () {});
    });
  }

  function makeFrame(src, options, autosize) {
    var frame = document.createElement("iframe");
    frame.src = src;
    frame.title = options.title || "Interactive demo: positional encoding and attention";
    frame.loading = "lazy";
    frame.allow = "fullscreen";
    if (autosize) frame.setAttribute("scrolling", "no");
    frame.style.width = options.width || "100%";
    frame.style.height = (Number(options.height) > 0 ? Number(options.height) : 480) + "px";  // border included
    frame.style.border = options.border || "1px solid #8884";
    frame.style.borderRadius = "6px";
    frame.style.display = "block";
    frame.style.boxSizing = "border-box";
    return frame;
  }

  function embed(element, query, options) {
    options = options || {};
    var p = params(query);
    if (!options.chrome && !p.has("embed")) p.set("embed", "1");
    if (!options.chrome && !p.has("view")) p.set("view", options.view === "page" ? "page" : "figure");
    var folder = options.src === undefined || options.src === null || options.src === "" ? base : options.src;
    var src = safeUrl(folder + "index.html?" + p.toString());
    if (src === null || safeUrl(folder) === null) return refuse(element, folder);

    var theme = chosenTheme(options, p);
    p.set("theme", theme.theme);
    src = folder + "index.html?" + p.toString();
    var autosize = options.autosize !== false && options.autosize !== "0" && options.autosize !== "false";
    var demoOrigin = new URL(src, document.baseURI).origin;
    var pageOrigin = window.location.origin;
    var talk = /^https?:/.test(demoOrigin) && /^https?:/.test(pageOrigin);
    var channel = randomId();
    if (talk) {
      src += embedProtocol.hash(channel, pageOrigin);
    }
    var frame = makeFrame(src, options, autosize);
    var handle = makeHandle(frame, talk ? demoOrigin : "", channel, autosize);
    if (theme.fromMedia) followTheme(handle, theme.theme);
    element.textContent = "";
    element.appendChild(frame);
    element.demo = handle;
    return handle;
  }

  // ---------------------------------------------------------------------------------------------------
  // Placeholders (data-attention-demo) and <attention-demo> elements.
  function flag(value, whenAbsent) {
    if (value === null) return whenAbsent;
    return value !== "0" && value !== "false";
  }

  function optionsFrom(node, prefix) {
    var get = function (name) { return node.getAttribute(prefix + name); };
    return {
      height: Number(get("height")) || undefined,
      chrome: prefix === "data-" ? get("chrome") === "1" : flag(get("chrome"), false),
      src: get("src") || undefined,
      title: get("title") || undefined,
      theme: get("theme") || undefined,
      view: get("view") || undefined,
      autosize: flag(get("autosize"), true)
    };
  }

  function scan() {
    var nodes = document.querySelectorAll("[data-attention-demo]");
    Array.prototype.forEach.call(nodes, function (node) {
      if (node.getAttribute("data-attention-demo-done")) return;
      node.setAttribute("data-attention-demo-done", "1");
      embed(node, node.getAttribute("data-attention-demo"), optionsFrom(node, "data-"));
    });
  }

  function defineElement() {
    if (!window.customElements || window.customElements.get("attention-demo")) return;
    window.customElements.define("attention-demo", class extends HTMLElement {
      connectedCallback() {
        if (this.demo !== undefined) return;  // embedded once; moving the element keeps its handle
        if (getComputedStyle(this).display === "inline") this.style.display = "block";
        embed(this, this.getAttribute("query") || "", optionsFrom(this, ""));
      }
    });
  }

  window.AttentionDemo = { embed: embed, scan: scan };
  defineElement();
  // Placeholders above this script are embedded at once (their handles exist for the scripts after it),
  // the rest when the document has been read.
  scan();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
})();
