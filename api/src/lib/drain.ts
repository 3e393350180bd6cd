/**
 * Whether this instance is draining: it got SIGTERM (a deploy, `docker compose stop`) and is on its way out.
 * From that moment `/api/ready` answers 503 (the load balancer's health check moves traffic to other
 * instances), and nothing new starts here (no agent run, no sandbox, no publish build), each refused with a
 * 503 that says why; work already under way finishes within DRAIN_TIMEOUT_S.
 *
 * @example
 * const drain = createDrain();
 * drain.refuseNew("run"); // throws while draining
 * process.on("SIGTERM", () => drain.begin());
 */
import { AppError } from "./errors";

export type Drain = {
  readonly draining: boolean;
  begin(): void;
  /** Throws a 503 when the instance is draining; does nothing otherwise. */
  refuseNew(what: "run" | "sandbox" | "publish"): void;
};

const WHAT = { run: "AI answers", sandbox: "sandboxes", publish: "publish builds" } as const;

export function createDrain(): Drain {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    begin() {
      draining = true;
    },
    refuseNew(what) {
      if (!draining) return;
      throw new AppError(503, "shutting_down", `This server is shutting down and starts no new ${WHAT[what]}; try again in a moment.`, {
        headers: { "Retry-After": "2" },
      });
    },
  };
}
