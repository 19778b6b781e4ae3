// A pretrained model's files into the app (the Real model scene): the picker (several files at once), files
// dropped on the page, paths a link names (fetched from this page's own site) and
// attentionDemo.openCheckpoint(files). The files go to the compute worker, which opens them together
// (src/platform/checkpoint_web.cpp).
(function () {
  "use strict";
  var demo = window.attentionDemo;
  var input = document.getElementById("checkpoint-files");
  if (!demo || !demo.ready || !input) return;
  var running = false;
  demo.ready.then(function () { running = true; }, function () {});

  // Calls the export `name` with numbers and strings (copied into the module's heap for the call).
  function app(name, args) {
    if (!running || typeof Module["_" + name] !== "function") return null;
    var owned = [];
    try {
      return Module["_" + name].apply(null, args.map(function (a) {
        if (typeof a === "number") return a;
        var p = Module.attnNewString(a);
        owned.push(p);
        return p;
      }));
    } catch (stopped) {
      return null;  // web/shell.js shows why
    } finally {
      owned.forEach(function (p) { Module._free(p); });
    }
  }

  function baseName(path) { return String(path).split('?')[0].split(/[\\/]/).pop(); }

  // files: File or Blob objects with names, or {name, bytes} (bytes an ArrayBuffer or a typed array). The
  // compute worker opens them (it reads a picked file itself); one still starting is waited for.
  function open(files, waited) {
    files = Array.prototype.slice.call(files || []);
    if (!files.length || !running) return false;
    var worker = Module.attentionWorker;
    if (!worker && (waited || 0) < 100) {
      setTimeout(function () { open(files, (waited || 0) + 1); }, 100);
      return true;
    }
    var names = files.map(function (f) { return baseName(f.name); });
    // a File or Blob (the worker reads it itself: Blob.bytes is a method there), or {name, bytes}
    var blob = function (f) { return typeof Blob === "function" && f instanceof Blob; };
    var total = files.reduce(function (sum, f) { return sum + (blob(f) ? f.size : f.bytes.byteLength); }, 0);
    var number = app("attn_checkpoint_opening", [names.join(", "), total, worker ? 1 : 0]);
    if (number === null || !worker) return false;
    var parts = files.map(function (f) {
      return blob(f) ? f : f.bytes instanceof ArrayBuffer ? f.bytes : f.bytes.slice().buffer;
    });
    worker.postMessage({ checkpoint: parts, names: names, open: number },
                       parts.filter(function (p) { return p instanceof ArrayBuffer; }));
    return true;
  }
  demo.openCheckpoint = open;

  input.addEventListener("change", function () {
    if (input.files && input.files.length) open(input.files);
  });
  Module.attentionPickCheckpoint = function () { input.value = ""; input.click(); };

  // Paths on this page's site, comma-separated: fetched, then opened together (a failure opens nothing and
  // says why). A path ending in "/" is a Hugging Face folder: its config.json, its weights (the shards its
  // model.safetensors.index.json names, else model.safetensors) and its tokenizer (tokenizer.json, else
  // vocab.json and merges.txt, else none).
  function get(url, optional) {
    if (url.origin !== location.origin) return Promise.reject(new Error(url.href + " is not on this page's site"));
    return fetch(url.href, { credentials: "same-origin" }).then(function (r) {
      if (r.status === 404 && optional) return null;
      if (!r.ok) throw new Error(url.pathname + ": HTTP " + r.status);
      return r.arrayBuffer().then(function (b) { return { name: baseName(url.pathname), bytes: b }; });
    });
  }
  function folder(url) {
    var at = function (name) { return new URL(name, url); };
    return Promise.all([get(at("config.json")), get(at("model.safetensors.index.json"), true),
                        get(at("tokenizer.json"), true)]).then(function (got) {
      var shards = ["model.safetensors"];
      if (got[1]) {
        var map = JSON.parse(new TextDecoder().decode(got[1].bytes)).weight_map || {};
        shards = Object.keys(map).map(function (k) { return String(map[k]); }).filter(function (n, i, all) {
          if (/[\\/]/.test(n)) throw new Error("model.safetensors.index.json names a file outside its folder: " + n);
          return all.indexOf(n) === i;
        });
      }
      var more = shards.map(function (n) { return get(at(n)); });
      if (!got[2]) more.push(get(at("vocab.json"), true), get(at("merges.txt"), true));
      return Promise.all(more).then(function (rest) { return got.concat(rest).filter(Boolean); });
    });
  }
  Module.attentionFetchCheckpoint = function (paths) {
    Promise.all(String(paths).split(",").map(function (path) {
      var url = new URL(path, location.href);
      return /\/$/.test(url.pathname) ? folder(url) : get(url).then(function (f) { return [f]; });
    })).then(function (lists) { open([].concat.apply([], lists)); }, function (e) {
      open([{ name: "could not fetch " + String(e && e.message || e), bytes: new ArrayBuffer(0) }]);
    });
  };

  // Files dropped anywhere on the page: a checkpoint's files open here.
  function isCheckpointFile(name) { return /\.(bin|safetensors)$|(^|\/)config\.json$/i.test(name); }
  window.addEventListener("dragover", function (e) {
    if (e.dataTransfer && Array.prototype.indexOf.call(e.dataTransfer.types || [], "Files") >= 0) e.preventDefault();
  });
  window.addEventListener("drop", function (e) {
    var files = e.dataTransfer && e.dataTransfer.files;
    if (!files || !files.length) return;
    e.preventDefault();
    if (Array.prototype.some.call(files, function (f) { return isCheckpointFile(f.name); })) {
      open(files);
      demo.set({ scene: "lm" });
    }
  });
})();
