/**
 * "Restore to before this message" and "Undo this run": which version holds the project's files as they
 * were just before a chat message's agent run. The run's own versions say it exactly (they carry its
 * assistant message's id); a run that changed nothing has none, and then the newest version taken before
 * the message was sent is that state.
 *
 * @example
 * const target = await versionBeforeMessage(ctx, access, userMessageId);
 * await restoreVersion(ctx, access, target.id);
 */
import type { VersionSummary } from "@shared/schemas/versions";
import * as versions from "../../db/versions";
import { AppError, notFound } from "../../lib/errors";
import { isUuid, type ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import { getProject } from "../projects";

export const NO_VERSION_BEFORE = "No saved version of the files from before this message";

export async function versionBeforeMessage(ctx: ServiceContext, access: ProjectAccess, messageId: string): Promise<VersionSummary> {
  const project = await getProject(ctx, access);
  const message = isUuid(messageId) ? await versions.runOfMessage(ctx.sql, project.id, messageId) : null;
  if (!message) throw notFound("Message");

  const own = message.runMessageId ? await versions.versionsOfMessage(ctx.sql, project.id, message.runMessageId) : [];
  let found: versions.VersionRow | null = null;
  // Two versions: "Before: …" (the files as the run found them) and the run's result. One: only the
  // result was recorded, as the newest version already held the files as the run found them: its parent.
  if (own.length >= 2) found = own[0]!;
  else if (own.length === 1) found = own[0]!.parentId ? await versions.findVersionRow(ctx.sql, project.id, own[0]!.parentId) : null;
  else found = await versions.latestVersionAt(ctx.sql, project.id, message.createdAt);
  if (!found) throw new AppError(404, "not_found", NO_VERSION_BEFORE);
  return versions.toSummary(found);
}
