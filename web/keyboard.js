// The keyboard between the page and the canvas app, as in a web form: Tab and Shift+Tab walk the app's
// controls and then leave the canvas for the page's next or previous element (in an iframe too); a focus
// that comes in lands on the first control (the last with Shift+Tab); the skip link lands on the scene's
// first control; the app never takes the focus by itself.
(function () {
  "use strict";
  var canvas = document.getElementById("canvas");
  var skip = document.getElementById("skip-link");
  var demo = window.attentionDemo;
  if (!canvas || !demo || !demo.ready) return;
  var running = false;
  var byPointer = false;  // the focus comes from a click or tap on the canvas
  var cameAt = 0;         // when a focus from outside came in (a Shift+Tab shows only on its keyup)
  var shiftTabUp = -1e9;  // when a Shift+Tab key last came up here (it may come before the focus)

  function app(name, args) {
    if (!running || typeof Module["_" + name] !== "function") return 0;
    try {
      return Module["_" + name].apply(null, args);
    } catch (stopped) {
      return 0;  // web/shell.js shows why
    }
  }
  demo.ready.then(function () { running = true; }, function () {});

  // Tab on the canvas past its last control (Shift+Tab before its first): the app never sees the key, and
  // the browser moves the focus on. Before the canvas's own listeners (web/bridge_input.js).
  window.addEventListener("keydown", function (e) {
    if (e.target !== canvas || e.key !== "Tab" || e.ctrlKey || e.altKey || e.metaKey) return;
    if (app("attn_tab_leaves", [e.shiftKey ? 1 : 0])) e.stopImmediatePropagation();
  }, true);

  canvas.addEventListener("pointerdown", function () { byPointer = true; }, true);
  canvas.addEventListener("focus", function (e) {
    var from = e.relatedTarget;
    var pointer = byPointer;
    byPointer = false;
    if (pointer || (from && from.classList && from.classList.contains("field"))) return;  // a text field's Tab or Escape
    var backward = from && (canvas.compareDocumentPosition(from) & Node.DOCUMENT_POSITION_FOLLOWING);
    if (!from && performance.now() - shiftTabUp < 500) backward = true;
    app("attn_focus", [backward ? 1 : 0, 0]);
    cameAt = from ? 0 : performance.now();
  });
  // From the page around an iframe the focus comes with no element; Shift+Tab shows on the key's release,
  // just after the focus or just before it.
  window.addEventListener("keyup", function (e) {
    if (e.key !== "Tab" || !e.shiftKey) return;
    shiftTabUp = performance.now();
    if (cameAt && shiftTabUp - cameAt < 1000) app("attn_focus", [1, 0]);
    cameAt = 0;
  }, true);
  canvas.addEventListener("keydown", function () { cameAt = 0; }, true);
  canvas.addEventListener("blur", function () { app("attn_blur", []); });

  // an embed has no scene list to skip, and its first Tab should land in the demo
  var q = new URLSearchParams(location.search);
  if (skip && (q.get("embed") === "1" || q.get("view") === "figure")) skip.remove();
  else if (skip) {
    skip.addEventListener("click", function (e) {
      e.preventDefault();
      canvas.focus({ preventScroll: true });
      app("attn_focus", [2, 0]);
    });
  }
})();
