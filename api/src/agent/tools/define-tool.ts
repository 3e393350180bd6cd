/**
 * The shape of an agent tool: one file per tool, each `defineTool({ name, description, input, summary,
 * run })`, collected in `registry.ts`. `input` is a zod schema: it becomes the JSON schema the model sees
 * and validates what the model sends. `run` returns the text the model reads; throwing a ToolError (or
 * anything) becomes an error result for the model, never a crashed run.
 *
 * @example
 * export const readFileTool = defineTool({
 *   name: "read_file",
 *   description: "Read a project file",
 *   input: z.object({ path: filePathSchema }),
 *   summary: (input) => input.path,
 *   run: async (input, ctx) => ({ result: "…" }),
 * });
 */
import type { StreamEvent } from "@shared/events/stream";
import type { z } from "zod";
import type { Workspace } from "../ports";

/** `warning`: something done that the person should notice (destructive SQL); shown as a warning step. */
export type StepStatus = "in_progress" | "completed" | "warning";

/** Where web_search sends its queries, when the server has one (SEARXNG_URL). */
export type SearchBackend = { kind: "none" } | { kind: "searxng"; url: string };

/**
 * A tool's view of its run: the workspace of the run's project (files, sandbox, workflow), already
 * scoped to it, plus the search backend, the stop signal and the step-line stream.
 */
export type ToolContext = Workspace & {
  search: SearchBackend;
  /** Aborted when the run is stopped: long commands should end. */
  signal: AbortSignal;
  /** Streams a step line such as 'Created src/App.tsx' or 'Started: npm run dev'. */
  step(line: string, status: StepStatus): void;
  /** For tools that call out (web search); tests may pass their own. */
  fetch: typeof fetch;
  /**
   * How many characters a result may take now to fit the model's context window (absent: no limit beyond
   * the tool's own): a tool that pages (read_file) stops at a line end within it and says how to read on.
   */
  resultChars?(): number;
  /** Sends an event of the tool's own on the run's stream (request_secret's `secret_request`); absent in some tests. */
  event?(event: StreamEvent): void;
};

/** What a tool hands back: the text the model reads, and optionally a better badge summary. */
export type ToolOutput = { result: string; summary?: string };

export type Tool<S extends z.ZodType = z.ZodType> = {
  name: string;
  description: string;
  input: S;
  /** The badge text when the call starts (a path, a command…). */
  summary(input: z.infer<S>): string;
  run(input: z.infer<S>, ctx: ToolContext): Promise<ToolOutput>;
  /** Offered to the model only when this says so (e.g. web_search needs a configured backend). */
  available?(settings: { search: SearchBackend }): boolean;
  /** Known to the run but not offered to the model: plan mode's refusing stand-ins for the writing tools. */
  hidden?: boolean;
};

/** What a run hands the loop; the loop adds the signal and the step stream. */
export type RunToolContext = Omit<ToolContext, "step" | "signal">;

export const defineTool = <S extends z.ZodType>(tool: Tool<S>): Tool<S> => tool;

/** A failure the model should read as is (no stack, no "Error:" prefix doubling). */
export class ToolError extends Error {}

/** Long outputs are cut so one tool result cannot fill the model's context. Keeps head and tail. */
export function clip(text: string, max = 12_000): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.3);
  const tail = max - head;
  return `${text.slice(0, head)}\n… [${text.length - max} characters omitted] …\n${text.slice(-tail)}`;
}
