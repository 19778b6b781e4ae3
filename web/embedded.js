// The demo's side of an embed made by web/embed.js (loaded after shell.js): the postMessage bridge to the
// course page's handle, the course page's scroll for swipes the app does not use, and first frames for an
// iframe that starts out of view.
(function () {
  "use strict";

  // #include embed_protocol.js (build_wasm.sh writes web/embed_protocol.js here: the messages, defined once)
  var canvas = document.getElementById("canvas");
  var ready = window.attentionDemo.ready;

  function describe(e) {
    return e && typeof e.message === "string" && e.message ? e.message : String(e);
  }

  // [1] the course page around an iframe made by web/embed.js: the iframe URL's #hash names a channel and
  // the page's origin (the embed protocol above). Messages count only from the
  // parent window, from that origin, on that channel, and go only to that origin. The page may ask for
  // state() and set(settings) (settings only, as the URL would give them); the demo tells it when it is
  // ready or failed, how tall its content is, and what the learner changed or answered.
  var MAX_SETTINGS_JSON = window.attentionDemo.settingsLimit;  // set()'s own limit (shell.js)
  var bridge = parentChannel();
  var canvasOnScreen = true;  // the canvas is on screen (an IntersectionObserver below)

  function parentChannel() {
    return window.parent === window ? null : embedProtocol.parseHash(location.hash);
  }

  function postToParent(message) {
    message.channel = bridge.channel;
    try {
      window.parent.postMessage(message, bridge.origin);
    } catch (e) {
      console.warn("attention demo: a message to the course page failed: " + describe(e));
    }
  }

  function postEvent(name, data) { if (bridge) postToParent(embedProtocol.event(name, data)); }

  if (bridge) (function () {
    var running = false;      // attentionDemo.ready resolved
    var failure = "";         // why the demo could not start
    var waiting = [];         // requests not answered yet, oldest first (answered one at a time)
    var busy = false;         // a request is being answered
    var height = null;        // the content height last told to the page
    var reported = null;      // the query the page last heard of
    var setFrame = -1;        // a set() of the page waits for the frame after this one (its change is the page's own)
    var setQuery = null;      // the query that frame showed (a repeat of its change event is dropped too)

    function frameNow() { return window.attentionDemo.frameStats().frame; }

    // Calls done() once the app has drawn the frame after `frame` (set() applies in the next frame: state()
    // then shows it); at once when the canvas is off screen (it draws nothing there), else after 1 s at most.
    function afterFrame(frame, done) {
      var waited = 0;
      (function poll() {
        var drawn;
        try {
          drawn = frameNow() > frame;
        } catch (e) {
          drawn = true;  // the app stopped; the next call says why
        }
        if (drawn || !canvasOnScreen || waited >= 1000) { done(drawn); return; }
        waited += 16;
        setTimeout(poll, 16);
      })();
    }

    // The page's own change ends with the frame after its set(): then its query is known.
    function settleSet(frame) {
      afterFrame(frame, function (drawn) {
        if (!drawn) { setTimeout(function () { settleSet(frame); }, 100); return; }
        if (frame !== setFrame) return;  // a later set() settles itself
        setFrame = -1;
        try {
          setQuery = String(window.attentionDemo.state().query);
        } catch (e) {
          setQuery = null;
        }
      });
    }

    function setSettings(settings) {
      if (!settings || typeof settings !== "object" || Array.isArray(settings)) {
        throw new Error("set() takes an object of settings such as {\"pos\": 45}");
      }
      var json = JSON.stringify(settings);
      if (json.length > MAX_SETTINGS_JSON) {
        throw new Error("the settings are " + json.length + " characters of JSON; at most " + MAX_SETTINGS_JSON +
                        " are accepted");
      }
      var frame = frameNow();
      var result = window.attentionDemo.set(json);
      setFrame = frame;
      settleSet(frame);
      return { result: result, frame: frame };
    }

    // Answers one request: reply({id, ok, result | error}) once it is done.
    function perform(request, reply) {
      var id = request.id;
      try {
        if (request.type === "state") {
          reply(embedProtocol.reply(id, true, window.attentionDemo.state()));
        } else if (request.type === "set") {
          var applied = setSettings(request.settings);
          afterFrame(applied.frame, function () { reply(embedProtocol.reply(id, true, applied.result)); });
        } else {
          throw new Error("unknown request " + JSON.stringify(String(request.type).slice(0, 40)) + " (set or state)");
        }
      } catch (e) {
        reply(embedProtocol.reply(id, false, describe(e)));
      }
    }

    function next() {
      if (busy || !running || !waiting.length) return;
      busy = true;
      perform(waiting.shift(), function (reply) {
        postToParent(reply);
        busy = false;
        next();
      });
    }

    window.addEventListener("message", function (event) {
      if (event.source !== window.parent || event.origin !== bridge.origin) return;
      var data = event.data;
      if (!data || typeof data !== "object" || data.channel !== bridge.channel) return;
      var id = data.id;
      if (!embedProtocol.isRequestId(id)) return;
      if (failure) {
        postToParent(embedProtocol.reply(id, false, failure));
        return;
      }
      waiting.push(data);
      next();
    });

    window.addEventListener("attention:layout", function (event) {
      var h = Math.ceil(Number(event.detail));
      if (!isFinite(h) || h <= 0 || (height !== null && Math.abs(h - height) < 2)) return;
      height = h;
      postEvent("resize", { height: h });
    });

    window.addEventListener("attention:change", function (event) {
      if (!running) return;
      var query = typeof event.detail === "string" ? event.detail : "";
      var own = setFrame >= 0 || query === setQuery;
      setQuery = null;
      if (own || query === reported) {
        reported = query;
        return;
      }
      reported = query;
      var settings;
      try {
        settings = window.attentionDemo.state().settings;
      } catch (e) {
        return;  // the app stopped; the page already shows why
      }
      postEvent("change", { settings: settings, query: query });
    });

    window.addEventListener("attention:answer", function (event) {
      var a;
      try {
        a = JSON.parse(String(event.detail));
      } catch (e) {
        return;
      }
      if (!a || typeof a !== "object") return;
      postEvent("answer", { which: String(a.which), answer: String(a.answer), right: a.right === true });
    });

    ready.then(function () {
      running = true;
      var s = window.attentionDemo.state();
      reported = String(s.query);
      if (height === null && s.content_height > 0) height = Math.ceil(s.content_height);  // also if no layout event came
      postEvent("ready", { settings: s.settings, query: reported, height: height });
      next();
    }).catch(function (e) {
      failure = "the demo could not start: " + describe(e);
      postEvent("error", { message: describe(e) });
      waiting.splice(0).forEach(function (request) { postToParent(embedProtocol.reply(request.id, false, failure)); });
    });
  })();

  // [3] an iframe out of view: browsers give a cross-origin iframe no animation frames while it is off
  // screen, so the app's first frame (attentionDemo.ready, and the course page's handle) would wait for the
  // learner to scroll to it. Until that first frame, a request for an animation frame is also answered by
  // a timer after 100 ms, whichever comes first; from then on frames come from the browser alone.
  if (window.parent !== window && typeof window.requestAnimationFrame === "function") (function () {
    var nativeRequest = window.requestAnimationFrame;
    var nativeCancel = window.cancelAnimationFrame;
    var timers = {};  // animation frame id -> its timer
    function request(callback) {
      var done = false;
      var id = nativeRequest.call(window, function (now) {
        if (done) return;
        done = true;
        clearTimeout(timers[id]);
        delete timers[id];
        callback(now);
      });
      timers[id] = setTimeout(function () {
        delete timers[id];
        if (done) return;
        done = true;
        nativeCancel.call(window, id);
        callback(performance.now());
      }, 100);
      return id;
    }
    function cancel(id) {
      clearTimeout(timers[id]);
      delete timers[id];
      nativeCancel.call(window, id);
    }
    function restore() {
      window.requestAnimationFrame = nativeRequest;
      window.cancelAnimationFrame = nativeCancel;
    }
    window.requestAnimationFrame = request;
    window.cancelAnimationFrame = cancel;
    window.attentionDemo.ready.then(restore, restore);
  })();

  // [2] a swipe over the canvas where the app has nothing to scroll (src/platform/touch_web.cpp) scrolls the
  // course page: the browser cannot, since the canvas takes every touch.
  if (bridge) window.Module.attentionScrollPage = function (dy) {
    if (isFinite(dy) && dy !== 0) postEvent("scroll", { dy: Math.max(-2000, Math.min(2000, dy)) });
  };
  if (bridge && typeof IntersectionObserver === "function") {
    new IntersectionObserver(function (entries) {
      canvasOnScreen = entries[entries.length - 1].isIntersecting;
    }).observe(canvas);
  }
})();
