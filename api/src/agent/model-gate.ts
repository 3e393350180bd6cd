/**
 * MODEL_MAX_CONCURRENCY: at most `max` requests to one model at a time from this process. A request past it
 * waits its turn in order (first come, first served) and is told its place in the line as it changes
 * (1 = next), then 0 when it goes ahead; the chat shows "queued" with that place. A run stopped while it
 * waits leaves the line. 0 (the default) sets no limit: no gate at all.
 *
 * @example
 * const gate = createModelGate(2);
 * const release = await gate?.acquire("gpt-4o", signal, (position) => emit({ type: "queued", position }));
 * try { await ask(); } finally { release?.(); }
 */
export type ModelGate = {
  acquire(model: string, signal: AbortSignal, onQueued: (position: number) => void): Promise<() => void>;
  /** Requests waiting for the model now (for tests and metrics). */
  waiting(model: string): number;
};

type Waiter = { go: () => void; onQueued: (position: number) => void };

export function createModelGate(max: number): ModelGate | undefined {
  if (max <= 0) return undefined;
  const lines = new Map<string, { active: number; waiting: Waiter[] }>();
  const lineOf = (model: string) => {
    let line = lines.get(model);
    if (!line) lines.set(model, (line = { active: 0, waiting: [] }));
    return line;
  };
  /** Everyone from `from` on moved one place up. */
  const renumber = (waiting: Waiter[], from = 0) => waiting.forEach((w, i) => i >= from && w.onQueued(i + 1));

  return {
    waiting: (model) => lines.get(model)?.waiting.length ?? 0,
    async acquire(model, signal, onQueued) {
      const line = lineOf(model);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        line.active--;
        const next = line.waiting.shift();
        if (!next) return;
        line.active++;
        next.go();
        renumber(line.waiting);
      };
      if (signal.aborted) throw signal.reason;
      if (line.active < max) {
        line.active++;
        return release;
      }
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          go: () => {
            signal.removeEventListener("abort", leave);
            onQueued(0);
            resolve();
          },
          onQueued,
        };
        function leave() {
          const at = line.waiting.indexOf(waiter);
          if (at >= 0) line.waiting.splice(at, 1);
          if (at >= 0) renumber(line.waiting, at);
          reject(signal.reason);
        }
        line.waiting.push(waiter);
        signal.addEventListener("abort", leave, { once: true });
        onQueued(line.waiting.length);
      });
      return release;
    },
  };
}
