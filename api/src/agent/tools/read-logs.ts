/** read_logs: the end of the `app` process's log (the dev server's output, stdout and stderr interleaved). */
import { z } from "zod";
import { appRuntime, describeAppStatus } from "./app-runtime-tool";
import { defineTool } from "./define-tool";

export const readLogsTool = defineTool({
  name: "read_logs",
  description:
    "Read the end of the app's log: the output of the project's workflow command (its dev server), stdout and " +
    "stderr interleaved. Use it to see why the app fails to start or what error it printed.",
  input: z.object({
    maxBytes: z.number().int().min(200).max(64_000).optional().describe("How much of the end of the log to return (default 8000)"),
  }),
  summary: () => "app log",
  async run(input, ctx) {
    const app = appRuntime(ctx);
    const [status, tail] = await Promise.all([app.status(), app.logTail(input.maxBytes ?? 8_000)]);
    const head = `The app is ${describeAppStatus(status)}.`;
    return { result: tail.trim() ? `${head}\nEnd of its log:\n${tail.trimEnd()}` : `${head}\nIts log is empty.` };
  },
});
