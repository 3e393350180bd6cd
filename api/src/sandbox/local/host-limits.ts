/**
 * What bounds this host's local sandboxes, said once at start-up and in /api/ready: the cgroup hierarchy in
 * force (cgroups.ts) and the admission budget MAX_SANDBOXES_PER_HOST. Its default comes from memory: each
 * sandbox may use its whole memory limit, and GiB_KEPT for the API, PostgreSQL and the kernel, so the host
 * never overcommits; bench/sandbox-density.ts measures what sandboxes really use, for a larger value.
 *
 * @example
 * defaultMaxSandboxes(24 * 1024, 1024); // 22
 */
import os from "node:os";
import type { HostLimits } from "../types.ts";
import { detectCgroups } from "./cgroups.ts";
import type { Limits } from "./limits.ts";

/** Memory kept for everything but the sandboxes. */
const GIB_KEPT = 2;

export const totalMemoryMb = () => Math.floor(os.totalmem() / 1024 / 1024);

export function defaultMaxSandboxes(totalMb: number, sandboxMemoryMb: number): number {
  return Math.max(1, Math.floor((totalMb - GIB_KEPT * 1024) / sandboxMemoryMb));
}

export function describeHostLimits(opts: { cgroups?: boolean; cgroupV2Dir?: string | null; maxSandboxes?: number }, limits: Limits): HostLimits {
  const mode =
    opts.cgroups === false
      ? { kind: "none" as const, detail: "cgroups turned off for this provider; processes capped by RLIMIT_NPROC only" }
      : detectCgroups({ v2Dir: opts.cgroupV2Dir });
  return {
    cgroups: mode.kind,
    detail: mode.detail,
    maxSandboxes: opts.maxSandboxes ?? defaultMaxSandboxes(totalMemoryMb(), limits.memoryMb),
  };
}
