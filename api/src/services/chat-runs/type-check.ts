/**
 * The project's own type-check, when it has one: a `typecheck` script in package.json, else `tsc --noEmit`
 * when there is a tsconfig.json and TypeScript is installed. Run in the sandbox under a time limit; one that
 * does not finish in time is not a problem of the app (and is not run again by the same run). Its errors
 * become build problems with file and line.
 */
import type { AppProblem, CommandResult } from "../../agent/ports";

export const TYPE_CHECK_TIMEOUT_MS = 30_000;
const TSC = "node_modules/typescript/bin/tsc";
/** `src/App.tsx(2,10): error TS2304: …` (plain) and `src/App.tsx:2:10 - error TS2304: …` (pretty). */
const TS_ERROR = /^(.+?)(?:\((\d+),\d+\)|:(\d+):\d+)\s*:?\s*-?\s*error (TS\d+): (.*)$/;

type Run = (command: string, o: { timeoutMs: number; signal: AbortSignal }) => Promise<CommandResult>;

/** The command to run, or null when the project has no type-check. */
export function typeCheckCommand(packageJson: string | null, hasTsconfig: boolean): string | null {
  try {
    const scripts = (JSON.parse(packageJson ?? "{}") as { scripts?: Record<string, unknown> }).scripts ?? {};
    for (const name of ["typecheck", "type-check", "check-types"]) if (typeof scripts[name] === "string") return `npm run -s ${name}`;
  } catch {
    // an unreadable package.json has no scripts to run
  }
  // Only when TypeScript is installed: fetching it from the network is not a quick check.
  return hasTsconfig ? `test -f ${TSC} || exit 97; node ${TSC} --noEmit --pretty false` : null;
}

export async function runTypeCheck(run: Run, command: string, signal: AbortSignal): Promise<{ problems: AppProblem[]; skipped: "missing" | "slow" | null }> {
  const result = await run(command, { timeoutMs: TYPE_CHECK_TIMEOUT_MS, signal });
  if (result.timedOut) return { problems: [], skipped: "slow" };
  if (result.exitCode === 97) return { problems: [], skipped: "missing" };
  if (result.exitCode === 0) return { problems: [], skipped: null };
  const output = `${result.stdout}\n${result.stderr}`;
  const problems: AppProblem[] = [];
  for (const line of output.split("\n")) {
    const m = TS_ERROR.exec(line.trim());
    if (m) problems.push({ source: "build", file: m[1]!.replace(/^\.\//, ""), line: Number(m[2] ?? m[3]), message: `${m[4]}: ${m[5]}` });
  }
  // A failing script that printed no TypeScript errors still failed: say so with its output.
  if (problems.length === 0)
    problems.push({
      source: "build",
      message: `The type-check \`${command.replace(/^test -f \S+ \|\| exit 97; /, "")}\` failed (exit code ${result.exitCode}):\n${output.trim().slice(-1_500)}`,
    });
  return { problems, skipped: null };
}
