/**
 * Everything the agent needs from the rest of the server, as interfaces it owns: a run's workspace (the
 * project's files, its sandbox, its workflow command), where runs are saved, and what a run reads before it
 * starts. The services implement them and the composition root (`compose.ts`) wires them in, so the agent
 * imports no database, storage or sandbox code and its tests can hand it in-memory stand-ins.
 *
 * A workspace is scoped to one project whose ownership the run checked once at its start: nothing in it
 * checks again.
 */
import type { SavedRunMessage } from "@shared/events/fold-stream-event";
import type { RunStatus } from "@shared/events/stream";
import type { Message } from "@shared/schemas/message";
import type { TemplateName } from "@shared/schemas/sandbox";
import type { ChatImage } from "./chat-message";

export type FileEntry = { path: string; size: number };

/** The project's stored files (storage is the truth; the sandbox follows). Paths are project-relative. */
export interface ProjectFiles {
  list(): Promise<FileEntry[]>;
  /** The file's text (empty and `binary` for a binary file), or null when there is no file at `path`. */
  read(path: string): Promise<{ content: string; binary: boolean; size: number } | null>;
  /** Creates the file or replaces its content; a command run right after sees the new content. */
  write(path: string, content: string): Promise<{ path: string; size: number; created: boolean }>;
}

/** How a command ended. `exitCode` is null when it was killed (time limit, stop). */
export type CommandResult = { exitCode: number | null; stdout: string; stderr: string; timedOut: boolean; truncated: boolean };

/** The project's sandbox, started on first need. Commands run from the project root. */
export interface ProjectSandbox {
  /** Runs the command to its end, its time limit, or the signal. */
  run(command: string, options: { timeoutMs: number; signal: AbortSignal }): Promise<CommandResult>;
  /** Starts the command in the background and returns at once; its output keeps arriving in `onOutput`. */
  start(command: string, onOutput: (chunk: string) => void): Promise<void>;
  /** Writes a template's files, installs its dependencies, records and starts its workflow command. */
  applyTemplate(template: TemplateName): Promise<{ filesWritten: number; workflowCommand: string }>;
}

/** The command that starts the project's app (the Preview's run button uses it). */
export interface ProjectWorkflow {
  /** `port`: where the app listens (the preview shows it); kept as it was when not given. */
  set(command: string, port?: number): Promise<void>;
}

/** Something wrong with the running app: a browser error, a server (dev server) error, or a build/type error. */
export type AppProblem = { source: "browser" | "server" | "build"; message: string; file?: string | null; line?: number | null };

/** The `app` process (the workflow command). `not_configured`: the project has no workflow command. */
export type AppState = "starting" | "running" | "exited" | "crashed" | "not_configured";
export type AppStatus = { status: AppState; exitCode: number | null; ports: number[] };

/**
 * The project's running app, as the agent observes and controls it: for checking its work before a run ends
 * (verify.ts) and for the read_logs, get_problems and restart_app tools.
 */
export interface AppRuntime {
  status(): Promise<AppStatus>;
  /** GET / of the app's port: the HTTP status, or null when nothing answers; null overall when no port is known. */
  probe(): Promise<{ port: number; httpStatus: number | null; detail?: string } | null>;
  /** The end of the `app` log (stdout and stderr interleaved), at most `maxBytes`. */
  logTail(maxBytes: number): Promise<string>;
  /** Problems first seen at or after `since`, deduplicated. */
  problemsSince(since: Date): Promise<AppProblem[]>;
  /** Stops `app` (its whole process tree) and starts it again from the workflow command; resolves once it listens or gave up. */
  restart(): Promise<AppStatus>;
  /**
   * Loads the app's page the way a browser would, so problems that only show when it is loaded appear;
   * returns those it saw itself (absent where an open preview is relied on instead).
   */
  loadPage?(): Promise<AppProblem[]>;
  /**
   * When the newest code an open preview of the app runs started loading (a page load or a hot update), by
   * the server's clock; null when no preview is open (absent where previews cannot say).
   */
  previewLoad?(): Promise<{ loadedAt: Date } | null>;
  /** The project's type-check, when it has one that finishes in reasonable time; null when there is none (or it is too slow). */
  typeCheck(signal: AbortSignal): Promise<{ command: string; problems: AppProblem[] } | null>;
}

