/**
 * The sandbox slots of each user, in PostgreSQL so every instance sees them: a project's start claim (one
 * start of a project's sandbox at a time: a first creation, a reconnect or a recreate, on any instance) and
 * the leases of running sandboxes that MAX_SANDBOXES_PER_USER counts. A start is decided under a lock on
 * its owner's row, so two instances never both take the last slot.
 */
import { INSTANCE_ID as INSTANCE, instanceInternalUrl } from "../lib/instance";
import type { Sql } from "./client";

/** One of the owner's other sandboxes, as a start at the cap sees it. */
export type SlotHolder = { projectId: string; name: string; sandboxId: string | null; starting: boolean; answering: boolean };

export type StartClaim =
  /** Taken: the project is the caller's to start. `evicted` lost their lease to make room; the caller stops them. */
  | { kind: "claimed"; evicted: { projectId: string; sandboxId: string }[] }
  /** Another start of this project is under way (here or on another instance), or the project is gone. */
  | { kind: "held" }
  /** At the cap and every other sandbox is busy: nothing was changed. */
  | { kind: "full"; holders: SlotHolder[] };

const secs = (ms: number) => ms / 1000;

/**
 * Claims the project for a sandbox start (taken with `token` for `claimMs`) if no start of it is under way,
 * within the owner's `max` running sandboxes (0 = no cap): the owner's other projects whose sandbox is
 * running (a live lease) or starting (a live claim) count. At the cap, the least recently used of them that
 * are idle (not starting, no answer being written) lose their lease, as many as make room.
 */
export async function claimSandboxStart(sql: Sql, c: { ownerId: string; projectId: string; token: string; claimMs: number; max: number }): Promise<StartClaim> {
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql;
    await t`select id from users where id = ${c.ownerId} for update`;
    const [project] = await t<{ held: boolean }[]>`
      select coalesce(sandbox_claimed_until >= now(), false) as held from projects where id = ${c.projectId} for update`;
    if (!project || project.held) return { kind: "held" } as const;
    let evicted: { projectId: string; sandboxId: string }[] = [];
    if (c.max > 0) {
      const others = await t<SlotHolder[]>`
        select p.id as "projectId", p.name, p.sandbox_id as "sandboxId",
          coalesce(p.sandbox_claimed_until >= now(), false) as starting,
          exists (select 1 from messages m where m.project_id = p.id and m.status = 'running') as answering
        from projects p
        where p.owner_id = ${c.ownerId} and p.id <> ${c.projectId}
          and (p.sandbox_running_until >= now() or p.sandbox_claimed_until >= now())
        order by p.sandbox_used_at asc nulls first, p.id`;
      const excess = others.length - c.max + 1;
      if (excess > 0) {
        const idle = others.filter((o) => !o.starting && !o.answering && o.sandboxId).slice(0, excess);
        if (idle.length < excess) return { kind: "full", holders: others } as const;
        evicted = idle.map((o) => ({ projectId: o.projectId, sandboxId: o.sandboxId! }));
        await t`update projects set sandbox_running_until = null where id = any(${evicted.map((e) => e.projectId)}::uuid[])`;
      }
    }
    await t`
      update projects set sandbox_claim = ${c.token}, sandbox_claimed_until = now() + make_interval(secs => ${secs(c.claimMs)})
      where id = ${c.projectId}`;
    return { kind: "claimed", evicted } as const;
  });
}

/** Extends the claim `token` holds; false when it no longer holds it (it expired and someone took it). */
export async function renewSandboxClaim(sql: Sql, projectId: string, token: string, claimMs: number): Promise<boolean> {
  const rows = await sql`
    update projects set sandbox_claimed_until = now() + make_interval(secs => ${secs(claimMs)})
    where id = ${projectId} and sandbox_claim = ${token} returning id`;
  return rows.length > 0;
}

/** Ends the claim `token` holds (a claim someone else took after it expired is left alone). */
export async function releaseSandboxClaim(sql: Sql, projectId: string, token: string): Promise<void> {
  await sql`update projects set sandbox_claim = null, sandbox_claimed_until = null where id = ${projectId} and sandbox_claim = ${token}`;
}

/** Whether a start of the project is under way (a live claim); false for a missing project. */
export async function sandboxClaimHeld(sql: Sql, projectId: string): Promise<boolean> {
  const [row] = await sql<{ held: boolean }[]>`
    select sandbox_claimed_until is not null and sandbox_claimed_until >= now() as held from projects where id = ${projectId}`;
  return row?.held ?? false;
}

/**
 * Renews the leases of these running sandboxes for `leaseMs`, each only while it is still its project's
 * (a sandbox replaced or stopped meanwhile renews nothing), as owned by this instance (with its internal address). `used` also records its
 * owner's use now.
 */
export async function renewSandboxLeases(sql: Sql, running: { projectId: string; sandboxId: string }[], leaseMs: number, used = false): Promise<void> {
  if (!running.length) return;
  await sql`
    update projects p set sandbox_running_until = now() + make_interval(secs => ${secs(leaseMs)}), sandbox_instance = ${INSTANCE}, sandbox_instance_url = ${instanceInternalUrl()},
      sandbox_used_at = case when ${used} then now() else p.sandbox_used_at end
    from unnest(${running.map((r) => r.projectId)}::uuid[], ${running.map((r) => r.sandboxId)}::text[]) as r(project_id, sandbox_id)
    where p.id = r.project_id and p.sandbox_id = r.sandbox_id`;
}

/** The sandbox stopped: it no longer counts toward its owner's running sandboxes. */
export async function endSandboxLease(sql: Sql, projectId: string, sandboxId: string): Promise<void> {
  await sql`update projects set sandbox_running_until = null where id = ${projectId} and sandbox_id = ${sandboxId}`;
}

/** Records that the owner used the project's sandbox now (which idle sandbox is stopped first). */
export async function touchSandboxUse(sql: Sql, projectId: string): Promise<void> {
  await sql`update projects set sandbox_used_at = now() where id = ${projectId}`;
}
