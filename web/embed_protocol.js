  // [embed protocol] The messages of an embed, written once (web/embed_protocol.js; build_wasm.sh puts it
  // into embed.js and embedded.js). The iframe's URL ends #attention-channel=CHANNEL&attention-parent=ORIGIN.
  // Page -> demo: {channel, id, type: "state"} or {channel, id, type: "set", settings}. Demo -> page: the
  // answer {channel, id, ok: true, result} or {channel, id, ok: false, error}, and events {channel, event,
  // data}: ready {settings, query, height}, error {message}, change {settings, query}, answer {which,
  // answer, right}, resize {height}, scroll {dy}. Each side takes only the other's window and origin.
  var embedProtocol = {
    hash: function (channel, pageOrigin) {
      return "#attention-channel=" + channel + "&attention-parent=" + encodeURIComponent(pageOrigin);
    },
    // {channel, origin} from that #hash; null unless the channel is 8-128 of [A-Za-z0-9_-], the origin http(s).
    parseHash: function (hash) {
      var h = new URLSearchParams(hash.replace(/^#/, ""));
      var channel = h.get("attention-channel") || "";
      var origin = h.get("attention-parent") || "";
      if (!/^[A-Za-z0-9_-]{8,128}$/.test(channel)) return null;
      var parsed;
      try {
        parsed = new URL(origin);
      } catch (e) {
        return null;
      }
      if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.origin !== origin) return null;
      return { channel: channel, origin: origin };
    },
    request: function (channel, id, type, fields) {
      var message = { channel: channel, id: id, type: type };
      if (fields) Object.keys(fields).forEach(function (k) { message[k] = fields[k]; });
      return message;
    },
    // a finite number, or a string of at most 64 characters
    isRequestId: function (id) {
      return (typeof id === "number" && isFinite(id)) || (typeof id === "string" && id.length <= 64);
    },
    reply: function (id, ok, value) {
      return ok ? { id: id, ok: true, result: value } : { id: id, ok: false, error: value };
    },
    isReply: function (data) { return data.id !== undefined; },
    event: function (name, data) { return { event: name, data: data }; },
    isEvent: function (data) { return typeof data.event === "string"; },
  };
