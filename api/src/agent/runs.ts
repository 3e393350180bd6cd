/**
 * Agent runs, independent of any HTTP request. Starting a run stores the user's message and a 'running'
 * assistant message (the claim: one running run per project, across instances), then works in the
 * background. Anyone may subscribe: they get every event already sent, then the live ones, so a page that
 * reloads (or a browser that lost its connection) picks the stream up where it is (`run-channel.ts`). The
 * assistant message is saved as the run goes and finished as complete, stopped or failed (`run-recorder.ts`);
 * the loop's input is gathered by `prepare-run.ts`.
 *
 * It reaches the rest of the server only through its ports (`ports.ts`): the project's ownership is
 * checked once when the run starts, and the tools get a workspace already scoped to that project.
 *
 * @example
 * const runs = createRunManager({ store, conversations, workspaces, model: { client, name: "gpt-4o-mini" }, search, logger });
 * const run = await runs.start(uid, { projectId, content: "Build a todo app" });
 * const unsubscribe = run.subscribe((event) => send(event));
 */
import type { ProjectAccess } from "../lib/project-access";
import type { ChatMode, RunStatus, SendMessage, StreamEvent } from "@shared/events/stream";
import { IMAGE_ONLY_CONTENT } from "@shared/events/stream";
import type { ContextUsage } from "@shared/schemas/model";
import { AppError, conflict } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { ChatImage } from "./chat-message";
import type { CountTokens } from "./context-window";
import { conversationTokens } from "./context-usage";
import { DEFAULT_AGENT_LIMITS, runAgent, type AgentLimits } from "./loop";
import { MODEL_NOT_CONFIGURED } from "./model";
import type { AgentMetrics } from "./agent-metrics";
import { createModelGate, type ModelGate } from "./model-gate";
import type { ConversationSource, RunCheckpoints, RunStore, SecretRedaction, UsageLedger, Workspaces } from "./ports";
import { prepareRun } from "./prepare-run";
import { createRunChannel } from "./run-channel";
import { createRunRecorder } from "./run-recorder";
import { chooseModel, contextWindowOf, outputTokensFor, seesImages, type ModelSetup } from "./run-model";
import { redactSecrets } from "../lib/secret-redactor";
import { withSelectedElements } from "./selected-elements";
import type { SelectedElement } from "@shared/schemas/selected-element";
import { createEventRedactor } from "./redacted-events";
import type { SearchBackend } from "./tools/define-tool";
import { availableTools } from "./tools/registry";
import type { ModelPrices } from "./usage-cost";

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
  /** Set when MODEL_MAX_OUTPUT_TOKENS was; otherwise a run asks for at most about a quarter of its window. */
  maxOutputTokensConfigured?: boolean;
  /** MODEL_MAX_CONCURRENCY: requests to one model at once from this process, the rest wait in order (0 = no limit). */
  modelMaxConcurrency?: number;
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
  model: ModelSetup | null;
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
  /** Where runs, model errors, time to first token and queue waits are reported (nowhere when absent). */
  metrics?: AgentMetrics;
};

export type Run = {
  projectId: string;
  /** The sender's name as the others see it (the 409 of a second send names them). */
  by: string;
  userMessageId: string;
  /** The assistant message the run writes. */
  messageId: string;
  /** Replays every event so far, then delivers live ones. Returns the unsubscribe function. */
  subscribe(listener: (event: StreamEvent) => void): () => void;
  /** Resolves when the message is saved and `done` was sent. */
  finished: Promise<RunStatus>;
};

export type RunManager = {
  /**
   * Starts a run for the sender's checked access (edit) to `message.projectId`; their budget pays for it.
   * `by` is the sender's name, told to whoever else sends while it runs.
   */
  start(access: ProjectAccess, message: SendMessage, by?: string): Promise<Run>;
  /** The project's active run in this process, or null. */
  active(access: ProjectAccess): Promise<Run | null>;
  /** Stops the project's active run, keeping its partial answer; resolves once it is saved. */
  stop(access: ProjectAccess): Promise<{ stopped: boolean; messageId: string | null }>;
  /**
   * The project's run in this process, by project id alone: for the relay to other instances
   * (services/chat-runs/run-relay.ts), whose request was access-checked where it arrived.
   */
  local(projectId: string): Run | null;
  /** Stops the project's run in this process, as `stop` does (the relay's side of a Stop sent elsewhere). */
  stopLocal(projectId: string): Promise<{ stopped: boolean; messageId: string | null }>;
  activeCount(): number;
  /** The runs working in this process, with who started each and the project's owner (the admin page, a disabled account). */
  activeRuns(): { projectId: string; userId: string; ownerId: string }[];
  /**
   * Stops the project's run in this process for an administrator (the admin page, a disabled account), whoever
   * started it: `note` ends the partial answer, which is kept. False when no run of the project works here.
   */
  halt(projectId: string, note: string): Promise<boolean>;
  /** How full the project's model window is: the next request's tokens for the conversation as it stands. */
  contextUsage(access: ProjectAccess): Promise<ContextUsage>;
  /** Stops every run (server shutdown) and waits for them to be saved. */
  shutdown(): Promise<void>;
};

