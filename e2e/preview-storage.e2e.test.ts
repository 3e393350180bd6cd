/**
 * First-party storage in the preview frame on the default local set-up (issue 27 item 3): a signed-in user
 * opens the app at the URL the README gives (http://localhost:<PORT>), lands on http://app.localhost:<PORT>,
 * and a todo app that keeps its items in localStorage (and a counter in IndexedDB and a cookie) runs in the
 * Preview screen's frame, keeping everything across a Refresh of the frame. Before the fix the app was at
 * localhost and the preview at `<port>-<id>.localhost`, two different sites: Chromium (its default contexts,
 * Incognito, or any browser blocking third-party cookies) refused the frame's localStorage with
 * "SecurityError: Access is denied for this document" and dropped its cookies.
 * Screenshot: e2e/artifacts/preview-storage-todo.png (a reviewed copy in docs/screenshots/preview-localstorage-todo.png).
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { checkLocalSandboxSupport } from "../api/src/sandbox/local/check";
import { callApi, runCleanups } from "./support/api";
import { frameShowing, startServerAndWait } from "./support/sandbox-preview";
import { bearerToken, signInWithGoogle, uniqueEmail } from "./support/sign-in";
import { ARTIFACTS, type Stack, sharedStack } from "./support/stack";
import { stepsReporting } from "./support/step";

const support = await checkLocalSandboxSupport();
const SKIP = support.ok ? null : `skipped: the local sandbox cannot run here (${support.missing.join("; ")})`;

/** A todo app as the model writes one: items in localStorage, plus a counter in IndexedDB and in a cookie. */
const TODO_APP = `<!doctype html>
<html><head><meta charset="utf-8"><title>Todos</title>
<style>body{font-family:system-ui;margin:2rem;color:#111}li{padding:.25rem 0}form{display:flex;gap:.5rem}</style></head>
<body><h1>My todos</h1>
<form id="add"><input id="text" aria-label="New todo" placeholder="What needs doing?"><button>Add</button></form>
<ul id="items"></ul>
<p>IndexedDB count: <span id="idb">none</span> · cookie count: <span id="cookie">none</span></p>
<p id="error" style="color:#b91c1c"></p>
<script>
function fail(where, e) { document.getElementById("error").textContent += where + ": " + e.name + ": " + e.message + " "; }
function load() { try { return JSON.parse(localStorage.getItem("todos") || "[]"); } catch (e) { fail("localStorage", e); return []; } }
function render() {
  document.getElementById("items").replaceChildren(...load().map(function (t) { var li = document.createElement("li"); li.textContent = t; return li; }));
  var m = /(?:^|; )todo_count=(\\d+)/.exec(document.cookie);
  document.getElementById("cookie").textContent = m ? m[1] : "none";
}
function db(then) {
  try {
    var open = indexedDB.open("todos", 1);
    open.onupgradeneeded = function () { open.result.createObjectStore("meta"); };
    open.onsuccess = function () { then(open.result); };
    open.onerror = function () { fail("IndexedDB", open.error); };
  } catch (e) { fail("IndexedDB", e); }
}
function showCount() {
  db(function (d) { var get = d.transaction("meta").objectStore("meta").get("count"); get.onsuccess = function () { document.getElementById("idb").textContent = get.result == null ? "none" : String(get.result); }; });
}
document.getElementById("add").addEventListener("submit", function (event) {
  event.preventDefault();
  var items = load();
  items.push(document.getElementById("text").value);
  try { localStorage.setItem("todos", JSON.stringify(items)); } catch (e) { fail("localStorage", e); }
  document.getElementById("text").value = "";
  document.cookie = "todo_count=" + items.length + "; path=/; max-age=3600";
  db(function (d) { var tx = d.transaction("meta", "readwrite"); tx.objectStore("meta").put(items.length, "count"); tx.oncomplete = showCount; });
  render();
});
render();
showCount();
</script></body></html>`;

const cleanups: Array<() => unknown> = [];
let stack: Stack;
let page: Page;
let token: string;
let port: string;
/** The URL the README tells a local user to open, and where the app lives once there. */
let oldUrl: string;
let appUrl: string;
/** The origin the sign-in ended on (app.localhost once the old URL redirects). */
let signedInAt: string;

const api = <T>(method: string, path: string, body?: unknown) => callApi<T>(stack.app.url, token, method, path, body);
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `preview-storage-${name}.png`) });
const step = stepsReporting({ shot, appOutput: () => stack.app.output(), skip: SKIP });

beforeAll(async () => {
  if (SKIP) return;
  stack = await sharedStack();
  port = new URL(stack.app.url).port;
  oldUrl = `http://localhost:${port}`;
  appUrl = `http://app.localhost:${port}`;
  page = await stack.newPage({ width: 1280, height: 800 });
  cleanups.push(() => page.context().close());
  // Signing in where the user lands: Firebase keeps the session per origin.
  await signInWithGoogle(page, oldUrl, { email: uniqueEmail("preview-storage") });
  signedInAt = new URL(page.url()).origin;
  token = await bearerToken(page, signedInAt);
}, 240_000);

afterAll(() => runCleanups(cleanups), 30_000);

describe("first-party storage in the preview frame", () => {
  step("http://localhost:<PORT> sends the browser to http://app.localhost:<PORT>, same path, signed in there", async () => {
    await page.goto(`${oldUrl}/projects?from=readme`);
    expect(page.url()).toBe(`${appUrl}/projects?from=readme`);
    await page.getByRole("heading", { name: "Projects" }).first().waitFor();
  });

  step(
    "a localStorage todo in the frame keeps its items across a reload of the frame (IndexedDB and cookies too)",
    async () => {
      const projectId = (await api<{ id: string }>("POST", "/api/projects", { name: "Todo storage" })).id;
      await api("POST", `/api/files/${projectId}`, { path: "index.html", content: TODO_APP });
      const previewUrl = await startServerAndWait(api, stack.app.url, projectId, "My todos");
      const sandboxId = /^http:\/\/5173-([a-z0-9]+)\./.exec(previewUrl)![1]!;

      await page.goto(`${signedInAt}/project/${projectId}/preview`);
      let frame = await frameShowing(page, sandboxId, "My todos", 30_000);
      await frame.getByLabel("New todo").fill("Buy milk");
      await frame.getByRole("button", { name: "Add" }).click();
      await frame.getByRole("listitem").filter({ hasText: "Buy milk" }).waitFor();
      await frame.locator("#idb").filter({ hasText: /^1$/ }).waitFor();
      expect(await frame.locator("#error").textContent()).toBe("");

      const before = frame.url();
      await page.getByRole("button", { name: "Refresh preview" }).click();
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && page.frames().some((f) => f.url() === before)) await Bun.sleep(100);
      frame = await frameShowing(page, sandboxId, "My todos");
      expect(frame.url()).not.toBe(before);
      await frame.getByRole("listitem").filter({ hasText: "Buy milk" }).waitFor();
      await frame.locator("#idb").filter({ hasText: /^1$/ }).waitFor();
      expect(await frame.locator("#cookie").textContent()).toBe("1");
      expect(await frame.locator("#error").textContent()).toBe("");
      await shot("todo");
      // Why it works: the preview is a subdomain of the app's host, one site with it.
      expect(signedInAt).toBe(appUrl);
      expect(previewUrl).toMatch(new RegExp(`^http://5173-[a-z0-9]+\\.app\\.localhost:${port}$`));
    },
    180_000,
  );
});
