/**
 * Records a run as it goes: every event passes through `emit`, which folds it into the assistant message
 * (the chat stream's one fold, shared/src/events/fold-stream-event.ts), sends it to the run's subscribers
 * and saves the message soon (tool events at once, text at most every `progressSaveMs`). A heartbeat shows
 * the run alive. `finish` saves the message as the run ended; `sendDone` then sends `done`, held back until
 * the message is saved so a refetch on `done` sees it.
 *
 * `emit` is the one place a run's events (streamed text, thinking, tool results for the badges) pass
 * before they are sent or saved.
 *
 * @example
 * const recorder = createRunRecorder({ store, messageId, publish, logger, model: "gpt-4o-mini" });
 * await runAgent({ ...input, emit: recorder.emit });
 * recorder.stop();
 * const final = await recorder.finish("complete");
 * recorder.sendDone("complete", final.usage);
 */
import { emptyRunFold, foldStreamEvent, toSavedMessage, type SavedRunMessage } from "@shared/events/fold-stream-event";
import type { RunStatus, StreamEvent, TokenUsage } from "@shared/events/stream";
import type { Logger } from "../lib/logger";
import type { RunStore } from "./ports";
import { costOf, type ModelPrices } from "./usage-cost";

export type RunRecorder = {
  emit(event: StreamEvent): void;
  /** The run's error event, if one was sent. */
  readonly error: string | null;
  /** The model the run uses, saved with its usage (known once the conversation is loaded). */
  model: string;
  /** Stops the heartbeat and pending saves (the run has ended). */
  stop(): void;
  /** Saves the message as the run ended (three attempts); resolves with it, saved or not. */
  finish(status: RunStatus, stopNote?: string): Promise<SavedRunMessage>;
  sendDone(status: RunStatus, usage: TokenUsage | null): void;
};

export type RecorderOptions = {
  store: Pick<RunStore, "saveProgress" | "heartbeat" | "finish">;
  messageId: string;
  projectId: string;
  publish(event: StreamEvent): void;
  logger: Logger;
  model: string;
  prices?: ModelPrices;
  heartbeatMs?: number;
  progressSaveMs?: number;
  /** Wait before the n-th retry of the final save is n times this. */
  finishRetryMs?: number;
};

const FINISH_ATTEMPTS = 3;

export function createRunRecorder(o: RecorderOptions): RunRecorder {
  const progressSaveMs = o.progressSaveMs ?? 1_000;
  const finishRetryMs = o.finishRetryMs ?? 500;
  let fold = emptyRunFold();
  let saving: Promise<void> = Promise.resolve();
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let saveDue = Infinity;

  const save = () => {
    clearTimeout(saveTimer);
    saveDue = Infinity;
    const snapshot = toSavedMessage(fold, "running");
    saving = saving
      .then(() => o.store.saveProgress(o.messageId, snapshot))
      .catch((error) => {
        o.logger.warn("run progress not saved", { messageId: o.messageId, error: String(error) });
      });
  };
  const saveWithin = (ms: number) => {
    if (Date.now() + ms >= saveDue) return;
    clearTimeout(saveTimer);
    saveDue = Date.now() + ms;
    saveTimer = setTimeout(save, ms);
  };
  const heartbeat = setInterval(() => {
    saving = saving.then(() => o.store.heartbeat(o.messageId)).catch(() => {});
  }, o.heartbeatMs ?? 20_000);

  const recorder: RunRecorder = {
    model: o.model,
    get error() {
      return fold.error;
    },
    emit(event) {
      if (event.type === "done" && event.usage) {
        // The run's model and, when it has a price, the cost are saved with its tokens.
        event = { ...event, usage: { ...event.usage, model: recorder.model, cost: costOf(o.prices, recorder.model, event.usage) } };
      }
      fold = foldStreamEvent(fold, event);
      if (event.type === "done") return; // sent by sendDone, once the message is saved
      o.publish(event);
      saveWithin(event.type === "tool_start" || event.type === "tool_complete" ? 0 : progressSaveMs);
    },
    stop() {
      clearInterval(heartbeat);
      clearTimeout(saveTimer);
    },
    async finish(status, stopNote) {
      recorder.stop();
      await saving;
      const final = toSavedMessage(fold, status, stopNote);
      for (let attempt = 1; ; attempt++) {
        try {
          await o.store.finish(o.messageId, o.projectId, { ...final, status });
          return final;
        } catch (error) {
          if (attempt >= FINISH_ATTEMPTS) {
            o.logger.error("run result not saved", { messageId: o.messageId, error: String(error) });
            return final;
          }
          await Bun.sleep(finishRetryMs * attempt);
        }
      }
    },
    sendDone(status, usage) {
      o.publish({ type: "done", messageId: o.messageId, status, usage });
    },
  };
  return recorder;
}
