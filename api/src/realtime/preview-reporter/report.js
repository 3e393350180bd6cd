/*
 * App Builder's problem reporter, added by the preview proxy to the HTML pages of a project's app so the
 * Problems panel sees what the page shows: uncaught errors, unhandled rejections, console.error calls,
 * Vite's error overlay, scripts and stylesheets that failed to load, and a page that rendered nothing.
 * It posts them to the preview host itself (same origin; the proxy answers). It only listens: one IIFE, no
 * globals, nothing the app can see except a console.error that still does what it did.
 * It also pings (`loaded`) once the page has loaded, once a hot update has run, and every PING_EVERY_MS
 * while open, saying how long ago the code it runs started loading: an agent run's check then knows a
 * preview is open and waits for it to load the run's last change before reading what it reported. A page
 * the server answers `{ reload: true }` (its code is older than that change) reloads itself.
 */
(function () {
  "use strict";
  var ENDPOINT = "/__appbuilder/problems";
  var BLANK_AFTER_MS = 3000;
  var RESOURCE_HOLD_MS = 1500;
  var MAX_REPORTS = 100;
  var MAX_REPEATS = 5;
  var MAX_TEXT = 2000;
  // Replaced as the script is served with PING_EVERY_MS of services/problems/preview-loads.ts.
  var PING_EVERY_MS = 10000;
  // After load or a hot update, errors thrown as the new code first renders are queued before the ping.
  var LOADED_AFTER_MS = 100;
  var UPDATE_SETTLE_MS = 200;
  // Taken before the app runs, so an app that replaces them (mocks, wrappers) neither sees nor breaks reports.
  var send = window.fetch ? window.fetch.bind(window) : null;
  var stringify = JSON.stringify;
  var consoleError = console.error;
  var queue = [];
  var held = [];
  var seen = {};
  var sent = 0;
  var timer = 0;
  var broken = false;
  var viteOverlay = false;
  var reporting = false;
  // When this page started loading: a report from a page older than a file change says nothing about that change.
  var loadedAt = window.performance && performance.timeOrigin ? Math.round(performance.timeOrigin) : null;
  // Where on performance.now() the newest code this page runs started loading: 0 for the page itself, later
  // after a hot update. Pings send its age, a duration, so the browser's wall clock does not matter.
  var clock = window.performance && performance.now ? performance : null;
  var codeLoadedAt = 0;
  var pingTimer = 0;

  function cut(text, max) {
    text = String(text == null ? "" : text);
    return text.length > max ? text.slice(0, max) : text;
  }

  function describe(value) {
    if (value instanceof Error) return (value.name || "Error") + ": " + value.message;
    if (typeof value === "string") return value;
    try {
      var json = stringify(value);
      return json === undefined ? String(value) : json;
    } catch (_) {
      return String(value);
    }
  }

  // console.error("%s failed: %o", name, err) reads as the console shows it, minus the %c styling.
  function format(args) {
    var parts = [];
    var i = 0;
    if (typeof args[0] === "string" && /%[sdifoOc]/.test(args[0])) {
      i = 1;
      parts.push(
        args[0].replace(/%([sdifoOc%])/g, function (match, c) {
          if (c === "%") return "%";
          if (i >= args.length) return match;
          var arg = args[i++];
          return c === "c" ? "" : describe(arg);
        }),
      );
    }
    for (; i < args.length; i++) parts.push(describe(args[i]));
    return parts.join(" ");
  }

  // The newest hot update's module as the page's resource timing lists it (read at once: the observer below
  // hears of it only later, after the updated code may already have thrown).
  function newestCode() {
    if (!clock || !performance.getEntriesByType) return codeLoadedAt;
    var entries = performance.getEntriesByType("resource");
    for (var i = entries.length - 1; i >= 0; i--) {
      var e = entries[i];
      if (/^(fetch|xmlhttprequest|beacon)$/.test(e.initiatorType) || String(e.name).indexOf(location.origin + "/") !== 0) continue;
      if (/[?&]t=\d{10,}/.test(e.name)) return Math.max(codeLoadedAt, e.startTime);
    }
    return codeLoadedAt;
  }

  function flush() {
    timer = 0;
    var batch = queue.splice(0, 20);
    if (!batch.length || !send) return;
    // How old the code that raised each problem is, as of sending: the server turns it into a time on its
    // own clock, and a problem counts against a change only when the code that raised it is newer.
    for (var i = 0; i < batch.length; i++) {
      if (batch[i].codeAt === undefined) continue;
      if (clock) batch[i].loadAgeMs = Math.max(0, Math.round(clock.now() - batch[i].codeAt));
      delete batch[i].codeAt;
    }
    try {
      send(ENDPOINT, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stringify({ reports: batch }),
        keepalive: true,
        credentials: "same-origin", // the preview host's access cookie: reports from strangers are refused
      })
        .then(function (res) {
          // The server asks a page that runs code from before a change (it was still loading when the file
          // changed, and Vite never told it) to reload, so the preview shows what the agent wrote.
          if (res.status !== 200) return;
          return res.json().then(function (answer) {
            if (answer && answer.reload === true) location.reload();
          });
        })
        .catch(function () {});
    } catch (_) {
      // The report is lost; the page must not notice.
    }
    if (queue.length) timer = setTimeout(flush, 50);
  }

  function report(kind, message, stack, file, line) {
    message = cut(message, MAX_TEXT);
    var key = kind + "\n" + message + "\n" + file + "\n" + line;
    seen[key] = (seen[key] || 0) + 1;
    if (seen[key] > MAX_REPEATS || sent >= MAX_REPORTS || !message) return;
    sent++;
    queue.push({
      kind: kind,
      message: message,
      stack: stack ? cut(stack, 8000) : null,
      file: file ? cut(file, 1000) : null,
      line: typeof line === "number" ? line : null,
      loadedAt: loadedAt,
      codeAt: newestCode(),
    });
    if (!timer) timer = setTimeout(flush, 30);
  }

  function ping() {
    if (!clock) return;
    queue.push({ kind: "loaded", message: "", loadAgeMs: Math.max(0, Math.round(clock.now() - codeLoadedAt)) });
    if (!timer) timer = setTimeout(flush, 30);
  }

  function pingSoon(ms) {
    clearTimeout(pingTimer);
    pingTimer = setTimeout(ping, ms);
  }

  // Vite runs a hot update by importing the changed module (or stylesheet) again with a fresh `?t=` stamp.
  function watchUpdates() {
    if (!clock || !window.PerformanceObserver) return;
    try {
      new PerformanceObserver(function (list) {
        var entries = list.getEntries();
        for (var i = 0; i < entries.length; i++) {
          var e = entries[i];
          if (/^(fetch|xmlhttprequest|beacon)$/.test(e.initiatorType) || String(e.name).indexOf(location.origin + "/") !== 0) continue;
          if (!/[?&]t=\d{10,}/.test(e.name)) continue;
          if (e.startTime > codeLoadedAt) {
            codeLoadedAt = e.startTime;
            // New code: the same crash raised again is news about it, so the repeat limits start over.
            seen = {};
            sent = 0;
          }
          pingSoon(UPDATE_SETTLE_MS);
        }
      }).observe({ type: "resource" });
    } catch (_) {
      // An old browser: full page loads still ping.
    }
  }

  function releaseHeld() {
    var now = held.splice(0, held.length);
    if (!viteOverlay) for (var i = 0; i < now.length; i++) report.apply(null, now[i]);
  }

  function here(url) {
    return String(url || "").replace(location.origin, "");
  }

  window.addEventListener(
    "error",
    function (event) {
      var target = event.target;
      if (target && target !== window && target.tagName) {
        // A script or stylesheet that failed to load (resource errors do not bubble; this listens in capture).
        var tag = target.tagName.toLowerCase();
        var url = target.src || target.href;
        if (tag !== "script" && !(tag === "link" && /stylesheet|modulepreload/i.test(target.rel || ""))) return;
        broken = true;
        var what = tag === "link" ? "stylesheet" : target.type === "module" ? "module script" : "script";
        // Vite's overlay explains a module that failed to compile better; wait for it before saying more.
        held.push(["resource", "Failed to load " + what + " " + here(url), null, url, null]);
        setTimeout(releaseHeld, RESOURCE_HOLD_MS);
        return;
      }
      broken = true;
      var error = event.error;
      report("error", event.message || describe(error), error && error.stack ? String(error.stack) : null, event.filename || null, event.lineno || null);
    },
    true,
  );

  window.addEventListener("unhandledrejection", function (event) {
    broken = true;
    var reason = event.reason;
    report("rejection", "Unhandled promise rejection: " + describe(reason), reason && reason.stack ? String(reason.stack) : null, null, null);
  });

  console.error = function () {
    var result = consoleError.apply(this, arguments);
    if (!reporting) {
      reporting = true;
      try {
        var error = null;
        for (var i = 0; i < arguments.length; i++) if (arguments[i] instanceof Error) error = arguments[i];
        var message = format(arguments);
        // Vite's client repeating an error its overlay (reported on its own) already shows.
        if (!/^\[vite\] .*\(see errors above\)/.test(message)) {
          report("console", message, error ? String(error.stack || "") : String(new Error().stack || ""), null, null);
        }
      } catch (_) {
        // Never let reporting break the app's own logging.
      } finally {
        reporting = false;
      }
    }
    return result;
  };

  function readOverlay(node) {
    if (!node || String(node.nodeName).toLowerCase() !== "vite-error-overlay" || !node.shadowRoot) return;
    var text = function (selector) {
      var el = node.shadowRoot.querySelector(selector);
      return el ? el.textContent || "" : "";
    };
    viteOverlay = true;
    broken = true;
    var detail = [text(".plugin"), text(".frame"), text(".stack")].filter(Boolean).join("\n\n");
    report("vite", text(".message-body"), detail || null, text(".file") || null, null);
  }

  function watchOverlay() {
    var body = document.body;
    if (!body) return;
    for (var i = 0; i < body.children.length; i++) readOverlay(body.children[i]);
    // Vite appends its overlay to <body>; only body's own children are watched, never the app's subtree.
    new MutationObserver(function (records) {
      for (var r = 0; r < records.length; r++) for (var n = 0; n < records[r].addedNodes.length; n++) readOverlay(records[r].addedNodes[n]);
    }).observe(body, { childList: true });
  }

  var IGNORED = { SCRIPT: 1, STYLE: 1, NOSCRIPT: 1, TEMPLATE: 1, LINK: 1, META: 1, "VITE-ERROR-OVERLAY": 1 };
  function rendered(el) {
    for (var i = 0; i < el.childNodes.length; i++) {
      var node = el.childNodes[i];
      if (node.nodeType === 3 && (node.textContent || "").trim()) return true;
      if (node.nodeType === 1 && !IGNORED[node.tagName]) return true;
    }
    return false;
  }

  function checkBlank() {
    if (broken) return;
    var root = document.getElementById("root") || document.getElementById("app");
    var target = root || document.body;
    if (!target || rendered(target)) return;
    report("blank", "The page rendered nothing: " + (root ? "#" + root.id + " is" : "the page body is") + " empty " + BLANK_AFTER_MS / 1000 + " s after load", null, here(location.href), null);
  }

  // The page's watch socket: the proxy closes it with ACCESS_ENDED when the viewer's access ends (removed from the
  // project, link revoked), and the page reloads into the proxy's 404 page instead of staying on screen. Any other
  // close (the server restarting) is followed by a quiet reconnect, a little later each time.
  var WATCH_PATH = "/__appbuilder/watch";
  var ACCESS_ENDED = 4404;
  var watchRetryMs = 1000;
  function watchAccess() {
    if (!window.WebSocket) return;
    var socket;
    try {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + WATCH_PATH);
    } catch (_) {
      return;
    }
    socket.onopen = function () {
      watchRetryMs = 1000;
    };
    socket.onclose = function (event) {
      if (event.code === ACCESS_ENDED) return location.reload();
      setTimeout(watchAccess, watchRetryMs);
      watchRetryMs = Math.min(watchRetryMs * 2, 30000);
    };
  }
  watchAccess();

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watchOverlay);
  else watchOverlay();
  watchUpdates();
  window.addEventListener("load", function () {
    setTimeout(checkBlank, BLANK_AFTER_MS);
    pingSoon(LOADED_AFTER_MS);
    setInterval(ping, PING_EVERY_MS);
  });
  window.addEventListener("pagehide", function () {
    releaseHeld();
    flush();
  });
})();
