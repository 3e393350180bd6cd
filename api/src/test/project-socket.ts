/**
 * A project's file-event socket (`/api/ws`) for tests through the real server: subscribed, and keeping every
 * message it hears; and a wait for something a socket is told. Shared by the team and member socket tests.
 *
 * @example
 * const s = await listenToProject(server.ws, alice.token, projectId);
 * await until("alice hears the file", () => s.heard.some((m) => m.type === "file.created"));
 * s.last<PresenceEvent>("presence");
 */
import { WS_PROTOCOL } from "@shared/events/project-events";

export type HeardMessage = { type: string; file?: { path: string } };

/** Opens the socket at `wsBase` (`ws://host:port`) as `token`, resolving once it is subscribed to `projectId`. */
export async function listenToProject(wsBase: string, token: string, projectId: string) {
  const heard: HeardMessage[] = [];
  const ws = new WebSocket(`${wsBase}/api/ws`, [WS_PROTOCOL, token]);
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: "subscribe", projectId }));
    ws.onmessage = (m) => {
      const message = JSON.parse(String(m.data));
      heard.push(message);
      if (message.type === "subscribed") resolve();
    };
    ws.onerror = () => reject(new Error("socket failed"));
  });
  /** The newest message of a type, as that event's type. */
  const last = <T>(type: string) => heard.filter((m) => m.type === type).at(-1) as T | undefined;
  return { ws, heard, last };
}

/** Polls `check` every 20 ms until it holds; throws naming `what` after `ms`. */
export async function until(what: string, check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}
