/**
 * Agent runs, independent of any HTTP request. Starting a run stores the user's message and a 'running'
 * assistant message (the claim: one running run per project, across instances), then works in the
 * background. Anyone may subscribe: they get every event already sent, then the live ones, so a page that
 * reloads (or a browser that lost its connection) picks the stream up where it is. The assistant message
 * is saved as the run goes and finished as complete, stopped or failed.
 *
 * It reaches the rest of the server only through its ports (`ports.ts`): the project's ownership is
 * checked once when the run starts, and the tools get a workspace already scoped to that project.
 *
 * @example
 * const runs = createRunManager({ store, conversations, workspaces, model: { client, name: "gpt-4o-mini" }, search, logger });
 * const run = await runs.start(uid, { projectId, content: "Build a todo app" });
 * const unsubscribe = run.subscribe((event) => send(event));
 */
import type { RunStatus, SendMessage, StreamEvent } from "@shared/events/stream";
import { IMAGE_ONLY_CONTENT } from "@shared/events/stream";
import { AppError, conflict } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { ChatImage } from "./chat-message";
import type { CountTokens } from "./context-window";
import { startingConversation } from "./chat-summary";
import { conversationTokens } from "./context-usage";
import { DEFAULT_AGENT_LIMITS, runAgent, type AgentLimits } from "./loop";
import { MODEL_NOT_CONFIGURED, type ModelClient } from "./model";
import { redactSecrets } from "../lib/secret-redactor";
import type { ConversationSource, RunCheckpoints, RunStore, SecretRedaction, UsageLedger, Workspaces } from "./ports";
import { createEventRedactor } from "./redacted-events";
import { RunState } from "./run-state";
import type { SearchBackend } from "./tools/define-tool";
import { availableTools } from "./tools/registry";
import { costOf, type ModelPrices } from "./usage-cost";
import { createVerifier, trackChanges } from "./verify";

export type AgentOptions = {
  limits?: Partial<AgentLimits>;
  /** How often a long silent run refreshes its message (so others see it alive). */
  heartbeatMs?: number;
  /** A 'running' message older than this without refresh is taken as abandoned by a dead server. */
  staleRunMs?: number;
  /** Streamed text is saved at most this often (tool results are saved at once). */
  progressSaveMs?: number;
  /** For tools that call out (web search). */
  fetch?: typeof fetch;
  /**
   * Can the model see images (MODEL_VISION, or a guess from the model's name)? Without vision,
   * attachments are described, not sent.
   */
  vision?: boolean | ((model: string) => boolean);
  /**
   * Set when MODEL_CONTEXT_TOKENS was; otherwise the endpoint's model metadata says, else 32,768
   * (`limits.contextTokens`).
   */
  contextTokensConfigured?: boolean;
};

export type RunDeps = {
  store: RunStore;
  conversations: ConversationSource;
  workspaces: Workspaces;
  /** Versions of the project's files around each run (none when absent). */
  checkpoints?: RunCheckpoints;
  /**
   * The model client and the default model's name, or null when none is configured (each run then says
   * what to set). `models` are the ids a project may choose (MODELS); absent means only `name`.
   */
  model: { client: ModelClient; name: string; models?: string[] } | null;
  /** Per-user monthly tokens: checked before a run starts, added to when it ends (none when absent). */
  usage?: UsageLedger;
  /** MODEL_PRICES: a run's cost is saved with its usage when its model has a price. */
  prices?: ModelPrices;
  search: SearchBackend;
  logger: Logger;
  agent?: AgentOptions;
  /** The tokenizer behind context sizes (a port: the agent imports no tokenizer library). */
  countTokens?: CountTokens;
  /** Hides the project's secret values in everything the run streams, saves and sends (none hidden when absent). */
  redaction?: SecretRedaction;
};

