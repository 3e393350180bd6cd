/**
 * The page side of closing open previews (report.js): the reporter opens a watch socket at /__appbuilder/watch on
 * the page's own host; when the proxy closes it with 4404 (access ended) the page reloads (into the proxy's 404),
 * and any other close is followed by a reconnect. Run on stand-ins for the browser's globals.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { PREVIEW_ACCESS_ENDED_CLOSE } from "../preview-sockets";
import { WATCH_PATH } from "./inject";

const SCRIPT = readFileSync(new URL("./report.js", import.meta.url), "utf8");

function runReporter() {
  const sockets: { url: string; onclose?: (e: { code: number }) => void }[] = [];
  const timers: (() => void)[] = [];
  let reloads = 0;
  class FakeSocket {
    onopen?: () => void;
    onclose?: (e: { code: number }) => void;
    constructor(readonly url: string) {
      sockets.push(this);
    }
  }
  const location = { protocol: "http:", host: "5173-abc.localhost:8080", href: "http://5173-abc.localhost:8080/", origin: "", reload: () => void reloads++ };
  const window = { WebSocket: FakeSocket, addEventListener: () => {} };
  const document = { readyState: "complete", body: null, addEventListener: () => {} };
  const console = { error: () => {} };
  new Function("window", "document", "location", "WebSocket", "console", "setTimeout", "clearTimeout", "setInterval", SCRIPT)(
    window,
    document,
    location,
    FakeSocket,
    console,
    (fn: () => void) => timers.push(fn),
    () => {},
    () => {},
  );
  return { sockets, timers, reloads: () => reloads };
}

test("the page reloads when the proxy ends its access, and reconnects after any other close", () => {
  const page = runReporter();
  expect(page.sockets.map((s) => s.url)).toEqual([`ws://5173-abc.localhost:8080${WATCH_PATH}`]);
  // The server restarting: no reload, a new socket once the retry timer fires.
  page.sockets[0]!.onclose!({ code: 1006 });
  expect(page.reloads()).toBe(0);
  for (const fire of page.timers.splice(0)) fire();
  expect(page.sockets).toHaveLength(2);
  // Access ended (member removed, link revoked): the page reloads.
  page.sockets[1]!.onclose!({ code: PREVIEW_ACCESS_ENDED_CLOSE });
  expect(page.reloads()).toBe(1);
});
