/**
 * The three-way plan of a pull: for each path, the merge base (the files as last synced with the remote),
 * ours (the project's files now) and theirs (the remote's head). A side that did not change the file gives
 * way to the other; both changed the same way is no change; both changed differently merges text files
 * line by line (node-diff3, the diff3 algorithm), and anything else (a binary file, a deletion against an
 * edit, overlapping lines) is a conflict. Content is named by its sha256 throughout.
 *
 * @example
 * const plan = await planPull({ base, ours, theirs, read, readBase });
 * if (plan.conflicts.length) throw …; // nothing is written
 */
import { diff3Merge } from "node-diff3";
import { asText } from "../file-content";

/** path → sha256 */
export type Side = Map<string, string>;
export type Change = { path: string; bytes: Uint8Array } | { path: string; delete: true };
export type PullPlan = { changes: Change[]; conflicts: string[]; merged: string[] };

const lines = (text: string) => text.split(/(?<=\n)/);

/** The clean three-way merge of one text file, or null when the sides overlap. */
export function mergeText(ours: string, base: string, theirs: string): string | null {
  const regions = diff3Merge(lines(ours), lines(base), lines(theirs), { excludeFalseConflicts: true });
  if (regions.some((r) => r.conflict)) return null;
  return regions.flatMap((r) => r.ok ?? []).join("");
}

export async function planPull(o: {
  base: Side;
  ours: Side;
  theirs: Side;
  /** Bytes of a content by sha256, from either side. */
  read(sha256: string): Promise<Uint8Array>;
}): Promise<PullPlan> {
  const plan: PullPlan = { changes: [], conflicts: [], merged: [] };
  const paths = new Set([...o.base.keys(), ...o.ours.keys(), ...o.theirs.keys()]);
  for (const path of [...paths].sort()) {
    const b = o.base.get(path);
    const l = o.ours.get(path);
    const r = o.theirs.get(path);
    if (r === b || l === r) continue; // the remote did not change it, or both made the same change
    if (l === b) {
      plan.changes.push(r === undefined ? { path, delete: true } : { path, bytes: await o.read(r) });
      continue;
    }
    if (b === undefined || l === undefined || r === undefined) {
      plan.conflicts.push(path);
      continue;
    }
    const [ourText, baseText, theirText] = [asText(await o.read(l)), asText(await o.read(b)), asText(await o.read(r))];
    const merged = ourText !== null && baseText !== null && theirText !== null ? mergeText(ourText, baseText, theirText) : null;
    if (merged === null) plan.conflicts.push(path);
    else {
      plan.changes.push({ path, bytes: new TextEncoder().encode(merged) });
      plan.merged.push(path);
    }
  }
  return plan;
}
