/**
 * Runs one tool call from the model. Whatever goes wrong (unknown tool, arguments that are not JSON or do
 * not fit the schema, a failing tool) comes back as an error result for the model to read and correct.
 * Only a stop (abort) propagates, and a limit of the user's account (a 429, such as every sandbox they may
 * run being busy) ends the run: no retry by the model can lift it, so the user reads it and acts.
 */
import { AppError } from "../../lib/errors";
import { clip, ToolError, type Tool, type ToolContext } from "./define-tool";
import { parseLooseJson, parseWithCoercion } from "./loose-arguments";

/** zod issues as one line for the model ("path: message; …"), at most five. */
function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
    .join("; ");
}

/** `endsRun`: the message the run ends with (an account limit), when it must not go on. */
export type ToolCallOutcome = { ok: boolean; summary: string; result: string; endsRun?: string };

/** The badge text before the arguments are known to be valid: a best guess from the raw JSON. */
export function previewSummary(tool: Tool | undefined, rawArguments: string): string {
  try {
    const parsed = JSON.parse(rawArguments || "{}");
    const input = tool?.input.safeParse(parsed);
    if (tool && input?.success) return tool.summary(input.data);
    const first = parsed && typeof parsed === "object" ? Object.values(parsed).find((v) => typeof v === "string") : undefined;
    return typeof first === "string" ? first.slice(0, 120) : "";
  } catch {
    return "(invalid arguments)";
  }
}

/** Runs the call; what comes back (for the model and the badge) has the project's secret values hidden. */
export async function executeToolCall(tools: Tool[], name: string, rawArguments: string, ctx: ToolContext): Promise<ToolCallOutcome> {
  const outcome = await runToolCall(tools, name, rawArguments, ctx);
  if (!ctx.secrets) return outcome;
  return { ...outcome, summary: await ctx.secrets.redact(outcome.summary), result: await ctx.secrets.redact(outcome.result) };
}

async function runToolCall(tools: Tool[], name: string, rawArguments: string, ctx: ToolContext): Promise<ToolCallOutcome> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    return { ok: false, summary: name, result: `Error: there is no tool named "${name}". Available tools: ${tools.map((t) => t.name).join(", ")}.` };
  }
  let parsed: unknown;
  try {
    // Some servers send "" for a call without arguments.
    parsed = rawArguments.trim() === "" ? {} : parseLooseJson(rawArguments);
  } catch (error) {
    return {
      ok: false,
      summary: "(invalid arguments)",
      result: `Error: the arguments for ${name} are not valid JSON (${(error as Error).message}). Nothing was done. Call ${name} again with a JSON object matching its schema.`,
    };
  }
  const input = parseWithCoercion(tool.input, parsed);
  if (!input.success) {
    return {
      ok: false,
      summary: previewSummary(tool, rawArguments) || "(invalid arguments)",
      result: `Error: invalid arguments for ${name}: ${describeIssues(input.error.issues)}. Nothing was done.`,
    };
  }
  const summary = tool.summary(input.data);
  try {
    const output = await tool.run(input.data, ctx);
    return { ok: true, summary: output.summary ?? summary, result: output.result };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof AppError && error.status === 429) return { ok: false, summary, result: `Error: ${message}`, endsRun: message };
    const detail = error instanceof ToolError ? message : `${name} failed: ${message}`;
    return { ok: false, summary, result: `Error: ${clip(detail, 4_000)}` };
  }
}