export type Run = {
  projectId: string;
  userMessageId: string;
  /** The assistant message the run writes. */
  messageId: string;
  /** Replays every event so far, then delivers live ones. Returns the unsubscribe function. */
  subscribe(listener: (event: StreamEvent) => void): () => void;
  /** Resolves when the message is saved and `done` was sent. */
  finished: Promise<RunStatus>;
};

export type RunManager = {
  start(ownerId: string, message: SendMessage): Promise<Run>;
  /** The project's active run in this process, or null. Ownership is checked. */
  active(ownerId: string, projectId: string): Promise<Run | null>;
  /** Stops the project's active run, keeping its partial answer; resolves once it is saved. */
  stop(ownerId: string, projectId: string): Promise<{ stopped: boolean; messageId: string | null }>;
  activeCount(): number;
  /** How full the project's model window is: the next request's tokens for the conversation as it stands. */
  contextUsage(ownerId: string, projectId: string): Promise<{ model: string; usedTokens: number; contextTokens: number }>;
  /** Stops every run (server shutdown) and waits for them to be saved. */
  shutdown(): Promise<void>;
};

type LiveRun = Run & { controller: AbortController; stopNote?: string };

/** Saved at the end of an answer cut short because its server shut down (deploy, restart). */
export const SHUTDOWN_NOTE = "_(Stopped: the server restarted. Send your message again to continue.)_";

const BUSY = "The agent is still working on this project. Wait for it to finish, or stop it, before sending another message.";

