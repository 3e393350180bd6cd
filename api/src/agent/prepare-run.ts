/**
 * Everything a run's agent loop needs, gathered before it starts: the project's conversation (with the
 * new message, summarised when long), the model it chose and that model's window, the tools, a workspace
 * already scoped to the project that notes the run's first change, and the app check run before it ends.
 *
 * @example
 * const input = await prepareRun(deps, { access, excludeIds, message, signal, limits, setup });
 * await runAgent({ ...input, emit });
 */
import type { ProjectAccess } from "../lib/project-access";
import type { AgentLimits } from "./agent-limits";
import type { ChatImage } from "./chat-message";
import { startingConversation } from "./chat-summary";
import type { AgentRunInput } from "./loop";
import { chooseModel, contextWindowOf, outputTokensFor, seesImages, type ModelSetup } from "./run-model";
import type { RunDeps } from "./runs";
import { availableTools } from "./tools/registry";
import { createVerifier, trackChanges } from "./verify";
import { offeredTools, PLAN_NOTE, toolsForMode } from "./plan-mode";
import type { ChatMode } from "@shared/events/stream";

export type RunRequest = {
  /** The sender's checked access to the project (edit). */
  access: ProjectAccess;
  /** The run's own messages (the user's and the answer's), left out of the history. */
  excludeIds: string[];
  /** `mode`: plan runs only read and answer with a plan (plan-mode.ts). */
  message: { content: string; images: ChatImage[]; enableReasoning: boolean; mode?: ChatMode };
  signal: AbortSignal;
  limits: AgentLimits;
  /** The server's model set-up (a run without one never gets here). */
  setup: ModelSetup;
};

export async function prepareRun(deps: RunDeps, r: RunRequest): Promise<Omit<AgentRunInput, "emit">> {
  const options = deps.agent ?? {};
  const plan = r.message.mode === "plan";
  const tools = toolsForMode(availableTools(deps), plan ? "plan" : "build");
  const loaded = await deps.conversations.load(r.access);
  const model = chooseModel(r.setup, loaded.project.model);
  const contextTokens = await contextWindowOf(model, { configured: options.contextTokensConfigured ?? false, fallback: r.limits.contextTokens });
  const limits = {
    ...r.limits,
    contextTokens,
    maxOutputTokens: options.maxOutputTokensConfigured ? r.limits.maxOutputTokens : outputTokensFor(contextTokens, r.limits.maxOutputTokens),
  };
  const messages = await startingConversation({
    loaded,
    excludeIds: r.excludeIds,
    content: plan ? `${r.message.content}\n\n${PLAN_NOTE}` : r.message.content,
    images: r.message.images,
    tools: offeredTools(tools),
    limits,
    vision: seesImages(options.vision, model.name),
    countTokens: deps.countTokens,
    model,
    saveSummary: deps.conversations.saveSummary?.bind(deps.conversations),
    projectId: r.access.projectId,
    signal: r.signal,
    logger: deps.logger,
  });
  // The run notes when it first changes a file: only then is the app checked before the run ends.
  const tracked = trackChanges(deps.workspaces.forProject(r.access));
  const app = tracked.workspace.app;
  // A plan changes nothing, so there is nothing to check before it ends.
  const beforeFinish =
    app && !plan
      ? createVerifier({
          app,
          rounds: limits.repairRounds,
          settleMs: limits.verifySettleMs,
          changedSince: tracked.changedSince,
          lastChangedAt: tracked.lastChangedAt,
        })
      : undefined;
  return {
    client: model.client,
    model: model.name,
    messages,
    tools,
    toolContext: { ...tracked.workspace, search: deps.search, fetch: options.fetch ?? fetch },
    enableReasoning: r.message.enableReasoning,
    signal: r.signal,
    limits,
    logger: deps.logger,
    countTokens: deps.countTokens,
    beforeFinish,
  };
}
