/**
 * The assistant message a run is writing, rebuilt from the run's own events by the chat stream's one fold
 * (shared/src/events/fold-stream-event.ts), the same the chat view streams with. `final` is the message as
 * saved when the run ends; the fold's module doc says what becomes of in-progress steps.
 */
import { emptyRunFold, foldStreamEvent, toSavedMessage, type RunFold } from "@shared/events/fold-stream-event";
import type { RunStatus, StreamEvent } from "@shared/events/stream";
import type { RunMessage } from "./ports";

export class RunState {
  fold: RunFold = emptyRunFold();

  get error(): string | null {
    return this.fold.error;
  }

  apply(event: StreamEvent): void {
    this.fold = foldStreamEvent(this.fold, event);
  }

  snapshot(): RunMessage {
    return toSavedMessage(this.fold, "running");
  }

  /** The message as saved when the run ends: says what happened, settles unfinished badges. */
  final(status: RunStatus, stopNote?: string): RunMessage {
    return toSavedMessage(this.fold, status, stopNote);
  }
}
