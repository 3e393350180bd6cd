/*
 * App Builder's element picker ("Select to edit"), served after the problem reporter in the same script. The
 * preview is another origin than the app framing it, so the two talk by postMessage only:
 * - the app asks `{ type: "app-builder:pick", on: true | false }`; only a message from this window's own parent
 *   whose origin is the app's (APP_ORIGINS, or a loopback host when the server runs locally) is obeyed;
 * - while on, hovering outlines elements; a click picks one (the page's own handlers never see that click) and
 *   its description goes to that parent, to that origin only: the component and `file:line` from the dev
 *   server's source tags (`data-src`, `data-component`), else a CSS selector, with its text and a short HTML
 *   excerpt, each capped. Escape ends picking.
 * Nothing runs until asked; a page opened in a tab of its own (no parent) never starts it.
 */
(() => {
  if (window.parent === window) return;
  // Replaced as the script is served (reports-endpoint.ts): the app's origins.
  var APP_ORIGINS = [];
  var LOCAL_APP = false;
  var PICK = "app-builder:pick";
  var PICKED = "app-builder:picked";
  var ENDED = "app-builder:pick-ended";
  var READY = "app-builder:picker-ready";
  var MAX_TEXT = 300;
  var MAX_HTML = 800;
  var LOOPBACK = { localhost: 1, "127.0.0.1": 1, "[::1]": 1, "app.localhost": 1 };
  var parentOrigin = null;
  var overlay = null;
  var label = null;
  var cursor = "";

  function trusted(origin) {
    if (APP_ORIGINS.indexOf(origin) >= 0) return true;
    if (!LOCAL_APP) return false;
    try {
      var u = new URL(origin);
      return (u.protocol === "http:" || u.protocol === "https:") && LOOPBACK[u.hostname] === 1;
    } catch (_) {
      return false;
    }
  }

  function cut(text, max) {
    text = String(text == null ? "" : text);
    return text.length > max ? text.slice(0, max - 1) + "\u2026" : text;
  }

  function selectorOf(el) {
    var parts = [];
    while (el && el.nodeType === 1 && el !== document.documentElement) {
      var tag = el.tagName.toLowerCase();
      if (el.id && /^[A-Za-z][\w-]*$/.test(el.id)) {
        parts.unshift(tag + "#" + el.id);
        break;
      }
      var part = tag;
      var classes = String(el.getAttribute("class") || "")
        .split(/\s+/)
        .filter((c) => /^[A-Za-z_-][\w-]*$/.test(c))
        .slice(0, 2);
      if (classes.length) part += "." + classes.join(".");
      var parent = el.parentElement;
      if (parent) {
        var same = 0;
        var index = 0;
        for (var i = 0; i < parent.children.length; i++) {
          if (parent.children[i].tagName === el.tagName) {
            same++;
            if (parent.children[i] === el) index = same;
          }
        }
        if (same > 1) part += ":nth-of-type(" + index + ")";
      }
      parts.unshift(part);
      el = parent;
    }
    return parts.join(" > ");
  }

  function describe(el) {
    var tagged = el.closest ? el.closest("[data-src]") : null;
    var where = /^(.+):(\d+)$/.exec(tagged ? tagged.getAttribute("data-src") || "" : "");
    var html = String(el.outerHTML || "").replace(/\sdata-(?:src|component)="[^"]*"/g, "");
    return {
      component: (tagged && cut(tagged.getAttribute("data-component") || "", 100)) || null,
      file: where ? cut(where[1], 300) : null,
      line: where ? Number(where[2]) : null,
      tag: cut(el.tagName.toLowerCase(), 60),
      selector: cut(selectorOf(el), 500),
      text: cut(
        String(el.innerText || el.textContent || "")
          .replace(/\s+/g, " ")
          .trim(),
        MAX_TEXT,
      ),
      html: cut(html, MAX_HTML),
    };
  }

  function box(style) {
    var el = document.createElement("div");
    el.setAttribute("data-app-builder-picker", "");
    el.style.cssText = "position:fixed;pointer-events:none;z-index:2147483647;display:none;box-sizing:border-box;" + style;
    document.documentElement.appendChild(el);
    return el;
  }

  function highlight(el) {
    if (!overlay || !el || el.nodeType !== 1) return;
    var r = el.getBoundingClientRect();
    overlay.style.display = "block";
    overlay.style.left = r.left + "px";
    overlay.style.top = r.top + "px";
    overlay.style.width = r.width + "px";
    overlay.style.height = r.height + "px";
    var tagged = el.closest ? el.closest("[data-src]") : null;
    var component = tagged ? tagged.getAttribute("data-component") : "";
    label.textContent = (component ? component + " \u00b7 " : "") + el.tagName.toLowerCase() + (tagged ? " \u00b7 " + tagged.getAttribute("data-src") : "");
    label.style.display = "block";
    label.style.left = Math.max(0, r.left) + "px";
    label.style.top = (r.top > 22 ? r.top - 22 : r.bottom + 2) + "px";
  }

  function swallow(event) {
    event.preventDefault();
    event.stopPropagation();
    event.stopImmediatePropagation();
  }

  function onMove(event) {
    highlight(event.target);
  }

  function onClick(event) {
    swallow(event);
    var el = event.target;
    if (!el || el.nodeType !== 1 || !parentOrigin) return;
    var to = parentOrigin;
    stop();
    window.parent.postMessage({ type: PICKED, element: describe(el) }, to);
  }

  function onKey(event) {
    if (event.key !== "Escape") return;
    swallow(event);
    var to = parentOrigin;
    stop();
    if (to) window.parent.postMessage({ type: ENDED }, to);
  }

  var SWALLOWED = ["pointerdown", "pointerup", "mousedown", "mouseup", "dblclick", "contextmenu"];

  function start(origin) {
    parentOrigin = origin;
    if (overlay) return;
    overlay = box("border:2px solid #3b82f6;background:rgba(59,130,246,.12);border-radius:2px");
    label = box("padding:2px 6px;border-radius:4px;background:#1d4ed8;color:#fff;font:12px/16px system-ui,sans-serif;white-space:nowrap");
    cursor = document.documentElement.style.cursor;
    document.documentElement.style.cursor = "crosshair";
    window.addEventListener("mouseover", onMove, true);
    window.addEventListener("click", onClick, true);
    window.addEventListener("keydown", onKey, true);
    for (var i = 0; i < SWALLOWED.length; i++) window.addEventListener(SWALLOWED[i], swallow, true);
  }

  function stop() {
    parentOrigin = null;
    if (!overlay) return;
    overlay.remove();
    label.remove();
    overlay = label = null;
    document.documentElement.style.cursor = cursor;
    window.removeEventListener("mouseover", onMove, true);
    window.removeEventListener("click", onClick, true);
    window.removeEventListener("keydown", onKey, true);
    for (var i = 0; i < SWALLOWED.length; i++) window.removeEventListener(SWALLOWED[i], swallow, true);
  }

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || !trusted(event.origin)) return;
    var data = event.data;
    if (!data || data.type !== PICK) return;
    if (data.on === true) start(event.origin);
    else stop();
  });
  // Says only that picking can be asked for (a reloaded page forgets it was on); carries nothing else.
  window.parent.postMessage({ type: READY }, "*");
})();
