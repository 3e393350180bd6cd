/**
 * Answers reached from any instance. A run lives in the process that started it; a reattach (`GET …/active`)
 * or a Stop that lands on another instance behind the load balancer is relayed over the event bus's run
 * channel: this instance asks (`run.attach`, `run.stop`) and the instance that has the run answers, streaming
 * its events (every one so far, then the live ones) or stopping it and saying so once it is saved. The
 * 'running' assistant message in the database says whether there is a run to ask for at all.
 * On the memory bus there is one instance and nothing to relay: the run manager is returned as it is.
 *
 * @example
 * const runs = relayRuns(createAgentRuns(…), { sql, events, logger });
 * const run = await runs.active(access); // this instance's run, or the one another instance runs
 */
import type { RunStatus, StreamEvent } from "@shared/events/stream";
import type { Run, RunManager } from "../../agent/runs";
import { findRunningMessage, runStatus } from "../../db/message-runs";
import type { RunBusEvent } from "../../events/types";
import { INSTANCE_ID } from "../../lib/instance";
import type { ServiceContext } from "../context";

/** Characters of an event's JSON per NOTIFY: even escaped again and in UTF-8, well under its 8000 bytes. */
const PIECE_CHARS = 2000;

export type RelayTimings = {
  /** How long an asking instance waits for the run's first event before taking the run for gone. */
  attachWaitMs?: number;
  /** How long a Stop relayed elsewhere waits to hear the run stopped and saved. */
  stopWaitMs?: number;
  /**
   * How often a relayed stream checks that its message is still running: if the instance running it died (the
   * sweep marks it failed) or its last events were lost, the stream ends with `done` as the database has it.
   */
  checkMs?: number;
};

