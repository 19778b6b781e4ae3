// The example course page's script: moves the clock demo's word with a button and reads values of the demos
// back into the prose, through the handles embed.js gives (element.demo). Text only: textContent, never HTML.
(function () {
  "use strict";

  function show(id, text) {
    var el = document.getElementById(id);
    if (el) el.textContent = text;
  }

  // The clock: "The clock now shows position N", a button that moves the word one slot on.
  function wireClock() {
    var element = document.getElementById("clock");
    var demo = element && element.demo;
    var button = document.getElementById("move-word");
    if (!demo || !button) return;
    var showPosition = function (settings) {
      if (settings && settings.pos !== undefined) show("clock-pos", String(settings.pos));
    };
    demo.on("change", showPosition);
    demo.ready.then(function () {
      button.disabled = false;
      return demo.state();
    }).then(function (s) { showPosition(s.settings); }).catch(function (e) {
      show("clock-pos", "(the demo did not start: " + e.message + ")");
    });
    button.addEventListener("click", function () {
      button.disabled = true;
      demo.set({ pos: 45 }).then(function () { return demo.state(); }).then(function (s) {
        showPosition(s.settings);
      }).catch(function (e) {
        show("clock-pos", "(the demo did not answer: " + e.message + ")");
      }).then(function () { button.disabled = false; });
    });
  }

  function percent(x) { return typeof x === "number" && isFinite(x) ? Math.round(x * 100) + "%" : "?"; }

  // The order scene: what its router without positions says about the two emails.
  function wireOrder() {
    var element = document.querySelector("[data-attention-demo^='?scene=order']");
    var demo = element && element.demo;
    if (!demo) return;
    demo.ready.then(function () { return demo.state(); }).then(function (s) {
      var emails = (s.shown && s.shown.emails || []).filter(function (e) { return e.positions === "none"; });
      if (emails.length < 2) return;
      var a = emails[0], b = emails[1];
      show("order-verdict", a.label === b.label && a.confidence === b.confidence
        ? "Without positions, the demo’s untrained router gives both emails the label “" + String(a.label) +
          "”, each with " + percent(a.confidence) + " confidence: it cannot tell them apart."
        : "Without positions, the demo’s router labels the first email “" + String(a.label) + "” (" +
          percent(a.confidence) + ") and the second “" + String(b.label) + "” (" + percent(b.confidence) + ").");
      document.getElementById("order-readback").hidden = false;
    }).catch(function () { /* the demo shows its own message in place */ });
  }

  function wire() {
    wireClock();
    wireOrder();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