export function createRunManager(deps: RunDeps): RunManager {
  const runs = new Map<string, LiveRun>();
  const options = deps.agent ?? {};
  const limits: AgentLimits = { ...DEFAULT_AGENT_LIMITS, ...options.limits };
  const heartbeatMs = options.heartbeatMs ?? 20_000;
  const staleRunMs = options.staleRunMs ?? 2 * 60_000;
  const progressSaveMs = options.progressSaveMs ?? 1_000;
  const { store, conversations } = deps;

  let closing = false;

  /** The project's chosen model while the server still offers it, else the default. */
  function modelFor(chosen: string | null | undefined): { client: ModelClient; name: string } | null {
    if (!deps.model) return null;
    const offered = deps.model.models ?? [deps.model.name];
    return { client: deps.model.client, name: chosen && offered.includes(chosen) ? chosen : deps.model.name };
  }

  const visionOf = (model: string) => (typeof options.vision === "function" ? options.vision(model) : (options.vision ?? true));

  /** The configured window, else what the endpoint reports for the model (at each run: Ollama's can change), else the default. */
  async function contextWindow(model: { client: ModelClient; name: string }): Promise<number> {
    if (options.contextTokensConfigured || !model.client.contextWindow) return limits.contextTokens;
    try {
      return (await model.client.contextWindow(model.name)) ?? limits.contextTokens;
    } catch {
      return limits.contextTokens;
    }
  }

  async function start(ownerId: string, message: SendMessage): Promise<Run> {
    if (closing) throw new AppError(503, "dependency_unavailable", "The server is restarting; send your message again in a moment.");
    // The run's one ownership check: everything after it works on this project id.
    const projectId = await conversations.ownedProject(ownerId, message.projectId);
    if (runs.has(projectId)) throw conflict(BUSY);
    await deps.usage?.assertWithinBudget(ownerId);
    const attachments = message.attachments ?? [];
    const images = await conversations.readImages(projectId, attachments);
    const content = message.content.trim() ? message.content : IMAGE_ONLY_CONTENT;

    if (runs.has(projectId)) throw conflict(BUSY);
    const events: StreamEvent[] = [];
    const listeners = new Set<(event: StreamEvent) => void>();
    let resolveFinished!: (status: RunStatus) => void;
    const run: LiveRun = {
      projectId,
      userMessageId: crypto.randomUUID(),
      messageId: crypto.randomUUID(),
      controller: new AbortController(),
      finished: new Promise((resolve) => (resolveFinished = resolve)),
      subscribe(listener) {
        for (const event of events) listener(event);
        if (events.at(-1)?.type === "done") return () => {};
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    runs.set(projectId, run); // synchronously after the check: a second send now sees it

    try {
      await store.failAbandoned(projectId, new Date(Date.now() - staleRunMs));
      const claimed = await store.claim({
        projectId,
        userMessageId: run.userMessageId,
        assistantMessageId: run.messageId,
        content,
        attachments,
      });
      if (!claimed) throw conflict(BUSY);
    } catch (error) {
      runs.delete(projectId);
      throw error;
    }

    const publish = (event: StreamEvent) => {
      events.push(event);
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          deps.logger.warn("stream listener failed", { error: String(error) });
        }
      }
    };
    void execute(ownerId, run, { content, images, enableReasoning: message.enableReasoning ?? false }, publish)
      .then(resolveFinished, (error) => {
        deps.logger.error("agent run not finished cleanly", { projectId, error: String(error) });
        resolveFinished("failed");
      })
      .finally(() => {
        listeners.clear();
        runs.delete(projectId);
      });
    return run;
  }

  async function execute(
    ownerId: string,
    run: LiveRun,
    input: { content: string; images: ChatImage[]; enableReasoning: boolean },
    publish: (event: StreamEvent) => void,
  ): Promise<RunStatus> {
    const state = new RunState();
    let saving: Promise<void> = Promise.resolve();
    let saveTimer: ReturnType<typeof setTimeout> | undefined;
    let saveDue = Infinity;
    const save = () => {
      clearTimeout(saveTimer);
      saveDue = Infinity;
      const snapshot = state.snapshot();
      saving = saving.then(() => store.saveProgress(run.messageId, snapshot)).catch((error) => {
        deps.logger.warn("run progress not saved", { messageId: run.messageId, error: String(error) });
      });
    };
    const saveWithin = (ms: number) => {
      if (Date.now() + ms >= saveDue) return;
      clearTimeout(saveTimer);
      saveDue = Date.now() + ms;
      saveTimer = setTimeout(save, ms);
    };
    const heartbeat = setInterval(() => {
      saving = saving.then(() => store.heartbeat(run.messageId)).catch(() => {});
    }, heartbeatMs);

    let done: Extract<StreamEvent, { type: "done" }> = { type: "done", status: "failed", usage: null };
    let modelName = deps.model?.name ?? "";
    const emit = (event: StreamEvent) => {
      if (event.type === "done" && event.usage) {
        // The run's model and, when it has a price, the cost are saved with its tokens.
        event = { ...event, usage: { ...event.usage, model: modelName, cost: costOf(deps.prices, modelName, event.usage) } };
      }
      state.apply(event);
      if (event.type === "done") {
        done = event; // sent after the message is saved, so a refetch on `done` sees it
        return;
      }
      publish(event);
      if (event.type === "tool_start" || event.type === "tool_complete") saveWithin(0);
      else saveWithin(progressSaveMs);
    };

    // Every event goes out (streamed, saved) with the project's secret values hidden; so does the user's text.
    const secrets = await deps.redaction?.watch(run.projectId);
    const redactor = secrets ? createEventRedactor(secrets.current) : null;
    const send = (event: StreamEvent) => (redactor ? redactor.event(event) : [event]).forEach(emit);
    const content = secrets ? redactSecrets(input.content, secrets.current()) : input.content;

    let status: RunStatus;
    const checkpoint = await deps.checkpoints?.aroundRun({ projectId: run.projectId, label: content, messageId: run.messageId });
    try {
      if (!deps.model) {
        send({ type: "error", message: MODEL_NOT_CONFIGURED });
        status = "failed";
      } else {
        const tools = availableTools(deps);
        const loaded = await conversations.load(ownerId, run.projectId);
        const model = modelFor(loaded.project.model)!;
        modelName = model.name;
        const runLimits = { ...limits, contextTokens: await contextWindow(model) };
        const messages = await startingConversation({
          loaded,
          excludeIds: [run.userMessageId, run.messageId],
          content,
          images: input.images,
          tools,
          limits: runLimits,
          vision: visionOf(model.name),
          countTokens: deps.countTokens,
          model,
          saveSummary: conversations.saveSummary?.bind(conversations),
          projectId: run.projectId,
          signal: run.controller.signal,
          logger: deps.logger,
        });
        // The run notes when it first changes a file: only then is the app checked before the run ends.
        const tracked = trackChanges(deps.workspaces.forProject(ownerId, run.projectId));
        const toolContext = { ...tracked.workspace, search: deps.search, fetch: options.fetch ?? fetch, event: send };
        const app = tracked.workspace.app;
        const beforeFinish = app
          ? createVerifier({ app, rounds: runLimits.repairRounds, settleMs: runLimits.verifySettleMs, changedSince: tracked.changedSince, lastChangedAt: tracked.lastChangedAt })
          : undefined;
        const result = await runAgent({
          client: model.client,
          model: model.name,
          messages,
          tools,
          toolContext,
          enableReasoning: input.enableReasoning,
          signal: run.controller.signal,
          limits: runLimits,
          emit: send,
          logger: deps.logger,
          countTokens: deps.countTokens,
          beforeFinish,
        });
        status = result.status;
      }
    } catch (error) {
      deps.logger.error("agent run crashed", { projectId: run.projectId, error: String(error) });
      if (state.error === null) send({ type: "error", message: `The agent stopped because of a server error: ${error instanceof Error ? error.message : String(error)}` });
      status = run.controller.signal.aborted ? "stopped" : "failed";
    } finally {
      clearInterval(heartbeat);
      clearTimeout(saveTimer);
      redactor?.end().forEach(emit);
      secrets?.close();
    }
    await checkpoint?.after();

    await saving;
    const final = state.final(status, run.stopNote);
    for (let attempt = 1; ; attempt++) {
      try {
        await store.finish(run.messageId, run.projectId, { ...final, status });
        break;
      } catch (error) {
        if (attempt >= 3) {
          deps.logger.error("run result not saved", { messageId: run.messageId, error: String(error) });
          break;
        }
        await Bun.sleep(500 * attempt);
      }
    }
    if (final.usage?.totalTokens) {
      await deps.usage?.record(ownerId, final.usage.totalTokens).catch((error: unknown) => {
        deps.logger.warn("run tokens not added to the monthly usage", { messageId: run.messageId, error: String(error) });
      });
    }
    publish({ ...done, type: "done", messageId: run.messageId, status, usage: final.usage });
    return status;
  }

  return {
    start,
    async active(ownerId, projectId) {
      return runs.get(await conversations.ownedProject(ownerId, projectId)) ?? null;
    },
    async stop(ownerId, projectId) {
      const run = runs.get(await conversations.ownedProject(ownerId, projectId));
      if (!run) return { stopped: false, messageId: null };
      run.controller.abort();
      await run.finished;
      return { stopped: true, messageId: run.messageId };
    },
    activeCount: () => runs.size,
    async contextUsage(ownerId, projectId) {
      const id = await conversations.ownedProject(ownerId, projectId);
      const loaded = await conversations.load(ownerId, id);
      const model = modelFor(loaded.project.model);
      if (!model) return { model: "", usedTokens: 0, contextTokens: limits.contextTokens };
      const contextTokens = await contextWindow(model);
      const usedTokens = conversationTokens({
        loaded,
        tools: availableTools(deps),
        contextTokens,
        maxOutputTokens: limits.maxOutputTokens,
        vision: visionOf(model.name),
        countTokens: deps.countTokens,
      });
      return { model: model.name, usedTokens, contextTokens };
    },
    async shutdown() {
      closing = true;
      const all = [...runs.values()];
      for (const run of all) {
        run.stopNote = SHUTDOWN_NOTE;
        run.controller.abort();
      }
      await Promise.all(all.map((run) => run.finished));
    },
  };
}
