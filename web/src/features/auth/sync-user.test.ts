import { afterEach, expect, spyOn, test } from "bun:test";
import type { AuthUser } from "./firebase";
import { syncUser } from "./sync-user";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const user = { uid: "u1", email: "a@example.com", displayName: "A", photoURL: null } as AuthUser;

test("a sync that never answers is given up after the time-out and logged, not awaited forever", async () => {
  // A server that never answers, but lets go when the request is aborted (as fetch does).
  globalThis.fetch = ((_url: RequestInfo | URL, init: RequestInit = {}) =>
    new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)))) as typeof fetch;
  const logged = spyOn(console, "error").mockImplementation(() => {});
  const started = Date.now();
  await syncUser(user, 50);
  expect(Date.now() - started).toBeLessThan(1_000);
  expect(logged.mock.calls[0]?.[0]).toBe("User sync failed");
  logged.mockRestore();
});

test("the user's identity is what is sent", async () => {
  let sent: unknown;
  globalThis.fetch = (async (_url: RequestInfo | URL, init: RequestInit = {}) => {
    sent = JSON.parse(String(init.body));
    return new Response(JSON.stringify({ id: "u1" }), { status: 200 });
  }) as typeof fetch;
  await syncUser(user);
  expect(sent).toEqual({ id: "u1", email: "a@example.com", displayName: "A", photoURL: null });
});
