import { expect, test } from "bun:test";
import type { FileEvent } from "@shared/events/file-events";
import { WS_PROTOCOL } from "@shared/events/project-events";
import { QueryClient } from "@tanstack/react-query";
import { fileKeys, messageKeys, projectKeys, sandboxKeys, versionKeys } from "./query-keys";
import {
  createProjectEventsClient,
  IDLE_CLOSE_MS,
  invalidateProjectQueries,
  RECONNECT_MAX_MS,
  reconnectDelayMs,
  type ProjectEventListener,
} from "./project-events";

class FakeSocket {
  readyState = 0;
  sent: unknown[] = [];
  closed = false;
  onopen: ((ev: Event) => unknown) | null = null;
  onmessage: ((ev: MessageEvent) => unknown) | null = null;
  onclose: ((ev: CloseEvent) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }
  receive(message: unknown) {
    this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(message) }));
  }
  drop() {
    this.readyState = 3;
    this.onclose?.(new CloseEvent("close", { code: 1006 }));
  }
}

function harness(token: string | null = "tok", onResync?: (projectId: string) => void) {
  const sockets: FakeSocket[] = [];
  const timers: Array<{ run: () => void; ms: number; cleared: boolean }> = [];
  const client = createProjectEventsClient({
    url: () => "ws://app/api/ws",
    getToken: async () => token,
    createSocket: (url, protocols) => {
      const s = new FakeSocket(url, protocols);
      sockets.push(s);
      return s;
    },
    setTimer: (run, ms) => {
      const t = { run, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => ((t as { cleared: boolean }).cleared = true),
    random: () => 0.5,
    onResync,
  });
  const fire = (i: number) => timers[i]!.run();
  return { client, sockets, timers, fire };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const file = { id: "f1", projectId: "p1", path: "a.ts", size: 1, updatedAt: "2024-01-01T00:00:00.000Z" };

test("back-off doubles from 500 ms up to 30 s, with half of it random", () => {
  expect(reconnectDelayMs(0, () => 0)).toBe(250);
  expect(reconnectDelayMs(0, () => 1)).toBe(500);
  expect(reconnectDelayMs(3, () => 1)).toBe(4000);
  expect(reconnectDelayMs(20, () => 1)).toBe(RECONNECT_MAX_MS);
  expect(reconnectDelayMs(20, () => 0)).toBe(RECONNECT_MAX_MS / 2);
});

test("connects with the token as a subprotocol, subscribes, and routes events by project", async () => {
  const { client, sockets } = harness();
  const got: FileEvent[] = [];
  const liveStates: boolean[] = [];
  client.subscribe("p1", { onEvent: (e) => got.push(e), onLive: (l) => liveStates.push(l) });
  await tick();
  expect(sockets).toHaveLength(1);
  expect(sockets[0]!.protocols).toEqual([WS_PROTOCOL, "tok"]);
  expect(sockets[0]!.url).toBe("ws://app/api/ws");
  sockets[0]!.open();
  expect(sockets[0]!.sent).toEqual([{ type: "subscribe", projectId: "p1" }]);
  sockets[0]!.receive({ type: "subscribed", projectId: "p1" });
  expect(client.isLive("p1")).toBe(true);
  expect(liveStates).toEqual([true]);

  sockets[0]!.receive({ type: "file.created", projectId: "p1", file });
  sockets[0]!.receive({ type: "file.created", projectId: "other", file });
  sockets[0]!.receive({ type: "error", message: "Project not found" });
  expect(got.map((e) => e.type)).toEqual(["file.created"]);
});

test("a dropped socket goes not-live and reconnects with back-off, then subscribes again", async () => {
  const { client, sockets, timers, fire } = harness();
  const liveStates: boolean[] = [];
  client.subscribe("p1", { onEvent: () => {}, onLive: (l) => liveStates.push(l) });
  await tick();
  sockets[0]!.open();
  sockets[0]!.receive({ type: "subscribed", projectId: "p1" });
  sockets[0]!.drop();
  expect(liveStates).toEqual([true, false]);
  expect(timers.map((t) => t.ms)).toEqual([375]);

  fire(0);
  await tick();
  expect(sockets).toHaveLength(2);
  sockets[1]!.drop(); // still down: the next wait is longer
  expect(timers.map((t) => t.ms)).toEqual([375, 750]);
  fire(1);
  await tick();
  sockets[2]!.open();
  expect(sockets[2]!.sent).toEqual([{ type: "subscribe", projectId: "p1" }]);
  sockets[2]!.receive({ type: "subscribed", projectId: "p1" });
  expect(liveStates).toEqual([true, false, true]);
});

test("no token yet: waits and tries again instead of opening a socket", async () => {
  const { client, sockets, timers } = harness(null);
  client.subscribe("p1", { onEvent: () => {} });
  await tick();
  expect(sockets).toHaveLength(0);
  expect(timers).toHaveLength(1);
});

test("the last listener leaving unsubscribes, and the idle socket closes after a grace period", async () => {
  const { client, sockets, timers, fire } = harness();
  const stopA = client.subscribe("p1", { onEvent: () => {} });
  const stopB = client.subscribe("p2", { onEvent: () => {} });
  await tick();
  sockets[0]!.open();
  expect(sockets[0]!.sent).toEqual([
    { type: "subscribe", projectId: "p1" },
    { type: "subscribe", projectId: "p2" },
  ]);
  stopA();
  expect(sockets[0]!.sent.at(-1)).toEqual({ type: "unsubscribe", projectId: "p1" });
  expect(timers).toHaveLength(0);
  stopB();
  expect(timers.map((t) => t.ms)).toEqual([IDLE_CLOSE_MS]);
  fire(0);
  expect(sockets[0]!.closed).toBe(true);
  // A closed-on-purpose socket is not reopened.
  expect(timers).toHaveLength(1);
});

test("a new listener within the grace period keeps the socket", async () => {
  const { client, sockets, timers } = harness();
  const stop = client.subscribe("p1", { onEvent: () => {} });
  await tick();
  sockets[0]!.open();
  sockets[0]!.receive({ type: "subscribed", projectId: "p1" });
  stop();
  const live: boolean[] = [];
  client.subscribe("p1", { onEvent: () => {}, onLive: (l) => live.push(l) });
  expect(timers[0]!.cleared).toBe(true);
  expect(sockets[0]!.sent.at(-1)).toEqual({ type: "subscribe", projectId: "p1" });
  expect(sockets).toHaveLength(1);
  sockets[0]!.receive({ type: "subscribed", projectId: "p1" });
  expect(live).toEqual([true]);
});

/** A client with `listener` on project p1 and its socket open. */
async function opened(listener: ProjectEventListener) {
  const { client, sockets } = harness();
  client.subscribe("p1", listener);
  await tick();
  sockets[0]!.open();
  return { client, sockets };
}

test("problems.changed reaches the project's listeners that asked for it, and no file listener", async () => {
  const got: FileEvent[] = [];
  let changed = 0;
  const { client, sockets } = await opened({ onEvent: (e) => got.push(e), onProblemsChanged: () => changed++ });
  client.subscribe("p2", { onEvent: (e) => got.push(e), onProblemsChanged: () => (changed += 100) });
  sockets[0]!.receive({ type: "problems.changed", projectId: "p1" });
  expect(changed).toBe(1);
  expect(got).toEqual([]);
});

test("process events on the same socket go to onProcessEvent of the project's listeners, not to onEvent", async () => {
  const files: unknown[] = [];
  const processes: unknown[] = [];
  const { sockets } = await opened({ onEvent: (e) => files.push(e), onProcessEvent: (e) => processes.push(e) });
  const output = { type: "process.output", projectId: "p1", name: "app", lines: [{ t: "2024-01-01T00:00:00.000Z", stream: "stdout", text: "ready" }] };
  const status = {
    type: "process.status",
    projectId: "p1",
    process: { name: "app", command: "npm run dev", status: "running", exitCode: null, ports: [5173], startedAt: null, restarts: 0 },
  };
  sockets[0]!.receive(output);
  sockets[0]!.receive(status);
  sockets[0]!.receive({ ...output, projectId: "p2" });
  expect(processes).toEqual([output, status]);
  expect(files).toEqual([]);
});

test("build events are parsed: well-formed ones reach onDeployment of the project's listeners, malformed ones are dropped", async () => {
  const files: unknown[] = [];
  const deployments: unknown[] = [];
  const { sockets } = await opened({ onEvent: (e) => files.push(e), onDeployment: (e) => deployments.push(e) });
  const log = { type: "deployment.log", projectId: "p1", deploymentId: "d1", text: "vite build\n" };
  const failed = { type: "deployment.status", projectId: "p1", deploymentId: "d1", status: "failed", url: "http://s.sites.localhost", error: "exit 1" };
  sockets[0]!.receive(log);
  sockets[0]!.receive(failed);
  sockets[0]!.receive({ ...log, projectId: "p2" });
  sockets[0]!.receive({ type: "deployment.log", projectId: "p1", deploymentId: "d1" });
  sockets[0]!.receive({ type: "deployment.log", projectId: "p1", deploymentId: "d1", text: 42 });
  sockets[0]!.receive({ ...failed, status: "exploded" });
  sockets[0]!.receive({ type: "deployment.status", projectId: "p1", status: "live", url: "http://s.sites.localhost" });
  expect(deployments).toEqual([log, failed]);
  expect(files).toEqual([]);
});

test("resync of a subscribed project asks for its queries again; one for another project is ignored", async () => {
  const resynced: string[] = [];
  const { client, sockets } = harness("tok", (projectId) => resynced.push(projectId));
  client.subscribe("p1", { onEvent: () => {} });
  await tick();
  sockets[0]!.open();
  sockets[0]!.receive({ type: "resync", projectId: "p1" });
  sockets[0]!.receive({ type: "resync", projectId: "p9" });
  expect(resynced).toEqual(["p1"]);
});

test("invalidateProjectQueries marks every query of the project stale, and the project list, and nothing of another project", async () => {
  const client = new QueryClient();
  const keys = [
    projectKeys.detail("p1"),
    projectKeys.model("p1"),
    fileKeys.list("p1"),
    fileKeys.content("p1", "f1"),
    messageKeys.list("p1"),
    sandboxKeys.processes("p1"),
    versionKeys.list("p1"),
  ];
  const others = [projectKeys.detail("p2"), fileKeys.list("p2"), messageKeys.list("p2"), sandboxKeys.processes("p2")];
  for (const key of [...keys, ...others, projectKeys.all]) client.setQueryData(key, { seeded: true });
  await invalidateProjectQueries(client, "p1");
  const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
  expect(keys.map(stale)).toEqual(keys.map(() => true));
  expect(stale(projectKeys.all)).toBe(true);
  expect(others.map(stale)).toEqual(others.map(() => false));
});

test("team events (presence, run.started, activity.changed) go to onTeamEvent of the project's listeners only", async () => {
  const files: unknown[] = [];
  const team: unknown[] = [];
  const { sockets } = await opened({ onEvent: (e) => files.push(e), onTeamEvent: (e) => team.push(e) });
  const presence = { type: "presence", projectId: "p1", people: [{ id: "u1", name: "Ana", picture: null }] };
  const started = { type: "run.started", projectId: "p1", messageId: "m1", userId: "u1", by: "Ana" };
  sockets[0]!.receive(presence);
  sockets[0]!.receive(started);
  sockets[0]!.receive({ type: "activity.changed", projectId: "p1" });
  sockets[0]!.receive({ type: "activity.changed", projectId: "p2" });
  expect(team).toEqual([presence, started, { type: "activity.changed", projectId: "p1" }]);
  expect(files).toEqual([]);
});

test("a listener joining later is handed the project's last presence at once", async () => {
  const { client, sockets } = await opened({ onEvent: () => {} });
  const presence = { type: "presence", projectId: "p1", people: [{ id: "u1", name: "Ana", picture: null }] };
  sockets[0]!.receive(presence);
  const late: unknown[] = [];
  client.subscribe("p1", { onEvent: () => {}, onTeamEvent: (e) => late.push(e) });
  expect(late).toEqual([presence]);
});