type LiveRun = Run & { controller: AbortController; stopNote?: string; userId: string; ownerId: string; content: string };

/** Saved at the end of an answer cut short because its server shut down (deploy, restart). */
export const SHUTDOWN_NOTE = "_(Stopped: the server restarted. Send your message again to continue.)_";

const BUSY = "The agent is still working on this project. Wait for it to finish, or stop it, before sending another message.";

/** The 409 of a send while a run goes: who started it and on what, when this process knows. */
export function busyMessage(run: { by: string; content: string } | undefined): string {
  if (!run) return BUSY;
  const what = run.content.length > 60 ? `${run.content.slice(0, 57)}…` : run.content;
  return `${run.by} is running the agent on this project ("${what}"). Wait for it to finish, or stop it, before sending another message.`;
}

export function createRunManager(deps: RunDeps): RunManager {
  const runs = new Map<string, LiveRun>();
  const options = deps.agent ?? {};
  const limits: AgentLimits = { ...DEFAULT_AGENT_LIMITS, ...options.limits };
  const staleRunMs = options.staleRunMs ?? 2 * 60_000;
  const { store, conversations } = deps;
  // One line per model for every run of this process.
  const modelGate = createModelGate(options.modelMaxConcurrency ?? 0);

  let closing = false;

  async function start(access: ProjectAccess, message: SendMessage, by = "Someone"): Promise<Run> {
    if (closing) throw new AppError(503, "dependency_unavailable", "The server is restarting; send your message again in a moment.");
    // The access was checked for this project: everything after works on its id.
    const { projectId } = access;
    if (projectId !== message.projectId) throw new AppError(500, "internal", "The run's access is for another project.");
    if (runs.has(projectId)) throw conflict(busyMessage(runs.get(projectId)));
    await deps.usage?.assertWithinBudget(access.userId);
    const attachments = message.attachments ?? [];
    const images = await conversations.readImages(projectId, attachments);
    const content = message.content.trim() ? message.content : IMAGE_ONLY_CONTENT;

    if (runs.has(projectId)) throw conflict(busyMessage(runs.get(projectId)));
    const channel = createRunChannel(deps.logger);
    let resolveFinished!: (status: RunStatus) => void;
    const run: LiveRun = {
      projectId,
      by,
      content,
      userMessageId: crypto.randomUUID(),
      messageId: crypto.randomUUID(),
      controller: new AbortController(),
      userId: access.userId,
      ownerId: access.ownerId,
      finished: new Promise((resolve) => (resolveFinished = resolve)),
      subscribe: channel.subscribe,
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
        senderId: access.userId,
      });
      if (!claimed) throw conflict(BUSY);
    } catch (error) {
      runs.delete(projectId);
      throw error;
    }

    void executeRun(
      deps,
      { ...limits, modelGate },
      access,
      run,
      { content, images, enableReasoning: message.enableReasoning ?? false, mode: message.mode ?? "build", elements: message.elements ?? [] },
      channel.publish,
    )
      .then(resolveFinished, (error) => {
        deps.logger.error("agent run not finished cleanly", { projectId, error: String(error) });
        resolveFinished("failed");
      })
      .finally(() => {
        channel.close();
        runs.delete(projectId);
      });
    return run;
  }

  async function stopLocal(projectId: string): Promise<{ stopped: boolean; messageId: string | null }> {
    const run = runs.get(projectId);
    if (!run) return { stopped: false, messageId: null };
    run.controller.abort();
    await run.finished;
    return { stopped: true, messageId: run.messageId };
  }

  return {
    start,
    async active(access) {
      return runs.get(access.projectId) ?? null;
    },
    stop: (access) => stopLocal(access.projectId),
    local: (projectId) => runs.get(projectId) ?? null,
    stopLocal,
    activeCount: () => runs.size,
    activeRuns: () => [...runs.values()].map((run) => ({ projectId: run.projectId, userId: run.userId, ownerId: run.ownerId })),
    async halt(projectId, note) {
      const run = runs.get(projectId);
      if (!run) return false;
      run.stopNote = note;
      run.controller.abort();
      await run.finished;
      return true;
    },
    async contextUsage(access) {
      const loaded = await conversations.load(access);
      if (!deps.model) return { model: "", usedTokens: 0, contextTokens: limits.contextTokens };
      const model = chooseModel(deps.model, loaded.project.model);
      const contextTokens = await contextWindowOf(model, { configured: options.contextTokensConfigured ?? false, fallback: limits.contextTokens });
      const usedTokens = conversationTokens({
        loaded,
        tools: availableTools(deps),
        contextTokens,
        maxOutputTokens: options.maxOutputTokensConfigured ? limits.maxOutputTokens : outputTokensFor(contextTokens, limits.maxOutputTokens),
        vision: seesImages(options.vision, model.name),
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

/** Runs the agent for a started run, recording it; resolves with how it ended once `done` is sent. */
async function executeRun(
  deps: RunDeps,
  { modelGate, ...limits }: AgentLimits & { modelGate: ModelGate | undefined },
  access: ProjectAccess,
  run: LiveRun,
  message: { content: string; images: ChatImage[]; enableReasoning: boolean; mode: ChatMode; elements: SelectedElement[] },
  publish: (event: StreamEvent) => void,
): Promise<RunStatus> {
  const { projectId, messageId } = run;
  const started = performance.now();
  const recorder = createRunRecorder({
    store: deps.store,
    messageId,
    projectId,
    publish,
    logger: deps.logger,
    model: deps.model?.name ?? "",
    prices: deps.prices,
    heartbeatMs: deps.agent?.heartbeatMs,
    progressSaveMs: deps.agent?.progressSaveMs,
  });
  // Every event goes out (streamed, saved) with the project's secret values hidden; so does the user's text.
  const secrets = await deps.redaction?.watch(projectId);
  const redactor = secrets ? createEventRedactor(secrets.current) : null;
  const send = (event: StreamEvent) => (redactor ? redactor.event(event) : [event]).forEach(recorder.emit);
  const content = secrets ? redactSecrets(message.content, secrets.current()) : message.content;
  // The model also reads which preview elements the message is about (their text may hold a secret too).
  const forModel = withSelectedElements(message.content, message.elements);
  const modelContent = secrets ? redactSecrets(forModel, secrets.current()) : forModel;

  let status: RunStatus;
  const checkpoint = await deps.checkpoints?.aroundRun({ access, label: content, messageId });
  try {
    if (!deps.model) {
      send({ type: "error", message: MODEL_NOT_CONFIGURED });
      status = "failed";
    } else {
      const signal = run.controller.signal;
      const input = await prepareRun(deps, {
        access,
        excludeIds: [run.userMessageId, messageId],
        message: { ...message, content: modelContent },
        signal,
        limits,
        setup: deps.model,
      });
      recorder.model = input.model;
      status = (await runAgent({ ...input, modelGate, metrics: deps.metrics, toolContext: { ...input.toolContext, event: send }, emit: send })).status;
    }
  } catch (error) {
    deps.logger.error("agent run crashed", { projectId, error: String(error) });
    if (recorder.error === null)
      send({ type: "error", message: `The agent stopped because of a server error: ${error instanceof Error ? error.message : String(error)}` });
    status = run.controller.signal.aborted ? "stopped" : "failed";
  } finally {
    recorder.stop();
    redactor?.end().forEach(recorder.emit);
    secrets?.close();
  }
  const checked = await checkpoint?.after();
  if (checked?.warning) recorder.emit({ type: "chunk", content: `\n\n${checked.warning}\n`, step: "warning" });

  const final = await recorder.finish(status, run.stopNote);
  if (final.usage?.totalTokens) {
    await deps.usage?.record(access.userId, final.usage.totalTokens).catch((error: unknown) => {
      deps.logger.warn("run tokens not added to the monthly usage", { messageId, error: String(error) });
    });
  }
  // Before `done`: a client that has read it finds the run counted.
  deps.metrics?.runFinished(status, (performance.now() - started) / 1000, final.usage);
  recorder.sendDone(status, final.usage);
  return status;
}
