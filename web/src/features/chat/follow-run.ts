/**
 * Following a running answer: its event stream (from the POST that started it, or from GET …/active when
 * reattaching to a run already going) read event by event until it ends, and how it ended. The run itself
 * goes on at the server whatever happens to the stream.
 *
 * @example
 * const res = await openActiveRun(projectId, signal);
 * if (res) console.log(await followRun(res, { signal, onEvent: (e) => console.log(e.type) })); // "done"
 */
import type { StreamEvent } from "@shared/events/stream";
import { api } from "../../api/endpoints";
import { readSse } from "../../api/sse";
import { parseStreamEvent } from "./stream-event";

/** `done`: the run's `done` event came; `dropped`: the stream failed or ended without it; `abandoned`: `signal` aborted; `no-body`: nothing to read. */
export type FollowEnd = "done" | "dropped" | "abandoned" | "no-body";

export async function followRun(res: Response, o: { signal: AbortSignal; onEvent: (event: StreamEvent) => void }): Promise<FollowEnd> {
  if (!res.body) return "no-body";
  let done = false;
  let failed = false;
  try {
    await readSse(
      res.body,
      (data) => {
        const event = parseStreamEvent(data);
        // Once abandoned, what is still buffered is no one's to show.
        if (!event || o.signal.aborted) return;
        if (event.type === "done") done = true;
        o.onEvent(event);
      },
      { signal: o.signal },
    );
  } catch {
    failed = true;
  }
  if (o.signal.aborted) return "abandoned";
  return failed || !done ? "dropped" : "done";
}

/** The project's active run's stream (replayed from its start), or null: no run going (204), the API unreachable, or `signal` aborted. */
export async function openActiveRun(projectId: string, signal: AbortSignal): Promise<Response | null> {
  let res: Response;
  try {
    res = await api.messages.active(projectId, { signal });
  } catch {
    return null; // the history shows what was saved
  }
  if (res.status === 204 || !res.body || signal.aborted) {
    letGo(res);
    return null;
  }
  return res;
}

/** Stops reading a run's stream that will not be followed. */
export function letGo(res: Response): void {
  void res.body?.cancel().catch(() => {});
}