/** What the tools of one run work on. `sandbox` and `app` are null on a server without sandboxes. */
export type Workspace = { files: ProjectFiles; sandbox: ProjectSandbox | null; workflow: ProjectWorkflow; app?: AppRuntime | null };

export interface Workspaces {
  /** The workspace of a project whose ownership the caller has already checked. */
  forProject(ownerId: string, projectId: string): Workspace;
}

/** The assistant message a run writes, as saved. */
/** The assistant message as saved, built by the stream's fold (`toSavedMessage`). */
export type RunMessage = SavedRunMessage;

export type RunClaim = { projectId: string; userMessageId: string; assistantMessageId: string; content: string; attachments: string[] };

/** Where runs are saved: one 'running' assistant message per project, refreshed while alive, then finished. */
export interface RunStore {
  /** Marks the project's 'running' answers not refreshed since `staleBefore` as failed (their server died). */
  failAbandoned(projectId: string, staleBefore: Date): Promise<number>;
  /** Saves the user's message and a 'running' answer; false when another run holds the project. */
  claim(claim: RunClaim): Promise<boolean>;
  saveProgress(messageId: string, message: RunMessage): Promise<void>;
  /** Shows the run is alive, so no instance takes it for abandoned. */
  heartbeat(messageId: string): Promise<void>;
  finish(messageId: string, projectId: string, message: RunMessage & { status: RunStatus }): Promise<void>;
}

/**
 * Checkpoints around a run: `aroundRun` notes the files as they are before it; `after()` records versions of
 * before and after when the run changed files, so the user can undo it. Never fails the run.
 */
export interface RunCheckpoints {
  aroundRun(run: { projectId: string; label: string; messageId: string }): Promise<{ after(): Promise<void> }>;
}

/** The project's AGENTS.md as the system prompt carries it: `content` is cut when the file (`size` bytes) was too long. */
export type ProjectKnowledge = { content: string; size: number; truncated: boolean };

/** The project as the system prompt describes it. */
export type ConversationProject = {
  name: string;
  description: string | null;
  workflowCommand: string | null;
  files: FileEntry[];
  /** The project's AGENTS.md (absent or null: it has none). */
  knowledge?: ProjectKnowledge | null;
  /** The model the project chose (null or absent: the server's default). */
  model?: string | null;
};

/** A model-written note standing for the chat's messages up to and including `upToMessageId`. */
export type ConversationSummary = { upToMessageId: string; content: string };

/** What a run reads before it works. */
export interface ConversationSource {
  /** The run's one ownership check: the project's id, or a 404 when it is missing or someone else's. */
  ownedProject(ownerId: string, projectId: string): Promise<string>;
  /** The attached images (uploaded to this project, signature valid) for the model; a 400 names a bad one. */
  readImages(projectId: string, urls: string[]): Promise<ChatImage[]>;
  /** The project, its files, its messages (oldest first) and the stored summary of older ones, if any. */
  load(ownerId: string, projectId: string): Promise<{ project: ConversationProject; messages: Message[]; summary?: ConversationSummary | null }>;
  /** Keeps a summary of older messages for later runs (replacing the previous one). */
  saveSummary?(projectId: string, summary: ConversationSummary): Promise<void>;
}

/** Each user's tokens per calendar month, against the server's monthly budget (USER_MONTHLY_TOKENS). */
export interface UsageLedger {
  /** Throws the 429 a person reads when the owner's budget for this month is spent; resolves otherwise. */
  assertWithinBudget(ownerId: string): Promise<void>;
  /** Adds a finished run's tokens to the owner's month. */
  record(ownerId: string, tokens: number): Promise<void>;
}
