/**
 * Starting a project's sandbox: one start of a project at a time, and at most MAX_SANDBOXES_PER_USER
 * running per user, on every instance together (the claims and leases of db/sandbox-slots.ts).
 *
 * At the cap, a start stops the owner's least recently used idle sandbox to make room, as a tab switched
 * away from is left for the one in front: all its files are stored, and it starts again (its app too) when
 * its project is next used. Only when every one is busy (an AI answer being written in it, or itself still
 * starting) is the start refused with a 429 naming them. A running sandbox counts through a lease that
 * the instances holding it renew while it lives, so one whose instance died stops counting within
 * LEASE_MS; a start's claim is renewed while it runs and lapses as quickly if its instance dies.
 *
 * @example
 * const slot = await slots.claim(ownerId, projectId); // null: a start of the project runs elsewhere
 * try { ... } finally { await slot.release(); }
 */
import * as slotRows from "../../db/sandbox-slots";
import { AppError } from "../../lib/errors";
import type { LifecycleDeps } from "./lifecycle";

/** A start's claim: renewed while the start runs, so only the claim of an instance that died runs out. */
const CLAIM_MS = 60_000;
/** A running sandbox's lease, renewed every third of it by the instances that have it attached. */
const LEASE_MS = 90_000;
/** The owner's use of an attached sandbox is recorded at most this often (it orders the idle ones). */
const USE_RECORD_MS = 30_000;
const CLAIM_POLL_MS = 250;
/** The longest a start waits for another start of its project (a template install included) before giving up. */
const WAIT_MS = 15 * 60_000;

export type StartSlot = {
  /** Sandboxes that lost their lease to make room: the caller stops them before it starts one. */
  evicted: { projectId: string; sandboxId: string }[];
  release(): Promise<void>;
};

export type SandboxSlots = ReturnType<typeof createSandboxSlots>;

export function createSandboxSlots(ctx: LifecycleDeps) {
  const lastUse = new Map<string, number>();
  const leaseMs = ctx.sandboxLeaseMs ?? LEASE_MS;

  /**
   * The project's start claim, with room among its owner's sandboxes; null while another start of the
   * project runs (here or elsewhere); a 429 when the owner's sandboxes are all busy.
   */
  async function claim(ownerId: string, projectId: string): Promise<StartSlot | null> {
    const token = crypto.randomUUID();
    const max = ctx.config.limits.maxSandboxesPerUser;
    const taken = await slotRows.claimSandboxStart(ctx.sql, { ownerId, projectId, token, claimMs: CLAIM_MS, max });
    if (taken.kind === "held") return null;
    if (taken.kind === "full") throw allBusy(max, taken.holders);
    const renewal = setInterval(() => {
      void slotRows
        .renewSandboxClaim(ctx.sql, projectId, token, CLAIM_MS)
        .catch((error) => ctx.logger.warn("sandbox start claim not renewed", { projectId, error: String(error) }));
    }, CLAIM_MS / 3);
    renewal.unref?.();
    return {
      evicted: taken.evicted,
      async release() {
        clearInterval(renewal);
        await slotRows
          .releaseSandboxClaim(ctx.sql, projectId, token)
          .catch((error) => ctx.logger.warn("sandbox start claim not released (it expires on its own)", { projectId, error: String(error) }));
      },
    };
  }

  /** Waits while a start of the project runs elsewhere; a 503 if it has not ended after WAIT_MS. */
  async function waitWhileHeld(projectId: string): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (await slotRows.sandboxClaimHeld(ctx.sql, projectId)) {
      if (Date.now() > deadline) throw new AppError(503, "dependency_unavailable", "Starting this project's sandbox is taking too long elsewhere; try again.");
      await Bun.sleep(CLAIM_POLL_MS);
    }
  }

  /** The sandbox is the project's and running: it counts toward its owner's sandboxes from now. */
  async function running(projectId: string, sandboxId: string): Promise<void> {
    lastUse.set(projectId, Date.now());
    await slotRows.renewSandboxLeases(ctx.sql, [{ projectId, sandboxId }], leaseMs, true);
  }

  /** Its owner used the project's running sandbox (recorded at most every USE_RECORD_MS). Never rejects. */
  function used(projectId: string): void {
    if (Date.now() - (lastUse.get(projectId) ?? 0) < USE_RECORD_MS) return;
    lastUse.set(projectId, Date.now());
    void slotRows.touchSandboxUse(ctx.sql, projectId).catch(() => {});
  }

  /** The sandbox stopped: it no longer counts. Never rejects. */
  async function stopped(projectId: string, sandboxId: string): Promise<void> {
    lastUse.delete(projectId);
    await slotRows
      .endSandboxLease(ctx.sql, projectId, sandboxId)
      .catch((error) => ctx.logger.warn("sandbox lease not ended (it runs out on its own)", { projectId, error: String(error) }));
  }

  /** Renews the leases of these sandboxes (the live ones this instance has attached). Never rejects. */
  async function renew(alive: { projectId: string; sandboxId: string }[]): Promise<void> {
    await slotRows
      .renewSandboxLeases(ctx.sql, alive, leaseMs)
      .catch((error) => ctx.logger.warn("sandbox leases not renewed", { count: alive.length, error: String(error) }));
  }

  return { claim, waitWhileHeld, running, used, stopped, renew, leaseMs };
}

/** The refusal at the cap, naming what keeps each sandbox busy and what the user can do. */
function allBusy(max: number, holders: slotRows.SlotHolder[]): AppError {
  const why = holders.map((h) => `"${h.name}" ${h.answering ? "is writing an AI answer" : "is starting its sandbox"}`);
  const list = why.length > 1 ? `${why.slice(0, -1).join(", ")} and ${why.at(-1)}` : why[0];
  return new AppError(
    429,
    "rate_limited",
    `Your account may run ${max} sandbox${max === 1 ? "" : "es"} at once and all are busy: ${list}. ` +
      "This project's sandbox can start when one of them finishes (or when you stop its answer); try again then.",
    { headers: { "Retry-After": "30" } },
  );
}
