/*
 * Stand-in for https://apis.google.com/js/api.js, served by browser tests (that host is unreachable here).
 * It implements just what the Firebase Auth SDK and the Auth emulator's helper iframe use:
 *
 *   gapi.load("gapi.iframes", { callback })           → calls back at once
 *   gapi.iframes.getContext().open({ url, where, attributes }, onOpened)
 *                                                    → adds the helper <iframe>, resolves onOpened(iframe) once loaded
 *   gapi.iframes.getContext().getParentIframe()      → the channel from inside the helper iframe to its parent
 *   channel.register(name, handler) / channel.send(name, data, callback) / channel.ping(callback) / restyle()
 *
 * The same file runs in the app page (parent) and in the emulator's helper iframe (child). Both sides talk over
 * postMessage with messages tagged __gapiStandIn: "call" runs the peer's registered handler and answers "reply"
 * with [result] (what the SDK reads as `responses`); "ping" answers "pong". A call for a name nobody has
 * registered yet is queued until it is, because the iframe sends its first authEvent before the SDK registers.
 * After loading it runs the `?onload=` callback of its own URL and window.gapi_onload, as the real loader does.
 */
(() => {
  var MARK = "__gapiStandIn";
  if (window.gapi && window.gapi.iframes && window.gapi.iframes.__standIn) return runOnload();

  var channels = [];
  var parent = null;

  function Channel(target, targetOrigin) {
    this.target = target;
    this.targetOrigin = targetOrigin;
    this.handlers = {};
    this.queued = {};
    this.pending = {};
    this.nextId = 0;
    channels.push(this);
  }

  Channel.prototype.post = function (message) {
    message[MARK] = true;
    this.target.postMessage(message, this.targetOrigin);
  };

  Channel.prototype.register = function (name, handler) {
    this.handlers[name] = handler;
    var waiting = this.queued[name] || [];
    delete this.queued[name];
    for (var i = 0; i < waiting.length; i++) this.answer(waiting[i]);
  };

  Channel.prototype.unregister = function (name) {
    delete this.handlers[name];
  };

  Channel.prototype.send = function (name, data, callback) {
    var id = ++this.nextId;
    if (callback) this.pending[id] = callback;
    this.post({ kind: "call", id: id, name: name, data: data });
  };

  // Resolves once the peer answers; re-pings in case the first one beat the peer's script.
  Channel.prototype.ping = function (callback) {
    var self = this;
    return new Promise((resolve) => {
      var done = false;
      var timer = null;
      function attempt() {
        if (done) return;
        var id = ++self.nextId;
        self.pending[id] = () => {
          if (done) return;
          done = true;
          clearInterval(timer);
          if (callback) callback();
          resolve();
        };
        self.post({ kind: "ping", id: id });
      }
      timer = setInterval(attempt, 100);
      attempt();
    });
  };

  Channel.prototype.restyle = () => Promise.resolve();

  Channel.prototype.answer = function (message) {
    var handler = this.handlers[message.name];
    if (!handler) {
      (this.queued[message.name] = this.queued[message.name] || []).push(message);
      return;
    }
    var result;
    try {
      result = handler(message.data);
    } catch (err) {
      result = { status: "ERROR", error: String(err) };
    }
    Promise.resolve(result).then((value) => {
      this.post({ kind: "reply", id: message.id, responses: [value] });
    });
  };

  Channel.prototype.settle = function (message) {
    var callback = this.pending[message.id];
    delete this.pending[message.id];
    if (!callback) return;
    try {
      callback(message.responses);
    } catch (err) {
      // The SDK's webStorageSupport callback always throws after reading the answer; nothing to do.
    }
  };

  function parentChannel() {
    if (!parent) parent = new Channel(window.parent, "*");
    return parent;
  }

  function channelFor(source) {
    for (var i = 0; i < channels.length; i++) if (channels[i].target === source) return channels[i];
    if (source && source === window.parent && window.parent !== window) return parentChannel();
    return null;
  }

  window.addEventListener("message", (event) => {
    var message = event.data;
    if (!message || typeof message !== "object" || !message[MARK]) return;
    var channel = channelFor(event.source);
    if (!channel) return;
    if (message.kind === "ping") channel.post({ kind: "pong", id: message.id });
    else if (message.kind === "pong" || message.kind === "reply") channel.settle(message);
    else if (message.kind === "call") channel.answer(message);
  });

  function open(options, onOpened) {
    var frame = document.createElement("iframe");
    var attributes = options.attributes || {};
    for (var key in attributes) {
      if (key === "style") Object.assign(frame.style, attributes.style);
      else frame.setAttribute(key, attributes[key]);
    }
    frame.src = options.url;
    (options.where || document.body).appendChild(frame);
    var channel = new Channel(frame.contentWindow, new URL(options.url, location.href).origin);
    channel.getIframeEl = () => frame;
    return new Promise((resolve) => {
      frame.addEventListener(
        "load",
        () => {
          resolve(onOpened ? onOpened(channel) : channel);
        },
        { once: true },
      );
    });
  }

  var context = { open: open, getParentIframe: parentChannel };
  var allow = () => true;

  window.gapi = window.gapi || {};
  window.gapi.load = (name, options) => {
    var callback = typeof options === "function" ? options : options && options.callback;
    setTimeout(() => {
      if (callback) callback();
    }, 0);
  };
  window.gapi.iframes = {
    __standIn: true,
    CROSS_ORIGIN_IFRAMES_FILTER: allow,
    SAME_ORIGIN_IFRAMES_FILTER: allow,
    getContext: () => context,
  };

  runOnload();

  function runOnload() {
    var script = document.currentScript;
    var onload = script && script.src ? new URL(script.src).searchParams.get("onload") : null;
    setTimeout(() => {
      if (onload && typeof window[onload] === "function") window[onload]();
      if (typeof window.gapi_onload === "function") window.gapi_onload();
    }, 0);
  }
})();
