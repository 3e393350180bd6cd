/**
 * Chat runs, the server's side of the agent: where a run's messages are saved (the claim, its progress,
 * the heartbeat, the end), what a run reads before it starts (the attached images, the
 * project with its files, its AGENTS.md and its messages), and each run's workspace. `compose.ts` hands these to the agent's
 * run manager; the abandoned-run sweep lives beside them (`abandoned-runs.ts`).
 *
 * @example
 * const chatRuns = createChatRuns({ ...ctx, signer, sandboxes });
 * const claimed = await chatRuns.claim({ projectId, userMessageId, assistantMessageId, content: "Hi", attachments: [] });
 */
import type { RunStatus } from "@shared/events/stream";
import type { RunClaim } from "../../agent/ports";
import * as runs from "../../db/message-runs";
import { listMessages } from "../../db/messages";
import { findProjectById, findProjectModel } from "../../db/projects";
import { notFound } from "../../lib/errors";
import { redactDeep, redactSecrets, type SecretValue } from "../../lib/secret-redactor";
import type { ServiceContext } from "../context";
import type { ProjectAccess } from "../access";
import { listProjectFiles } from "../files";
import { markImagesAttached, readAttachedImages, type ImageSigner } from "../images";
import { ABANDONED_NOTE } from "./abandoned-runs";
import { loadConversationSummary, saveConversationSummary } from "./conversation-summary";
import { loadProjectKnowledge } from "./project-knowledge";
import { withSecrets } from "./redaction";
import { createRunWorkspace } from "./workspace";

export { ABANDONED_NOTE, heartbeatFor, startAbandonedRunSweeper } from "./abandoned-runs";

type Sandboxes = Parameters<typeof createRunWorkspace>[1];

/** `secrets`: the project's secret values, hidden from everything a run reads, saves and sends. */
export function createChatRuns(
  ctx: ServiceContext & { signer: ImageSigner; sandboxes: Sandboxes; secrets: { values(projectId: string): Promise<SecretValue[]> } },
) {
  return {
    // What a run reads before it starts.
    readImages: (projectId: string, urls: string[]) => readAttachedImages(ctx, projectId, urls),
    async load(access: ProjectAccess) {
      const { projectId } = access;
      const [project, files, messages, summary, model, knowledge] = await Promise.all([
        findProjectById(ctx.sql, projectId),
        listProjectFiles(ctx, access),
        listMessages(ctx.sql, projectId),
        loadConversationSummary(ctx, projectId),
        findProjectModel(ctx.sql, projectId),
        loadProjectKnowledge(ctx, access),
      ]);
      if (!project) throw notFound("Project");
      // Saved before the value was a secret (or typed by the user): the model does not get it from history either.
      const values = await ctx.secrets.values(projectId);
      return {
        project: { ...project, files, model, knowledge: redactDeep(knowledge, values) },
        messages: redactDeep(messages, values),
        summary: redactDeep(summary, values),
      };
    },
    saveSummary: (projectId: string, summary: { upToMessageId: string; content: string }) => saveConversationSummary(ctx, projectId, summary),

    // Where runs are saved.
    failAbandoned: (projectId: string, staleBefore: Date) => runs.failAbandonedRuns(ctx.sql, projectId, staleBefore, ABANDONED_NOTE),
    async claim(claim: RunClaim) {
      // A secret's value the user typed into the chat is not kept in it.
      const content = redactSecrets(claim.content, await ctx.secrets.values(claim.projectId));
      const claimed = await runs.insertRunMessages(ctx.sql, { ...claim, content });
      // Sent with a message, the images are the conversation's: no longer swept as unattached.
      if (claimed) await markImagesAttached(ctx, claim.projectId, claim.attachments);
      return claimed;
    },
    saveProgress: (messageId: string, message: runs.RunMessageState) => runs.saveRunProgress(ctx.sql, messageId, message),
    heartbeat: (messageId: string) => runs.touchRunMessage(ctx.sql, messageId),
    finish: (messageId: string, projectId: string, message: runs.RunMessageState & { status: RunStatus }) =>
      runs.finishRunMessage(ctx.sql, messageId, projectId, message),

    // Each run's workspace, scoped to the project its sender's access was checked for.
    forProject: (access: ProjectAccess) =>
      withSecrets(createRunWorkspace(ctx, ctx.sandboxes, access), {
        ...ctx,
        projectId: access.projectId,
        values: () => ctx.secrets.values(access.projectId),
      }),
  };
}

export type ChatRuns = ReturnType<typeof createChatRuns>;
