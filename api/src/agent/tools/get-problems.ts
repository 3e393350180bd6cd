/**
 * get_problems: what is wrong with the running app now: errors in the page (loaded for the check), the dev
 * server's errors and build errors, deduplicated, each with its file and line when known.
 */
import { z } from "zod";
import { dedupeProblems, formatProblem } from "../verify";
import { appRuntime } from "./app-runtime-tool";
import { defineTool } from "./define-tool";

const MAX_LISTED = 20;

export const getProblemsTool = defineTool({
  name: "get_problems",
  description:
    "List the app's current problems: errors when its page loads (bad imports, compile errors, exceptions), " +
    "the dev server's errors and build errors, with file and line when known.",
  input: z.object({}),
  summary: () => "app problems",
  async run(_input, ctx) {
    const app = appRuntime(ctx);
    const page = app.loadPage ? await app.loadPage() : null;
    const problems = dedupeProblems([...(page?.problems ?? []), ...(await app.problemsSince(new Date(0)))]);
    if (problems.length === 0) {
      // A page that was only fetched says nothing of what it throws when it runs.
      const result =
        page && !page.ran
          ? "No problems found: the app compiles, but its page was not run in a browser, so errors at run time are not known."
          : "No problems found: the app shows no errors.";
      return { result, summary: "no problems" };
    }
    const lines = problems.slice(0, MAX_LISTED).map((p, i) => `${i + 1}. ${formatProblem(p)}`);
    if (problems.length > MAX_LISTED) lines.push(`(and ${problems.length - MAX_LISTED} more)`);
    const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
    return { result: `${count}:\n${lines.join("\n")}`, summary: count };
  },
});
