// The page's compute worker: runs the demo's core off the page's main thread, from the very .wasm the page
// compiled (web/shell.js sends the WebAssembly.Module: nothing is fetched or compiled twice) with the same
// glue (attention_demo.js, main() not run). The page's messages are commands for the Train scene's session,
// its longer-emails measure and the multi-head scene's recomputes (src/platform/compute_web.cpp), and model
// files to read (src/platform/model_load_web.cpp); between them the work runs in slices of kSliceMs, so a
// pause or a reset is read within one slice, and its updates go back to the page as they fall due.
(function () {
  "use strict";
  var kSliceMs = 8;
  var ready = false, failed = false, scheduled = false;
  var waiting = [];  // commands that came before the runtime was ready
  var tick = new MessageChannel();  // a task of its own that lets the page's messages in between slices

  function fail(e) {
    if (failed) return;
    failed = true;
    self.postMessage({ failed: String((e && e.message) || e) });
  }

  function work() {
    scheduled = false;
    if (failed) return;
    try {
      if (Module._attn_worker_work(kSliceMs)) schedule();
    } catch (e) {
      fail(e);
    }
  }
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    tick.port2.postMessage(0);
  }
  tick.port1.onmessage = work;

  function command(bytes) {
    Module.attentionInbox = bytes;
    try {
      Module._attn_worker_command(bytes.byteLength);
    } catch (e) {
      fail(e);
    }
    Module.attentionInbox = null;
    schedule();
  }

  function start(module, glue, deferred) {
    self.Module = {
      noInitialRun: true,
      print: function (text) { console.log(text); },
      printErr: function (text) { console.warn(text); },
      instantiateWasm: function (imports, receiveInstance) {
        imports.placeholder = self.Module.attnDeferredImports(deferred);
        WebAssembly.instantiate(module, imports).then(function (instance) {
          receiveInstance(instance, module);
        }, fail);
        return {};
      },
      onRuntimeInitialized: function () {
        ready = true;
        self.postMessage({ ready: true });
        waiting.splice(0).forEach(handle);
      },
      onAbort: fail,
      onDeferredLoaded: function (ms) { self.postMessage({ deferredLoaded: ms }); }
    };
    try {
      // under a CSP that requires Trusted Types, the address comes from a policy of the page's name
      var url = glue;
      if (self.trustedTypes && typeof self.trustedTypes.createPolicy === "function") {
        url = self.trustedTypes.createPolicy("attention-demo", {
          createScriptURL: function (u) {
            if (u !== glue) throw new TypeError("attention-demo: not the demo's script: " + u);
            return u;
          }
        }).createScriptURL(glue);
      }
      importScripts(url);
    } catch (e) {
      fail(e);
    }
  }

  // A model file (web/shell.js, loadModelAnywhere): its bytes, loadModel()'s text (encoded here, off the
  // page's thread) or the picked file itself (read here): read and answered in one call, between slices.
  function isModelFile(d) { return !(d instanceof ArrayBuffer) && typeof d.load === "number"; }
  function modelFile(d) {
    try {
      var file = typeof d.model === "string" ? new TextEncoder().encode(d.model).buffer
        : d.model instanceof ArrayBuffer ? d.model : new FileReaderSync().readAsArrayBuffer(d.model);
      Module.attentionInbox = file;
      Module._attn_worker_load_model(file.byteLength, d.load);
    } catch (e) {
      fail(e);
    }
    Module.attentionInbox = null;
  }

  // A pretrained model's files (web/checkpoint.js), each handed over in turn, the last call opening them
  // all; until then each stays in Module.attnCheckpointParts, from which the module copies the small files
  // whole and the weights a slice at a time (src/platform/checkpoint_web.cpp). The first call loads the
  // readers' code (the deferred module, web/bridge.js).
  function isCheckpoint(d) { return Array.isArray(d.checkpoint); }
  function checkpoint(d) {
    var name = 0;
    Module.attnCheckpointParts = d.checkpoint;
    try {
      d.checkpoint.forEach(function (part, i) {
        var size = part.byteLength !== undefined ? part.byteLength : part.size;
        name = Module.attnNewString(String(d.names[i]));
        Module._attn_worker_checkpoint_file(size, i, d.checkpoint.length, d.open, name);
        Module._free(name);
        name = 0;
      });
    } catch (e) {
      if (name) Module._free(name);
      fail(e);
    }
    Module.attnCheckpointParts = null;
  }

  function handle(d) {
    if (isModelFile(d)) modelFile(d);
    else if (isCheckpoint(d)) checkpoint(d);
    else command(d);
  }

  self.onmessage = function (e) {
    var d = e.data;
    if (d instanceof ArrayBuffer || (d && (isModelFile(d) || isCheckpoint(d)))) {
      if (ready) handle(d);
      else waiting.push(d);
    } else if (d && d.module) {
      start(d.module, d.glue, d.deferred);
    }
  };
})();
