/**
 * Carries a sandbox's named-process events to the event bus (so every instance's WebSocket clients, and
 * services such as problem capture, get them) and keeps the project's preview on the first port `app` listens on
 * that answers HTTP (a dev server may also hold a socket for HMR, a debugger or a database, and one poll lists
 * ports in the kernel's order).
 * Live output is bounded: events stay under PostgreSQL NOTIFY's 8000-byte payload limit, and a process
 * writing faster than a person can read has its excess summarised live (the logs endpoint keeps every line).
 */
import { PROCESS_OUTPUT, PROCESS_STATUS } from "@shared/events/process-events";
import { APP_PROCESS, type ProcessLogLine } from "@shared/schemas/processes";
import { getPreviewPort, setPreviewPort, setProjectSandbox } from "../../db/project-sandbox";
import type { Config } from "../../lib/config";
import type { Sandbox } from "../../sandbox/types";
import type { ServiceContext } from "../context";
import { previewUrlFor } from "./preview-url";
import { firstHttpPort } from "./workflow";

/** Bytes of line text (as JSON, UTF-8) per published output event: with the envelope, well under NOTIFY's 8000. */
const EVENT_TEXT_BYTES = 4_000;
/** Live output per process per second; beyond it lines are counted, not sent. */
const LIVE_CHARS_PER_SECOND = 64 * 1024;

export type ProcessEventDeps = ServiceContext & { config: Config };

/** What a text costs inside an event: its JSON form in UTF-8 (escapes such as ANSI colour codes grow it). */
const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text));

/** Splits lines into batches whose text fits one event, cutting any single over-long line. */
export function outputBatches(lines: ProcessLogLine[], maxBytes = EVENT_TEXT_BYTES): ProcessLogLine[][] {
  const batches: ProcessLogLine[][] = [];
  let current: ProcessLogLine[] = [];
  let size = 0;
  for (const line of lines) {
    let text = line.text;
    // A character costs at most 6 bytes as JSON (\u001b); cut to what surely fits.
    if (jsonBytes(text) > maxBytes) text = `${text.slice(0, Math.floor(maxBytes / 6) - 1)}…`;
    const cost = jsonBytes(text);
    if (size + cost > maxBytes && current.length) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push({ ...line, text });
    size += cost;
  }
  if (current.length) batches.push(current);
  return batches;
}

/** Starts publishing `sandbox`'s process events for the project; returns the function that stops it. */
export function publishProcessEvents(deps: ProcessEventDeps, ownerId: string, projectId: string, sandbox: Sandbox): () => void {
  const budget = new Map<string, { windowStart: number; used: number; skipped: number }>();
  const publish = (event: Parameters<ServiceContext["events"]["publish"]>[0]) =>
    void deps.events.publish(event).catch((error) => deps.logger.warn("process event not published", { projectId, error: String(error) }));

  const within = (name: string, lines: ProcessLogLine[]): ProcessLogLine[] => {
    const now = Date.now();
    let b = budget.get(name);
    if (!b || now - b.windowStart >= 1000) {
      const skipped = b?.skipped ?? 0;
      b = { windowStart: now, used: 0, skipped: 0 };
      budget.set(name, b);
      if (skipped) lines = [{ t: new Date().toISOString(), stream: "stderr", text: `[${skipped} lines not shown live; the logs keep them]` }, ...lines];
    }
    const out: ProcessLogLine[] = [];
    for (const line of lines) {
      if (b.used + line.text.length > LIVE_CHARS_PER_SECOND) b.skipped++;
      else {
        b.used += line.text.length;
        out.push(line);
      }
    }
    return out;
  };

  /** The port set `app` was last seen with (a repeat of it is not probed again). */
  let followed = "";
  const followAppPort = async (ports: number[]) => {
    const key = ports.join(",");
    if (key === followed) return;
    followed = key;
    // One port leaves nothing to choose: no request is made (it would show in the app's log). With none
    // answering yet, the first is the best guess.
    const port = ports.length === 1 ? ports[0]! : ((await firstHttpPort(sandbox, ports)) ?? ports[0]!);
    if (followed !== key) return; // the ports changed while these were probed: the newer set decides
    if ((await getPreviewPort(deps.sql, projectId)) === port) return;
    await setPreviewPort(deps.sql, projectId, port);
    await setProjectSandbox(deps.sql, projectId, sandbox.id, previewUrlFor(deps.config.preview, sandbox, port));
  };

  return sandbox.processes.subscribe((event) => {
    if (event.type === "output") {
      for (const lines of outputBatches(within(event.name, event.lines))) {
        publish({ type: PROCESS_OUTPUT, projectId, name: event.name, lines, ownerId, origin: "sandbox" });
      }
      return;
    }
    publish({ type: PROCESS_STATUS, projectId, process: event.process, ownerId, origin: "sandbox" });
    const { ports } = event.process;
    if (event.process.name === APP_PROCESS && ports.length) {
      followAppPort(ports).catch((error) => deps.logger.warn("could not point the preview at the app's port", { projectId, ports, error: String(error) }));
    }
  });
}
