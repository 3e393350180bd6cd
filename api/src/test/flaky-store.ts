/** An ObjectStore whose operations can be made to fail on demand, to test what failures leave behind. */
import type { ObjectStore } from "../storage/types";

type Op = "put" | "get" | "delete" | "deletePrefix" | "list" | "ping";

export function flakyStore(inner: ObjectStore): ObjectStore & { failing: Set<Op> } {
  const failing = new Set<Op>();
  const guard =
    <A extends unknown[], R>(op: Op, fn: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      if (failing.has(op)) throw Object.assign(new Error(`simulated ${op} failure`), { code: "ECONNREFUSED" });
      return fn(...args);
    };
  return {
    kind: inner.kind,
    failing,
    put: guard("put", inner.put.bind(inner)),
    get: guard("get", inner.get.bind(inner)),
    getStream: guard("get", inner.getStream.bind(inner)),
    delete: guard("delete", inner.delete.bind(inner)),
    deletePrefix: guard("deletePrefix", inner.deletePrefix.bind(inner)),
    list: guard("list", inner.list.bind(inner)),
    ping: guard("ping", inner.ping.bind(inner)),
  };
}
