/**
 * The assistant answer being streamed, built event by event: the chat stream's one fold
 * (shared/src/events/fold-stream-event.ts), which the server's run recorder also uses. Pure, so the view
 * and the tests share it.
 *
 * @example
 * let run = emptyLiveRun();
 * for (const event of events) run = applyStreamEvent(run, event);
 */
import { emptyRunFold, foldStreamEvent, type RunFold } from "@shared/events/fold-stream-event";

export type LiveRun = RunFold;
export type LiveRunStatus = RunFold["status"];

export const emptyLiveRun = emptyRunFold;
export const applyStreamEvent = foldStreamEvent;