export function relayRuns(runs: RunManager, deps: Pick<ServiceContext, "sql" | "events" | "logger">, timings: RelayTimings = {}): RunManager {
  if (deps.events.kind === "memory") return runs;
  const attachWaitMs = timings.attachWaitMs ?? 3_000;
  const stopWaitMs = timings.stopWaitMs ?? 30_000;
  const checkMs = timings.checkMs ?? 15_000;
  const { events, logger } = deps;

  // Everything this instance publishes on the run channel goes out one at a time, so it arrives in order.
  let sending: Promise<unknown> = Promise.resolve();
  const send = (event: RunBusEvent) => {
    sending = sending
      .then(() => events.publishRun(event))
      .catch((error) => logger.warn("run relay event not sent", { type: event.type, error: String(error) }));
    return sending;
  };

  // ---- The instance that has the run: answers the others. ----
  const relaying = new Map<string, () => void>();
  const stopAnswering = events.subscribeRun((event) => {
    if (event.type === "run.attach") return relayTo(event.projectId, event.requestId);
    if (event.type === "run.detach") return relaying.get(event.requestId)?.();
    if (event.type === "run.stop" && runs.local(event.projectId)) {
      // Heard at once (saving the answer can take a moment): the asking instance then waits for the end.
      void send({ type: "run.stopping", projectId: event.projectId, requestId: event.requestId });
      void runs.stopLocal(event.projectId).then(
        (result) => send({ type: "run.stopped", projectId: event.projectId, requestId: event.requestId, instance: INSTANCE_ID, ...result }),
        (error) => logger.warn("relayed stop failed", { projectId: event.projectId, error: String(error) }),
      );
    }
  });

  function relayTo(projectId: string, requestId: string): void {
    const run = runs.local(projectId);
    if (!run) return;
    logger.info("relaying a run to another instance", { projectId, messageId: run.messageId });
    let seq = 0;
    let ended = false;
    let unsubscribe = () => {};
    const end = () => {
      ended = true;
      unsubscribe();
      relaying.delete(requestId);
    };
    relaying.set(requestId, end);
    unsubscribe = run.subscribe((streamEvent) => {
      if (ended) return;
      const json = JSON.stringify(streamEvent);
      const parts = Math.max(1, Math.ceil(json.length / PIECE_CHARS));
      for (let part = 0; part < parts; part++) {
        const text = json.slice(part * PIECE_CHARS, (part + 1) * PIECE_CHARS);
        void send({ type: "run.event", projectId, requestId, instance: INSTANCE_ID, messageId: run.messageId, seq, part, parts, text });
      }
      seq++;
      if (streamEvent.type === "done") end();
    });
    if (ended) unsubscribe(); // `done` was in the replay
  }

  // ---- An instance without the run: asks for it. ----
  async function remoteActive(projectId: string): Promise<Run | null> {
    const messageId = await findRunningMessage(deps.sql, projectId);
    if (!messageId) return null;
    const requestId = crypto.randomUUID();
    const received: StreamEvent[] = [];
    const listeners = new Set<(event: StreamEvent) => void>();
    const pieces = new Map<number, { texts: string[]; got: number }>();
    let next = 0;
    let answered!: () => void;
    const firstEvent = new Promise<void>((resolve) => (answered = resolve));
    let finish!: (status: RunStatus) => void;
    const finished = new Promise<RunStatus>((resolve) => (finish = resolve));
    let closed = false;

    const deliver = (event: StreamEvent) => {
      received.push(event);
      for (const listener of listeners) listener(event);
      if (event.type === "done") {
        close(false);
        finish(event.status ?? "complete");
      }
    };
    const off = events.subscribeRun((event) => {
      if (event.type !== "run.event" || event.requestId !== requestId || closed) return;
      answered();
      const piece = pieces.get(event.seq) ?? { texts: new Array<string>(event.parts), got: 0 };
      if (piece.texts[event.part] === undefined) piece.got++;
      piece.texts[event.part] = event.text;
      pieces.set(event.seq, piece);
      // Whole events, in the order they were sent, however the pieces arrived.
      for (let ready = pieces.get(next); ready && ready.got === ready.texts.length && !closed; ready = pieces.get(next)) {
        pieces.delete(next++);
        try {
          deliver(JSON.parse(ready.texts.join("")) as StreamEvent);
        } catch (error) {
          logger.warn("relayed run event unreadable", { projectId, error: String(error) });
        }
      }
    });
    const check = setInterval(async () => {
      const status = await runStatus(deps.sql, messageId).catch(() => "running" as const);
      if (status === "running" || closed) return;
      deliver({ type: "done", messageId, ...(status ? { status } : {}) });
    }, checkMs);
    const close = (tellOwner: boolean) => {
      if (closed) return;
      closed = true;
      clearInterval(check);
      off();
      listeners.clear();
      if (tellOwner) void send({ type: "run.detach", projectId, requestId });
    };

    await send({ type: "run.attach", projectId, requestId });
    const timedOut = await Promise.race([firstEvent.then(() => false), Bun.sleep(attachWaitMs).then(() => true)]);
    if (timedOut) {
      close(true);
      logger.warn("no instance answered for a running answer; it may have died (the sweep marks it failed)", { projectId, messageId });
      return null;
    }
    return {
      projectId,
      // Only the starting request names the sender (run.started carried it to the others already).
      by: "",
      userMessageId: "",
      messageId,
      finished,
      subscribe(listener) {
        for (const event of received) listener(event);
        if (closed) return () => {};
        listeners.add(listener);
        return () => {
          listeners.delete(listener);
          if (listeners.size === 0) close(true);
        };
      },
    };
  }

  async function remoteStop(projectId: string): Promise<{ stopped: boolean; messageId: string | null }> {
    const messageId = await findRunningMessage(deps.sql, projectId);
    if (!messageId) return { stopped: false, messageId: null };
    const requestId = crypto.randomUUID();
    let off = () => {};
    let acknowledged!: () => void;
    const stopping = new Promise<void>((resolve) => (acknowledged = resolve));
    const heard = new Promise<{ stopped: boolean; messageId: string | null }>((resolve) => {
      off = events.subscribeRun((event) => {
        if (event.requestId !== requestId) return;
        if (event.type === "run.stopping") acknowledged();
        if (event.type === "run.stopped") resolve({ stopped: event.stopped, messageId: event.messageId });
      });
    });
    try {
      await send({ type: "run.stop", projectId, requestId });
      // Nobody has the run (its instance died): said after the attach wait, not after the whole stop wait.
      const owned = await Promise.race([stopping.then(() => true), heard.then(() => true), Bun.sleep(attachWaitMs).then(() => false)]);
      const answer = owned ? await Promise.race([heard, Bun.sleep(stopWaitMs).then(() => null)]) : null;
      if (!answer) logger.warn("no instance answered a relayed stop", { projectId, messageId });
      return answer ?? { stopped: false, messageId };
    } finally {
      off();
    }
  }

  return {
    ...runs,
    async active(access) {
      return (await runs.active(access)) ?? remoteActive(access.projectId);
    },
    async stop(access) {
      const here = await runs.stop(access);
      return here.stopped ? here : remoteStop(access.projectId);
    },
    async shutdown() {
      // The runs end first: their last events, `done` included, still reach viewers on other instances.
      await runs.shutdown();
      await sending;
      stopAnswering();
      for (const end of [...relaying.values()]) end();
    },
  };
}
