/**
 * run_code: a snippet of Python, JavaScript or TypeScript run in the sandbox (python3, node, bun) from the
 * project root. The snippet goes to a temp file outside the project folder, so it is never synced to the
 * project's files.
 */
import { z } from "zod";
import { describeRun, NO_SANDBOX } from "./command-output";
import { defineTool, ToolError } from "./define-tool";

const MAX_CODE_CHARS = 60_000; // the whole command travels as one argument (128 KiB limit on Linux)

const RUNNERS = {
  python: { ext: "py", run: 'python3 "$f"' },
  javascript: { ext: "mjs", run: 'node "$f"' },
  typescript: { ext: "ts", run: 'if command -v bun >/dev/null 2>&1; then bun "$f"; else npx --yes tsx "$f"; fi' },
} as const;

export function runCodeCommand(language: keyof typeof RUNNERS, code: string, id = crypto.randomUUID().replaceAll("-", "")): string {
  const runner = RUNNERS[language];
  const marker = `AGENT_CODE_${id}`;
  return [
    `f="\${TMPDIR:-/tmp}/agent-run-${id}.${runner.ext}"`,
    `cat > "$f" <<'${marker}'`,
    code,
    marker,
    `${runner.run}; code=$?; rm -f "$f"; exit $code`,
  ].join("\n");
}

export const runCodeTool = defineTool({
  name: "run_code",
  description:
    "Run a short Python, JavaScript or TypeScript program in the sandbox and get its output and errors. " +
    "It runs from the project root, so it can read project files.",
  input: z.object({
    language: z.enum(["python", "javascript", "typescript"]),
    code: z.string().min(1, "code must not be empty").max(MAX_CODE_CHARS, `code must be at most ${MAX_CODE_CHARS} characters`),
    timeoutSeconds: z.number().int().min(1).max(300).optional().describe("Time limit (default 60)"),
  }),
  summary: (input) => `${input.language} (${input.code.split("\n").length} lines)`,
  async run(input, ctx) {
    if (!ctx.sandbox) throw new ToolError(NO_SANDBOX);
    const timeoutMs = (input.timeoutSeconds ?? 60) * 1000;
    const result = await ctx.sandbox.run(runCodeCommand(input.language, input.code), { timeoutMs, signal: ctx.signal });
    return { result: describeRun(result, timeoutMs) };
  },
});
