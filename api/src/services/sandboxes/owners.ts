/**
 * Where a project's local sandbox runs (issue 24, item 2): each has one owning instance, the one renewing its
 * lease, recorded with its internal address (db/sandbox-slots.ts). A request about it that lands elsewhere is
 * forwarded there; when the owner is gone (its lease lapsed unrenewed, or its address refused a connection)
 * the instance that got the request makes the sandbox again itself, from storage.
 * E2B sandboxes are reachable from every instance, and without INSTANCE_SECRET nothing is forwarded: both
 * are always served here.
 *
 * @example
 * const owner = await owners.find({ projectId });
 * if (owner.kind === "remote") return forwardToInstance(req, owner.url, auth) ?? (owners.gone(owner.url), serveHere());
 */
import { findSandboxOwner } from "../../db/sandbox-owner";
import type { Sql } from "../../db/client";
import { INSTANCE_ID, instanceInternalUrl } from "../../lib/instance";
import type { Logger } from "../../lib/logger";

export type SandboxOwner =
  /** Serve it here: this instance owns it, nobody does, or it is not forwarded at all. */
  | { kind: "here" }
  /** Another live instance owns it: forward to `url`. */
  | { kind: "remote"; url: string; instance: string; projectId: string }
  /** Another instance owned it and went away without stopping it: this one makes it again. */
  | { kind: "gone"; instance: string; projectId: string; ownerId: string };

export type SandboxOwners = ReturnType<typeof createSandboxOwners>;

/** An address that refused a connection is taken as gone for this long (its lease may still look live). */
const GONE_MS = 60_000;

export function createSandboxOwners(deps: { sql: Sql; logger: Logger; enabled: boolean }) {
  const goneUntil = new Map<string, number>();
  const isGone = (url: string) => (goneUntil.get(url) ?? 0) > Date.now();

  async function find(by: { projectId: string } | { sandboxId: string }): Promise<SandboxOwner> {
    if (!deps.enabled) return { kind: "here" };
    const row = await findSandboxOwner(deps.sql, by);
    if (!row?.sandboxId || !row.instance || row.instance === INSTANCE_ID) return { kind: "here" };
    if (row.url && row.url === instanceInternalUrl()) return { kind: "here" };
    if (row.live && row.url && !isGone(row.url)) return { kind: "remote", url: row.url, instance: row.instance, projectId: row.projectId };
    // A lease ended on purpose (the sandbox stopped) is no owner gone: the sandbox simply is not running.
    if (row.lapsed || (row.live && row.url && isGone(row.url))) return { kind: "gone", instance: row.instance, projectId: row.projectId, ownerId: row.ownerId };
    return { kind: "here" };
  }

  /** The owner at `url` could not be reached: its sandboxes are made again where they are next asked for. */
  function gone(url: string): void {
    if (!isGone(url)) deps.logger.warn("sandbox owner unreachable: its sandboxes start again where next used", { ownerUrl: url });
    goneUntil.set(url, Date.now() + GONE_MS);
  }

  return { find, gone };
}
