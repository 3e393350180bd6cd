/**
 * A SandboxProvider whose sandboxes live in memory, for lifecycle tests with one provider per API instance.
 * `startMs` makes creation slow enough for callers to overlap; providers made with the same `shared` map
 * reach each other's sandboxes, as E2B's do from every instance (otherwise each instance reaches only its
 * own, as the local provider's).
 *
 * @example
 * const pool = new Map(); const [pa, pb] = [memoryProvider({ shared: pool }), memoryProvider({ shared: pool })];
 */
import type { Sandbox, SandboxProvider } from "../sandbox/types";
import { memorySandbox } from "./memory-sandbox";

export function memoryProvider(o: { startMs?: number; shared?: Map<string, Sandbox> } = {}) {
  const live = o.shared ?? new Map<string, Sandbox>();
  const created: string[] = [];
  /** Each sandbox made, with its in-memory parts (`writes` counts the writes into it by path). */
  const boxes = new Map<string, ReturnType<typeof memorySandbox>>();
  const killed: string[] = [];
  const provider: SandboxProvider = {
    kind: "local",
    async create() {
      await Bun.sleep(o.startMs ?? 300);
      const box = memorySandbox();
      const { sandbox } = box;
      boxes.set(sandbox.id, box);
      const own: Sandbox = {
        ...sandbox,
        isAlive: async () => live.has(sandbox.id),
        kill: async () => {
          if (live.delete(sandbox.id)) killed.push(sandbox.id);
        },
      };
      live.set(own.id, own);
      created.push(own.id);
      return own;
    },
    connect: async (id) => live.get(id) ?? null,
    shutdown: async () => {
      for (const id of created) live.delete(id);
    },
  };
  return { provider, created, killed, live, boxes };
}
