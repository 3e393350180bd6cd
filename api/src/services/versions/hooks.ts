/**
 * The automatic versions: around an agent run that changed files, and after a person's edits in Files.
 * They never fail what they follow: a version that cannot be taken is logged and skipped.
 *
 * @example
 * const around = await versionsAroundRun(ctx, { projectId, label: userMessage, messageId });
 * await runAgent(…);
 * await around.after();
 */
import * as blobs from "../../db/blobs";
import * as versions from "../../db/versions";
import type { ServiceContext } from "../context";
import { withProjectLock } from "./project-lock";
import { captureState, type ProjectState, recordVersion, sameState, stateOf, takeVersion } from "./snapshot";
import { MAX_VERSION_LABEL_LENGTH } from "@shared/schemas/versions";

export const USER_EDIT_LABEL = "Edited in Files";

export const versionLabel = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim() || "Agent run";
  return flat.length <= MAX_VERSION_LABEL_LENGTH ? flat : `${flat.slice(0, MAX_VERSION_LABEL_LENGTH - 1)}…`;
};

/**
 * Notes the files and data as they are before an agent run; `after()` then records, only if the run changed
 * files or data, a version of the state before it (unless the newest version already is that state) and one
 * after it, both labelled with the user's message and carrying the run's message id.
 */
export async function versionsAroundRun(
  ctx: ServiceContext,
  run: { projectId: string; label: string; messageId: string },
): Promise<{ after(): Promise<void> }> {
  const label = versionLabel(run.label);
  let before: ProjectState;
  try {
    before = await withProjectLock(ctx.sql, run.projectId, async () => {
      const latest = await versions.latestVersion(ctx.sql, run.projectId);
      const { manifest, data } = await captureState(ctx, run.projectId, latest && stateOf(latest));
      return { manifest, data };
    });
  } catch (error) {
    ctx.logger.warn("files before the agent run not captured", { projectId: run.projectId, error: String(error) });
    return { after: async () => {} };
  }
  return {
    after: () =>
      withProjectLock(ctx.sql, run.projectId, async () => {
        const latest = await versions.latestVersion(ctx.sql, run.projectId);
        const after = await captureState(ctx, run.projectId, latest && stateOf(latest));
        if (sameState(before, after)) return;
        let parent = latest;
        if (!latest || !sameState(stateOf(latest), before)) {
          // The run may have outlasted the sweep's grace period: refresh the blobs only `before` names.
          const known = new Set(Object.values(latest?.manifest ?? {}).map(([sha256]) => sha256));
          const own = Object.values(before.manifest)
            .filter(([sha256]) => !known.has(sha256))
            .map(([sha256, size]) => ({ sha256, size }));
          if (before.data.sha256) own.push({ sha256: before.data.sha256, size: 0 });
          if ((await blobs.touchBlobs(ctx.sql, own)).size === 0) {
            const input = { projectId: run.projectId, source: "agent" as const, label: `Before: ${label}`, messageId: run.messageId };
            const taken = await recordVersion(ctx, input, before, latest);
            parent = { ...taken.version, manifest: before.manifest };
          }
        }
        await recordVersion(ctx, { projectId: run.projectId, source: "agent", label, messageId: run.messageId }, after, parent);
      }).catch((error) => ctx.logger.warn("version after the agent run not taken", { projectId: run.projectId, error: String(error) })),
  };
}

/** After a person saved, created, renamed or deleted a file in Files: the coalesced 'user' version. */
export async function versionAfterUserEdit(ctx: ServiceContext, projectId: string): Promise<void> {
  try {
    await takeVersion(ctx, { projectId, source: "user", label: USER_EDIT_LABEL });
  } catch (error) {
    ctx.logger.warn("version after a file edit not taken", { projectId, error: String(error) });
  }
}
