/**
 * Where the agent meets the services: the one RunManager of a process, built from the chat-runs service
 * (run persistence, conversation loading, run workspaces), the configured model client and the search
 * backend, listening on the bus for an administrator's stops (`run.stop`, `user.disabled`). `start-parts.ts` calls it once at start-up; the test app builder calls it for each test app.
 *
 * @example
 * const runs = createAgentRuns({ ...serviceContext, config, signer, sandboxes, secrets, agent: { staleRunMs: 120_000 } });
 */
import { createModelClient } from "./agent/model-client";
import { createRunManager, type AgentOptions, type RunManager } from "./agent/runs";
import { isKnownVisionModel, type Config } from "./lib/config";
import { agentMetrics } from "./lib/metrics";
import { DISABLED_STOP_NOTE } from "./services/admin";
import { createChatRuns } from "./services/chat-runs";
import { createSecretRedaction } from "./services/chat-runs/redaction";
import { countTokens } from "./services/chat-runs/token-count";
import type { ServiceContext } from "./services/context";
import type { ImageSigner } from "./services/images";
import { createTokenBudget } from "./services/token-budget";
import type { GitService } from "./services/git";
import { versionsAroundRun } from "./services/versions/hooks";

export function createAgentRuns(
  deps: ServiceContext & {
    config: Pick<Config, "model" | "search" | "agent" | "modelPrices" | "userMonthlyTokens">;
    signer: ImageSigner;
    sandboxes: Parameters<typeof createChatRuns>[0]["sandboxes"];
    /** The project secrets: hidden from the model and the chat, asked for by request_secret. */
    secrets: Parameters<typeof createChatRuns>[0]["secrets"];
    /** The project's git remote: pushed after a run that changed files, when auto-push is on. */
    git?: Pick<GitService, "afterRun">;
    agent?: AgentOptions;
  },
): RunManager {
  const chatRuns = createChatRuns(deps);
  const { model, agent: settings } = deps.config;
  // Configured limits first; options handed in (tests, the server's run-staleness) win over them.
  const agent: AgentOptions = {
    // MODEL_VISION applies to every model; unset, each project's model is judged by its name.
    vision: settings.visionSetting ?? ((name: string) => isKnownVisionModel(name)),
    contextTokensConfigured: settings.contextTokens !== undefined,
    maxOutputTokensConfigured: settings.maxOutputTokens !== undefined,
    modelMaxConcurrency: settings.modelMaxConcurrency,
    ...deps.agent,
    limits: {
      ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
      idleTimeoutMs: settings.idleTimeoutMs,
      maxRunMs: settings.maxRunMs,
      repairRounds: settings.repairRounds,
      ...(settings.contextTokens ? { contextTokens: settings.contextTokens } : {}),
      ...deps.agent?.limits,
    },
  };
  const runs = createRunManager({
    store: chatRuns,
    conversations: chatRuns,
    workspaces: chatRuns,
    checkpoints: {
      aroundRun: async (run) => {
        const versions = await versionsAroundRun(deps, { projectId: run.access.projectId, label: run.label, messageId: run.messageId });
        return {
          after: async () => {
            const changed = await versions.after();
            return changed && deps.git ? { warning: (await deps.git.afterRun(run.access)) ?? undefined } : {};
          },
        };
      },
    },
    model: model.configured ? { client: createModelClient(model), name: model.model, models: model.models } : null,
    usage: createTokenBudget(deps),
    prices: deps.config.modelPrices,
    search: deps.config.search,
    logger: deps.logger,
    agent,
    countTokens,
    redaction: createSecretRedaction(deps, (projectId) => deps.secrets.values(projectId)),
    metrics: agentMetrics,
  });
  // An administrator's stop, or a disabled account, from any instance: the runs working here stop.
  const unsubscribe = deps.events.subscribe((event) => {
    if (event.type === "run.stop") void runs.halt(event.projectId, event.note);
    if (event.type !== "user.disabled") return;
    for (const run of runs.activeRuns()) {
      if (run.userId === event.userId || run.ownerId === event.userId) void runs.halt(run.projectId, DISABLED_STOP_NOTE);
    }
  });
  return {
    ...runs,
    shutdown: async () => {
      unsubscribe();
      await runs.shutdown();
    },
  };
}
