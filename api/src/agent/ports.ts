/**
 * Everything the agent needs from the rest of the server, as interfaces it owns: a run's workspace (the
 * project's files, its sandbox, its workflow command), where runs are saved, and what a run reads before it
 * starts. The services implement them and the composition root (`compose.ts`) wires them in, so the agent
 * imports no database, storage or sandbox code and its tests can hand it in-memory stand-ins.
 *
 * A workspace is scoped to one project whose ownership the run checked once at its start: nothing in it
 * checks again.
 */
import type { ProjectAccess } from "../lib/project-access";
import type { SavedRunMessage } from "@shared/events/fold-stream-event";
import type { RunStatus } from "@shared/events/stream";
import type { DatabaseColumn, QueryResult } from "@shared/schemas/database";
import type { Message } from "@shared/schemas/message";
import type { TemplateName } from "@shared/schemas/sandbox";
import type { SecretValue } from "../lib/secret-redactor";
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

/**
 * What loading the app's page found, and whether the page ran in a browser or was only fetched and compiled.
 * `leftToPreview`: it compiles and a preview is open, so running it was left to that preview (which must still
 * load the run's last change for its reports to count).
 */
export type PageLoad = { problems: AppProblem[]; ran: boolean; leftToPreview?: boolean };

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
   * Loads the app's page, so problems that only show when it is loaded appear: every module is fetched (and
   * so compiled), and with no preview open the page is run in a headless browser. Returns the problems it saw
   * itself, and whether the page ran in that headless browser; with a preview open it is not run here
   * (`leftToPreview`: the preview's reports reach `problemsSince`). `ran` is false when it was only fetched.
   * Absent where an open preview is relied on instead.
   */
  loadPage?(): Promise<PageLoad>;
  /**
   * Runs the page in the headless browser even though a preview is open: for an open preview that did not
   * load the run's last change in time, and so runs older code. `ran` false when no browser is available.
   */
  runPageHeadless?(): Promise<PageLoad>;
  /** Asks open previews whose code started loading before `changedAt` to reload (they missed that change). */
  reloadStalePreviews?(changedAt: Date): Promise<void>;
  /**
   * When the newest code an open preview of the app runs started loading (a page load or a hot update), by
   * the server's clock; null when no preview is open (absent where previews cannot say).
   */
  previewLoad?(): Promise<{ loadedAt: Date } | null>;
  /** The project's type-check, when it has one that finishes in reasonable time; null when there is none (or it is too slow). */
  typeCheck(signal: AbortSignal): Promise<{ command: string; problems: AppProblem[] } | null>;
}

/** A table of the project's database as describe_database tells it. */
export type DatabaseTableInfo = {
  name: string;
  columns: DatabaseColumn[];
  rowEstimate: number;
  primaryKey: string[];
  /** Each as PostgreSQL writes it: `FOREIGN KEY (list_id) REFERENCES lists(id)`. */
  foreignKeys: string[];
  /** Column lists with a unique constraint. */
  unique: string[];
};

/** A statement PostgreSQL refused or cancelled: its message and the 1-based character it points at. */
export type SqlFailure = { message: string; position?: number };

/** The project's development database (made on first use). */
export interface ProjectDatabase {
  describe(): Promise<{ sizeBytes: number; tables: DatabaseTableInfo[] }>;
  /** Runs SQL text (one or more statements) with the limits given; a refused statement answers `{ failed }`. */
  run(sql: string, limits: { maxRows: number; timeoutMs: number; maxCellChars: number }): Promise<{ result: QueryResult } | { failed: SqlFailure }>;
}

/** The project's secrets as a run may touch them: it may ask the owner for one, and never reads a value. */
export interface ProjectSecrets {
  /**
   * Asks the owner for the secret `name` and waits (at most 10 minutes) until they set it ("set") or decline,
   * the wait runs out or the run stops ("declined"). `asked` is called once the wait listens, to show the
   * owner the form, so an answer given at once is not missed.
   */
  request(name: string, asked: () => void, signal: AbortSignal): Promise<"set" | "declined">;
  /** `text` with the project's secret values (as they are now) replaced by `[secret NAME]`: for what the model reads. */
  redact(text: string): Promise<string>;
}

/**
 * What the tools of one run work on. `sandbox` and `app` are null on a server without sandboxes; `database`
 * is null (or absent) where the server cannot make project databases. Command output, logs and problems come
 * back with the project's secret values hidden; file contents do not (a tool writes them back), so every tool
 * result is passed through `secrets.redact` before the model reads it.
 */
export type Workspace = {
  files: ProjectFiles;
  sandbox: ProjectSandbox | null;
  workflow: ProjectWorkflow;
  app?: AppRuntime | null;
  database?: ProjectDatabase | null;
  secrets?: ProjectSecrets | null;
};

/** Keeps the project's secret values out of everything a run streams and stores (services/chat-runs/redaction.ts). */
export interface SecretRedaction {
  /** The project's secret values, kept current (one set during the run included) until `close()`. */
  watch(projectId: string): Promise<{ current(): readonly SecretValue[]; close(): void }>;
}

export interface Workspaces {
  /** The workspace of the project the access value was checked for (services/access.ts). */
  forProject(access: ProjectAccess): Workspace;
}

/** The assistant message a run writes, as saved. */
/** The assistant message as saved, built by the stream's fold (`toSavedMessage`). */
export type RunMessage = SavedRunMessage;

export type RunClaim = {
  projectId: string;
  userMessageId: string;
  assistantMessageId: string;
  content: string;
  attachments: string[];
  /** The member who sent the user message (kept on it, so a shared chat shows who asked). */
  senderId: string;
};

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
 * before and after when the run changed files, so the user can undo it (and may push them to the project's git
 * remote). Never fails the run: a `warning` (a failed automatic push) is shown in the chat.
 */
export interface RunCheckpoints {
  aroundRun(run: { access: ProjectAccess; label: string; messageId: string }): Promise<{ after(): Promise<{ warning?: string } | void> }>;
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
  /** The attached images (uploaded to this project, signature valid) for the model; a 400 names a bad one. */
  readImages(projectId: string, urls: string[]): Promise<ChatImage[]>;
  /** The project, its files, its messages (oldest first) and the stored summary of older ones, if any. */
  load(access: ProjectAccess): Promise<{ project: ConversationProject; messages: Message[]; summary?: ConversationSummary | null }>;
  /** Keeps a summary of older messages for later runs (replacing the previous one). */
  saveSummary?(projectId: string, summary: ConversationSummary): Promise<void>;
}

/** Each user's tokens per calendar month, against the server's monthly budget (USER_MONTHLY_TOKENS). */
export interface UsageLedger {
  /** Throws the 429 a person reads when the sender's budget for this month is spent; resolves otherwise. */
  assertWithinBudget(userId: string): Promise<void>;
  /** Adds a finished run's tokens to the sender's month. */
  record(userId: string, tokens: number): Promise<void>;
}
